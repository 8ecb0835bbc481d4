/**
 * The driver's observers (`observers` option): the same observer objects the mock takes hear
 * each of the driver's requests from the client's side — start, and a finish exactly once with
 * the outcome the driver saw — and the connection's lifecycle. Against a mock (in memory and
 * over HTTP), server-everything over stdio, and zoo servers that answer with errors, never
 * answer, or exit mid-call.
 */
import { describe, expect, it } from "vitest";
import { mockMcp, type McpObserver, type ObservationDiagnostic } from "../../src/index.js";
import { mcpAttach, mcpConnect, mcpShell, ConnectionClosedError, ProcessExitWhileWaitingForResponse, RequestTimeoutError, ToolCallError } from "../../src/driver/index.js";
import { serve, useCleanup } from "../wire/support/http.js";
import { recordingObserver, until } from "../observe/support.js";
import { everythingCommand, useDrivers, zoo } from "./support.js";

useCleanup();
const track = useDrivers();

describe("the driver's observers, against a mock in memory", () => {
  it("finish each request once with the outcome the driver saw, the same object at start and finish", async () => {
    const observer = recordingObserver();
    await using mock = await mockMcp({
      tools: {
        ok: { returns: "fine" },
        failing: { toolError: "the index is down" },
        limited: { throws: { code: -32000, message: "rate limited" } },
        broken: { throws: { code: -32603, message: "bug" } },
        slow: { hang: true },
      },
    });
    await using app = mcpAttach(mock.connectInMemory(), { versionNegotiation: "legacy", observers: [observer] });
    await app.callTool("ok");
    expect((await app.callTool("failing")).isError).toBe(true);
    await expect(app.callTool("limited")).rejects.toBeInstanceOf(ToolCallError);
    await expect(app.callTool("broken")).rejects.toBeInstanceOf(ToolCallError);
    await expect(app.callTool("missing")).rejects.toBeInstanceOf(ToolCallError);
    await expect(app.callTool("slow", {}, { timeoutMs: 50 })).rejects.toBeInstanceOf(RequestTimeoutError);
    await expect(app.callTool("slow", {}, { signal: AbortSignal.timeout(30) })).rejects.toThrow(/aborted/);
    await observer.finished(8);

    expect(observer.finishes.map(({ request, finish }) => `${request.method} ${String(request.params?.name ?? "")} ${finish.outcome}`)).toEqual([
      "initialize  complete",
      "tools/call ok complete",
      "tools/call failing application_error",
      "tools/call limited rejected",
      "tools/call broken internal_error",
      "tools/call missing protocol_error",
      "tools/call slow deadline_exceeded",
      "tools/call slow cancelled",
    ]);
    expect(observer.starts).toHaveLength(8);
    for (const [index, { request, finish }] of observer.finishes.entries()) {
      expect(request).toBe(observer.starts[index]); // the same frozen object
      expect(Object.isFrozen(request) && Object.isFrozen(finish)).toBe(true);
      expect(request).toMatchObject({ wire: "attached", endpoint: "attached", sessionId: "", protocolVersion: "2025-11-25" });
      expect(finish.durationMs).toBeGreaterThanOrEqual(0);
    }
    const [, , failing, , , missing, timeout] = observer.finishes.map(({ finish }) => finish);
    expect(failing!.result).toMatchObject({ isError: true });
    expect(missing!.error).toMatchObject({ code: -32602 });
    expect(timeout!.errors[0]).toBeInstanceOf(RequestTimeoutError);
    expect(timeout!.durationMs).toBeGreaterThanOrEqual(40);
  });

  it("2026-07-28: a round that asks for input finishes input_required, its retry complete; versions from _meta", async () => {
    const observer = recordingObserver();
    await using mock = await mockMcp({
      tools: {
        greet: async (call) => {
          const answer = await call.elicit({ message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } });
          return { returns: `hi ${String((answer.content as { name?: string } | undefined)?.name)}` };
        },
      },
    });
    await using app = mcpAttach(mock.connectInMemory(), { observers: [observer], onElicitation: () => ({ action: "accept", content: { name: "Ada" } }) });
    expect((await app.callTool("greet")).getTextContent()).toBe("hi Ada");
    expect(app.era).toBe("modern");
    await until(() => observer.finishes.filter(({ request }) => request.method === "tools/call").length === 2, "both rounds");
    const calls = observer.finishes.filter(({ request }) => request.method === "tools/call");
    expect(calls.map(({ finish }) => finish.outcome)).toEqual(["input_required", "complete"]);
    expect(calls[0]!.request.requestId).not.toBe(calls[1]!.request.requestId);
    for (const { request } of calls) expect(request.protocolVersion).toBe("2026-07-28");
  });

  it("tells the lifecycle: created = will start, connected = did start, close() = will stop and did stop", async () => {
    const observer = recordingObserver();
    await using mock = await mockMcp({ tools: { ok: { returns: "fine" } } });
    await using app = mcpAttach(mock.connectInMemory(), { observers: [observer] });
    expect(observer.lines).toEqual(["willStart attached"]);
    await app.callTool("ok");
    expect(observer.lines.slice(0, 2)).toEqual(["willStart attached", "didStart attached"]);
    await app.close();
    await app.close(); // once
    expect(observer.lines.filter((line) => !line.startsWith("start") && !line.startsWith("finish"))).toEqual(["willStart attached", "didStart attached", "willStop", "didStop completed"]);
  });

  it("a request in flight at close() finishes client_disconnected", async () => {
    const observer = recordingObserver();
    await using mock = await mockMcp({ tools: { slow: { hang: true } } });
    await using app = mcpAttach(mock.connectInMemory(), { versionNegotiation: "legacy", observers: [observer] });
    await app.initialize();
    const call = app.callTool("slow").catch((error: unknown) => error);
    await until(() => observer.starts.length === 2, "the call's start");
    await app.close();
    expect(await call).toBeInstanceOf(ConnectionClosedError);
    await observer.finished(2);
    expect(observer.finishes[1]!.finish.outcome).toBe("client_disconnected");
    expect(observer.finishes[1]!.finish.errors[0]).toBeInstanceOf(ConnectionClosedError);
  });

  it("an observer that throws (or rejects) never changes what the driver returns; the failure is reported once", async () => {
    const diagnostics: ObservationDiagnostic[] = [];
    const thrower: McpObserver = {
      name: "thrower",
      serverWillStart: () => {
        throw new Error("boom");
      },
      serverDidStart: () => {
        throw new Error("boom");
      },
      requestDidStart: () => {
        throw new Error("boom");
      },
      requestDidFinish: () => Promise.reject(new Error("boom")),
    };
    const observer = recordingObserver();
    await using mock = await mockMcp({ tools: { ok: { returns: "fine" }, failing: { toolError: "down" } } });
    await using app = mcpAttach(mock.connectInMemory(), { observers: [thrower, observer], observe: { onDiagnostic: (diagnostic) => diagnostics.push(diagnostic) } });
    expect((await app.callTool("ok")).getTextContent()).toBe("fine");
    expect((await app.callTool("ok")).getTextContent()).toBe("fine");
    expect((await app.callTool("failing")).isError).toBe(true);
    await observer.finished(4); // server/discover (auto) or initialize, and three calls
    expect(observer.finishes.slice(-3).map(({ finish }) => finish.outcome)).toEqual(["complete", "complete", "application_error"]);
    await expect.poll(() => diagnostics.length).toBe(4);
    expect(diagnostics.map((diagnostic) => diagnostic.message).sort()).toEqual([
      'observer "thrower" failed in requestDidFinish; the client was not affected. Later failures of this callback are not reported.',
      'observer "thrower" failed in requestDidStart; the client was not affected. Later failures of this callback are not reported.',
      'observer "thrower" failed in serverDidStart; the client was not affected. Later failures of this callback are not reported.',
      'observer "thrower" failed in serverWillStart; the client was not affected. Later failures of this callback are not reported.',
    ]);
    expect(JSON.stringify(diagnostics)).not.toContain("boom");
  });

  it("rejects observers that are not an array of objects, before connecting", async () => {
    await using mock = await mockMcp();
    expect(() => mcpAttach(mock.connectInMemory(), { observers: {} as never })).toThrow(/observers must be an array/);
    expect(() => mcpAttach(mock.connectInMemory(), { observers: [null as never] })).toThrow(/Observer #0 must be an object/);
  });
});

describe("the driver's observers over HTTP", () => {
  it("name the wire, the endpoint path and the session; the server is the URL", async () => {
    const observer = recordingObserver();
    const server = await serve({ tools: { ok: { returns: "fine" } } });
    await using app = mcpConnect(server.url, { versionNegotiation: "legacy", observers: [observer] });
    await app.callTool("ok");
    await observer.finished(2);
    const call = observer.finishes.find(({ request }) => request.method === "tools/call")!;
    expect(call.request).toMatchObject({ wire: "http", endpoint: new URL(server.url).pathname, sessionId: app.sessionId, protocolVersion: "2025-11-25" });
    expect(call.finish.outcome).toBe("complete");
    await app.close();
    expect(observer.lines.at(-1)).toBe("didStop completed");
  });
});

describe("the driver's observers against real servers over stdio", () => {
  it("server-everything: a complete call, a tool error, a JSON-RPC error", async () => {
    const observer = recordingObserver();
    const app = track(mcpShell(everythingCommand, { observers: [observer] }));
    await app.callTool("echo", { message: "hi" });
    expect((await app.callTool("get-sum", { a: "not a number" })).isError).toBe(true);
    await expect(app.readResource("demo://no/such/thing")).rejects.toThrow();
    await until(() => observer.finishes.some(({ request }) => request.method === "resources/read"), "the read's finish");
    const outcomes = observer.finishes.map(({ request, finish }) => `${request.method} ${finish.outcome}`);
    // The handshake: server/discover (auto) refused, then initialize.
    expect(outcomes.slice(0, -3)).toEqual([expect.stringMatching(/^server\/discover (protocol_error|rejected)$/), "initialize complete"]);
    expect(outcomes.slice(-3)).toEqual(["tools/call complete", "tools/call application_error", expect.stringMatching(/^resources\/read (protocol_error|internal_error|rejected)$/)]);
    const read = observer.finishes.at(-1)!.finish;
    expect(read.error).toMatchObject({ code: expect.any(Number) });
    expect(observer.finishes.at(-1)!.request).toMatchObject({ wire: "stdio", endpoint: "stdio" });
    expect(observer.lines[0]).toBe("willStart stdio");
  });

  it("a JSON-RPC error with a protocol code is protocol_error, with the error", async () => {
    const observer = recordingObserver();
    const app = track(mcpShell(zoo("errors"), { versionNegotiation: "legacy", observers: [observer] }));
    await expect(app.callTool("nope")).rejects.toBeInstanceOf(ToolCallError);
    await observer.finished(2);
    expect(observer.finishes[1]!.finish).toMatchObject({ outcome: "protocol_error", error: { code: -32602, message: "Unknown tool: nope" } });
  });

  it("a server that never answers: deadline_exceeded", async () => {
    const observer = recordingObserver();
    const app = track(mcpShell(zoo("no-response"), { versionNegotiation: "legacy", observers: [observer] }));
    await expect(app.callTool("anything", {}, { timeoutMs: 100 })).rejects.toBeInstanceOf(RequestTimeoutError);
    await observer.finished(2);
    expect(observer.finishes[1]!.finish.outcome).toBe("deadline_exceeded");
  });

  it("a server that exits mid-call: write_failed with the driver's error, and close() tells did stop failed", async () => {
    const observer = recordingObserver();
    const app = track(mcpShell(zoo("crashes-mid-call"), { versionNegotiation: "legacy", observers: [observer] }));
    await expect(app.callTool("anything")).rejects.toBeInstanceOf(ProcessExitWhileWaitingForResponse);
    await observer.finished(2);
    expect(observer.finishes[1]!.finish.outcome).toBe("write_failed");
    expect(observer.finishes[1]!.finish.errors[0]).toBeInstanceOf(ProcessExitWhileWaitingForResponse);
    await app.close({ allowFailure: true });
    expect(observer.lines.slice(-2)).toEqual(["willStop", "didStop failed"]);
  });
});
