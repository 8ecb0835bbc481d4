/**
 * Recording over a JSON text wire (our stdio transport): records are copied from the text that
 * crossed the wire, or from the message when it is plain JSON data, and neither end's later
 * mutation reaches them.
 */
import { fileURLToPath } from "node:url";
import { ResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { StdioProcessTransport } from "../../src/driver/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { recordTraffic, TrafficRecorder, type MessageRecord, type TrafficProblem } from "../../src/inspect/index.js";
import { NO_PROBLEMS } from "../../src/inspect/types.js";
import { RingBuffer } from "../../src/util/ring-buffer.js";
import { copyPlainJson } from "../../src/inspect/json-text.js";
import { newClient } from "./support.js";

const serverScript = fileURLToPath(new URL("./fixtures/stdio-server.mjs", import.meta.url));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe("copyPlainJson", () => {
  it("copies plain JSON data deeply, as JSON.parse of its text would give it", () => {
    const value = JSON.parse('{"a":[1,"x",null,true,{"b":-1.5}],"c":{},"__proto__":{"d":2}}') as Record<string, unknown>;
    const copy = copyPlainJson(value) as Record<string, unknown>;
    expect(copy).toEqual(value);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, "__proto__")).toBe(true);
    expect(copy.a).not.toBe(value.a);
    expect((copy.a as unknown[])[4]).not.toBe((value.a as unknown[])[4]);
    expect(copyPlainJson(Object.assign(Object.create(null) as object, { a: 1 }))).toEqual({ a: 1 });
  });

  it("gives up on anything JSON would turn into something else", () => {
    class Point {
      x = 1;
    }
    const notPlain = [undefined, NaN, Infinity, -0, 10n, () => 1, Symbol("s"), new Date(0), new Point(), [1, , 2], { a: undefined }, { toJSON: () => 1 }, Object.assign([1], { toJSON: () => 2 })];
    for (const value of notPlain) expect(copyPlainJson({ nested: [value] }), String(value)).toBeUndefined();
  });
});

describe("recording our stdio transport (JSON text)", () => {
  async function connect() {
    const inner = new StdioProcessTransport({ command: process.execPath, args: [serverScript] });
    const { transport, recorder } = recordTraffic(inner, { strict: true });
    const client = newClient();
    await client.connect(transport);
    cleanups.push(() => client.close());
    return { client, recorder };
  }

  it("records what crossed the wire, which later mutation by either end does not change", async () => {
    const { client, recorder } = await connect();
    const args = { text: "original" };
    const result = await client.callTool({ name: "echo", arguments: args });
    args.text = "mutated by the caller";
    (result.content as Array<{ text: string }>)[0]!.text = "mutated by the receiver";

    const [request, response] = recorder.byMethod("tools/call");
    expect(request!.content).toMatchObject({ params: { arguments: { text: "original" } } });
    expect(response!.content).toMatchObject({ result: { content: [{ type: "text", text: "original" }] } });
    expect(recorder.problems).toEqual([]);
  });

  it("records an outgoing message that is not plain JSON data as it was sent: its JSON", async () => {
    const { client, recorder } = await connect();
    const when = new Date(0);
    await client.callTool({ name: "echo", arguments: { text: "t", when, gone: undefined } });
    const [request] = recorder.byMethod("tools/call");
    expect((request!.content as unknown as { params: { arguments: object } }).params.arguments).toStrictEqual({ text: "t", when: when.toJSON() });
  });
});

describe("sending over a JSON text wire", () => {
  it("the line leaves before it is recorded: a throwing onProblem is reported on onerror, and the message still goes out and is answered", async () => {
    const inner = new StdioProcessTransport({ command: process.execPath, args: [serverScript] });
    const { transport, recorder } = recordTraffic(inner, {
      strict: true,
      onProblem: (problem) => {
        if (problem.direction === "outgoing") throw new Error("listener failed");
      },
    });
    const errors: Error[] = [];
    const client = newClient();
    await client.connect(transport);
    cleanups.push(() => client.close());
    const onerror = transport.onerror;
    transport.onerror = (error) => {
      errors.push(error);
      onerror?.(error);
    };
    // Not a valid tools/call (no name): a problem for the recorder; the server still gets it, and answers.
    await client.request({ method: "tools/call", params: { arguments: {} } } as never, ResultSchema).catch((error: unknown) => error);
    expect(errors.map((error) => error.message)).toEqual(["listener failed"]);
    const [request, response] = recorder.byMethod("tools/call");
    expect(request!.direction).toBe("outgoing");
    expect(request && "problems" in request ? request.problems?.length : 0).toBeGreaterThan(0);
    expect(response!.direction).toBe("incoming");
  });
});

describe("a received line kept as its text until the records are read (recordReceivedText)", () => {
  const call = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: {} } } as const;
  const answerLine = '{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"ok"}]}}';

  it("gives the record recordMessage would give, copied from the text, whatever the receiver did to the message since", () => {
    const lazy = new TrafficRecorder({ strict: true });
    const eager = new TrafficRecorder({ strict: true });
    for (const recorder of [lazy, eager]) recorder.recordMessage("outgoing", call);
    const received = JSON.parse(answerLine) as { result: { content: Array<{ text: string }> } };
    lazy.recordReceivedText(received, answerLine);
    eager.recordMessage("incoming", JSON.parse(answerLine), answerLine);
    received.result.content[0]!.text = "mutated by the receiver";

    const withoutTimes = (records: ReturnType<TrafficRecorder["byMethod"]>) => records.map(({ timestamp: _t, latency, ...rest }) => ({ ...rest, latency: typeof latency }));
    expect(withoutTimes(lazy.byMethod("tools/call"))).toEqual(withoutTimes(eager.byMethod("tools/call")));
    const response = lazy.messages[1] as MessageRecord;
    expect(response).toEqual(expect.objectContaining({ direction: "incoming", method: "tools/call", id: 7, content: JSON.parse(answerLine), problems: [] }));
    expect(response.latency).toBeGreaterThanOrEqual(0);
    expect(response.problems).toBe(NO_PROBLEMS);
    expect(Object.keys(response)).toEqual(Object.keys(eager.messages[1]!));
    expect(lazy.methodCounts()).toEqual({ "tools/call": 2 });
    expect(lazy.averageLatency()).toBeGreaterThanOrEqual(0);
  });

  it("copies from the text, and only when the records are read", () => {
    const recorder = new TrafficRecorder();
    // Not what a transport may do (the text must be the message's), but it shows which one is copied, and when.
    recorder.recordReceivedText({ jsonrpc: "2.0", method: "notifications/message", params: { n: 1 } }, '{"jsonrpc":"2.0","method":"notifications/message","params":{"n":2}}');
    const parse = vi.spyOn(JSON, "parse");
    try {
      expect(recorder.methodCounts()).toEqual({ "notifications/message": 1 });
      expect(recorder.averageLatency()).toBe(0);
      expect(parse).not.toHaveBeenCalled();
      expect(recorder.messages[0]!.content).toEqual({ jsonrpc: "2.0", method: "notifications/message", params: { n: 2 } });
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });

  it("turns text that is not JSON into an error record that says so, and every later read still works", () => {
    const recorder = new TrafficRecorder();
    recorder.recordReceivedText({ jsonrpc: "2.0", method: "notifications/message" }, "not json");
    const [record] = recorder.messages;
    expect(record).toMatchObject({ direction: "error", method: "notifications/message", latency: undefined });
    expect(record!.content).toMatch(/^recordReceivedText was given text that is not JSON \(.+\), so this incoming message has no copy: pass the text the message was parsed from$/);
    recorder.recordMessage("outgoing", { jsonrpc: "2.0", method: "notifications/initialized" });
    expect(recorder.messages.map((entry) => entry.direction)).toEqual(["error", "outgoing"]);
  });

  it("parses each line once: every later read gives the same record and the same copy", () => {
    const recorder = new TrafficRecorder();
    recorder.recordReceivedText(JSON.parse(answerLine), answerLine);
    const first = recorder.messages[0]!;
    const second = recorder.messages[0]!;
    expect(second).toBe(first);
    expect(second.content).toBe(first.content);
    expect(first).not.toHaveProperty("problems");
  });

  it("copies a message with problems at once, so onProblem gets its whole record", () => {
    const seen: Array<{ problem: TrafficProblem; record: MessageRecord }> = [];
    const recorder = new TrafficRecorder({ strict: true, onProblem: (problem, record) => seen.push({ problem, record }) });
    recorder.recordMessage("outgoing", call);
    const badLine = '{"jsonrpc":"2.0","id":7,"result":{"content":"not a list"}}';
    recorder.recordReceivedText(JSON.parse(badLine), badLine);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]!.record.content).toEqual(JSON.parse(badLine));
    expect(seen[0]!.problem).toMatchObject({ direction: "incoming", method: "tools/call", id: 7 });
    expect(recorder.messages[1]).toBe(seen[0]!.record);
  });

  it("falls off the ring like any other record, and clear() forgets it", () => {
    const recorder = new TrafficRecorder({ maxRecords: 2 });
    for (let id = 1; id <= 3; id++) {
      const line = `{"jsonrpc":"2.0","method":"notifications/message","params":{"n":${id}}}`;
      recorder.recordReceivedText(JSON.parse(line), line);
    }
    expect(recorder.messages.map((record) => (record.content as unknown as { params: { n: number } }).params.n)).toEqual([2, 3]);
    expect(recorder.dropped).toBe(1);
    recorder.clear();
    expect(recorder.messages).toEqual([]);
    const line = '{"jsonrpc":"2.0","method":"notifications/message","params":{"n":4}}';
    recorder.recordReceivedText(JSON.parse(line), line);
    recorder.recordMessage("outgoing", { jsonrpc: "2.0", method: "notifications/initialized" });
    expect(recorder.messages.map((record) => record.method)).toEqual(["notifications/message", "notifications/initialized"]);
    expect(recorder.messages[0]!.content).toEqual(JSON.parse(line));
  });

  it("reads, then records more past the wrap, then reads again: every record parsed, in order", () => {
    const recorder = new TrafficRecorder({ maxRecords: 3 });
    const receive = (n: number) => {
      const line = `{"jsonrpc":"2.0","method":"notifications/message","params":{"n":${n}}}`;
      recorder.recordReceivedText(JSON.parse(line), line);
    };
    const ns = () => recorder.messages.map((record) => (record.content as unknown as { params?: { n: number } }).params?.n ?? record.method);
    receive(1);
    receive(2);
    expect(ns()).toEqual([1, 2]);
    receive(3);
    recorder.recordMessage("outgoing", { jsonrpc: "2.0", method: "notifications/initialized" });
    receive(5);
    expect(ns()).toEqual([3, "notifications/initialized", 5]);
    for (let n = 6; n <= 10; n++) receive(n);
    expect(ns()).toEqual([8, 9, 10]);
    // One more on a wrapped ring: only the newest slot, in the middle of the ring, is parsed.
    receive(11);
    expect(ns()).toEqual([9, 10, 11]);
    expect(recorder.dropped).toBe(8);
  });
});

describe("RecordingTransport over a JSON text wire: which received lines are kept as text", () => {
  /** A text wire whose messages come with the given extra, as our stdio transport gives them. */
  function textWire() {
    const wire = {
      onmessage: undefined as Transport["onmessage"],
      start: async () => {},
      send: async () => {},
      sendJsonText: async () => {},
      close: async () => {},
    };
    return wire;
  }

  it("keeps the text of a line that owns it, and copies the message of one that shares its chunk", async () => {
    const wire = textWire();
    const { transport, recorder } = recordTraffic(wire as unknown as Transport);
    const delivered: unknown[] = [];
    transport.onmessage = (message) => delivered.push(message);
    await transport.start();
    const text = '{"jsonrpc":"2.0","method":"notifications/message","params":{"from":"text"}}';
    const message = (from: string) => ({ jsonrpc: "2.0", method: "notifications/message", params: { from } });
    wire.onmessage!(message("owned") as never, { jsonText: text, ownsText: true } as never);
    wire.onmessage!(message("shared") as never, { jsonText: text } as never);
    expect(delivered).toEqual([message("owned"), message("shared")]);
    expect(recorder.messages.map((record) => (record.content as unknown as { params: { from: string } }).params.from)).toEqual(["text", "shared"]);
  });
});

describe("our stdio transport: which lines own their text", () => {
  it("a line that is all its read holds owns it; lines read together share their chunk", async () => {
    // Writes one line, then (once told to, so the two writes cannot be read as one) two lines in one write.
    const script = [
      "const line = (n) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { n } }) + '\\n';",
      "process.stdout.write(line(1));",
      "process.stdin.once('data', () => process.stdout.write(line(2) + line(3)));",
    ].join(" ");
    const transport = new StdioProcessTransport({ command: process.execPath, args: ["-e", script] });
    const seen: Array<{ n: number; ownsText: boolean | undefined; jsonText: string | undefined }> = [];
    let first: () => void = () => undefined;
    const firstSeen = new Promise<void>((resolve) => (first = resolve));
    transport.onmessage = (message, extra) => {
      const { jsonText, ownsText } = (extra ?? {}) as { jsonText?: string; ownsText?: boolean };
      seen.push({ n: (message as unknown as { params: { n: number } }).params.n, ownsText, jsonText });
      first();
    };
    cleanups.push(() => transport.close());
    await transport.start();
    await firstSeen;
    await transport.sendJsonText('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    const deadline = Date.now() + 10_000;
    while (seen.length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen.map(({ n, ownsText }) => [n, ownsText])).toEqual([
      [1, true],
      [2, false],
      [3, false],
    ]);
    expect(seen.every(({ n, jsonText }) => jsonText === JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { n } }))).toBe(true);
  });
});

describe("RingBuffer.replaceNewest", () => {
  it("changes only the newest entries, before and after the ring wraps", () => {
    const ring = new RingBuffer<number>(4);
    ring.push(1);
    ring.push(2);
    ring.push(3);
    ring.replaceNewest(2, (n) => n * 10);
    expect(ring.toArray()).toEqual([1, 20, 30]);
    ring.push(4);
    ring.push(5);
    ring.push(6);
    ring.replaceNewest(3, (n) => -n);
    expect(ring.toArray()).toEqual([30, -4, -5, -6]);
    ring.replaceNewest(10, (n) => n + 1);
    expect(ring.toArray()).toEqual([31, -3, -4, -5]);
    expect(ring.dropped).toBe(2);
    new RingBuffer<number>(2).replaceNewest(3, () => {
      throw new Error("an empty ring has nothing to change");
    });
  });
});
