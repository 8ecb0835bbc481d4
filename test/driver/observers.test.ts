/**
 * The driver's observers (`observers` option): the same observer objects the mock takes hear
 * each of the driver's requests from the client's side — start, and a finish exactly once with
 * the outcome the driver saw — and the connection's lifecycle. Against a mock (in memory and
 * over HTTP), server-everything over stdio, and zoo servers that answer with errors, never
 * answer, or exit mid-call; and servers that stop on their own (exit, close stdout, close the
 * connection, go away over HTTP), whose stop is told once, when the driver learns it.
 */
import { describe, expect, it } from "vitest";
import { mockMcp, type McpObserver, type ObservationDiagnostic } from "../../src/index.js";
import { mcpAttach, mcpConnect, mcpShell, ConnectionClosedError, ProcessExitedWithError, ProcessExitWhileWaitingForResponse, RequestTimeoutError, ToolCallError } from "../../src/driver/index.js";
import { serve, useCleanup } from "../wire/support/http.js";
import { recordingObserver, until, type Recording } from "../observe/support.js";
import { everythingCommand, useDrivers, zoo } from "./support.js";

useCleanup();
const track = useDrivers();

/** A mock whose tool `slow` hangs, attached in memory with `observer`, and a call to it under way (its start heard). */
async function hangingCallAttached(observer: ReturnType<typeof recordingObserver>) {
  const mock = await mockMcp({ tools: { slow: { hang: true } } });
  const app = mcpAttach(mock.connectInMemory(), { versionNegotiation: "legacy", observers: [observer] });
  await app.initialize();
  const call = app.callTool("slow").catch((error: unknown) => error);
  await until(() => observer.starts.length === 2, "the call's start");
  return {
    mock,
    app,
    call,
    async [Symbol.asyncDispose]() {
      await app.close({ allowFailure: true });
      await mock.close();
    },
  };
}

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
    await using attached = await hangingCallAttached(observer);
    const { app, call } = attached;
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

  it("a server that exits mid-call: write_failed with the driver's error, did stop failed at once (code 2), and close() tells nothing more", async () => {
    const observer = recordingObserver();
    const app = track(mcpShell(zoo("crashes-mid-call"), { versionNegotiation: "legacy", observers: [observer] }));
    await expect(app.callTool("anything")).rejects.toBeInstanceOf(ProcessExitWhileWaitingForResponse);
    await observer.finished(2);
    expect(observer.finishes[1]!.finish.outcome).toBe("write_failed");
    expect(observer.finishes[1]!.finish.errors[0]).toBeInstanceOf(ProcessExitWhileWaitingForResponse);
    // Told when the call failed, before any close().
    expect(lifecycle(observer)).toEqual(["willStart stdio", "didStart stdio", "didStop failed"]);
    expect(observer.stops[0]).toMatchObject({ outcome: "failed", initiator: "server", exitCode: 2, exitSignal: null });
    expect(observer.stops[0]!.error).toBeInstanceOf(ProcessExitedWithError);
    expect(String((observer.stops[0]!.error as Error).message)).toMatch(/exited on its own with code 2[\s\S]*zoo: crashing in tools\/call/);
    await expect(app.close()).rejects.toBeInstanceOf(ProcessExitedWithError); // close() still says how it ended
    expect(lifecycle(observer)).toEqual(["willStart stdio", "didStart stdio", "didStop failed"]);
    expect(observer.finishes).toHaveLength(2);
  });
});

/** The lifecycle lines a recording observer heard (no request lines). */
function lifecycle(observer: Recording): string[] {
  return observer.lines.filter((line) => !line.startsWith("start ") && !line.startsWith("finish "));
}

describe("the driver's observers hear a server that stops on its own", () => {
  it("exits with code 0 after an answer (stdio): did stop completed, once, with the exit; later calls fail as before", async () => {
    const observer = recordingObserver();
    const app = track(mcpShell(zoo("exits-on-request"), { versionNegotiation: "legacy", observers: [observer] }));
    expect((await app.callTool("quit", { exit: 0 })).getTextContent()).toBe("bye");
    await until(() => observer.stops.length === 1, "did stop");
    expect(observer.stops[0]).toEqual({ outcome: "completed", initiator: "server", exitCode: 0, exitSignal: null });
    expect(Object.isFrozen(observer.stops[0])).toBe(true);
    await expect(app.callTool("echo")).rejects.toBeInstanceOf(ProcessExitWhileWaitingForResponse);
    await app.close();
    await app.close();
    expect(lifecycle(observer)).toEqual(["willStart stdio", "didStart stdio", "didStop completed"]);
  });

  it("exits 0 once its stdin is closed by someone else (stdio): did stop completed", async () => {
    const observer = recordingObserver();
    const app = track(mcpShell(zoo("exits-on-request"), { versionNegotiation: "legacy", observers: [observer] }));
    await app.callTool("quit", { closeStdin: true });
    await until(() => observer.stops.length === 1, "did stop");
    expect(observer.stops[0]).toMatchObject({ outcome: "completed", initiator: "server", exitCode: 0 });
    expect(app.exitCode).toBe(0);
    await app.close();
    expect(lifecycle(observer).filter((line) => line.startsWith("didStop") || line === "willStop")).toEqual(["didStop completed"]);
  });

  it("exits with a code, or is ended by a signal it was not sent by us: did stop failed with the exit and the error", async () => {
    const code = recordingObserver();
    const byCode = track(mcpShell(zoo("exits-on-request"), { versionNegotiation: "legacy", observers: [code] }));
    await byCode.callTool("quit", { exit: 3 });
    await until(() => code.stops.length === 1, "did stop (code)");
    expect(code.stops[0]).toMatchObject({ outcome: "failed", initiator: "server", exitCode: 3, exitSignal: null });
    expect(code.stops[0]!.error).toBeInstanceOf(ProcessExitedWithError);

    const signal = recordingObserver();
    const bySignal = track(mcpShell(zoo("exits-on-request"), { versionNegotiation: "legacy", observers: [signal] }));
    await bySignal.callTool("quit", { signal: "SIGTERM" });
    await until(() => signal.stops.length === 1, "did stop (signal)");
    expect(signal.stops[0]).toMatchObject({ outcome: "failed", initiator: "server", exitCode: null, exitSignal: "SIGTERM" });
    expect(String((signal.stops[0]!.error as Error).message)).toMatch(/ended by SIGTERM, not by mcp-testkit/);
    await byCode.close({ allowFailure: true });
    await bySignal.close({ allowFailure: true });
    expect(code.stops).toHaveLength(1);
    expect(signal.stops).toHaveLength(1);
  });

  it("kill(): the driver ended it, so did stop says initiator client and completed", async () => {
    const observer = recordingObserver();
    const app = track(mcpShell(zoo("exits-on-request"), { versionNegotiation: "legacy", observers: [observer] }));
    await app.initialize();
    app.kill("SIGKILL");
    await until(() => observer.stops.length === 1, "did stop");
    expect(observer.stops[0]).toEqual({ outcome: "completed", initiator: "client", exitCode: null, exitSignal: "SIGKILL" });
    await app.close();
    expect(observer.stops).toHaveLength(1);
  });

  it("closes its stdout and runs on: did stop failed (no answer can come); the request in flight finishes write_failed once", async () => {
    const observer = recordingObserver();
    const app = track(mcpShell(zoo("closes-stdout"), { versionNegotiation: "legacy", observers: [observer] }));
    await expect(app.callTool("anything")).rejects.toBeInstanceOf(ConnectionClosedError);
    await until(() => observer.stops.length === 1, "did stop");
    expect(observer.stops[0]).toMatchObject({ outcome: "failed", initiator: "server" });
    expect(observer.stops[0]).not.toHaveProperty("exitCode"); // still running
    expect(String((observer.stops[0]!.error as Error).message)).toMatch(/closed its stdout while its process runs on/);
    await observer.finished(2);
    expect(observer.finishes[1]!.finish.outcome).toBe("write_failed");
    await app.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(observer.stops).toHaveLength(1);
    expect(observer.finishes).toHaveLength(2);
  });

  it("an attached transport the other side closes (the mock closed): did stop completed, and the call in flight finishes write_failed", async () => {
    const observer = recordingObserver();
    await using attached = await hangingCallAttached(observer);
    const { mock, app, call } = attached;
    await mock.close();
    expect(await call).toBeInstanceOf(ConnectionClosedError);
    await until(() => observer.stops.length === 1, "did stop");
    expect(observer.stops[0]).toEqual({ outcome: "completed", initiator: "server" });
    await observer.finished(2);
    expect(observer.finishes[1]!.finish.outcome).toBe("write_failed");
    await app.close();
    expect(lifecycle(observer)).toEqual(["willStart attached", "didStart attached", "didStop completed"]);
  });

  it("an HTTP server that goes away: the call in flight finishes write_failed, the next call's refused connection is did stop failed, once", async () => {
    const observer = recordingObserver();
    const server = await mockMcp({ tools: { ok: { returns: "fine" }, slow: { hang: true } } });
    const app = mcpConnect(server.url!, { versionNegotiation: "legacy", observers: [observer] });
    try {
      await app.callTool("ok");
      const call = app.callTool("slow").catch((error: unknown) => error);
      await until(() => observer.starts.length === 3, "the slow call's start");
      await server.close();
      expect(await call).toBeInstanceOf(ConnectionClosedError);
      await observer.finished(3);
      expect(observer.finishes[2]!.finish.outcome).toBe("write_failed");
      await expect(app.callTool("ok")).rejects.toThrow(/fetch failed/); // the call's own error, unchanged
      await until(() => observer.stops.length === 1, "did stop");
      expect(observer.stops[0]).toMatchObject({ outcome: "failed", initiator: "server" });
      expect(observer.stops[0]!.error).toBeInstanceOf(ConnectionClosedError);
      expect(String((observer.stops[0]!.error as Error).message)).toMatch(/refused a connection \(connect ECONNREFUSED 127\.0\.0\.1:\d+\): nothing listens there any more/);
      await expect(app.callTool("ok")).rejects.toThrow(/fetch failed/);
    } finally {
      await app.close();
      await server.close();
    }
    expect(lifecycle(observer)).toEqual(["willStart http", "didStart http", "didStop failed"]);
    expect(observer.stops).toHaveLength(1);
  });
});
