/**
 * A step's `asks`: requests the mock makes of the client before the step answers, as data (a
 * JSON scenario, a fixture file, a replayed recording). The same step works in both eras: the
 * SDK v1 client gets server requests on its connection; the SDK v2 client pinned to 2026-07-28
 * gets one input_required round per ask and retries. The step answers whatever the client said,
 * and the call record keeps each exchange.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ElicitRequestSchema, ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { mockMcp, type MockMcpServer } from "../../src/index.js";
import { MODERN, useV2Cleanup, v2Client } from "../modern/support.js";

useV2Cleanup();
const open: Array<MockMcpServer | Client> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

const nameQuestion = { message: "Your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } };
const scenario = {
  tools: {
    sign_up: { asks: [{ method: "elicitation/create", params: nameQuestion }, { method: "roots/list" }], returns: "signed up" },
  },
};

async function legacyClient(server: MockMcpServer, answers: { elicit: () => Record<string, unknown> }) {
  const client = new Client({ name: "agent", version: "1.0.0" }, { capabilities: { elicitation: {}, roots: {} } });
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(`elicit ${request.params.message}`);
    return answers.elicit() as never;
  });
  client.setRequestHandler(ListRootsRequestSchema, async () => {
    asked.push("roots");
    return { roots: [{ uri: "file:///work" }] };
  });
  await client.connect(await server.connectInMemory());
  open.push(client);
  return { client, asked };
}

describe("a step's asks", () => {
  it("legacy era: each ask reaches the client in turn, then the step answers; the call record keeps the exchanges", async () => {
    const server = await mockMcp({ transport: "memory", ...scenario });
    open.push(server);
    const { client, asked } = await legacyClient(server, { elicit: () => ({ action: "accept", content: { name: "Ada" } }) });
    const result = await client.callTool({ name: "sign_up", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "signed up" }]);
    expect(asked).toEqual(["elicit Your name?", "roots"]);
    expect(server.calls[0]).toMatchObject({
      outcome: "result",
      exchanges: [
        { method: "elicitation/create", params: nameQuestion, result: { action: "accept", content: { name: "Ada" } } },
        { method: "roots/list", result: { roots: [{ uri: "file:///work" }] } },
      ],
    });
  });

  it("an error the client answers with does not stop the step: the next ask and the answer still go, and the exchange keeps the error", async () => {
    const server = await mockMcp({ transport: "memory", ...scenario });
    open.push(server);
    const { client, asked } = await legacyClient(server, {
      elicit: () => {
        throw new Error("no form support today");
      },
    });
    const result = await client.callTool({ name: "sign_up", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "signed up" }]);
    expect(asked).toEqual(["elicit Your name?", "roots"]);
    expect(server.calls[0]!.exchanges[0]).toMatchObject({ method: "elicitation/create", error: { message: expect.stringContaining("no form support today") } });
    expect(server.calls[0]!.exchanges[1]).toMatchObject({ method: "roots/list", result: { roots: [{ uri: "file:///work" }] } });
  });

  it("2026-07-28: each ask is one input_required round the SDK v2 client answers and retries; one call is recorded", async () => {
    const server = await mockMcp({ transport: "memory", ...scenario });
    open.push(server);
    const client = v2Client({ capabilities: { elicitation: { form: {} }, roots: {} } });
    const asked: string[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(`elicit ${(request.params as { message: string }).message}`);
      return { action: "decline" };
    });
    client.setRequestHandler("roots/list", async () => {
      asked.push("roots");
      return { roots: [] };
    });
    await client.connect(await server.connectInMemory());
    expect(client.getProtocolEra?.()).toBe("modern");
    const result = await client.callTool({ name: "sign_up", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "signed up" }]);
    expect(asked).toEqual(["elicit Your name?", "roots"]);
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]).toMatchObject({
      protocolVersion: MODERN,
      outcome: "result",
      exchanges: [
        { method: "elicitation/create", result: { action: "decline" } },
        { method: "roots/list", result: { roots: [] } },
      ],
    });
  });

  it("a ping ask pings a legacy client and is skipped in 2026-07-28, which has no ping: one step serves both", async () => {
    const server = await mockMcp({ transport: "memory", tools: { check_in: { asks: [{ method: "ping" }, { method: "roots/list" }], returns: "checked in" } } });
    open.push(server);
    const { client } = await legacyClient(server, { elicit: () => ({ action: "cancel" }) });
    expect((await client.callTool({ name: "check_in", arguments: {} })).content).toEqual([{ type: "text", text: "checked in" }]);
    const modern = v2Client({ capabilities: { roots: {} } });
    modern.setRequestHandler("roots/list", async () => ({ roots: [] }));
    await modern.connect(await server.connectInMemory());
    expect((await modern.callTool({ name: "check_in", arguments: {} })).content).toEqual([{ type: "text", text: "checked in" }]);
    expect(server.calls.map((call) => [call.protocolVersion, call.outcome, call.exchanges.map((exchange) => exchange.method)])).toEqual([
      ["2025-11-25", "result", ["ping", "roots/list"]],
      [MODERN, "result", ["roots/list"]],
    ]);
  });

  it("2026-07-28: a client that lacks the capability an ask needs gets -32021, as with call.elicit()", async () => {
    const server = await mockMcp({ transport: "memory", ...scenario });
    open.push(server);
    const client = v2Client({ capabilities: {} });
    await client.connect(await server.connectInMemory());
    await expect(client.callTool({ name: "sign_up", arguments: {} })).rejects.toThrow(/-32021|Missing required client capability/);
    expect(server.calls[0]).toMatchObject({ outcome: "protocol-error", response: { error: { code: -32021 } } });
  });

  it("a fixture file's fake step can ask too", async () => {
    const server = await mockMcp({
      transport: "memory",
      fixtures: [{ scope: "shared", tools: [{ name: "confirm", calls: [{ anyArgs: true, step: { asks: [{ method: "elicitation/create", params: nameQuestion }], returns: "confirmed" } }] }] }],
    });
    open.push(server);
    const { client, asked } = await legacyClient(server, { elicit: () => ({ action: "cancel" }) });
    const result = await client.callTool({ name: "confirm", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "confirmed" }]);
    expect(asked).toEqual(["elicit Your name?"]);
    expect(server.calls[0]!.exchanges).toMatchObject([{ method: "elicitation/create", result: { action: "cancel" } }]);
  });

  it("an ask that cannot reach the client (handle(), no channel back) fails the call naming the ask", async () => {
    const server = await mockMcp({ transport: "memory", ...scenario });
    open.push(server);
    const reply = JSON.parse((await server.handle(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "sign_up", arguments: {} } })))!);
    expect(reply.error).toEqual({
      code: -32603,
      message: 'The step of tool "sign_up" could not go on: its asks[0] (elicitation/create) got no answer: the client is not connected (or cannot receive server requests on this wire)',
    });
    expect(server.calls[0]).toMatchObject({ outcome: "protocol-error", exchanges: [{ method: "elicitation/create", error: { code: -32000 } }] });
  });

  it("a step function that returns asks is told to ask itself", async () => {
    const server = await mockMcp({ transport: "memory", tools: { f: () => ({ asks: [{ method: "ping" }], returns: "x" }) } });
    open.push(server);
    const { client } = await legacyClient(server, { elicit: () => ({ action: "cancel" }) });
    const result = await client.callTool({ name: "f", arguments: {} }).catch((error: Error) => error.message);
    expect(String(result)).toContain('returned "asks", which is for static steps; a step function asks the client itself');
  });
});
