/**
 * The recorder around the SDK's real stdio client transport, spawning a small SDK server.
 */
import { fileURLToPath } from "node:url";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, describe, expect, it } from "vitest";
import { recordTraffic } from "../../src/inspect/index.js";
import { newClient, outline } from "./support.js";

const serverScript = fileURLToPath(new URL("./fixtures/stdio-server.mjs", import.meta.url));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function connectToStdioServer() {
  const inner = new StdioClientTransport({ command: process.execPath, args: [serverScript], stderr: "pipe" });
  const { transport, recorder } = recordTraffic(inner);
  const client = newClient();
  await client.connect(transport);
  const pid = inner.pid!;
  cleanups.push(async () => {
    await client.close();
  });
  return { client, transport, recorder, pid };
}

describe("recordTraffic around a stdio transport", () => {
  it("records the traffic with a real child process, then lets it be closed", async () => {
    const { client, recorder, pid } = await connectToStdioServer();
    const [slow, fast] = await Promise.all([client.callTool({ name: "sleep", arguments: { ms: 80 } }), client.callTool({ name: "echo", arguments: { text: "over stdio" } })]);
    expect(slow.content).toEqual([{ type: "text", text: "slept 80" }]);
    expect(fast.content).toEqual([{ type: "text", text: "over stdio" }]);

    expect(outline(recorder.messages)).toEqual([
      { direction: "outgoing", method: "initialize", id: 0, response: false },
      { direction: "incoming", method: "initialize", id: 0, response: true },
      { direction: "outgoing", method: "notifications/initialized", id: undefined, response: false },
      { direction: "outgoing", method: "tools/call", id: 1, response: false },
      { direction: "outgoing", method: "tools/call", id: 2, response: false },
      { direction: "incoming", method: "tools/call", id: 2, response: true },
      { direction: "incoming", method: "tools/call", id: 1, response: true },
    ]);
    const [echoAnswer, sleepAnswer] = recorder.messages.slice(-2);
    expect(sleepAnswer!.latency).toBeGreaterThanOrEqual(79);
    // Each from its own request (ids 1 and 2, sent together), though the answers came in the other order.
    const [sleepCall, echoCall] = recorder.messages.slice(3, 5);
    expect(Math.abs(sleepAnswer!.latency! - (sleepAnswer!.timestamp - sleepCall!.timestamp))).toBeLessThanOrEqual(2);
    expect(Math.abs(echoAnswer!.latency! - (echoAnswer!.timestamp - echoCall!.timestamp))).toBeLessThanOrEqual(2);
    expect(recorder.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    expect(isAlive(pid)).toBe(true);
    await client.close();
    expect(isAlive(pid)).toBe(false);
  });

  it("records a transport error (a line that is not JSON) and carries on", async () => {
    const { client, recorder } = await connectToStdioServer();
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);

    const result = await client.callTool({ name: "garble", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "garbled" }]);

    const errorRecords = recorder.messages.filter((r) => r.direction === "error");
    expect(errorRecords).toHaveLength(1);
    expect(errorRecords[0]).toMatchObject({ method: undefined, id: undefined, latency: undefined });
    expect(errorRecords[0]!.content).toMatch(/JSON/);
    // The error still reaches whoever connected the transport.
    expect(errors.map((e) => e.message)).toEqual([errorRecords[0]!.content]);
    expect(recorder.byMethod("tools/call").map((r) => r.direction)).toEqual(["outgoing", "incoming"]);
  });

  it("records a send after the child is gone as a failed send", async () => {
    const { client, transport, recorder } = await connectToStdioServer();
    await client.close();
    await expect(transport.send({ jsonrpc: "2.0", method: "notifications/roots/list_changed" })).rejects.toThrow("Not connected");
    expect(recorder.messages.at(-1)).toMatchObject({
      direction: "error",
      method: "notifications/roots/list_changed",
      content: "Not connected",
    });
  });

  it("records a transport that cannot start once, though the SDK reports it twice", async () => {
    const inner = new StdioClientTransport({ command: "/nonexistent/mcp-server-for-recorder-test", stderr: "pipe" });
    const { transport, recorder } = recordTraffic(inner);
    const client = newClient();
    await expect(client.connect(transport)).rejects.toThrow(/ENOENT/);
    await client.close();

    expect(recorder.messages).toHaveLength(1);
    expect(recorder.messages[0]).toMatchObject({ direction: "error", method: undefined });
    expect(recorder.messages[0]!.content).toMatch(/ENOENT/);
  });
});
