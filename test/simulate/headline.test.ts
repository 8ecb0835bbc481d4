/**
 * The product document's headline example, as a test: a 2026-07-28 `tools/call` built exactly
 * as a client sends it (`_meta` with the protocol version, client capabilities and client info;
 * the `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers; no `initialize`, no session),
 * its response head, its stream items with their exact SSE bytes, and its completion — through
 * a mock and through a server built with SDK v2 (`createMcpHandler(...).fetch`), with no socket.
 * The legacy-era example (2025-11-25, after `initialize`, on a session) stays below: it covers
 * the priming event and the session header the modern era no longer has.
 */
import { describe, expect, it } from "vitest";
import { drain, memoryMock, mcpPost, modernMeta, modernPost, openSession, sdkServer, sdkV2Server, simulator, text, useCleanup } from "./support.js";
import { recordingObserver, until } from "../observe/support.js";

useCleanup();

const TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

/** The document's request: 2026-07-28 `_meta` (plus a progress token and trace context) and headers, nothing else. */
function modernToolsCall(): Request {
  return modernPost({
    jsonrpc: "2.0",
    id: "test-1",
    method: "tools/call",
    params: { _meta: modernMeta({ progressToken: "p-1", traceparent: TRACEPARENT }), name: "catalog.search", arguments: { query: "shoe" } },
  } as never);
}

const CAPTURE = { streamItemQueueCapacity: 64, maximumCapturedBytes: 2 * 1024 * 1024 };

/** The validator knows no 2026-07-28 schema yet: it checks the envelope only and says so; anything else is a real problem. */
function realProblems(problems: readonly { rule: string }[]) {
  return problems.filter((problem) => problem.rule !== "version.unknown");
}

describe("the headline example (2026-07-28)", () => {
  it("runs through a mock: no session, progress and result items with exact bytes, completion, observers, metrics and the recorder", async () => {
    const observer = recordingObserver();
    const server = await memoryMock({
      metrics: true,
      tools: {
        "catalog.search": (call) => {
          call.progress(1, 2);
          return { returns: `3 results for ${String(call.arguments.query)}` };
        },
      },
    });
    const sim = simulator(server, { observers: [observer] });

    const simulation = await sim.startRequest(modernToolsCall(), CAPTURE);
    const response = await simulation.awaitResponse(5000);
    expect(response).toMatchObject({ status: 200, bodyType: "sse", oversized: false });
    expect(response!.header("content-type")).toBe("text/event-stream");
    expect(response!.header("x-accel-buffering")).toBe("no");
    expect(response!.header("mcp-session-id")).toBeUndefined();

    // No priming event and no event ids: 2026-07-28 streams are not resumable.
    const items = await drain(simulation);
    expect(items.map((item) => item.kind)).toEqual(["message", "message"]);
    const [progress, result] = items as [any, any];
    expect(progress.message).toEqual({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p-1", progress: 1, total: 2 } });
    expect(text(progress.encoded)).toBe(`event: message\ndata: ${JSON.stringify(progress.message)}\n\n`);
    expect(result.message).toMatchObject({ jsonrpc: "2.0", id: "test-1", result: { resultType: "complete", content: [{ type: "text", text: "3 results for shoe" }] } });
    expect(text(result.encoded)).toBe(`event: message\ndata: ${JSON.stringify(result.message)}\n\n`);

    const completion = await simulation.awaitCompletion(5000);
    expect(completion).toEqual({ reason: "completed", terminalMessage: result.message, errors: [] });
    expect(await simulation.awaitCompletion(0)).toBe(completion);
    expect(await simulation.awaitStreamItem(0)).toBeUndefined();

    // One request (no initialize), in its own version, with no session; its SSE answer a request stream.
    await observer.finished(1);
    expect(observer.finishes).toHaveLength(1);
    const [{ request, finish }] = observer.finishes as [any];
    expect(request).toMatchObject({ method: "tools/call", requestId: "test-1", protocolVersion: "2026-07-28", sessionId: "", endpoint: "/mcp" });
    expect(request.traceContext?.traceparent).toBe(TRACEPARENT);
    expect(finish.outcome).toBe("complete");
    await until(() => observer.streams.some((entry) => entry.closure !== undefined), "the answer stream's close");
    expect(observer.streams).toMatchObject([{ stream: { kind: "request_stream", sessionId: "" }, closure: { reason: "completed" } }]);
    expect(server.callsTo("catalog.search")[0]!.meta).toMatchObject({ progressToken: "p-1" });

    const metrics = server.metrics();
    expect(metrics.value("mcp_testkit_requests_total", { endpoint: "/mcp", method: "tools/call", outcome: "complete" })).toBe(1);
    expect(metrics.value("mcp_testkit_sessions_active")).toBe(0);
    expect(metrics.value("mcp_testkit_connections_accepted_total")).toBe(0);
    expect(metrics.value("mcp_testkit_request_streams_active")).toBe(0);
    expect(metrics.value("mcp_testkit_request_stream_duration_seconds", { reason: "completed" })).toBe(1);
    expect(metrics.value("mcp_testkit_progress_emitted_total")).toBe(1);

    expect(sim.recorder.messages.map((record) => `${record.direction} ${record.method}`)).toEqual(["outgoing tools/call", "incoming notifications/progress", "incoming tools/call"]);
    expect(realProblems(sim.recorder.problems)).toEqual([]);
  });

  it("runs through a server built with SDK v2 (createMcpHandler(...).fetch), observed from the client's side", async () => {
    const observer = recordingObserver();
    const sim = simulator(sdkV2Server(), { observers: [observer] });

    const simulation = await sim.startRequest(modernToolsCall(), CAPTURE);
    const response = await simulation.awaitResponse(5000);
    expect(response).toMatchObject({ status: 200, bodyType: "sse" });
    expect(response!.header("mcp-session-id")).toBeUndefined();

    const items = await drain(simulation);
    expect(items.map((item) => item.kind)).toEqual(["message", "message"]);
    const [progress, result] = items as [any, any];
    expect(progress.message).toEqual({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p-1", progress: 1, total: 2 } });
    expect(result.message).toMatchObject({ jsonrpc: "2.0", id: "test-1", result: { resultType: "complete", content: [{ type: "text", text: "3 results for shoe" }] } });
    for (const item of items as any[]) expect(text(item.encoded)).toBe(`event: message\ndata: ${JSON.stringify(item.message)}\n\n`);

    const completion = await simulation.awaitCompletion(5000);
    expect(completion).toEqual({ reason: "completed", terminalMessage: result.message, errors: [] });

    await observer.finished(1);
    expect(observer.finishes).toHaveLength(1);
    expect(observer.finishes[0]!.request).toMatchObject({ wire: "simulated", endpoint: "/mcp", sessionId: "", protocolVersion: "2026-07-28", traceContext: { traceparent: TRACEPARENT } });
    expect(observer.finishes[0]!.finish.outcome).toBe("complete");
    expect(realProblems(sim.recorder.problems)).toEqual([]);
  });

  it("gets the header rules' refusal, as a client that leaves out Mcp-Name would, through both targets", async () => {
    const server = await memoryMock({ metrics: true, tools: { "catalog.search": { returns: "found" } } });
    for (const target of [server, sdkV2Server()]) {
      const sim = simulator(target);
      const request = modernToolsCall();
      request.headers.delete("mcp-name");
      const simulation = await sim.startRequest(request);
      const response = await simulation.awaitResponse(2000);
      expect(response).toMatchObject({ status: 400, bodyType: "json" });
      expect(JSON.parse(text(response!.body!))).toMatchObject({ id: "test-1", error: { code: -32020 } });
      expect((await simulation.awaitCompletion(2000))?.reason).toBe("completed");
    }
    expect(server.metrics().value("mcp_testkit_protocol_errors_total", { code: "-32020" })).toBe(1);
  });
});

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
    // initialize has no version header yet: its request is of the version it asks for.
    expect(observer.finishes.find(({ request }) => request.method === "initialize")!.request.protocolVersion).toBe("2025-11-25");
    expect(call.finish.outcome).toBe("complete");
    expect(sim.recorder.problems).toEqual([]);
  });
});

describe("an initialize that asks for a version", () => {
  it.each(["2099-01-01", "2026-07-28"])("asking for %s (the server answers with its own) is checked as a legacy initialize: no problems", async (asked) => {
    const sim = simulator(await memoryMock({ tools: { a: { returns: "x" } } }));
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: asked, capabilities: {}, clientInfo: { name: "c", version: "1" } } };
    const simulation = await sim.startRequest(mcpPost(init));
    expect((await simulation.awaitResponse(2000))?.status).toBe(200);
    await simulation.awaitCompletion(2000);
    expect(sim.recorder.problems).toEqual([]);
  });
});
