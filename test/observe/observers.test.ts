/**
 * Observers (`mockMcp({ observers })`, `server.observe()`): the server's lifecycle, each admitted
 * request's start and exactly-once finish with the client-visible outcome, streams and
 * subscriptions, and delivery that never changes what the client gets. Real SDK clients over
 * real HTTP on 127.0.0.1.
 */
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { mockMcp, type McpObserver, type ObservationDiagnostic } from "../../src/index.js";
import { get, post, rawSession, rpcRequest, sdkClient, serve, track, useCleanup } from "../wire/support/http.js";
import { delay, recordingObserver, until } from "./support.js";

useCleanup();

/** What `promise` did within `ms`: "settled" or "pending" (the timer is cleared either way). */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<"settled" | "pending"> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise.then(() => "settled" as const), new Promise<"pending">((resolve) => (timer = setTimeout(() => resolve("pending"), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

describe("lifecycle", () => {
  it("tells will start, did start, will stop and did stop, in order", async () => {
    const observer = recordingObserver();
    const server = await mockMcp({ observers: [observer] });
    expect(observer.lines).toEqual(["willStart http", "didStart http"]);
    await server.close();
    expect(observer.lines).toEqual(["willStart http", "didStart http", "willStop", "didStop completed"]);
  });

  it("tells did fail to start when the port is taken, and mockMcp() still rejects", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const observer = recordingObserver();
      await expect(mockMcp({ port, observers: [observer] })).rejects.toMatchObject({ code: "EADDRINUSE", port });
      expect(observer.lines).toEqual(["willStart http", "didFailToStart http"]);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});

describe("requests", () => {
  it("finishes each request once with the outcome the client saw, the same object at start and finish", async () => {
    const observer = recordingObserver();
    const server = await serve({
      observers: [observer],
      tools: {
        ok: { returns: "fine" },
        failing: { toolError: "the index is down" },
        limited: { throws: { code: -32000, message: "rate limited" } },
        broken: () => {
          throw new Error("bug in the step");
        },
      },
    });
    const { client } = await sdkClient(server.url);
    await client.callTool({ name: "ok", arguments: {} });
    await client.callTool({ name: "failing", arguments: {} });
    await expect(client.callTool({ name: "limited", arguments: {} })).rejects.toThrow(/rate limited/);
    await expect(client.callTool({ name: "broken", arguments: {} })).rejects.toThrow(/bug in the step/);
    await expect(client.callTool({ name: "missing", arguments: {} })).rejects.toThrow();
    await observer.finished(6);

    const calls = observer.finishes.filter(({ request }) => request.method === "tools/call");
    expect(calls.map(({ request, finish }) => [request.params?.name, finish.outcome])).toEqual([
      ["ok", "complete"],
      ["failing", "application_error"],
      ["limited", "rejected"],
      ["broken", "internal_error"],
      ["missing", "protocol_error"],
    ]);
    for (const { request, finish } of observer.finishes) {
      expect(observer.starts).toContain(request);
      expect(Object.isFrozen(request)).toBe(true);
      expect(finish.durationMs).toBeGreaterThanOrEqual(0);
      expect(request.endpoint).toBe("/mcp");
      expect(request.wire).toBe("http");
    }
    expect(observer.finishes.filter(({ request }) => request.method === "initialize")).toHaveLength(1);
    expect(calls[2]!.finish.error).toEqual({ code: -32000, message: "rate limited" });
    // The exact thrown object of the step function is among the errors caught.
    expect((calls[3]!.finish.errors[0] as Error).message).toBe("bug in the step");
    expect(calls[0]!.finish.errors).toEqual([]);
  });

  it("finishes a request whose client left while its step still runs (a step that never settles)", async () => {
    const observer = recordingObserver();
    let stepRunning = false;
    const server = await serve({
      observers: [observer],
      tools: {
        stuck: () => {
          stepRunning = true;
          return new Promise<never>(() => undefined); // ignores its signal, never settles
        },
      },
    });
    const { sessionId } = await rawSession(server.url);
    const abort = new AbortController();
    const pending = post(server.url, rpcRequest("tools/call", { name: "stuck", arguments: {} }), { sessionId, signal: abort.signal }).catch(() => "aborted");
    await until(() => stepRunning, "the step to start");
    abort.abort();
    expect(await pending).toBe("aborted");
    await until(() => observer.finishes.some(({ request }) => request.method === "tools/call"), "the finish");
    const finish = observer.finishes.find(({ request }) => request.method === "tools/call")!.finish;
    expect(finish.outcome).toBe("client_disconnected");
    expect(finish.error).toBeUndefined();
  });

  it("finishes a call the client cancelled as cancelled, once", async () => {
    const observer = recordingObserver();
    const server = await serve({ observers: [observer], tools: { wait: { hang: true } } });
    const { client } = await sdkClient(server.url);
    const abort = new AbortController();
    const call = client.callTool({ name: "wait", arguments: {} }, undefined, { signal: abort.signal });
    await until(() => server.calls.length === 1, "the call to arrive");
    abort.abort("changed my mind");
    await expect(call).rejects.toThrow();
    await until(() => observer.finishes.some(({ request }) => request.method === "tools/call"), "the finish");
    await delay(30);
    const finishes = observer.finishes.filter(({ request }) => request.method === "tools/call");
    expect(finishes.map(({ finish }) => finish.outcome)).toEqual(["cancelled"]);
  });

  it("adds observers later with server.observe(), and removes them with the function it returns", async () => {
    const server = await mockMcp({ transport: "memory", tools: { ok: { returns: "fine" } } });
    track(server);
    const observer = recordingObserver();
    const stop = server.observe(observer);
    await server.handle(JSON.stringify(rpcRequest("tools/call", { name: "ok", arguments: {} })));
    await observer.finished(1);
    stop();
    await server.handle(JSON.stringify(rpcRequest("tools/call", { name: "ok", arguments: {} })));
    await delay(20);
    expect(observer.finishes).toHaveLength(1);
    expect(observer.finishes[0]!.request).toMatchObject({ wire: "direct", endpoint: "direct" });
    expect(() => server.observe([null as never])).toThrow(/Observer #0 must be an object/);
  });

  it("carries the trace context of params._meta, and never reads it from HTTP headers", async () => {
    const observer = recordingObserver();
    const server = await serve({ observers: [observer], tools: { ok: { returns: "fine" } } });
    const { sessionId } = await rawSession(server.url);
    const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    await post(server.url, rpcRequest("tools/call", { name: "ok", arguments: {}, _meta: { traceparent, baggage: "tenant=a" } }), {
      sessionId,
      headers: { traceparent: "00-ffffffffffffffffffffffffffffffff-ffffffffffffffff-01" },
    });
    await until(() => observer.finishes.some(({ request }) => request.method === "tools/call"), "the finish");
    expect(observer.finishes.find(({ request }) => request.method === "tools/call")!.request.traceContext).toEqual({ traceparent, baggage: "tenant=a" });
  });
});

describe("containment and bounded delivery", () => {
  it("keeps an observer that throws or is slow away from the client and the other observers, and reports the failure once without client data", async () => {
    const diagnostics: ObservationDiagnostic[] = [];
    const thrower: McpObserver = {
      name: "audit",
      requestDidFinish: () => {
        throw new Error("observer bug with secret-value");
      },
    };
    // A slow observer: every start it is given stays unfinished until the test lets go.
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    let holding = 0;
    const slow: McpObserver = {
      requestDidStart: () => {
        holding++;
        return held;
      },
    };
    const others = recordingObserver();
    const server = await serve({ observers: [slow, thrower, others], observe: { onDiagnostic: (d) => diagnostics.push(d) }, tools: { echo: (call) => ({ returns: String(call.arguments.text) }) } });
    try {
      const { client } = await sdkClient(server.url);
      const answers = (async () => {
        for (let i = 0; i < 3; i++) {
          const result = await client.callTool({ name: "echo", arguments: { text: `secret-value-${i}` } });
          expect(result.content).toEqual([{ type: "text", text: `secret-value-${i}` }]);
        }
      })();
      // Only a guard against a hang (the answers come in milliseconds): a mock that waited for
      // its slow observer would never answer, since the test lets go only afterwards.
      expect(await settlesWithin(answers, 10_000), "the client's answers, while the slow observer holds").toBe("settled");
      // The other observers heard every request, start and finish, while the slow one still held them.
      await others.finished(4);
      expect(others.lines.filter((line) => /^(start|finish) /.test(line))).toEqual([
        "start initialize",
        "finish initialize complete",
        ...[0, 1, 2].flatMap(() => ["start tools/call", "finish tools/call complete"]),
      ]);
      expect(holding).toBe(4);
      await until(() => diagnostics.length > 0, "the diagnostic");
      await delay(50);
      expect(diagnostics).toHaveLength(1);
      expect(diagnostics[0]!.type).toBe("observer_failed");
      expect(diagnostics[0]!.message).toContain('observer "audit" failed in requestDidFinish');
      expect(diagnostics[0]!.message).not.toContain("secret");
    } finally {
      letGo();
    }
  });

  it("omits whole pairs when the queue is full, with one diagnostic, and never a start without its finish", async () => {
    const diagnostics: ObservationDiagnostic[] = [];
    const releases: Array<() => void> = [];
    const observer = recordingObserver();
    // Every start blocks until released: its slot stays taken, so the queue (4 slots) fills after 4 requests.
    const blocking: McpObserver = { requestDidStart: () => new Promise<void>((resolve) => releases.push(resolve)) };
    const server = await serve({ observers: [blocking, observer], observe: { queueCapacity: 4, onDiagnostic: (d) => diagnostics.push(d) }, tools: { ok: { returns: "fine" } } });
    const { client } = await sdkClient(server.url);
    for (let i = 0; i < 10; i++) await client.callTool({ name: "ok", arguments: {} });
    await delay(30);
    for (const release of releases.splice(0)) release();
    await delay(30);
    const delivered = observer.starts.length;
    // Each blocked start keeps a slot: after a few requests the 4 slots are taken and the rest are omitted whole.
    expect(delivered).toBeGreaterThanOrEqual(2);
    expect(delivered).toBeLessThanOrEqual(4);
    expect(observer.finishes).toHaveLength(delivered);
    for (const start of observer.starts) expect(observer.finishes.some(({ request }) => request === start)).toBe(true);
    expect(diagnostics.map((d) => d.type)).toEqual(["observations_omitted"]);
    expect(diagnostics[0]!.message).toMatch(/queue is full \(4 slots\)/);
    // Slots come back: later requests are observed again.
    for (let i = 0; i < 2; i++) await client.callTool({ name: "ok", arguments: {} });
    await observer.finished(delivered + 2);
    for (const release of releases.splice(0)) release();
  });
});

describe("streams and subscriptions", () => {
  it("opens and closes an SSE answer stream (completed) and the GET subscription (session_closed on DELETE)", async () => {
    const observer = recordingObserver();
    const server = await serve({ observers: [observer], responseMode: "sse", tools: { ok: { returns: "fine" } } });
    const { sessionId } = await rawSession(server.url);
    const answer = await post(server.url, rpcRequest("tools/call", { name: "ok", arguments: {} }), { sessionId });
    await answer.text();
    const stream = await get(server.url, { sessionId });
    expect(stream.status).toBe(200);
    await until(() => observer.lines.includes("subscription open"), "the subscription to open");
    const removed = await post(server.url, "", { sessionId, method: "DELETE" });
    expect(removed.status).toBe(200);
    await until(() => observer.lines.includes("subscription close session_closed"), "the subscription to close");
    await stream.body?.cancel();
    const requestStreams = observer.streams.filter(({ stream }) => stream.kind === "request_stream");
    expect(requestStreams.length).toBeGreaterThanOrEqual(2); // initialize and tools/call answered as SSE
    expect(requestStreams.every(({ closure }) => closure?.reason === "completed")).toBe(true);
    track(server);
  });
});
