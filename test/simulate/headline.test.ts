/**
 * The product document's headline example, as a test: a `tools/call` built exactly as a client
 * sends it (headers, `_meta`), its response head, its stream items with their exact SSE bytes,
 * and its completion — through a mock and through a server built with the official SDK, with
 * no socket. Today the request is a legacy-era one (2025-11-25, after `initialize`); it moves
 * to 2026-07-28 (`io.modelcontextprotocol/protocolVersion` in `_meta`, `Mcp-Method` and
 * `Mcp-Name` headers, no session) once the mock speaks that revision.
 */
import { describe, expect, it } from "vitest";
import { drain, memoryMock, mcpPost, openSession, sdkServer, simulator, text, useCleanup } from "./support.js";
import { recordingObserver } from "../observe/support.js";

useCleanup();

function toolsCall(sessionId: string) {
  const body = {
    jsonrpc: "2.0",
    id: "test-1",
    method: "tools/call",
    params: {
      _meta: { progressToken: "p-1", traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" },
      name: "catalog.search",
      arguments: { query: "shoe" },
    },
  };
  return mcpPost(body, { "mcp-protocol-version": "2025-11-25", "mcp-session-id": sessionId });
}

describe("the headline example (legacy era)", () => {
  it("runs through a mock: response, progress and result items with exact bytes, completion, observers and the recorder", async () => {
    const observer = recordingObserver();
    const server = await memoryMock({
      tools: {
        "catalog.search": (call) => {
          call.progress(1, 2);
          return { returns: `3 results for ${String(call.arguments.query)}` };
        },
      },
    });
    const sim = simulator(server, { observers: [observer] });
    const sessionId = await openSession(sim);

    const simulation = await sim.startRequest(toolsCall(sessionId), { streamItemQueueCapacity: 64, maximumCapturedBytes: 2 * 1024 * 1024 });
    const response = await simulation.awaitResponse(5000);
    expect(response).toMatchObject({ status: 200, bodyType: "sse", oversized: false });
    expect(response!.header("content-type")).toBe("text/event-stream");
    expect(response!.body).toBeUndefined();

    const items = await drain(simulation);
    expect(items.map((item) => item.kind)).toEqual(["priming", "message", "message"]);
    const [priming, progress, result] = items as [any, any, any];
    expect(text(priming.encoded)).toBe(`id: ${priming.eventId}\ndata: \n\n`);
    expect(progress.message).toEqual({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p-1", progress: 1, total: 2 } });
    expect(text(progress.encoded)).toBe(`id: ${progress.eventId}\nevent: message\ndata: ${JSON.stringify(progress.message)}\n\n`);
    expect(result.message).toMatchObject({ id: "test-1", result: { content: [{ type: "text", text: "3 results for shoe" }] } });

    const completion = await simulation.awaitCompletion(5000);
    expect(completion).toEqual({ reason: "completed", terminalMessage: result.message, errors: [] });
    // Completion and head are repeatable; the items were taken.
    expect(await simulation.awaitCompletion(0)).toBe(completion);
    expect(await simulation.awaitStreamItem(0)).toBeUndefined();

    await observer.finished(2);
    const call = observer.finishes.find(({ request }) => request.method === "tools/call")!;
    expect(call.finish.outcome).toBe("complete");
    expect(call.request.traceContext?.traceparent).toContain("0af7651916cd43dd8448eb211c80319c");
    expect(server.callsTo("catalog.search")[0]!.meta).toMatchObject({ progressToken: "p-1" });

    expect(sim.recorder.messages.map((record) => `${record.direction} ${record.method}`)).toContain("incoming tools/call");
    expect(sim.recorder.problems).toEqual([]);
  });

  it("runs through a server built with the official SDK (WebStandardStreamableHTTPServerTransport), observed from the client's side", async () => {
    const observer = recordingObserver();
    const sim = simulator(await sdkServer(), { observers: [observer] });
    const sessionId = await openSession(sim);

    const simulation = await sim.startRequest(toolsCall(sessionId), { streamItemQueueCapacity: 64, maximumCapturedBytes: 2 * 1024 * 1024 });
    const response = await simulation.awaitResponse(5000);
    expect(response).toMatchObject({ status: 200, bodyType: "sse" });
    expect(response!.header("mcp-session-id")).toBe(sessionId);

    const items = await drain(simulation);
    const messages = items.filter((item) => item.kind === "message").map((item) => (item as { message: Record<string, unknown> }).message);
    expect(messages[0]).toMatchObject({ method: "notifications/progress", params: { progressToken: "p-1", progress: 1 } });
    expect(messages.at(-1)).toMatchObject({ id: "test-1", result: { content: [{ type: "text", text: "3 results for shoe" }] } });
    for (const item of items) expect(text(item.encoded)).toMatch(/\n\n$/);

    const completion = await simulation.awaitCompletion(5000);
    expect(completion?.reason).toBe("completed");
    expect(completion?.terminalMessage).toEqual(messages.at(-1));

    await observer.finished(2);
    const call = observer.finishes.find(({ request }) => request.method === "tools/call")!;
    expect(call.request).toMatchObject({ wire: "simulated", endpoint: "/mcp", sessionId, protocolVersion: "2025-11-25" });
    expect(call.finish.outcome).toBe("complete");
    expect(sim.recorder.problems).toEqual([]);
  });
});
