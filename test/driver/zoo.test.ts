/**
 * The zoo of broken stdio servers: each fault ends in a clear error with its context, never a
 * hang or a raw exception, and no process is left behind.
 */
import { describe, expect, it, vi } from "vitest";
import {
  ConnectionClosedError,
  mcpShell,
  ProcessExitWhileWaitingForResponse,
  ProcessFailedToStart,
  ProtocolError,
  RequestTimeoutError,
  ToolCallError,
  ResourceCallError,
  PromptCallError,
} from "../../src/driver/index.js";
import { eventually, useDrivers, zoo } from "./support.js";

const track = useDrivers();

describe("zoo: JSON-RPC faults", () => {
  it("a response with both result and error fails its call with a ProtocolError", async () => {
    const app = track(mcpShell(zoo("both-result-and-error")));
    const error = await app.callTool("echo", { text: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    const protocolError = error as ProtocolError;
    expect(protocolError.method).toBe("tools/call");
    expect(protocolError.message).toContain('tools/call "echo"');
    expect(protocolError.problems).toContainEqual(expect.objectContaining({ path: "$", rule: "jsonrpc.response" }));
    expect(protocolError.message).toMatch(/\$: .*"result".*"error"/);
    await app.close();
  });

  it("a response with the wrong id fails at once (no timeout) and names the ids in flight", async () => {
    const app = track(mcpShell(zoo("wrong-id"), { requestTimeout: 10_000 }));
    // A ProtocolError, not the request timeout's error: it failed on the wrong id, not at 10 s.
    const error = (await app.getTools().catch((e: unknown) => e)) as ProtocolError;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message).toMatch(/response with id 10\d\d, which matches no request in flight/);
    expect(error.message).toMatch(/Requests in flight: \d+ \(tools\/list\)/);
    // The stream cannot be trusted any more: a later call is not sent, and says why (the first error is its cause).
    const later = (await app.ping().catch((e: unknown) => e)) as ProtocolError;
    expect(later).toBeInstanceOf(ProtocolError);
    expect(later.message).toMatch(
      /^\[mcp-testkit\] ping was not sent: the session stopped when the server broke the protocol earlier, and a broken session sends nothing more \(start a new driver to go on\)\. What happened then: The server sent a response with id 10\d\d/,
    );
    expect(later.cause).toBe(error);
    expect(app.protocolErrors).toEqual([error]);
    await app.close();
  });

  it('a response without "jsonrpc" fails with the JSON path and what was expected', async () => {
    const app = track(mcpShell(zoo("no-jsonrpc")));
    const error = (await app.getTools().catch((e: unknown) => e)) as ProtocolError;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.problems).toContainEqual(expect.objectContaining({ path: "$.jsonrpc", rule: "jsonrpc.version" }));
    expect(error.message).toMatch(/\$\.jsonrpc: .*expected "2\.0"/);
    await app.close();
  });

  it("a result with a null id is a protocol error, not a hang", async () => {
    const app = track(mcpShell(zoo("null-id"), { requestTimeout: 10_000 }));
    const error = (await app.getTools().catch((e: unknown) => e)) as ProtocolError;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message).toContain("response with id null");
    expect(error.problems).toContainEqual(expect.objectContaining({ path: "$.id", rule: "jsonrpc.id" }));
    await app.close();
  });

  it("a malformed tools/call result names the method, the JSON path and what the schema expected", async () => {
    const app = track(mcpShell(zoo("malformed-result")));
    const error = (await app.callTool("echo", { text: "x" }).catch((e: unknown) => e)) as ProtocolError;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.name).toBe("ProtocolError");
    expect(error.method).toBe("tools/call");
    expect(error.message).toContain('tools/call "echo"');
    expect(error.message).toContain("$.result.content[0].type");
    expect(error.message).toMatch(/\$\.result\.content\[0\]\.type: expected .*"text".*got "txt"/);
    expect(error.problems).toContainEqual(expect.objectContaining({ path: "$.result.content[0].type", rule: "result.shape" }));
    expect(error.message).not.toMatch(/ZodError|invalid_union/);
    // One bad result does not break the session.
    await expect(app.ping()).resolves.toBeUndefined();
    await app.close();
  });

  it("strict: false records the problem and returns the result anyway", async () => {
    const app = track(mcpShell(zoo("malformed-result"), { strict: false }));
    const result = await app.callTool("echo");
    expect(result.content).toEqual([{ type: "txt", text: "hi" }]);
    expect(app.problems).toContainEqual(expect.objectContaining({ method: "tools/call", path: "$.result.content[0].type" }));
    expect(() => app.assertNoProtocolError()).toThrow(/\$\.result\.content\[0\]\.type/);
    await app.close();
  });

  it("JSON-RPC errors become ToolCallError, ResourceCallError and PromptCallError with code and data", async () => {
    const app = track(mcpShell(zoo("errors")));
    const toolError = (await app.callTool("nope").catch((e: unknown) => e)) as ToolCallError;
    expect(toolError).toBeInstanceOf(ToolCallError);
    expect(toolError).toMatchObject({ toolName: "nope", code: -32602, serverMessage: "Unknown tool: nope", data: { known: ["echo"] } });
    expect(toolError.message).toContain('Tool "nope" failed');
    expect(toolError.message).toContain("-32602 (InvalidParams)");

    const resourceError = (await app.readResource("file:///missing").catch((e: unknown) => e)) as ResourceCallError;
    expect(resourceError).toBeInstanceOf(ResourceCallError);
    expect(resourceError).toMatchObject({ uri: "file:///missing", code: -32002, method: "resources/read" });

    const promptError = (await app.getPrompt("nope").catch((e: unknown) => e)) as PromptCallError;
    expect(promptError).toBeInstanceOf(PromptCallError);
    expect(promptError).toMatchObject({ promptName: "nope", code: -32602 });
    await app.close();
  });
});

describe("zoo: batches", () => {
  it("a batch is read message by message where the version has batches (2025-03-26)", async () => {
    const app = track(mcpShell(zoo("batches"), { protocolVersion: "2025-03-26" }));
    expect((await app.getTools()).map((tool) => tool.name)).toEqual(["batched"]);
    expect(app.notifications.map((n) => n.method)).toEqual(["notifications/message"]);
    expect(app.problems).toEqual([]);
    await app.close();
  });

  it("a batch in a version without batches is a protocol error naming the feature", async () => {
    const app = track(mcpShell(zoo("batches")));
    const error = (await app.getTools().catch((e: unknown) => e)) as ProtocolError;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message).toContain("a JSON-RPC batch it may not send");
    expect(error.problems).toContainEqual(expect.objectContaining({ path: "$", rule: "version.feature", message: expect.stringContaining("JSON-RPC batches") }));
    await app.close();
  });
});

describe("zoo: timeouts", () => {
  it("no response: times out, sends notifications/cancelled, and the server receives it", async () => {
    // The session starts with room to spare (a child process under load is slow to answer); the call is given 300 ms.
    const app = track(mcpShell(zoo("no-response"), { requestTimeout: 10_000 }));
    await app.initialize();
    const started = Date.now();
    const error = (await app.callTool("echo", {}, { timeoutMs: 300 }).catch((e: unknown) => e)) as RequestTimeoutError;
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(error).toMatchObject({ method: "tools/call", timeoutMs: 300, cancelled: true });
    expect(error.message).toContain('tools/call "echo"');
    expect(error.message).toContain("no response within 300 ms; sent notifications/cancelled");
    const cancel = app.messages.find((record) => record.direction === "outgoing" && record.method === "notifications/cancelled");
    expect(cancel?.content).toMatchObject({ params: { requestId: error.id, reason: "timed out after 300 ms" } });
    await eventually(() => app.stderr.some((line) => line.includes(`cancelled request ${String(error.id)}`)));
    // The session goes on: the next call works.
    await expect(app.ping()).resolves.toBeUndefined();
    await app.close();
  });

  it("a per-call timeoutMs and an AbortSignal cancel a call too", async () => {
    const app = track(mcpShell(zoo("no-response"), { requestTimeout: 10_000 }));
    await expect(app.callTool("echo", {}, { timeoutMs: 100 })).rejects.toBeInstanceOf(RequestTimeoutError);
    const controller = new AbortController();
    const call = app.callTool("echo", {}, { signal: controller.signal });
    controller.abort(new Error("test gave up"));
    await expect(call).rejects.toThrow(/aborted \(test gave up\); sent notifications\/cancelled/);
    const cancelled = app.messages.filter((record) => record.direction === "outgoing" && record.method === "notifications/cancelled");
    expect(cancelled).toHaveLength(2);
    await app.close();
  });
});

describe("zoo: processes that fail", () => {
  it("exits at once: initialize fails with ProcessFailedToStart and the exit code", async () => {
    // Legacy, to name initialize as the request unanswered (auto names server/discover: modern.test.ts).
    const app = track(mcpShell(zoo("exits-immediately"), { versionNegotiation: "legacy" }));
    const error = (await app.initialize().catch((e: unknown) => e)) as ProcessFailedToStart;
    expect(error).toBeInstanceOf(ProcessFailedToStart);
    expect(error.exitCode).toBe(0);
    expect(error.shellCommand).toContain("exits-immediately.mjs");
    expect(error.message).toContain("exited before answering initialize");
    await app.close();
  });

  it("fails on start: the error carries the command, exit code and stderr lines", async () => {
    const app = track(mcpShell(zoo("fails-on-start")));
    const error = (await app.getTools().catch((e: unknown) => e)) as ProcessFailedToStart;
    expect(error).toBeInstanceOf(ProcessFailedToStart);
    expect(error).toMatchObject({ exitCode: 3, exitSignal: null, stderr: ["zoo: cannot start: ZOO_CONFIG is not set"] });
    expect(error.message).toContain("exit code 3");
    expect(error.message).toContain("| zoo: cannot start: ZOO_CONFIG is not set");
    await expect(app.close()).rejects.toThrow(/exited with code 3/);
  });

  it("a command that does not exist fails to start with the shell's complaint", async () => {
    const app = track(mcpShell("mcp-testkit-no-such-command-xyz --stdio"));
    const error = (await app.initialize().catch((e: unknown) => e)) as ProcessFailedToStart;
    expect(error).toBeInstanceOf(ProcessFailedToStart);
    expect(error.exitCode).toBe(127);
    expect(error.stderr?.join("\n")).toMatch(/not found/);
    await expect(app.close()).rejects.toThrow(/exited with code 127/);
  });

  it("a cwd that does not exist fails to start", async () => {
    const app = track(mcpShell(zoo("no-response"), { cwd: "/no/such/dir/mcp-testkit" }));
    const error = await app.initialize().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProcessFailedToStart);
    expect((error as Error).message).toMatch(/Could not start the server: .*ENOENT/);
    await app.close();
  });

  it("a server that never answers, in auto mode: initialize's timeout says server/discover went unanswered first (the wait was twice the timeout)", async () => {
    // Reads its stdin and says nothing, ever; it ends when its stdin does.
    const app = track(mcpShell(`"${process.execPath}" -e "process.stdin.resume()"`, { requestTimeout: 300 }));
    const error = (await app.initialize().catch((e: unknown) => e)) as RequestTimeoutError;
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error.message).toContain(
      'initialize (id 2) got no response within 300 ms (initialize is never cancelled), after server/discover got none within 300 ms either (versionNegotiation "auto" asks it first).',
    );
    await app.close({ allowFailure: true });
  });

  it("a server that wrote more stderr than is kept: the excerpt counts every line it wrote", async () => {
    // exitCode, not process.exit(): a process that exits at once may not have flushed all its stderr.
    const app = track(mcpShell(`"${process.execPath}" -e "for (let i = 1; i <= 1500; i++) console.error('line ' + i); process.exitCode = 3"`));
    const error = (await app.initialize().catch((e: unknown) => e)) as ProcessFailedToStart;
    expect(error).toBeInstanceOf(ProcessFailedToStart);
    expect(error.message).toMatch(/stderr \(last \d+ of 1500 lines\):\n(.|\n)*    \| line 1500/);
    await app.close({ allowFailure: true });
  });

  it("crashes mid-call: ProcessExitWhileWaitingForResponse with the exit code and stderr", async () => {
    const app = track(mcpShell(zoo("crashes-mid-call")));
    await app.initialize();
    const error = (await app.callTool("echo").catch((e: unknown) => e)) as ProcessExitWhileWaitingForResponse;
    expect(error).toBeInstanceOf(ProcessExitWhileWaitingForResponse);
    expect(error).toMatchObject({ method: "tools/call", exitCode: 2 });
    expect(error.stderr).toContain("zoo: crashing in tools/call");
    await expect(app.waitForExit()).resolves.toBe(2);
    await expect(app.close()).rejects.toThrow(/exited with code 2/);
  });

  it("a wait for a notification fails when the server exits, not at its timeout", async () => {
    const app = track(mcpShell(zoo("crashes-mid-call")));
    await app.initialize();
    const waiting = app.waitForNotification("notifications/tools/list_changed", { timeoutMs: 60_000 }).catch((e: unknown) => e);
    await app.callTool("echo").catch(() => undefined);
    const error = (await waiting) as ConnectionClosedError;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect(error.message).toContain("The server ended (its process exited or closed its stdout) while waiting for a notifications/tools/list_changed notification; got 0, and no more can come.");
    await app.close({ allowFailure: true });
  });
});

describe("zoo: stdout is for protocol messages only", () => {
  it("a log line on stdout is a protocol error naming the line", async () => {
    const app = track(mcpShell(zoo("logs-to-stdout")));
    const error = (await app.initialize().catch((e: unknown) => e)) as ProtocolError;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.line).toBe("Server starting... listening on stdio");
    expect(error.message).toContain('not JSON-RPC: "Server starting... listening on stdio"');
    expect(error.message).toContain("allowDebugLogging");
    expect(() => app.assertNoProtocolError()).toThrow(error);
    await app.close();
  });

  it("allowDebugLogging prints such lines to stderr and carries on", async () => {
    const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const app = track(mcpShell(zoo("logs-to-stdout"), { allowDebugLogging: true }));
      expect(await app.hasTool("echo")).toBe(true);
      expect(write).toHaveBeenCalledWith(expect.stringContaining("server stdout: Server starting... listening on stdio"));
      expect(app.protocolErrors).toEqual([]);
      await app.close();
    } finally {
      write.mockRestore();
    }
  });
});
