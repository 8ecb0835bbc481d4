/** Edge cases found in review: cancelled server requests, Date matching, bad `times`, unserializable answers. */
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { matches, McpTestkitError } from "../../src/index.js";
import { connect, delay, mock, useCleanup } from "./support.js";

useCleanup();

describe("a call that ends while the client still owes an answer", () => {
  it("sends notifications/cancelled for the mock's pending request", async () => {
    const server = await mock({
      tools: { ask: async (call) => ({ returns: await call.elicit({ message: "name?", requestedSchema: { type: "object", properties: {} } }).then(() => "answered") }) },
    });
    const cancelledRequests: unknown[] = [];
    const client = await connect(server, { clientOptions: { capabilities: { elicitation: {} } } });
    // The client never answers the elicitation, so the call stays open until the client cancels it.
    client.setRequestHandler(ElicitRequestSchema, () => new Promise(() => undefined));
    const original = client.transport!.onmessage!;
    client.transport!.onmessage = (message) => {
      if ("method" in message && message.method === "notifications/cancelled") cancelledRequests.push(message.params);
      original(message);
    };
    const controller = new AbortController();
    const pending = client.callTool({ name: "ask", arguments: {} }, undefined, { signal: controller.signal });
    await server.waitForCalls(1);
    await delay(10);
    controller.abort("user gave up");
    await expect(pending).rejects.toThrow();
    await delay(10);
    expect(server.calls[0]!.outcome).toBe("cancelled");
    expect(cancelledRequests).toEqual([{ requestId: "mcp-testkit-0", reason: "the tool call ended" }]);
    expect(server.calls[0]!.exchanges[0]).toMatchObject({ method: "elicitation/create", error: { code: -32000 } });
  });
});

describe("matches() with dates", () => {
  it("compares dates by time, not as empty objects", () => {
    expect(matches({ at: new Date(5) }, { at: new Date(5) })).toBe(true);
    expect(matches({ at: new Date(6) }, { at: new Date(5) })).toBe(false);
    expect(matches({ at: { some: "object" } }, { at: new Date(5) })).toBe(false);
  });
});

describe("assertCalled times", () => {
  it("refuses a count that is not a whole number", async () => {
    const server = await mock({ tools: { a: { returns: "x" } } });
    expect(() => server.assertCalled("a", { times: -1 })).toThrow(McpTestkitError);
    expect(() => server.assertCalled("a", { times: 1.5 })).toThrow('assertCalled("a", { times }) needs a whole number of calls, 0 or more; got 1.5.');
    expect(server.assertCalled("a", { times: 0 })).toEqual([]);
  });
});

describe("handle() with an answer JSON cannot carry", () => {
  it("answers -32603 instead of rejecting", async () => {
    const server = await mock({ resources: { "big://n": { read: () => ({ text: 1n as unknown as string }) } } });
    const reply = JSON.parse((await server.handle('{"jsonrpc":"2.0","id":9,"method":"resources/read","params":{"uri":"big://n"}}'))!);
    expect(reply.id).toBe(9);
    expect(reply.error.code).toBe(-32603);
    expect(reply.error.message).toMatch(/cannot be serialized/);
  });
});
