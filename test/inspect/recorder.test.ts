/**
 * The recorder over real SDK parts in memory: a Client and an McpServer, one end wrapped.
 */
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { recordTraffic, RecordingTransport, TrafficRecorder, type TrafficRecord } from "../../src/inspect/index.js";
import { McpTestkitError } from "../../src/errors.js";
import { connectInMemory, delay, isResponseRecord, outline, params, requestOf } from "./support.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function recordedClient(options: Parameters<typeof recordTraffic>[1] = {}) {
  let recorded: ReturnType<typeof recordTraffic> | undefined;
  const pair = await connectInMemory({ client: (t) => (recorded = recordTraffic(t, options)).transport });
  cleanups.push(pair.close);
  return { ...pair, recorder: recorded!.recorder, transport: recorded!.transport };
}

describe("recordTraffic on a client's transport", () => {
  it("records both directions, and gives each response the method of its request", async () => {
    const { client, recorder } = await recordedClient();
    await client.callTool({ name: "echo", arguments: { text: "hi" } });

    expect(outline(recorder.messages)).toEqual([
      { direction: "outgoing", method: "initialize", id: 0, response: false },
      { direction: "incoming", method: "initialize", id: 0, response: true },
      { direction: "outgoing", method: "notifications/initialized", id: undefined, response: false },
      { direction: "outgoing", method: "tools/call", id: 1, response: false },
      { direction: "incoming", method: "tools/call", id: 1, response: true },
    ]);
    expect(recorder.methodCounts()).toEqual({ initialize: 2, "notifications/initialized": 1, "tools/call": 2 });

    const calls = recorder.byMethod("tools/call");
    expect(calls.map((r) => r.direction)).toEqual(["outgoing", "incoming"]);
    expect(calls[1]!.content).toMatchObject({ id: 1, result: { content: [{ type: "text", text: "hi" }] } });
    expect(recorder.byMethod("initialize")[1]!.content).toMatchObject({ result: { serverInfo: { name: "inspect-fixture" } } });
    expect(recorder.dropped).toBe(0);
  });

  it("stamps records with the time in ms since the epoch, oldest first", async () => {
    const before = Date.now();
    const { recorder } = await recordedClient();
    const stamps = recorder.messages.map((r) => r.timestamp);
    expect(stamps.length).toBeGreaterThan(0);
    expect(stamps[0]).toBeGreaterThanOrEqual(before);
    expect(stamps.at(-1)).toBeLessThanOrEqual(Date.now());
    expect([...stamps].sort((a, b) => a - b)).toEqual(stamps);
  });

  it("measures each response's latency from its own request, with responses out of order", async () => {
    const { client, recorder } = await recordedClient();
    const slow = client.callTool({ name: "sleep", arguments: { ms: 200 } });
    await delay(80);
    const fast = client.callTool({ name: "sleep", arguments: { ms: 5 } });
    const medium = client.callTool({ name: "sleep", arguments: { ms: 60 } });
    await Promise.all([slow, fast, medium]);

    const records = recorder.messages;
    const requests = records.filter((r) => r.method === "tools/call" && !isResponseRecord(r));
    const responses = records.filter((r) => r.method === "tools/call" && isResponseRecord(r));
    expect(requests.map((r) => params(r).arguments)).toEqual([{ ms: 200 }, { ms: 5 }, { ms: 60 }]);
    // The answers overtake each other: fast, medium, then slow.
    expect(responses.map((r) => r.id)).toEqual([requests[1]!.id, requests[2]!.id, requests[0]!.id]);

    for (const response of responses) {
      const request = requestOf(records, response);
      const ms = (params(request).arguments as { ms: number }).ms;
      expect(response.latency, `latency of the ${ms} ms call`).toBeGreaterThanOrEqual(ms - 1);
      // Measured from its own request (same id): from the last request sent (the seed's flaw) or
      // the oldest one pending, it would be off by the 80 ms the test waited between them.
      expect(Math.abs(response.latency! - (response.timestamp - request.timestamp))).toBeLessThanOrEqual(2);
    }
    const latencies = responses.map((r) => r.latency!);
    expect(recorder.averageLatency()).toBeCloseTo((latencies.reduce((a, b) => a + b, 0) + recorder.byMethod("initialize")[1]!.latency!) / 4, 6);
  });

  it("copies each message deeply, so later mutation by either end cannot change the record", async () => {
    const { client, recorder } = await recordedClient();
    const args = { text: "original" };
    const result = await client.callTool({ name: "echo", arguments: args });
    args.text = "mutated by the caller";
    (result.content as Array<{ text: string }>)[0]!.text = "mutated by the receiver";

    const [request, response] = recorder.byMethod("tools/call");
    expect(request!.content).toMatchObject({ params: { arguments: { text: "original" } } });
    expect(response!.content).toMatchObject({ result: { content: [{ text: "original" }] } });
  });

  it("learns the negotiated protocol version and passes setProtocolVersion on", async () => {
    const { recorder } = await recordedClient();
    expect(recorder.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);

    const [inner] = InMemoryTransport.createLinkedPair();
    const seen: string[] = [];
    // Like the Streamable HTTP client transport, which sends the version as a header.
    const versioned = Object.assign(inner, { setProtocolVersion: (version: string) => void seen.push(version) });
    const recorded = recordTraffic(versioned);
    recorded.transport.setProtocolVersion("2025-03-26");
    expect(seen).toEqual(["2025-03-26"]);
    expect(recorded.recorder.protocolVersion).toBe("2025-03-26");
  });

  it("records a failed send as an error with the method, id and message", async () => {
    const { client, recorder, transport } = await recordedClient();
    await client.close();
    await expect(transport.send({ jsonrpc: "2.0", id: 99, method: "ping" })).rejects.toThrow("Not connected");

    const [attempt, failure] = recorder.messages.slice(-2);
    expect(attempt).toMatchObject({ direction: "outgoing", method: "ping", id: 99 });
    expect(failure).toMatchObject({ direction: "error", method: "ping", id: 99, content: "Not connected", latency: undefined });
  });

  it("clear() empties the journal, yet a response still in flight keeps its method and latency", async () => {
    const { client, recorder } = await recordedClient();
    const call = client.callTool({ name: "sleep", arguments: { ms: 40 } });
    await delay(5);
    recorder.clear();
    expect(recorder.messages).toEqual([]);
    expect(recorder.methodCounts()).toEqual({});
    expect(recorder.averageLatency()).toBe(0);
    await call;

    expect(outline(recorder.messages)).toEqual([{ direction: "incoming", method: "tools/call", id: 1, response: true }]);
    expect(recorder.messages[0]!.latency).toBeGreaterThanOrEqual(39);
  });

  it("keeps at most maxRecords, dropping the oldest and counting them", async () => {
    const { client, recorder } = await recordedClient({ maxRecords: 5 });
    for (const text of ["a", "b", "c", "d"]) await client.callTool({ name: "echo", arguments: { text } });

    // 3 records for the handshake and 2 per call: 11 in all, 5 kept.
    expect(recorder.dropped).toBe(6);
    const kept = recorder.messages;
    expect(outline(kept).map((r) => [r.direction, r.method, r.id])).toEqual([
      ["incoming", "tools/call", 2],
      ["outgoing", "tools/call", 3],
      ["incoming", "tools/call", 3],
      ["outgoing", "tools/call", 4],
      ["incoming", "tools/call", 4],
    ]);
    expect(kept.at(-1)!.content).toMatchObject({ result: { content: [{ text: "d" }] } });

    recorder.clear();
    expect(recorder.dropped).toBe(0);
  });

  it("does not let `messages` be used to change the journal", async () => {
    const { recorder } = await recordedClient();
    const copy = recorder.messages;
    copy.length = 0;
    expect(recorder.messages.length).toBe(3);
  });
});

describe("recordTraffic on a server's transport", () => {
  it("records requests as incoming and answers as outgoing, correlating ids per direction", async () => {
    let recorder!: TrafficRecorder;
    const pair = await connectInMemory({
      server: (t) => {
        const recorded = recordTraffic(t, { side: "server" });
        recorder = recorded.recorder;
        return recorded.transport;
      },
    });
    cleanups.push(pair.close);

    // The server's own requests (ping) are numbered 0, 1, ... like the client's: the ids collide
    // with the client's initialize (0) and the tool call in flight (1), and must not be confused.
    const call = pair.client.callTool({ name: "sleep", arguments: { ms: 50 } });
    await delay(5);
    await pair.server.server.ping();
    await pair.server.server.ping();
    await call;

    expect(outline(recorder.messages)).toEqual([
      { direction: "incoming", method: "initialize", id: 0, response: false },
      { direction: "outgoing", method: "initialize", id: 0, response: true },
      { direction: "incoming", method: "notifications/initialized", id: undefined, response: false },
      { direction: "incoming", method: "tools/call", id: 1, response: false },
      { direction: "outgoing", method: "ping", id: 0, response: false },
      { direction: "incoming", method: "ping", id: 0, response: true },
      { direction: "outgoing", method: "ping", id: 1, response: false },
      { direction: "incoming", method: "ping", id: 1, response: true },
      { direction: "outgoing", method: "tools/call", id: 1, response: true },
    ]);
    const toolAnswer = recorder.messages.at(-1)!;
    expect(toolAnswer.latency).toBeGreaterThanOrEqual(49);
    // Each answer's latency is from its own request, the one of its id sent the other way: the
    // pings (0, 1) from the server's pings, not from the client's initialize (0) or tools/call (1).
    const { messages } = recorder;
    for (const [answer, request] of [
      [1, 0],
      [5, 4],
      [7, 6],
      [8, 3],
    ] as const) {
      expect(Math.abs(messages[answer]!.latency! - (messages[answer]!.timestamp - messages[request]!.timestamp)), `latency of message ${answer}`).toBeLessThanOrEqual(2);
    }
    expect(recorder.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
  });
});

describe("TrafficRecorder fed directly", () => {
  it("wraps around at the cap in order, and counts only records with a method", () => {
    const recorder = new TrafficRecorder({ maxRecords: 3 });
    for (let id = 1; id <= 4; id++) recorder.recordMessage("outgoing", { jsonrpc: "2.0", id, method: `m${id}` });
    recorder.recordMessage("incoming", { jsonrpc: "2.0", id: 42, result: {} }); // answers nothing we saw
    recorder.recordError(new Error("boom"));

    expect(recorder.messages.map((r: TrafficRecord) => [r.direction, r.method, r.id])).toEqual([
      ["outgoing", "m4", 4],
      ["incoming", undefined, 42],
      ["error", undefined, undefined],
    ]);
    expect(recorder.messages[2]!.content).toBe("boom");
    expect(recorder.dropped).toBe(3);
    expect(recorder.methodCounts()).toEqual({ m4: 1 });
  });

  it("matches a response only to a request that went the other way", () => {
    const recorder = new TrafficRecorder();
    recorder.recordMessage("outgoing", { jsonrpc: "2.0", id: "a", method: "tools/list" });
    const sameWay = recorder.recordMessage("outgoing", { jsonrpc: "2.0", id: "a", result: {} });
    const otherWay = recorder.recordMessage("incoming", { jsonrpc: "2.0", id: "a", result: {} });
    const again = recorder.recordMessage("incoming", { jsonrpc: "2.0", id: "a", result: {} });
    expect([sameWay.method, otherWay.method, again.method]).toEqual([undefined, "tools/list", undefined]);
    expect(otherWay.latency).toBeGreaterThanOrEqual(0);
    expect(sameWay.latency).toBeUndefined();
  });

  it("records no problems unless strict", () => {
    const recorder = new TrafficRecorder();
    const record = recorder.recordMessage("incoming", { jsonrpc: "2.0", id: 1, result: { content: "nonsense" } });
    expect(record).not.toHaveProperty("problems");
    expect(recorder.problems).toEqual([]);
  });

  it("rejects options that make no sense", () => {
    expect(() => new TrafficRecorder({ maxRecords: 0 })).toThrow(McpTestkitError);
    expect(() => new TrafficRecorder({ maxRecords: 2.5 })).toThrow(/maxRecords must be a positive integer, got 2.5/);
    expect(() => new TrafficRecorder({ side: "middle" as "client" })).toThrow(/side must be "client" or "server"/);
  });

  it("is what RecordingTransport writes to", () => {
    const [inner] = InMemoryTransport.createLinkedPair();
    const recorder = new TrafficRecorder({ side: "server" });
    const transport = new RecordingTransport(inner, recorder);
    inner.sessionId = "s-1";
    expect(transport.sessionId).toBe("s-1");
    expect(transport.recorder).toBe(recorder);
    expect(transport.inner).toBe(inner);
  });
});
