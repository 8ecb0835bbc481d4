/**
 * SSE streams of POST answers: what a stream writes just before a disconnect step still reaches
 * the client (a stream's writes leave together at the end of the tick, before the cut), and
 * which finished streams stay resumable with `Last-Event-ID`: a stream whose connection went
 * away before its end stays (up to 100 per session, as always), even when the end was written
 * just as the client left; a stream read to its end on a connection that stays open is
 * forgotten once 8 newer ones were delivered, so a busy session does not keep every answer it
 * ever sent.
 */
import { describe, expect, it } from "vitest";
import { get, post, rawSession, readSse, rpcRequest, serve, sseReader, until, useCleanup, type SseEvent } from "./support/http.js";

useCleanup();

describe("writes of an SSE answer", () => {
  it("a progress event written in the same tick as a disconnect step still reaches the client before the cut", async () => {
    const server = await serve({
      tools: {
        crash: async (call) => {
          await Promise.resolve();
          call.progress(1);
          return { disconnect: true };
        },
      },
    });
    const { sessionId } = await rawSession(server.url);
    const reader = sseReader(await post(server.url, rpcRequest("tools/call", { name: "crash", _meta: { progressToken: 7 } }), { sessionId }));
    const events: SseEvent[] = [];
    await expect(
      (async () => {
        for (let event = await reader.next(); event; event = await reader.next()) events.push(event);
      })(),
    ).rejects.toThrow(); // the connection is cut, not ended
    expect(events.map(({ id, data }) => ({ id, data }))).toEqual([
      { id: "p0_0", data: "" },
      { id: "p0_1", data: JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 7, progress: 1 } }) },
    ]);
  });
});

describe("finished SSE streams kept for resumption", () => {
  it("a stream delivered whole stays resumable until 8 newer ones were delivered, then gets 400", async () => {
    const server = await serve({ responseMode: "sse", tools: { echo: { returns: "ok" } } });
    const { sessionId } = await rawSession(server.url);
    const answer = async () => (await readSse(await post(server.url, rpcRequest("tools/call", { name: "echo" }), { sessionId }))).map((event) => event.id!);
    const ids = await answer();
    const stream = ids[0]!.split("_")[0];
    expect(ids).toEqual([`${stream}_0`, `${stream}_1`]);

    for (let i = 1; i <= 7; i++) await answer();
    // Delivered whole, 7 newer streams since: still resumable (nothing to replay after its last event).
    const replay = await readSse(await get(server.url, { sessionId, lastEventId: `${stream}_1` }));
    expect(replay.map((event) => event.id)).toEqual([`${stream}_1`]);

    await answer();
    const gone = await get(server.url, { sessionId, lastEventId: `${stream}_1` });
    expect(gone.status).toBe(400);
    expect(((await gone.json()) as { error: { message: string } }).error.message).toBe(`Bad Request: unknown Last-Event-ID "${stream}_1"`);
  });

  it("a stream whose client left as its end was written stays resumable however many answers follow", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const server = await serve({
      responseMode: "sse",
      tools: {
        slow: async (call) => {
          call.progress(1);
          await gate;
          return { returns: "late" };
        },
        echo: { returns: "ok" },
      },
    });
    const { sessionId } = await rawSession(server.url);
    const first = sseReader(await post(server.url, rpcRequest("tools/call", { name: "slow", _meta: { progressToken: 1 } }), { sessionId }));
    const priming = (await first.next())!;
    const stream = priming.id!.split("_")[0];
    expect(await first.next()).toMatchObject({ id: `${stream}_1` });
    await first.cancel();
    release();
    await until(() => server.calls[0]?.outcome === "result", 2000, "the slow call to end");

    for (let i = 0; i < 12; i++) await readSse(await post(server.url, rpcRequest("tools/call", { name: "echo" }), { sessionId }));
    const missed = await readSse(await get(server.url, { sessionId, lastEventId: `${stream}_1` }));
    expect(missed.map((event) => event.id)).toEqual([`${stream}_1`, `${stream}_2`]);
    expect(JSON.parse(missed[1]!.data)).toMatchObject({ result: { content: [{ type: "text", text: "late" }] } });
  });
});
