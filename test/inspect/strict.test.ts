/**
 * Strict mode: every recorded message is checked against the MCP schema of the negotiated version.
 * The misbehaving peers here are raw servers written by hand on the SDK's in-memory transport,
 * because the SDK's own McpServer refuses to send a malformed tool result.
 */
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { InvalidMessageError, recordTraffic, TrafficRecorder, type MessageRecord, type TrafficProblem } from "../../src/inspect/index.js";
import { isRequest, type JsonRpcRequest } from "../../src/protocol/jsonrpc.js";
import { connectInMemory, delay, newClient } from "./support.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/**
 * A hand-written server: answers `initialize` with `version`, and `tools/call` with `toolResult`.
 * `serverTransport` lets a test put a recorder on the server's side.
 */
async function rawServer(options: { version: string; toolResult: Record<string, unknown>; wrapServer?: (transport: Transport) => Transport; onSendError?: (error: unknown) => void }) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const transport = options.wrapServer ? options.wrapServer(serverSide) : serverSide;
  const answer = (request: JsonRpcRequest): Record<string, unknown> | undefined => {
    if (request.method === "initialize") {
      return {
        protocolVersion: options.version,
        capabilities: { tools: {} },
        serverInfo: { name: "raw-server", version: "1.0.0" },
      };
    }
    if (request.method === "tools/call") return options.toolResult;
    return undefined;
  };
  transport.onmessage = (message: JSONRPCMessage) => {
    if (!isRequest(message)) return;
    const result = answer(message);
    if (result === undefined) return;
    transport.send({ jsonrpc: "2.0", id: message.id, result } as JSONRPCMessage).catch((error: unknown) => {
      options.onSendError?.(error);
    });
  };
  await transport.start();
  cleanups.push(() => transport.close());
  return clientSide;
}

async function strictClient(server: Transport, options: Parameters<typeof recordTraffic>[1]) {
  const { transport, recorder } = recordTraffic(server, options);
  const client = newClient();
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, recorder, transport };
}

describe("strict mode", () => {
  it("finds nothing wrong in traffic between the SDK's own client and server, on either side", async () => {
    const recorders: TrafficRecorder[] = [];
    const pair = await connectInMemory({
      client: (t) => {
        const r = recordTraffic(t, { strict: true, side: "client" });
        recorders.push(r.recorder);
        return r.transport;
      },
      server: (t) => {
        const r = recordTraffic(t, { strict: true, side: "server" });
        recorders.push(r.recorder);
        return r.transport;
      },
    });
    cleanups.push(pair.close);
    await pair.client.listTools();
    await pair.client.callTool({ name: "echo", arguments: { text: "fine" } });
    await pair.server.server.ping();

    for (const recorder of recorders) {
      expect(recorder.problems).toEqual([]);
      const records = recorder.messages as MessageRecord[];
      expect(records.length).toBeGreaterThanOrEqual(9);
      for (const record of records) expect(record.problems).toEqual([]);
    }
  });

  it("reports a malformed tool result with its path, on the record, in recorder.problems and to onProblem", async () => {
    const server = await rawServer({
      version: "2025-06-18",
      toolResult: { content: [{ type: "banana", text: "hi" }] },
    });
    const onProblem = vi.fn<(problem: TrafficProblem, record: MessageRecord) => void>();
    const { client, recorder } = await strictClient(server, { strict: true, onProblem });

    // The SDK client rejects the result too, but only says its schema did not parse.
    await expect(client.callTool({ name: "anything", arguments: {} })).rejects.toThrow();

    expect(recorder.protocolVersion).toBe("2025-06-18");
    const [problem, ...others] = recorder.problems;
    expect(others).toEqual([]);
    expect(problem).toMatchObject({ direction: "incoming", method: "tools/call", id: 1 });
    expect(problem!.path).toBe("$.result.content[0].type");
    expect(problem!.message).toContain('"banana"');

    const answer = recorder.byMethod("tools/call").find((r) => r.direction === "incoming") as MessageRecord;
    expect(answer.problems).toEqual([{ path: problem!.path, message: problem!.message, rule: problem!.rule }]);
    expect(onProblem).toHaveBeenCalledTimes(1);
    expect(onProblem).toHaveBeenCalledWith(problem, answer);
    // The messages before it were fine.
    expect(recorder.byMethod("initialize").map((r) => (r as MessageRecord).problems)).toEqual([[], []]);
  });

  it("checks against the version negotiated at initialize", async () => {
    const result = { content: [{ type: "text", text: "42" }], structuredContent: { answer: 42 } };
    const older = await rawServer({ version: "2025-03-26", toolResult: result });
    const newer = await rawServer({ version: "2025-06-18", toolResult: result });
    const onOlder = await strictClient(older, { strict: true });
    const onNewer = await strictClient(newer, { strict: true });
    await onOlder.client.callTool({ name: "answer", arguments: {} });
    await onNewer.client.callTool({ name: "answer", arguments: {} });

    expect(onOlder.recorder.protocolVersion).toBe("2025-03-26");
    expect(onOlder.recorder.problems).toHaveLength(1);
    expect(onOlder.recorder.problems[0]).toMatchObject({ method: "tools/call", path: "$.result.structuredContent" });
    expect(onNewer.recorder.problems).toEqual([]);
  });

  it("uses a version given by setProtocolVersion", () => {
    const recorder = new TrafficRecorder({ strict: true });
    recorder.setProtocolVersion("2025-03-26");
    recorder.recordMessage("outgoing", { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "x" } });
    const answer = { jsonrpc: "2.0", id: 7, result: { content: [], structuredContent: {} } };
    expect(recorder.recordMessage("incoming", answer).problems).toHaveLength(1);
    recorder.setProtocolVersion("2025-06-18");
    recorder.recordMessage("outgoing", { jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "x" } });
    expect(recorder.recordMessage("incoming", { ...answer, id: 8 }).problems).toEqual([]);
  });

  it("judges direction by the side wrapped", () => {
    const request = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x", arguments: {} } };
    const asClient = new TrafficRecorder({ strict: true, side: "client" });
    const asServer = new TrafficRecorder({ strict: true, side: "server" });
    // A client sends tools/call; a server receives it. Sent by a server it is out of place.
    expect(asClient.recordMessage("outgoing", request).problems).toEqual([]);
    expect(asServer.recordMessage("incoming", request).problems).toEqual([]);
    expect(asServer.recordMessage("outgoing", { ...request, id: 2 }).problems).not.toEqual([]);
  });

  it('with strict: "throw", refuses to send an invalid message, naming method, path and expectation', async () => {
    let serverRecorder!: TrafficRecorder;
    let rejectSend!: (error: unknown) => void;
    const sendFailed = new Promise<unknown>((resolve) => (rejectSend = resolve));
    const server = await rawServer({
      version: "2025-06-18",
      toolResult: { content: [{ type: "banana", text: "hi" }] },
      wrapServer: (t) => {
        const recorded = recordTraffic(t, { side: "server", strict: "throw" });
        serverRecorder = recorded.recorder;
        return recorded.transport;
      },
      onSendError: rejectSend,
    });
    const { client, recorder: clientRecorder } = await strictClient(server, {});

    const abort = new AbortController();
    const call = client.callTool({ name: "anything", arguments: {} }, undefined, { signal: abort.signal });
    const error = await Promise.race([sendFailed, delay(2_000).then(() => "the server's send was not refused")]);
    abort.abort();
    await expect(call).rejects.toThrow();

    expect(error).toBeInstanceOf(InvalidMessageError);
    const invalid = error as InvalidMessageError;
    expect(invalid.method).toBe("tools/call");
    expect(invalid.id).toBe(1);
    expect(invalid.protocolVersion).toBe("2025-06-18");
    expect(invalid.message).toContain("tools/call response (id 1)");
    expect(invalid.message).toContain("$.result.content[0].type");
    expect(invalid.message).toContain(invalid.problems[0]!.message);

    // The server's recorder shows the attempt and the refusal; the client never got the answer.
    const toolCall = serverRecorder.byMethod("tools/call");
    expect(toolCall.map((r) => [r.direction, r.method, r.id])).toEqual([
      ["incoming", "tools/call", 1],
      ["outgoing", "tools/call", 1],
      ["error", "tools/call", 1],
    ]);
    expect(toolCall[2]!.content).toBe(invalid.message);
    expect(clientRecorder.byMethod("tools/call").filter((r) => r.direction === "incoming")).toEqual([]);
  });

  it('with strict: "throw", still delivers an invalid incoming message and only reports it', async () => {
    const server = await rawServer({ version: "2025-06-18", toolResult: { content: [{ type: "banana" }] } });
    const { client, recorder } = await strictClient(server, { strict: "throw" });
    await expect(client.callTool({ name: "anything", arguments: {} })).rejects.toThrow();
    expect(recorder.problems.length).toBeGreaterThan(0);
    expect(recorder.messages.filter((r) => r.direction === "error")).toEqual([]);
  });
});
