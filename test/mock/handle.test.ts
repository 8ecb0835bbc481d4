/**
 * `server.handle(json)`: one JSON-RPC message as text in, the reply as text out (`null` when
 * there is none). Every error code, version negotiation, and a table of hostile inputs, none of
 * which may throw or break the mock.
 */
import { describe, expect, it } from "vitest";
import { connect, mock, request, rpc, useCleanup } from "./support.js";
import { mockMcp } from "../../src/index.js";

useCleanup();

function parseErrorMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return `Parse error: ${(error as Error).message}`;
  }
  throw new Error(`${text} is valid JSON`);
}

describe("replies", () => {
  it("answers a request with the reply as a JSON string", async () => {
    const server = await mock({ tools: { t: { returns: "ok" } } });
    const reply = await server.handle('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"t","arguments":{"a":1}}}');
    expect(typeof reply).toBe("string");
    expect(JSON.parse(reply!)).toEqual({ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "ok" }] } });
    expect(await server.handle('{"jsonrpc":"2.0","id":"abc","method":"ping"}')).toBe('{"jsonrpc":"2.0","id":"abc","result":{}}');
  });

  it("answers a notification with null", async () => {
    const server = await mock();
    expect(await server.handle('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toBeNull();
    expect(await server.handle('{"jsonrpc":"2.0","method":"notifications/whatever","params":{"x":1}}')).toBeNull();
    expect(server.messages).toHaveLength(2);
  });

  it("answers a response to nothing with null", async () => {
    const server = await mock();
    expect(await server.handle('{"jsonrpc":"2.0","id":99,"result":{}}')).toBeNull();
    expect(await server.handle('{"jsonrpc":"2.0","id":"x","error":{"code":-1,"message":"no"}}')).toBeNull();
  });

  it("works before initialize, like the SDK's own server in memory", async () => {
    const server = await mock({ tools: { t: {} } });
    expect((await request(server, "tools/list")).result.tools).toHaveLength(1);
  });

  it("lets a later notifications/cancelled end a hanging handle() call, which then answers null", async () => {
    const server = await mock({ tools: { t: { hang: true } } });
    const hanging = server.handle('{"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"name":"t"}}');
    await server.waitForCalls(1);
    expect(await server.handle('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":41,"reason":"enough"}}')).toBeNull();
    expect(await hanging).toBeNull();
    expect(server.calls[0]).toMatchObject({ outcome: "cancelled", reason: "cancelled by the client: enough" });
  });

  it('ids are compared by value and type: cancelling "41" does not cancel 41', async () => {
    const server = await mock({ tools: { t: { hang: true } } });
    const hanging = server.handle('{"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"name":"t"}}');
    await server.waitForCalls(1);
    await server.handle('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"41"}}');
    expect(server.calls[0].outcome).toBe("pending");
    await server.handle('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":41}}');
    expect(await hanging).toBeNull();
  });
});

describe("error codes", () => {
  it.each(["not json", "", "{", '{"jsonrpc":"2.0",}', "\uFEFF{}", "undefined", "NaN"])("not JSON (%j) → -32700 with id null", async (text) => {
    const server = await mock();
    expect(JSON.parse((await server.handle(text))!)).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: parseErrorMessage(text) } });
  });

  it.each([
    ["no jsonrpc", { id: 1, method: "ping" }, 1, 'Invalid Request: "jsonrpc" must be "2.0"'],
    ["jsonrpc 1.0", { jsonrpc: "1.0", id: 2, method: "ping" }, 2, 'Invalid Request: "jsonrpc" must be "2.0"'],
    ["jsonrpc as a number", { jsonrpc: 2.0, id: 3, method: "ping" }, 3, 'Invalid Request: "jsonrpc" must be "2.0"'],
    ["no method", { jsonrpc: "2.0", id: 4 }, 4, 'Invalid Request: a message needs a "method" (or, as a response, an "id" with "result" or "error")'],
    ["a method that is a number", { jsonrpc: "2.0", id: 5, method: 5 }, 5, 'Invalid Request: "method" must be a string'],
    ["a method that is null", { jsonrpc: "2.0", id: 6, method: null }, 6, 'Invalid Request: "method" must be a string'],
    ["params that are a list", { jsonrpc: "2.0", id: 7, method: "ping", params: [1] }, 7, 'Invalid Request: "params" must be an object'],
    ["params that are null", { jsonrpc: "2.0", id: 8, method: "ping", params: null }, 8, 'Invalid Request: "params" must be an object'],
    ["a null id", { jsonrpc: "2.0", id: null, method: "ping" }, null, 'Invalid Request: "id" must be a string or a number (MCP does not allow null)'],
    ["an object id", { jsonrpc: "2.0", id: { a: 1 }, method: "ping" }, null, 'Invalid Request: "id" must be a string or a number, got an object'],
    ["a boolean id", { jsonrpc: "2.0", id: true, method: "ping" }, null, 'Invalid Request: "id" must be a string or a number, got boolean true'],
  ])("%s → -32600", async (_label, message, id, text) => {
    const server = await mock();
    expect(await rpc(server, message)).toEqual({ jsonrpc: "2.0", id, error: { code: -32600, message: text } });
  });

  it("an integer id beyond 2^53 → -32600 naming it as sent, with id null: the rounded id would match nothing", async () => {
    const server = await mock();
    expect(JSON.parse((await server.handle('{"jsonrpc":"2.0","id":-9007199254740993,"method":"ping"}'))!)).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32600,
        message:
          "Invalid Request: the id -9007199254740993 is an integer beyond 2^53 that cannot be echoed exactly (read as a JSON number it becomes -9007199254740992, which the client never sent); use a smaller number or a string id",
      },
    });
    expect(JSON.parse((await server.handle('{"jsonrpc":"2.0","id":9007199254740992,"method":"ping"}'))!)).toEqual({ jsonrpc: "2.0", id: 9007199254740992, result: {} });
  });

  it.each([
    ["null", "got null"],
    ["42", "got 42"],
    ['"ping"', 'got "ping"'],
    ["true", "got true"],
    ["[]", "got an array (batches are not accepted here)"],
    ['[{"jsonrpc":"2.0","id":1,"method":"ping"}]', "got an array (batches are not accepted here)"],
  ])("a JSON value that is not a message (%s) → -32600 with id null", async (text, got) => {
    const server = await mock();
    expect(JSON.parse((await server.handle(text))!)).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: `Invalid Request: expected a JSON-RPC message object, ${got}` } });
  });

  it("unknown method → -32601 naming it", async () => {
    const server = await mock();
    expect(await request(server, "tools/delete")).toMatchObject({ error: { code: -32601, message: "Method not found: tools/delete" } });
    expect(await request(server, "__proto__")).toMatchObject({ error: { code: -32601, message: "Method not found: __proto__" } });
    expect(await request(server, "toString")).toMatchObject({ error: { code: -32601, message: "Method not found: toString" } });
  });

  it("unknown tool → -32602, and the call is still recorded as unknown-tool", async () => {
    const server = await mock({ tools: { real: {} } });
    expect(await request(server, "tools/call", { name: "fake", arguments: { q: 1 } })).toMatchObject({
      error: { code: -32602, message: "Unknown tool: fake", data: { tool: "fake", available: ["real"] } },
    });
    expect(server.calls).toMatchObject([{ tool: "fake", arguments: { q: 1 }, outcome: "unknown-tool", sessionId: "direct" }]);
  });

  it("bad params → -32602 saying which field", async () => {
    const server = await mock();
    expect((await request(server, "tools/call", {})).error).toEqual({ code: -32602, message: 'Invalid params for tools/call: "name" must be a string, got nothing' });
    expect((await request(server, "tools/call", { name: 5 })).error).toEqual({ code: -32602, message: 'Invalid params for tools/call: "name" must be a string, got 5' });
    expect((await request(server, "tools/call", { name: "t", _meta: "x" })).error).toEqual({ code: -32602, message: 'Invalid params for tools/call: "_meta" must be an object, got "x"' });
    expect((await request(server, "resources/read", {})).error).toEqual({ code: -32602, message: 'Invalid params for resources/read: "uri" must be a string, got nothing' });
    expect((await request(server, "prompts/get", { name: "p", arguments: [1] })).error).toEqual({ code: -32602, message: 'Invalid params for prompts/get: "arguments" must be an object, got [1]' });
    expect((await request(server, "initialize", {})).error).toEqual({ code: -32602, message: 'Invalid params for initialize: "protocolVersion" must be a string, got nothing' });
    // A tools/call refused for its params is not a call.
    expect(server.calls).toEqual([]);
  });

  it("a handler exception → -32603", async () => {
    const server = await mock({
      prompts: { odd: { messages: (() => 5) as never } },
      resources: { "x://null": { read: (() => null) as never } },
    });
    await server.setPrompt("completes", {
      complete: {
        a: () => {
          throw new Error("no completions today");
        },
      },
    });
    expect((await request(server, "prompts/get", { name: "odd" })).error).toEqual({
      code: -32603,
      message: "Prompt odd: the messages function must return a list of messages or { inputRequired: { inputRequests?, requestState? } }",
    });
    expect((await request(server, "resources/read", { uri: "x://null" })).error).toEqual({ code: -32603, message: "Internal error: Cannot read properties of null (reading 'uri')" });
    expect((await request(server, "completion/complete", { ref: { type: "ref/prompt", name: "completes" }, argument: { name: "a", value: "" } })).error).toEqual({
      code: -32603,
      message: "Internal error: no completions today",
    });
    expect((await request(server, "ping")).result).toEqual({});
  });
});

describe("initialize negotiation", () => {
  const init = (protocolVersion: unknown) => ({ protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "0" } });

  it.each(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"])("echoes a supported version (%s)", async (version) => {
    const server = await mock();
    expect((await request(server, "initialize", init(version))).result.protocolVersion).toBe(version);
  });

  it.each(["1999-01-01", "2024-10-07", "2026-07-28", "latest", ""])("answers an unsupported version (%j) with our latest", async (version) => {
    const server = await mock();
    expect((await request(server, "initialize", init(version))).result.protocolVersion).toBe("2025-11-25");
  });

  it("with protocolVersions limited, answers with the newest of those", async () => {
    const server = await mock({ protocolVersions: ["2025-03-26", "2024-11-05"] });
    expect((await request(server, "initialize", init("2025-11-25"))).result.protocolVersion).toBe("2025-03-26");
    expect((await request(server, "initialize", init("2024-11-05"))).result.protocolVersion).toBe("2024-11-05");
    // The SDK client accepts 2025-03-26 too.
    const client = await connect(server);
    expect(client.getServerCapabilities()).toMatchObject({ completions: {} });
  });

  it("an empty protocolVersions list is refused at mockMcp()", async () => {
    const { mockMcp } = await import("../../src/index.js");
    await expect(mockMcp({ transport: "memory", protocolVersions: [] })).rejects.toThrow('[mcp-testkit] "protocolVersions" must be a non-empty list of version strings, got an array.');
  });

  it("the initialize result has protocolVersion, capabilities and serverInfo", async () => {
    const server = await mock({ instructions: "hi" });
    expect(await request(server, "initialize", init("2025-06-18"))).toMatchObject({
      jsonrpc: "2.0",
      result: {
        protocolVersion: "2025-06-18",
        capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true }, logging: {}, completions: {} },
        serverInfo: { name: "mcp-testkit", version: "0.1.0" },
        instructions: "hi",
      },
    });
  });
});

describe("hostile inputs", () => {
  const deep = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
  const hostile: [string, string][] = [
    ["empty", ""],
    ["whitespace", "   \n\t"],
    ["a lone brace", "}"],
    ["truncated", '{"jsonrpc":"2.0","id":1,"method":"pi'],
    ["a number", "1e400"],
    ["a string", '"\\ud800"'],
    ["an empty object", "{}"],
    ["an empty array", "[]"],
    ["a batch of junk", "[1,2,3]"],
    ["deep nesting", deep(100_000)],
    ["deeply nested params", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":${deep(5_000)}}}`],
    ["deeply nested arguments", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":${deep(5_000)}}}}`],
    ["a huge method name", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "x".repeat(1_000_000) })],
    ["an infinite id", '{"jsonrpc":"2.0","id":1e400,"method":"ping"}'],
    ["a fractional id", '{"jsonrpc":"2.0","id":1.5,"method":"ping"}'],
    ["a negative zero id", '{"jsonrpc":"2.0","id":-0,"method":"ping"}'],
    ["__proto__ in params", '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"__proto__":{"polluted":true}}}}'],
    ["__proto__ as a tool name", '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"__proto__"}}'],
    ["constructor as a prompt name", '{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"constructor"}}'],
    ["arguments that are null", '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"fn","arguments":null}}'],
    ["arguments that are a string", '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"fn","arguments":"city=Paris"}}'],
    ["a cancel of nothing", '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":12345}}'],
    ["a cancel without params", '{"jsonrpc":"2.0","method":"notifications/cancelled"}'],
    ["a cancel with an object id", '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{}}}'],
    ["a notification with a bad method", '{"jsonrpc":"2.0","method":[]}'],
    ["a response with a null id", '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}'],
    ["a response with both result and error", '{"jsonrpc":"2.0","id":3,"result":{},"error":{"code":1,"message":"x"}}'],
    ["a read of a malformed percent-encoding", '{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"db://users/%E0%A4%A"}}'],
    ["a subscribe to nothing", '{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":""}}'],
    ["setLevel to __proto__", '{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"__proto__"}}'],
    [
      "complete with a context that is a number",
      '{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":"x"},"context":5}}',
    ],
    ["complete with a non-string value", '{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":{}}}}'],
    ["a cursor that is an object", '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":{}}}'],
    ["a cursor of the wrong shape", '{"jsonrpc":"2.0","id":1,"method":"prompts/list","params":{"cursor":"!!!"}}'],
    ["a negative cursor", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"${Buffer.from("mcp-testkit:-5").toString("base64url")}"}}`],
    ["initialize with a numeric version", '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":20250618}}'],
    ["initialize with capabilities as a string", '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":"all"}}'],
    ["control characters", '{"jsonrpc":"2.0","id":"\\u0000\\u001f","method":"ping"}'],
  ];

  it(`none of ${hostile.length} hostile inputs throws, and the mock still works afterwards`, async () => {
    const server = await mock({
      tools: { t: { returns: "ok" }, fn: (call) => ({ returns: `city: ${String((call.arguments as { city?: unknown } | null)?.city)}` }) },
      resources: { "db://users/{id}": { text: "user {id}" } },
      prompts: { p: { arguments: [{ name: "a" }], complete: { a: ["x1", "y1"] } } },
    });
    expect(hostile.length).toBeGreaterThanOrEqual(30);
    const replies: Record<string, unknown> = {};
    for (const [label, text] of hostile) {
      const reply = await server.handle(text);
      if (reply !== null) {
        const parsed = JSON.parse(reply) as { jsonrpc: string; result?: unknown; error?: { code: number } };
        expect(parsed.jsonrpc, label).toBe("2.0");
        expect("result" in parsed !== "error" in parsed, label).toBe(true);
        replies[label] = parsed.error ? parsed.error.code : "result";
      } else replies[label] = null;
    }
    expect(replies).toEqual({
      empty: -32700,
      whitespace: -32700,
      "a lone brace": -32700,
      truncated: -32700,
      "a number": -32600,
      "a string": -32600,
      "an empty object": -32600,
      "an empty array": -32600,
      "a batch of junk": -32600,
      "deep nesting": expect.any(Number),
      "deeply nested params": -32600,
      "deeply nested arguments": -32600,
      "a huge method name": -32601,
      "an infinite id": -32600,
      "a fractional id": "result",
      "a negative zero id": "result",
      "__proto__ in params": "result",
      "__proto__ as a tool name": -32602,
      "constructor as a prompt name": -32602,
      "arguments that are null": "result",
      "arguments that are a string": "result",
      "a cancel of nothing": null,
      "a cancel without params": null,
      "a cancel with an object id": null,
      "a notification with a bad method": -32600,
      "a response with a null id": null,
      "a response with both result and error": null,
      "a read of a malformed percent-encoding": "result",
      "a subscribe to nothing": -32002,
      "setLevel to __proto__": -32602,
      "complete with a context that is a number": -32602,
      "complete with a non-string value": -32602,
      "a cursor that is an object": -32602,
      "a cursor of the wrong shape": -32602,
      "a negative cursor": -32602,
      "initialize with a numeric version": -32602,
      "initialize with capabilities as a string": "result",
      "control characters": "result",
    });
    // Nothing leaked onto Object.prototype.
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    // The calls were recorded as sent (non-object arguments in rawArguments, steps saw {}), and the mock still answers normally.
    expect(server.callsTo("fn").map((call) => [call.arguments, call.rawArguments])).toEqual([
      [{}, null],
      [{}, "city=Paris"],
    ]);
    expect(server.callsTo("fn").map((call) => call.outcome)).toEqual(["result", "result"]);
    expect((await request(server, "tools/call", { name: "t" })).result).toEqual({ content: [{ type: "text", text: "ok" }] });
    const client = await connect(server);
    expect(await client.ping()).toEqual({});
  });

  it("junk sent by a connected client's transport gets error replies, and the connection keeps working", async () => {
    const server = await mock();
    const transport = await server.connectInMemory();
    const received: unknown[] = [];
    transport.onmessage = (message) => void received.push(message);
    await transport.start();
    await transport.send({ jsonrpc: "2.0", id: 1, method: "nope" } as never);
    await transport.send({ id: 2, method: "ping" } as never);
    await transport.send({ jsonrpc: "2.0", id: 3, method: "ping", params: [] } as never);
    await transport.send({ jsonrpc: "2.0", id: 4, method: "ping" });
    await expect.poll(() => received.length).toBe(4);
    // Replies may come in any order (each request is handled on its own), so sort them by id.
    expect([...received].sort((a, b) => (a as { id: number }).id - (b as { id: number }).id)).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found: nope" } },
      { jsonrpc: "2.0", id: 2, error: { code: -32600, message: 'Invalid Request: "jsonrpc" must be "2.0"' } },
      { jsonrpc: "2.0", id: 3, error: { code: -32600, message: 'Invalid Request: "params" must be an object' } },
      { jsonrpc: "2.0", id: 4, result: {} },
    ]);
    await transport.close();
  });
});

describe("handle() and subscriptions/listen", () => {
  it("answers at once with -32600 saying a listen needs a connection that carries notifications (it hung, its acknowledgement lost)", async () => {
    await using server = await mockMcp({ transport: "memory" });
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    const reply = JSON.parse((await server.handle(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: meta } })))!);
    expect(reply.error).toMatchObject({
      code: -32600,
      message: expect.stringMatching(/^subscriptions\/listen needs a connection that carries notifications .* Listen over Streamable HTTP, stdio or connectInMemory\(\)$/),
    });
    expect(server.endSubscriptions()).toBe(0);
  });
});
