/**
 * A mock's life: connecting, closing (pending calls end as cancelled, the mock refuses further
 * use), `await using`, and the JSON round trip of the memory wire (no shared objects, and a value
 * JSON cannot carry fails where it can be seen).
 */
import { describe, expect, it } from "vitest";
import { McpTestkitError, mockMcp } from "../../src/index.js";
import { connect, connectWithSession, mock, useCleanup } from "./support.js";

useCleanup();

async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection, but the promise resolved");
}

describe("close()", () => {
  it("ends every pending call as cancelled, closes every client, and refuses further use", async () => {
    const server = await mock({ tools: { hang: { hang: true }, slow: { delayMs: 10_000, returns: "late" } } });
    const a = await connect(server);
    const b = await connect(server);
    const closed = { a: false, b: false };
    a.onclose = () => (closed.a = true);
    b.onclose = () => (closed.b = true);
    const pending = [rejection(a.callTool({ name: "hang" })), rejection(b.callTool({ name: "slow" })), server.handle('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hang"}}')];
    await server.waitForCalls(3);

    await server.close();
    const [errorA, errorB, direct] = await Promise.all(pending);
    expect([errorA.message, errorB.message]).toEqual(["MCP error -32000: Connection closed", "MCP error -32000: Connection closed"]);
    expect(direct).toBeNull();
    expect(closed).toEqual({ a: true, b: true });
    expect(server.calls.map((call) => [call.tool, call.outcome, call.reason])).toEqual([
      ["hang", "cancelled", "the mock server closed"],
      ["slow", "cancelled", "the mock server closed"],
      ["hang", "cancelled", "the mock server closed"],
    ]);
    for (const call of server.calls) expect(call.endedAt).toBeGreaterThanOrEqual(call.startedAt);

    const connectError = await rejection(server.connectInMemory());
    expect(connectError).toBeInstanceOf(McpTestkitError);
    expect(connectError.message).toBe("[mcp-testkit] connectInMemory() was called after close(); create a new mock with mockMcp().");
    const handleError = await rejection(server.handle('{"jsonrpc":"2.0","id":2,"method":"ping"}'));
    expect(handleError).toBeInstanceOf(McpTestkitError);
    expect(handleError.message).toBe("[mcp-testkit] handle() was called after close(); create a new mock with mockMcp().");
  });

  it("keeps the record readable after close, and a second close does nothing", async () => {
    const server = await mock({ tools: { t: { returns: "ok" } } });
    const client = await connect(server);
    await client.callTool({ name: "t", arguments: { a: 1 } });
    await server.close();
    await server.close();
    expect(server.calls.map((call) => call.arguments)).toEqual([{ a: 1 }]);
    expect(() => server.assertCalled("t", { times: 1 })).not.toThrow();
  });

  it("a client that closed first is not disturbed by the server closing later", async () => {
    const server = await mock({ tools: { t: { hang: true } } });
    const client = await connect(server);
    const pending = rejection(client.callTool({ name: "t" }));
    await server.waitForCalls(1);
    await client.close();
    await pending;
    await server.close();
    expect(server.calls[0].outcome).toBe("disconnected");
  });

  it("a client closing ends only its own session", async () => {
    const server = await mock({ tools: { t: { returns: "ok" } } });
    const first = await connectWithSession(server);
    const second = await connectWithSession(server);
    await first.client.close();
    expect(await second.client.callTool({ name: "t" })).toEqual({ content: [{ type: "text", text: "ok" }] });
    expect(server.calls[0].sessionId).toBe(second.sessionId);
  });
});

describe("await using", () => {
  it("closes the mock at the end of the block", async () => {
    let escaped: Awaited<ReturnType<typeof mockMcp>> | undefined;
    const outcomes: string[] = [];
    {
      await using server = await mockMcp({ transport: "memory", tools: { hang: { hang: true } } });
      escaped = server;
      const client = await connect(server);
      void client.callTool({ name: "hang" }).catch((error: Error) => outcomes.push(error.message));
      await server.waitForCalls(1);
    }
    expect(escaped.calls[0].outcome).toBe("cancelled");
    await expect.poll(() => outcomes).toEqual(["MCP error -32000: Connection closed"]);
    await expect(escaped.connectInMemory()).rejects.toThrow("[mcp-testkit] connectInMemory() was called after close()");
  });

  it("closes the mock when the block throws too", async () => {
    let escaped: Awaited<ReturnType<typeof mockMcp>> | undefined;
    await expect(
      (async () => {
        await using server = await mockMcp({ http: false });
        escaped = server;
        throw new Error("test body failed");
      })(),
    ).rejects.toThrow("test body failed");
    await expect(escaped!.handle("{}")).rejects.toThrow("[mcp-testkit] handle() was called after close()");
  });
});

describe("the JSON round trip", () => {
  it("the client never receives an object the mock holds, nor the mock one the client holds", async () => {
    const shared = { items: [{ id: 1 }], nested: { deep: true } };
    const server = await mock({ tools: { t: { returns: shared }, c: { content: [{ type: "text", text: "x" }], structuredContent: shared } } });
    const client = await connect(server);

    const result = await client.callTool({ name: "c" });
    expect(result.structuredContent).toEqual(shared);
    expect(result.structuredContent).not.toBe(shared);
    (result.structuredContent as typeof shared).items.push({ id: 2 });
    // The mock's own value did not change, so the next call gets the same answer.
    expect(shared.items).toEqual([{ id: 1 }]);
    expect((await client.callTool({ name: "c" })).structuredContent).toEqual({ items: [{ id: 1 }], nested: { deep: true } });

    const args = { filters: { labels: ["a"] } };
    await client.callTool({ name: "t", arguments: args });
    args.filters.labels.push("changed after sending");
    expect(server.callsTo("t")[0].arguments).toEqual({ filters: { labels: ["a"] } });
  });

  it("what JSON turns into something else arrives as JSON made it: a Date as text, undefined dropped", async () => {
    const when = new Date("2025-01-02T03:04:05.000Z");
    const server = await mock({ tools: { t: { content: [{ type: "text", text: "x" }], structuredContent: { when, gone: undefined, n: NaN } as never } } });
    const client = await connect(server);
    expect((await client.callTool({ name: "t" })).structuredContent).toEqual({ when: "2025-01-02T03:04:05.000Z", n: null });
  });

  const UNSERIALIZABLE_BIG =
    'Internal error: the answer to tools/call "big" cannot be serialized: Do not know how to serialize a BigInt. JSON carries no BigInt and no cycle: send a BigInt as a number or a string, and break the cycle';

  it.each([
    ["returns", { returns: { count: 10n } }],
    ["a step function's returns", () => ({ returns: 10n })],
    ["content", { content: [{ type: "text", text: "x", count: 10n }] }],
    ["raw result", { result: { content: [], count: 10n } }],
    ["throws data", { throws: { message: "x", data: { count: 10n } } }],
  ])("a BigInt in %s fails visibly: the client gets -32603 and the call is a protocol-error", async (_label, step) => {
    const server = await mock({ tools: { big: step as never } });
    const client = await connect(server);
    const error = await rejection(client.callTool({ name: "big" }, undefined, { timeout: 2_000 }));
    expect(error.code).toBe(-32603);
    expect(error.message).toBe(`MCP error -32603: ${UNSERIALIZABLE_BIG}`);
    expect(server.calls[0].outcome).toBe("protocol-error");
    expect(server.calls[0].response).toEqual({ error: { code: -32603, message: UNSERIALIZABLE_BIG } });
    // Through handle() the same.
    const reply = JSON.parse((await server.handle('{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"big"}}'))!);
    expect(reply.error).toEqual({ code: -32603, message: UNSERIALIZABLE_BIG });
  });

  it("a cycle in a step result fails visibly too", async () => {
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    const server = await mock({ tools: { loop: { result: cyclic } } });
    const client = await connect(server);
    const error = await rejection(client.callTool({ name: "loop" }, undefined, { timeout: 2_000 }));
    expect(error.code).toBe(-32603);
    expect(error.message).toMatch(/^MCP error -32603: Internal error: the answer to tools\/call "loop" cannot be serialized: Converting circular structure to JSON --> starting at object/);
    expect(server.calls[0].outcome).toBe("protocol-error");
  });

  it("a BigInt in another answer (a resource read) reaches the SDK client as -32603, not as silence", async () => {
    const server = await mock({ resources: { "x://big": { read: () => ({ text: "x", _meta: { n: 1n } }) } } });
    const client = await connect(server);
    const error = await rejection(client.readResource({ uri: "x://big" }, { timeout: 2_000 }));
    expect(error.code).toBe(-32603);
    expect(error.message).toBe(
      'MCP error -32603: Internal error: the answer to resources/read "x://big" cannot be serialized: Do not know how to serialize a BigInt. JSON carries no BigInt and no cycle: send a BigInt as a number or a string, and break the cycle',
    );
    // The connection is still good.
    expect(await client.ping()).toEqual({});
  });
});
