/**
 * Steps: what each tool call gets. Every step kind from the step table, seen through the official
 * SDK client, plus how scripts advance (`repeat`, the last step repeats) and how a malformed step
 * is refused when the mock is made.
 */
import { describe, expect, it } from "vitest";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { McpTestkitError, mockMcp } from "../../src/index.js";
import { connect, delay, mock, relay, useCleanup } from "./support.js";

useCleanup();

/** Every key a step may have, as the error for an unknown key lists them. */
const STEP_KEYS =
  '"returns", "content", "toolError", "throws", "hang", "result", "disconnect", "raw", "inputRequired", "structuredContent", "delayMs", "repeat", "stream", "asks", "broadcast", "endSubscriptions", "task"';

/** The text of every text block of a result. */
function texts(result: object): string[] {
  return (result as { content: { type: string; text?: string }[] }).content.map((block) => block.text ?? `<${block.type}>`);
}

/** The rejection of `promise` (fails the test if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection, but the promise resolved");
}

describe("returns", () => {
  it("sends a string as one text block", async () => {
    const server = await mock({ tools: { greet: { returns: "hello" } } });
    const client = await connect(server);
    expect(await client.callTool({ name: "greet" })).toEqual({ content: [{ type: "text", text: "hello" }] });
  });

  it("sends an object or an array as JSON text, without structuredContent when the tool has no outputSchema", async () => {
    const server = await mock({
      tools: {
        issue: { returns: { id: 1, title: "Bug" } },
        search: { returns: [{ id: 1 }, { id: 2 }] },
        count: { returns: 42 },
        nothing: { returns: null },
      },
    });
    const client = await connect(server);
    expect(await client.callTool({ name: "issue" })).toEqual({ content: [{ type: "text", text: '{"id":1,"title":"Bug"}' }] });
    expect(await client.callTool({ name: "search" })).toEqual({ content: [{ type: "text", text: '[{"id":1},{"id":2}]' }] });
    expect(await client.callTool({ name: "count" })).toEqual({ content: [{ type: "text", text: "42" }] });
    expect(await client.callTool({ name: "nothing" })).toEqual({ content: [{ type: "text", text: "null" }] });
  });

  it("also sends an object as structuredContent when the tool has an outputSchema, which the SDK client validates", async () => {
    const server = await mock({
      tools: {
        get_weather: {
          outputSchema: { type: "object", properties: { tempC: { type: "number" } }, required: ["tempC"] },
          responses: [{ returns: { tempC: 21 } }, { returns: { tempC: "warm" } }, { returns: [1, 2] }],
        },
      },
    });
    const client = await connect(server);
    await client.listTools(); // the SDK client learns output schemas from tools/list
    expect(await client.callTool({ name: "get_weather" })).toEqual({
      content: [{ type: "text", text: '{"tempC":21}' }],
      structuredContent: { tempC: 21 },
    });
    // A value that breaks the schema is still sent as is: the mock checks nothing, the client does.
    const broken = await rejection(client.callTool({ name: "get_weather" }));
    expect(broken).toBeInstanceOf(McpError);
    expect(broken.message).toMatch(/^MCP error -32602: Structured content does not match the tool's output schema/);
    expect(server.callsTo("get_weather")[1].response).toEqual({ result: { content: [{ type: "text", text: '{"tempC":"warm"}' }], structuredContent: { tempC: "warm" } } });
    // An array is never structuredContent (it must be an object), so this client complains it is missing.
    const array = await rejection(client.callTool({ name: "get_weather" }));
    expect(array.message).toBe("MCP error -32600: Tool get_weather has an output schema but did not return structured content");
    expect(server.callsTo("get_weather")[2].response).toEqual({ result: { content: [{ type: "text", text: "[1,2]" }] } });
  });
});

describe("content", () => {
  it("sends the blocks as given (text, image, audio, resource link), with structuredContent when given", async () => {
    const content = [
      { type: "text", text: "two images" },
      { type: "image", data: "aGVsbG8=", mimeType: "image/png" },
      { type: "audio", data: "aGVsbG8=", mimeType: "audio/wav" },
      { type: "resource_link", uri: "file:///report.pdf", name: "report" },
    ];
    const server = await mock({
      tools: {
        render: { content },
        stats: { content: [{ type: "text", text: "3 open" }], structuredContent: { open: 3 } },
      },
    });
    const client = await connect(server);
    expect(await client.callTool({ name: "render" })).toEqual({ content });
    expect(await client.callTool({ name: "stats" })).toEqual({ content: [{ type: "text", text: "3 open" }], structuredContent: { open: 3 } });
    expect(server.calls.map((call) => call.outcome)).toEqual(["result", "result"]);
  });
});

describe("toolError", () => {
  it("is a result with isError: true, recorded as tool-error", async () => {
    const server = await mock({ tools: { delete_repo: { toolError: "permission denied" } } });
    const client = await connect(server);
    expect(await client.callTool({ name: "delete_repo" })).toEqual({ content: [{ type: "text", text: "permission denied" }], isError: true });
    expect(server.calls[0].outcome).toBe("tool-error");
  });
});

describe("throws", () => {
  it("a string becomes a JSON-RPC error with code -32603", async () => {
    const server = await mock({ tools: { search: { throws: "rate_limited" } } });
    const client = await connect(server);
    const error = await rejection(client.callTool({ name: "search" }));
    expect(error).toBeInstanceOf(McpError);
    expect(error.code).toBe(-32603);
    expect(error.message).toBe("MCP error -32603: rate_limited");
    expect(server.calls[0].outcome).toBe("protocol-error");
    expect(server.calls[0].response).toEqual({ error: { code: -32603, message: "rate_limited" } });
  });

  it("{ code, message, data } sets all three", async () => {
    const server = await mock({ tools: { fetch_page: { throws: { code: -32000, message: "upstream timeout", data: { retryAfterMs: 500 } } } } });
    const client = await connect(server);
    const error = await rejection(client.callTool({ name: "fetch_page" }));
    expect(error.code).toBe(-32000);
    expect(error.message).toBe("MCP error -32000: upstream timeout");
    expect(error.data).toEqual({ retryAfterMs: 500 });
  });

  it("{ message } alone gets code -32603", async () => {
    const server = await mock({ tools: { t: { throws: { message: "boom" } } } });
    const client = await connect(server);
    const error = await rejection(client.callTool({ name: "t" }));
    expect([error.code, error.data]).toEqual([-32603, undefined]);
  });
});

describe("delayMs", () => {
  it("alone: an empty result after the wait", async () => {
    const server = await mock({ tools: { slow: { delayMs: 30 } } });
    const client = await connect(server);
    const started = Date.now();
    expect(await client.callTool({ name: "slow" })).toEqual({ content: [] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    const call = server.calls[0];
    expect(call.outcome).toBe("result");
    expect(call.endedAt! - call.startedAt).toBeGreaterThanOrEqual(25);
  });

  it("combined with another step: that answer, after the wait", async () => {
    const server = await mock({
      tools: {
        slow_text: { delayMs: 20, returns: "late" },
        slow_error: { delayMs: 20, toolError: "late failure" },
        slow_throw: { delayMs: 20, throws: { code: -32001, message: "late throw" } },
      },
    });
    const client = await connect(server);
    const started = Date.now();
    const [text, toolError, thrown] = await Promise.all([client.callTool({ name: "slow_text" }), client.callTool({ name: "slow_error" }), rejection(client.callTool({ name: "slow_throw" }))]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
    expect(texts(text)).toEqual(["late"]);
    expect(toolError).toEqual({ content: [{ type: "text", text: "late failure" }], isError: true });
    expect(thrown.message).toBe("MCP error -32001: late throw");
  });

  it("returns false, 0 or null answers that value (only hang and disconnect take false for absent)", async () => {
    const server = await mock({ tools: { no: { returns: false }, zero: { returns: 0 }, nothing: { returns: null }, calm: { returns: "ok", hang: false, disconnect: false } } });
    const client = await connect(server);
    expect(texts(await client.callTool({ name: "no" }))).toEqual(["false"]);
    expect(texts(await client.callTool({ name: "zero" }))).toEqual(["0"]);
    expect(texts(await client.callTool({ name: "nothing" }))).toEqual(["null"]);
    expect(texts(await client.callTool({ name: "calm" }))).toEqual(["ok"]);
    expect(server.calls.map((call) => call.outcome)).toEqual(["result", "result", "result", "result"]);
  });

  it("a cancelled call stops waiting and is recorded as cancelled", async () => {
    const server = await mock({ tools: { slow: { delayMs: 10_000, returns: "never seen" } } });
    const client = await connect(server);
    const controller = new AbortController();
    const pending = rejection(client.callTool({ name: "slow" }, undefined, { signal: controller.signal }));
    await server.waitForCalls(1);
    controller.abort("agent gave up");
    const error = await pending;
    expect(error.message).toBe("MCP error -32001: agent gave up");
    await expect.poll(() => server.calls[0].outcome).toBe("cancelled");
    expect(server.calls[0].reason).toBe("cancelled by the client: agent gave up");
    expect(server.calls[0].response).toBeUndefined();
  });
});

describe("hang", () => {
  it("never answers; the SDK client's timeout sends notifications/cancelled and the call ends as cancelled", async () => {
    const server = await mock({ tools: { search: [{ returns: "ok" }, { hang: true }] } });
    const client = await connect(server);
    await client.callTool({ name: "search" });
    const error = await rejection(client.callTool({ name: "search" }, undefined, { timeout: 30 }));
    expect(error.code).toBe(-32001);
    expect(error.message).toBe("MCP error -32001: Request timed out");
    await expect.poll(() => server.callsTo("search")[1].outcome).toBe("cancelled");
    const cancelled = server.messages.find((message) => "method" in message && message.method === "notifications/cancelled");
    expect(cancelled).toMatchObject({ params: { requestId: server.callsTo("search")[1].requestId } });
    // The client still works after the cancelled call (the last step, hang, repeats though).
    expect(await client.ping()).toEqual({});
  });

  it("ends as cancelled when the client aborts, with the client's reason", async () => {
    const server = await mock({ tools: { search: { hang: true } } });
    const client = await connect(server);
    const controller = new AbortController();
    const pending = rejection(client.callTool({ name: "search", arguments: { q: "x" } }, undefined, { signal: controller.signal }));
    await server.waitForCalls(1);
    expect(server.calls[0].outcome).toBe("pending");
    controller.abort("stop");
    expect((await pending).message).toBe("MCP error -32001: stop");
    await expect.poll(() => server.calls[0].outcome).toBe("cancelled");
    expect(server.calls[0].reason).toBe("cancelled by the client: stop");
    expect(server.calls[0].endedAt).toBeGreaterThanOrEqual(server.calls[0].startedAt);
  });

  it("ends as cancelled when the server closes, and the client sees the connection close", async () => {
    const server = await mock({ tools: { search: { hang: true } } });
    const client = await connect(server);
    let closed = false;
    client.onclose = () => (closed = true);
    const pending = rejection(client.callTool({ name: "search" }));
    await server.waitForCalls(1);
    await server.close();
    const error = await pending;
    expect(error.code).toBe(-32000);
    expect(error.message).toBe("MCP error -32000: Connection closed");
    expect(closed).toBe(true);
    expect(server.calls[0].outcome).toBe("cancelled");
    expect(server.calls[0].reason).toBe("the mock server closed");
  });

  it("ends as disconnected when the client closes the connection", async () => {
    const server = await mock({ tools: { search: { hang: true } } });
    const client = await connect(server);
    const pending = rejection(client.callTool({ name: "search" }));
    await server.waitForCalls(1);
    await client.close();
    expect((await pending).message).toBe("MCP error -32000: Connection closed");
    expect(server.calls[0].outcome).toBe("disconnected");
    expect(server.calls[0].reason).toBe("the client closed the connection");
  });
});

describe("result (raw)", () => {
  it("sends exactly this result, unchecked", async () => {
    const server = await mock({ tools: { odd: { result: { content: [{ type: "text", text: "hi" }], extra: [1, 2] } } } });
    const client = await connect(server);
    // The SDK's result schema is loose, so unknown keys get through.
    expect(await client.callTool({ name: "odd" })).toEqual({ content: [{ type: "text", text: "hi" }], extra: [1, 2] });
    expect(server.calls[0].outcome).toBe("result");
  });

  it("a malformed result makes the SDK client reject", async () => {
    const server = await mock({ tools: { bad: [{ result: { content: "not a list" } }, { result: { content: [{ type: "nonsense" }] } }] } });
    const client = await connect(server);
    const first = await rejection(client.callTool({ name: "bad" }));
    // The SDK rejects with zod's error, whose issues point at the bad field.
    expect(first.name).toBe("$ZodError");
    expect(first.issues.map((issue: { path: unknown[] }) => issue.path)).toContainEqual(["content"]);
    const second = await rejection(client.callTool({ name: "bad" }));
    expect(second.name).toBe("$ZodError");
    expect(second.issues.map((issue: { path: unknown[] }) => issue.path[0])).toEqual(expect.arrayContaining(["content"]));
    // The mock recorded what it sent, malformed as it was.
    expect(server.calls.map((call) => call.response)).toEqual([{ result: { content: "not a list" } }, { result: { content: [{ type: "nonsense" }] } }]);
  });

  it("a result that is not an object is sent too; the SDK client cannot even read it as a response and times out", async () => {
    const server = await mock({ tools: { text: { result: "just text" }, empty: { result: null } } });
    const seen: unknown[] = [];
    const errors: string[] = [];
    const client = await connect(server, {
      wrap: (transport) => relay(transport, { incoming: (message) => "result" in message && message.id !== 0 && seen.push(message.result) }),
    });
    client.onerror = (error) => errors.push(error.message);
    const text = await rejection(client.callTool({ name: "text" }, undefined, { timeout: 30 }));
    expect(text.message).toBe("MCP error -32001: Request timed out");
    const empty = await rejection(client.callTool({ name: "empty" }, undefined, { timeout: 30 }));
    expect(empty.message).toBe("MCP error -32001: Request timed out");
    expect(seen).toEqual(["just text", null]);
    expect(errors).toEqual([`Unknown message type: {"jsonrpc":"2.0","id":1,"result":"just text"}`, `Unknown message type: {"jsonrpc":"2.0","id":2,"result":null}`]);
    // The mock recorded the answer it gave; the client's cancellation came after it.
    expect(server.calls.map((call) => [call.outcome, call.response])).toEqual([
      ["result", { result: "just text" }],
      ["result", { result: null }],
    ]);
  });
});

describe("raw", () => {
  it("writes these bytes where the reply would go; text that is not JSON reaches the client's onerror", async () => {
    const server = await mock({ tools: { garbled: { raw: "{not json" } } });
    const client = await connect(server);
    const errors: string[] = [];
    client.onerror = (error) => void errors.push(`${error.name}: ${error.message}`);
    const error = await rejection(client.callTool({ name: "garbled" }, undefined, { timeout: 30 }));
    expect(error.message).toBe("MCP error -32001: Request timed out");
    let parseError = "";
    try {
      JSON.parse("{not json");
    } catch (thrown) {
      parseError = `SyntaxError: ${(thrown as Error).message}`;
    }
    expect(errors).toEqual([parseError]);
    expect(server.calls[0]).toMatchObject({ outcome: "raw", reason: "raw bytes written instead of a JSON-RPC response (raw step)" });
  });

  it("a raw text that is a valid response is read by the client like any other", async () => {
    const server = await mock({
      tools: { handmade: (call) => ({ raw: `{"jsonrpc":"2.0","id":${JSON.stringify(call.requestId)},"result":{"content":[{"type":"text","text":"by hand"}]}}` }) },
    });
    const client = await connect(server);
    expect(await client.callTool({ name: "handmade" })).toEqual({ content: [{ type: "text", text: "by hand" }] });
  });

  it("stream hints are ignored by the memory wire", async () => {
    const server = await mock({ tools: { t: { returns: "plain", stream: { mode: "sse", closeAfterEvents: 0, retryMs: 10 } } } });
    const client = await connect(server);
    expect(texts(await client.callTool({ name: "t" }))).toEqual(["plain"]);
  });
});

describe("disconnect", () => {
  it("drops the connection mid-call: the client sees the close and the call is disconnected", async () => {
    const server = await mock({ tools: { flaky: [{ disconnect: true }, { returns: "back" }] } });
    const client = await connect(server);
    let closed = false;
    client.onclose = () => (closed = true);
    const error = await rejection(client.callTool({ name: "flaky" }));
    expect(error.message).toBe("MCP error -32000: Connection closed");
    expect(closed).toBe(true);
    expect(server.calls[0]).toMatchObject({ outcome: "disconnected", reason: "the mock dropped the connection (disconnect step)" });
    expect(server.calls[0].endedAt).toBeTypeOf("number");

    // A new connection gets the next step.
    const again = await connect(server);
    expect(texts(await again.callTool({ name: "flaky" }))).toEqual(["back"]);
  });

  it("ends the other calls in flight on that connection as disconnected, not other connections' calls", async () => {
    const server = await mock({ tools: { hang: { hang: true }, drop: { delayMs: 10, disconnect: true } } });
    const first = await connect(server);
    const second = await connect(server);
    const hung = rejection(first.callTool({ name: "hang" }));
    const other = second.callTool({ name: "hang" }, undefined, { timeout: 2_000 }).catch((error: Error) => error);
    await server.waitForCalls(2);
    await rejection(first.callTool({ name: "drop" }));
    await hung;
    const byTool = server.calls.map((call) => `${call.tool}#${call.index}:${call.outcome}`);
    expect(byTool).toEqual(["hang#0:disconnected", "hang#1:pending", "drop#0:disconnected"]);
    await second.close();
    await other;
    expect(server.calls[1].outcome).toBe("disconnected");
  });
});

describe("function steps", () => {
  it("works out a step from the call, sync or async", async () => {
    const server = await mock({
      tools: {
        get_weather: (call) => (call.arguments.city === "Paris" ? { returns: { tempC: 21 } } : { toolError: `Unknown city: ${String(call.arguments.city)}` }),
        echo_index: async (call) => {
          await delay(5);
          return { returns: `${call.tool} #${call.index} ${JSON.stringify(call.arguments)}` };
        },
      },
    });
    const client = await connect(server);
    expect(texts(await client.callTool({ name: "get_weather", arguments: { city: "Paris" } }))).toEqual(['{"tempC":21}']);
    expect(await client.callTool({ name: "get_weather", arguments: { city: "Atlantis" } })).toEqual({ content: [{ type: "text", text: "Unknown city: Atlantis" }], isError: true });
    expect(texts(await client.callTool({ name: "echo_index", arguments: { a: 1 } }))).toEqual(['echo_index #0 {"a":1}']);
    expect(texts(await client.callTool({ name: "echo_index" }))).toEqual(["echo_index #1 {}"]);
    expect(server.calls.map((call) => call.outcome)).toEqual(["result", "tool-error", "result", "result"]);
  });

  it("may return any step kind, including delayMs and throws", async () => {
    const server = await mock({
      tools: { t: [() => ({ delayMs: 10, returns: "slow" }), async () => ({ throws: { code: -32050, message: "from a function" } }), () => ({})] },
    });
    const client = await connect(server);
    expect(texts(await client.callTool({ name: "t" }))).toEqual(["slow"]);
    expect((await rejection(client.callTool({ name: "t" }))).message).toBe("MCP error -32050: from a function");
    expect(await client.callTool({ name: "t" })).toEqual({ content: [] });
  });

  it("one that throws gives the client -32603 naming the tool, recorded as protocol-error", async () => {
    const server = await mock({
      tools: {
        sync_throw: () => {
          throw new Error("database is down");
        },
        async_throw: async () => {
          throw "plain string";
        },
      },
    });
    const client = await connect(server);
    const sync = await rejection(client.callTool({ name: "sync_throw" }));
    expect(sync.message).toBe('MCP error -32603: Step function for tool "sync_throw" threw: database is down');
    const async_ = await rejection(client.callTool({ name: "async_throw" }));
    expect(async_.message).toBe('MCP error -32603: Step function for tool "async_throw" threw: plain string');
    expect(server.calls.map((call) => call.outcome)).toEqual(["protocol-error", "protocol-error"]);
  });

  it("one that returns junk gives the client -32603 saying what was wrong", async () => {
    const server = await mock({
      tools: {
        number: (() => 42) as never,
        nothing: (() => undefined) as never,
        typo: (() => ({ retruns: "x" })) as never,
        two: (() => ({ returns: "a", toolError: "b" })) as never,
        // `{ returns }` takes a quick check; a key beside it must still get the full one.
        extra: (() => ({ returns: "a", dleayMs: 5 })) as never,
        // Longer than a timer holds: it would answer at once, so it is refused instead.
        forever: () => ({ returns: "late", delayMs: 3e9 }),
        fn: (() => () => ({ returns: "x" })) as never,
      },
    });
    const client = await connect(server);
    const message = async (name: string) => (await rejection(client.callTool({ name }))).message as string;
    expect(await message("number")).toBe(
      'MCP error -32603: Step function for tool "number" returned an invalid step: The step function of tool "number" must be a step object or a function (call) => step, got number 42.',
    );
    expect(await message("nothing")).toBe(
      'MCP error -32603: Step function for tool "nothing" returned an invalid step: The step function of tool "nothing" must be a step object or a function (call) => step, got nothing.',
    );
    expect(await message("typo")).toBe(
      `MCP error -32603: Step function for tool "typo" returned an invalid step: The step function of tool "typo" has unknown key "retruns"; did you mean "returns"? A step takes ${STEP_KEYS}.`,
    );
    expect(await message("two")).toBe(
      'MCP error -32603: Step function for tool "two" returned an invalid step: The step function of tool "two" gives "returns" and "toolError"; a step gives one answer.',
    );
    expect(await message("extra")).toBe(
      `MCP error -32603: Step function for tool "extra" returned an invalid step: The step function of tool "extra" has unknown key "dleayMs"; did you mean "delayMs"? A step takes ${STEP_KEYS}.`,
    );
    expect(await message("forever")).toBe(
      'MCP error -32603: Step function for tool "forever" returned an invalid step: The step function of tool "forever": "delayMs" must be a number of ms from 0 to 2147483647, got number 3000000000.',
    );
    expect(await message("fn")).toBe('MCP error -32603: Step function for tool "fn" returned an invalid step: a step function must return a step object, not another function');
    expect(server.calls.every((call) => call.outcome === "protocol-error")).toBe(true);
  });

  it("a misspelled key beside a valid one fails the call naming the key and the closest one (TypeScript lets it through: no cast needed)", async () => {
    // TypeScript checks no excess property of an object literal an arrow function returns unless
    // the function declares its return type (test/types/api.test-d.ts); so these compile, and the
    // mock's own check of the returned step is what catches them, sync or async, wherever given.
    const server = await mock({
      tools: {
        sync: (call) => ({ returns: call.tool, dleayMs: 5 }),
        async: async () => ({ returns: "x", hnag: true }),
        listed: [{ returns: "first" }, (call) => ({ returns: call.tool, repaet: 2 })],
        defined: { description: "d", responses: [async () => ({ toolError: "no", strem: { mode: "sse" as const } })] },
      },
    });
    await server.setTool("later", (call) => ({ returns: call.arguments, rwa: "x" }));
    const client = await connect(server);
    const message = async (name: string) => (await rejection(client.callTool({ name }))).message as string;
    const unknownKey = (tool: string, key: string, near: string) =>
      `MCP error -32603: Step function for tool "${tool}" returned an invalid step: The step function of tool "${tool}" has unknown key "${key}"; did you mean "${near}"? A step takes ${STEP_KEYS}.`;
    expect(await message("sync")).toBe(unknownKey("sync", "dleayMs", "delayMs"));
    expect(await message("async")).toBe(unknownKey("async", "hnag", "hang"));
    expect(texts(await client.callTool({ name: "listed" }))).toEqual(["first"]);
    expect(await message("listed")).toBe(unknownKey("listed", "repaet", "repeat"));
    expect(await message("defined")).toBe(unknownKey("defined", "strem", "stream"));
    expect(await message("later")).toBe(unknownKey("later", "rwa", "raw"));
    expect(server.calls.map((call) => call.outcome)).toEqual(["protocol-error", "protocol-error", "result", "protocol-error", "protocol-error", "protocol-error"]);
  });

  it("sees an abort signal when the client cancels, and its late answer is dropped", async () => {
    let aborted = false;
    const server = await mock({
      tools: {
        slow: async (call) => {
          await new Promise<void>((resolve) => call.signal.addEventListener("abort", () => resolve(), { once: true }));
          aborted = true;
          return { returns: "too late" };
        },
      },
    });
    const client = await connect(server);
    const controller = new AbortController();
    const pending = rejection(client.callTool({ name: "slow" }, undefined, { signal: controller.signal }));
    await server.waitForCalls(1);
    controller.abort("enough");
    await pending;
    await expect.poll(() => aborted).toBe(true);
    expect(server.calls[0].outcome).toBe("cancelled");
    expect(server.calls[0].response).toBeUndefined();
  });
});

describe("scripts", () => {
  it("call n takes step n and the last step repeats", async () => {
    const server = await mock({
      tools: { search_issues: [{ returns: [{ id: 1, title: "Bug" }] }, { throws: "rate_limited" }, { returns: "third" }] },
    });
    const client = await connect(server);
    const outcomes: string[] = [];
    for (let i = 0; i < 5; i++) {
      outcomes.push(
        await client.callTool({ name: "search_issues" }).then(
          (result) => texts(result)[0]!,
          (error: Error) => error.message,
        ),
      );
    }
    expect(outcomes).toEqual(['[{"id":1,"title":"Bug"}]', "MCP error -32603: rate_limited", "third", "third", "third"]);
    expect(server.callsTo("search_issues").map((call) => call.index)).toEqual([0, 1, 2, 3, 4]);
  });

  it("repeat: n uses a step for n calls in a row", async () => {
    const server = await mock({
      tools: {
        fetch_page: [{ throws: { code: -32000, message: "upstream timeout" }, repeat: 2 }, { returns: "<html>…</html>" }],
        counter: [{ returns: "a", repeat: 1 }, { returns: "b", repeat: 3 }, { returns: "c" }],
      },
    });
    const client = await connect(server);
    const run = async (name: string, n: number) => {
      const seen: string[] = [];
      for (let i = 0; i < n; i++)
        seen.push(
          await client.callTool({ name }).then(
            (result) => texts(result)[0]!,
            (error: Error) => error.message,
          ),
        );
      return seen;
    };
    expect(await run("fetch_page", 4)).toEqual(["MCP error -32000: upstream timeout", "MCP error -32000: upstream timeout", "<html>…</html>", "<html>…</html>"]);
    expect(await run("counter", 6)).toEqual(["a", "b", "b", "b", "c", "c"]);
  });

  it("a repeated last step keeps repeating past its count", async () => {
    const server = await mock({ tools: { t: [{ returns: "first" }, { returns: "second", repeat: 2 }] } });
    const client = await connect(server);
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) seen.push(texts(await client.callTool({ name: "t" }))[0]!);
    expect(seen).toEqual(["first", "second", "second", "second", "second"]);
  });

  it("a tool without steps answers with an empty result", async () => {
    const server = await mock({ tools: { quiet: {}, described: { description: "no responses given" } } });
    const client = await connect(server);
    expect(await client.callTool({ name: "quiet" })).toEqual({ content: [] });
    expect(await client.callTool({ name: "described" })).toEqual({ content: [] });
  });

  it("scripts are shared by all connections, in call order", async () => {
    const server = await mock({ tools: { t: [{ returns: "1" }, { returns: "2" }, { returns: "3" }] } });
    const a = await connect(server);
    const b = await connect(server);
    expect(texts(await a.callTool({ name: "t" }))).toEqual(["1"]);
    expect(texts(await b.callTool({ name: "t" }))).toEqual(["2"]);
    expect(texts(await a.callTool({ name: "t" }))).toEqual(["3"]);
  });
});

describe("invalid steps are refused at mockMcp()", () => {
  const DEFINITION_KEYS = '"title", "description", "inputSchema", "outputSchema", "annotations", "icons", "_meta", "execution", "responses"';
  const SCHEMA_TYPES = '"string", "number", "integer", "boolean", "object", "array", "null"';
  const cases: [string, unknown, string][] = [
    [
      "an unknown key",
      { t: { retruns: "x" } },
      `[mcp-testkit] Tool "t" has unknown key "retruns"; did you mean "returns"? A tool is a step (${STEP_KEYS}), a list of steps, or a definition (${DEFINITION_KEYS}).`,
    ],
    ["an unknown key in a list of steps", { t: [{ returns: "x" }, { retruns: "x" }] }, `[mcp-testkit] Tool "t" step 2 has unknown key "retruns"; did you mean "returns"? A step takes ${STEP_KEYS}.`],
    [
      "a misspelt definition key alone",
      { t: { descripton: "d" } },
      `[mcp-testkit] Tool "t" has unknown key "descripton"; did you mean "description"? A tool is a step (${STEP_KEYS}), a list of steps, or a definition (${DEFINITION_KEYS}).`,
    ],
    [
      "a misspelt definition key",
      { t: { descripton: "d", responses: { returns: 1 } } },
      `[mcp-testkit] Tool "t" has unknown key "descripton"; did you mean "description"? A tool definition takes ${DEFINITION_KEYS}.`,
    ],
    ["hang as text", { t: { hang: "yes" } }, `[mcp-testkit] Tool "t"'s step: "hang" must be true or false, got "yes".`],
    ["disconnect as a number", { t: [{ disconnect: 1 }] }, `[mcp-testkit] Tool "t"'s step: "disconnect" must be true or false, got number 1.`],
    ["a description that is not text", { t: { description: 5 } }, `[mcp-testkit] Tool "t": "description" must be a string, got number 5.`],
    [
      "a misspelt JSON Schema type",
      { t: { inputSchema: { type: "object", properties: { city: { type: "strin" } } } } },
      `[mcp-testkit] Tool "t": inputSchema.properties.city.type is "strin", which is not a JSON Schema type; did you mean "string"? Types are ${SCHEMA_TYPES}.`,
    ],
    [
      "a nested unknown JSON Schema type",
      { t: { outputSchema: { type: "object", properties: { list: { type: "array", items: { type: ["number", "float"] } } } } } },
      `[mcp-testkit] Tool "t": outputSchema.properties.list.items.type is "float", which is not a JSON Schema type. Types are ${SCHEMA_TYPES}.`,
    ],
    ["required that is not a list", { t: { inputSchema: { type: "object", required: "city" } } }, `[mcp-testkit] Tool "t": inputSchema.required must be a list of property names, got "city".`],
    ["two answers", { t: { returns: "x", throws: "y" } }, `[mcp-testkit] Tool "t"'s step gives "returns" and "throws"; a step gives one answer.`],
    ["a negative delay", { t: { delayMs: -1 } }, `[mcp-testkit] Tool "t"'s step: "delayMs" must be a number of ms from 0 to 2147483647, got number -1.`],
    ["a delay as text", { t: { delayMs: "100" } }, `[mcp-testkit] Tool "t"'s step: "delayMs" must be a number of ms from 0 to 2147483647, got "100".`],
    [
      "a delay longer than a timer holds (it would fire at once)",
      { t: { delayMs: 3e9 } },
      `[mcp-testkit] Tool "t"'s step: "delayMs" must be a number of ms from 0 to 2147483647, got number 3000000000.`,
    ],
    ["repeat: 0", { t: [{ returns: "a", repeat: 0 }] }, `[mcp-testkit] Tool "t"'s step: "repeat" must be a whole number of calls, 1 or more, got number 0.`],
    ["repeat: 1.5", { t: [{ returns: "a" }, { returns: "b", repeat: 1.5 }] }, `[mcp-testkit] Tool "t" step 2: "repeat" must be a whole number of calls, 1 or more, got number 1.5.`],
    ["a toolError that is not a string", { t: { toolError: 404 } }, `[mcp-testkit] Tool "t"'s step: "toolError" must be a string, got number 404.`],
    ["throws without a message", { t: { throws: { code: -32000 } } }, `[mcp-testkit] Tool "t"'s step: "throws" must be a message string or { code?: integer, message: string, data? }, got an object.`],
    [
      "throws with a fractional code",
      { t: { throws: { code: 1.5, message: "x" } } },
      `[mcp-testkit] Tool "t"'s step: "throws" must be a message string or { code?: integer, message: string, data? }, got an object.`,
    ],
    ["content that is not a list", { t: { content: { type: "text", text: "x" } } }, `[mcp-testkit] Tool "t"'s step: "content" must be an array of content blocks, got an object.`],
    ["structuredContent without content", { t: { structuredContent: { a: 1 } } }, `[mcp-testkit] Tool "t"'s step has "structuredContent" without "content"; send both, or use "returns".`],
    [
      "structuredContent beside returns",
      { t: { returns: "x", structuredContent: { a: 1 } } },
      `[mcp-testkit] Tool "t"'s step gives "returns" and "structuredContent"; "returns" makes the whole result (a value the tool's outputSchema admits is also its structuredContent), so give it alone, or "content" with "structuredContent".`,
    ],
    [
      "broadcast that is not a list",
      { t: { broadcast: { method: "notifications/tools/list_changed" } } },
      `[mcp-testkit] Tool "t"'s step: "broadcast" must be a list of { method, params? } notifications to send every client, got an object.`,
    ],
    [
      "a broadcast of a misspelt notification",
      { t: { broadcast: [{ method: "notifications/tool/list_changed" }] } },
      `[mcp-testkit] Tool "t"'s step: broadcast[0]: "method" must be one of "notifications/tools/list_changed", "notifications/resources/list_changed", "notifications/prompts/list_changed", "notifications/resources/updated" (what a server tells every client when something changed), got "notifications/tool/list_changed"; did you mean "notifications/tools/list_changed"?`,
    ],
    [
      "a resource update that names no resource",
      { t: { broadcast: [{ method: "notifications/resources/updated" }] } },
      `[mcp-testkit] Tool "t"'s step: broadcast[0]: notifications/resources/updated names the resource that changed: give params: { uri: "…" }.`,
    ],
    ["endSubscriptions as text", { t: { endSubscriptions: "yes" } }, `[mcp-testkit] Tool "t"'s step: "endSubscriptions" must be true or false, got "yes".`],
    ["raw that is not a string", { t: { raw: 5 } }, `[mcp-testkit] Tool "t"'s step: "raw" must be a string (the bytes to write), got number 5.`],
    ["raw with another answer", { t: { raw: "x", result: {} } }, `[mcp-testkit] Tool "t"'s step gives "result" and "raw"; a step gives one answer.`],
    [
      "stream hints of the wrong shape",
      { t: { returns: 1, stream: { mode: "xml" } } },
      `[mcp-testkit] Tool "t"'s step: "stream" must be { mode?: "json" | "sse", closeAfterEvents?: whole number, retryMs?: whole number of ms }, got an object.`,
    ],
    ["an empty list", { t: [] }, `[mcp-testkit] Tool "t" has an empty list of steps; give at least one.`],
    ["a step that is a number", { t: [{ returns: 1 }, 5] }, `[mcp-testkit] Tool "t" step 2 must be a step object or a function (call) => step, got number 5.`],
    ["a null step", { t: null }, `[mcp-testkit] Tool "t"'s step must be a step object or a function (call) => step, got null.`],
    ["a definition mixed with steps", { t: { description: "d", returns: "x" } }, `[mcp-testkit] Tool "t" mixes a definition with "returns". Put steps under "responses".`],
    ["a definition with a stray key", { t: { description: "d", colour: "red" } }, `[mcp-testkit] Tool "t" has unknown key "colour". A tool definition takes ${DEFINITION_KEYS}.`],
    ["an inputSchema that is not an object", { t: { inputSchema: "object" } }, `[mcp-testkit] Tool "t": "inputSchema" must be an object, got "object".`],
    [
      "a bad step inside responses",
      { t: { description: "d", responses: [{ returns: 1 }, { hang: true, disconnect: true }] } },
      `[mcp-testkit] Tool "t" step 2 gives "hang" and "disconnect"; a step gives one answer.`,
    ],
  ];

  it.each(cases)("%s", async (_label, tools, message) => {
    const error = await rejection(mockMcp({ tools: tools as never }));
    expect(error).toBeInstanceOf(McpTestkitError);
    expect(error.message).toBe(message);
  });

  it("tools must be an object keyed by name", async () => {
    const error = await rejection(mockMcp({ tools: [{ returns: 1 }] as never }));
    expect(error.message).toBe('[mcp-testkit] "tools" must be an object keyed by name, got an array.');
  });

  it("setTool() refuses a bad step the same way, and keeps the old tool", async () => {
    const server = await mock({ tools: { t: { returns: "old" } } });
    const client = await connect(server);
    const error = await rejection(server.setTool("t", { returns: "x", hang: true } as never));
    expect(error).toBeInstanceOf(McpTestkitError);
    expect(error.message).toBe(`[mcp-testkit] Tool "t"'s step gives "returns" and "hang"; a step gives one answer.`);
    expect(texts(await client.callTool({ name: "t" }))).toEqual(["old"]);
  });

  it("an unknown transport is refused", async () => {
    const error = await rejection(mockMcp({ transport: "carrier-pigeon" as never }));
    expect(error).toBeInstanceOf(McpTestkitError);
    expect(error.message).toBe('[mcp-testkit] Unknown transport "carrier-pigeon"; use one of "memory", "http", "stdio".');
  });
});
