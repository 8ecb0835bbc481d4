/**
 * The record: `server.calls`, `callsTo(tool)`, `messages`, the `recordLimit` cap with
 * `recordStats`, and `reset()`.
 */
import { describe, expect, it } from "vitest";
import type { CallOutcome } from "../../src/index.js";
import { connect, connectWithSession, mock, request, rpc, useCleanup } from "./support.js";

useCleanup();

describe("calls", () => {
  it("records tool, arguments, index, outcome, times, session, meta and response of each call", async () => {
    const server = await mock({ tools: { search_issues: { returns: "found" }, get_issue: { toolError: "gone" } } });
    const { client, sessionId } = await connectWithSession(server);
    const before = Date.now();
    await client.callTool({ name: "search_issues", arguments: { query: "bug", limit: 10 } });
    await client.callTool({ name: "get_issue", arguments: { id: 7 }, _meta: { traceId: "t-1" } });
    await client.callTool({ name: "search_issues", arguments: { query: "crash" } });
    const after = Date.now();

    expect(server.calls.map(({ tool, arguments: args, index, outcome, sessionId: s }) => ({ tool, args, index, outcome, s }))).toEqual([
      { tool: "search_issues", args: { query: "bug", limit: 10 }, index: 0, outcome: "result", s: sessionId },
      { tool: "get_issue", args: { id: 7 }, index: 0, outcome: "tool-error", s: sessionId },
      { tool: "search_issues", args: { query: "crash" }, index: 1, outcome: "result", s: sessionId },
    ]);
    for (const call of server.calls) {
      expect(call.startedAt).toBeGreaterThanOrEqual(before);
      expect(call.endedAt).toBeGreaterThanOrEqual(call.startedAt);
      expect(call.endedAt).toBeLessThanOrEqual(after);
      expect(call.exchanges).toEqual([]);
    }
    expect(server.calls[0].meta).toBeUndefined();
    expect(server.calls[1].meta).toEqual({ traceId: "t-1" });
    expect(server.calls[0].response).toEqual({ result: { content: [{ type: "text", text: "found" }] } });
    expect(server.calls[1].response).toEqual({ result: { content: [{ type: "text", text: "gone" }], isError: true } });
    expect(server.calls.map((call) => call.requestId)).toEqual([1, 2, 3]);
  });

  it("keeps the arguments exactly as sent: not checked against inputSchema, nested values intact", async () => {
    const server = await mock({
      tools: {
        get_weather: {
          inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
          responses: { returns: "sunny" },
        },
      },
    });
    const client = await connect(server);
    const odd = { city: 42, extra: { nested: [1, { deep: null }], emoji: "☀️" }, empty: "" };
    await client.callTool({ name: "get_weather", arguments: odd });
    await client.callTool({ name: "get_weather" });
    expect(server.calls[0].arguments).toEqual(odd);
    expect(server.calls[0].outcome).toBe("result");
    // No arguments at all are recorded as {}.
    expect(server.calls[1].arguments).toEqual({});
    // Through handle(), arguments that are not an object are recorded as they came, in rawArguments (steps and matchers see {}).
    await request(server, "tools/call", { name: "get_weather", arguments: ["not", "an", "object"] });
    expect(server.calls[2]).toMatchObject({ arguments: {}, rawArguments: ["not", "an", "object"] });
  });

  it("the client never shares an object with the record", async () => {
    const server = await mock({ tools: { t: { returns: "ok" } } });
    const client = await connect(server);
    const args = { list: [1, 2] };
    await client.callTool({ name: "t", arguments: args });
    args.list.push(3);
    expect(server.calls[0].arguments).toEqual({ list: [1, 2] });
    expect(server.calls[0].arguments).not.toBe(args);
  });

  it("records every outcome", async () => {
    const server = await mock({
      tools: {
        ok: { returns: "fine" },
        fails: { toolError: "no" },
        throws: { throws: "bad" },
        hangs: { hang: true },
        drops: { disconnect: true },
      },
    });
    const client = await connect(server);
    await client.callTool({ name: "ok" });
    await client.callTool({ name: "fails" });
    await client.callTool({ name: "throws" }).catch(() => undefined);
    await client.callTool({ name: "nope" }).catch(() => undefined);
    await client.callTool({ name: "hangs" }, undefined, { timeout: 10 }).catch(() => undefined);
    const pending = client.callTool({ name: "hangs" }).catch(() => undefined);
    await server.waitForCalls(2, { tool: "hangs" });
    await expect.poll(() => server.callsTo("hangs")[0].outcome).toBe("cancelled");

    const second = await connect(server);
    await second.callTool({ name: "drops" }).catch(() => undefined);

    const outcomes: Record<string, CallOutcome> = {};
    for (const call of server.calls) outcomes[`${call.tool}#${call.index}`] = call.outcome;
    expect(outcomes).toEqual({
      "ok#0": "result",
      "fails#0": "tool-error",
      "throws#0": "protocol-error",
      "nope#0": "unknown-tool",
      "hangs#0": "cancelled",
      "hangs#1": "pending",
      "drops#0": "disconnected",
    });
    expect(server.callsTo("hangs")[1].endedAt).toBeUndefined();
    expect(server.callsTo("hangs")[1].response).toBeUndefined();
    await client.close();
    await pending;
    expect(server.callsTo("hangs")[1].outcome).toBe("disconnected");
  });

  it("an unknown tool gets -32602 naming the tools there are, and is recorded", async () => {
    const server = await mock({ tools: { search: {}, fetch: {} } });
    const client = await connect(server);
    const error = await client.callTool({ name: "serach", arguments: { q: 1 } }).catch((e: { code: number; message: string; data: unknown }) => e);
    expect(error).toMatchObject({ code: -32602, message: 'MCP error -32602: Unknown tool: serach; did you mean "search"?', data: { tool: "serach", available: ["search", "fetch"] } });
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]).toMatchObject({
      tool: "serach",
      arguments: { q: 1 },
      index: 0,
      outcome: "unknown-tool",
      response: { error: { code: -32602, message: 'Unknown tool: serach; did you mean "search"?', data: { tool: "serach", available: ["search", "fetch"] } } },
    });
    expect(server.callsTo("serach")).toHaveLength(1);
  });

  it("gives each connection its own sessionId, and handle() its own", async () => {
    const server = await mock({ tools: { t: {} } });
    const a = await connectWithSession(server);
    const b = await connectWithSession(server);
    await a.client.callTool({ name: "t" });
    await b.client.callTool({ name: "t" });
    await request(server, "tools/call", { name: "t" });
    const ids = server.calls.map((call) => call.sessionId);
    expect(ids).toEqual([a.sessionId, b.sessionId, "direct"]);
    expect(new Set(ids).size).toBe(3);
    expect(a.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("records the progress token in meta", async () => {
    const server = await mock({ tools: { t: { returns: "ok" } } });
    const client = await connect(server);
    await client.callTool({ name: "t" }, undefined, { onprogress: () => undefined });
    expect(server.calls[0].meta).toEqual({ progressToken: server.calls[0].requestId });
  });

  it("returns a fresh array each time, so a test can keep a snapshot", async () => {
    const server = await mock({ tools: { t: {} } });
    const client = await connect(server);
    await client.callTool({ name: "t" });
    const snapshot = server.calls;
    await client.callTool({ name: "t" });
    expect(snapshot).toHaveLength(1);
    expect(server.calls).toHaveLength(2);
    expect(server.calls).not.toBe(server.calls);
  });
});

describe("callsTo", () => {
  it("gives the calls to one tool, in order; none is []", async () => {
    const server = await mock({ tools: { a: {}, b: {} } });
    const client = await connect(server);
    for (const name of ["a", "b", "a", "b", "a"]) await client.callTool({ name, arguments: { name } });
    expect(server.callsTo("a").map((call) => call.index)).toEqual([0, 1, 2]);
    expect(server.callsTo("b").map((call) => call.index)).toEqual([0, 1]);
    expect(server.callsTo("c")).toEqual([]);
    expect(server.callsTo("a")[1]).toBe(server.calls[2]);
  });
});

describe("messages", () => {
  it("records every message received, in order: initialize, notifications, requests", async () => {
    const server = await mock({ tools: { t: { hang: true } } });
    const client = await connect(server);
    await client.listTools();
    await client.ping();
    await client.callTool({ name: "t" }, undefined, { timeout: 10 }).catch(() => undefined);
    await expect.poll(() => server.messages.length).toBe(6);
    expect(server.messages.map((message) => ("method" in message ? message.method : "response"))).toEqual([
      "initialize",
      "notifications/initialized",
      "tools/list",
      "ping",
      "tools/call",
      "notifications/cancelled",
    ]);
    expect(server.messages[0]).toMatchObject({ jsonrpc: "2.0", id: 0, params: { clientInfo: { name: "mock-test-client", version: "1.0.0" } } });
    expect(server.messages[5]).toEqual({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3, reason: "McpError: MCP error -32001: Request timed out" } });
  });

  it("records messages from handle() too, even invalid ones that are objects", async () => {
    const server = await mock();
    await rpc(server, { jsonrpc: "2.0", id: 1, method: "ping" });
    await rpc(server, { id: 2, method: "ping" });
    await server.handle("not json");
    await server.handle("[1]");
    expect(server.messages).toEqual([
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { id: 2, method: "ping" },
    ]);
  });
});

describe("recordLimit", () => {
  it("keeps only the newest calls and messages, and counts what it dropped", async () => {
    const server = await mock({ recordLimit: 3, tools: { t: {} } });
    const client = await connect(server);
    for (let i = 0; i < 5; i++) await client.callTool({ name: "t", arguments: { i } });
    expect(server.calls.map((call) => call.arguments.i)).toEqual([2, 3, 4]);
    // The per-tool index keeps counting past the cap.
    expect(server.calls.map((call) => call.index)).toEqual([2, 3, 4]);
    expect(server.callsTo("t")).toHaveLength(3);
    // initialize + initialized + 5 calls = 7 messages, 3 kept.
    expect(server.messages.map((message) => ("params" in message ? message.params?.arguments : undefined))).toEqual([{ i: 2 }, { i: 3 }, { i: 4 }]);
    expect(server.recordStats).toEqual({ droppedCalls: 2, droppedMessages: 4 });
  });

  it("keeps the newest 1,000 calls and messages by default, counting what it dropped", async () => {
    const server = await mock({ tools: { t: {} } });
    expect(server.recordStats).toEqual({ droppedCalls: 0, droppedMessages: 0 });
    const { DEFAULT_RECORD_LIMIT } = await import("../../src/index.js");
    expect(DEFAULT_RECORD_LIMIT).toBe(1_000);
    const client = await connect(server);
    for (let i = 0; i < 1_001; i++) await client.callTool({ name: "t", arguments: { i } });
    expect(server.calls).toHaveLength(1_000);
    expect(server.calls[0]!.arguments.i).toBe(1);
    expect(server.calls[0]!.index).toBe(1);
    // initialize + initialized + 1,001 calls = 1,003 messages, 1,000 kept.
    expect(server.messages).toHaveLength(1_000);
    expect(server.recordStats).toEqual({ droppedCalls: 1, droppedMessages: 3 });
  });

  it("0 keeps nothing but still counts; a negative or fractional limit is refused", async () => {
    const server = await mock({ recordLimit: 0, tools: { t: {} } });
    const client = await connect(server);
    await client.callTool({ name: "t" });
    expect(server.calls).toEqual([]);
    expect(server.recordStats).toEqual({ droppedCalls: 1, droppedMessages: 3 });
    const { mockMcp } = await import("../../src/index.js");
    await expect(mockMcp({ transport: "memory", recordLimit: -1 })).rejects.toThrow('[mcp-testkit] "recordLimit" must be a whole number, 0 or more, or Infinity for no cap, got number -1.');
    await expect(mockMcp({ transport: "memory", recordLimit: 2.5 })).rejects.toThrow('[mcp-testkit] "recordLimit" must be a whole number, 0 or more, or Infinity for no cap, got number 2.5.');
    await using unbounded = await mockMcp({ transport: "memory", recordLimit: Infinity, tools: { t: { returns: "x" } } });
    const other = await connect(unbounded);
    for (let i = 0; i < 3; i++) await other.callTool({ name: "t" });
    expect(unbounded.calls).toHaveLength(3);
    expect(unbounded.recordStats.droppedCalls).toBe(0);
    await other.close();
  });

  it("assertions see only the kept calls", async () => {
    const server = await mock({ recordLimit: 2, tools: { t: {} } });
    const client = await connect(server);
    for (let i = 0; i < 4; i++) await client.callTool({ name: "t" });
    expect(() => server.assertCalled("t", { times: 4 })).toThrow('Expected "t" to be called 4 times, but it was called 2 times.\nCalls:\n  #2 {}\n  #3 {}');
  });
});

describe("reset", () => {
  it("clears the record and restarts every script; tools stay", async () => {
    const server = await mock({ recordLimit: 2, tools: { t: [{ returns: "first" }, { returns: "second" }], u: [{ returns: "u1" }, { returns: "u2" }] } });
    const client = await connect(server);
    await client.callTool({ name: "t" });
    await client.callTool({ name: "t" });
    await client.callTool({ name: "u" });
    expect(server.recordStats.droppedCalls).toBe(1);

    server.reset();
    expect(server.calls).toEqual([]);
    expect(server.messages).toEqual([]);
    expect(server.recordStats).toEqual({ droppedCalls: 0, droppedMessages: 0 });

    const text = async (name: string) => ((await client.callTool({ name })).content as { text: string }[])[0].text;
    expect(await text("t")).toBe("first");
    expect(await text("u")).toBe("u1");
    expect(await text("t")).toBe("second");
    expect(server.calls.map((call) => `${call.tool}#${call.index}`)).toEqual(["u#0", "t#1"]);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["t", "u"]);
  });

  it("leaves connections open: the same client keeps working", async () => {
    const server = await mock({ tools: { t: { returns: "x" } } });
    const client = await connect(server);
    server.reset();
    expect(await client.ping()).toEqual({});
    expect(server.messages.map((message) => ("method" in message ? message.method : ""))).toEqual(["ping"]);
  });
});
