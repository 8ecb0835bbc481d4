/**
 * Structured output of any JSON type (2026-07-28: `structuredContent` may be any JSON value and a
 * tool's `outputSchema` any schema) beside legacy clients on the same mock: an SDK v2 client
 * pinned to 2026-07-28 gets the array schema and the array result, while an SDK v1 client
 * (2025-11-25, where both are objects) is shown the tool without that schema and gets its
 * result without that structured content, so neither client trips on the other's revision.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import "../../src/matchers/vitest.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { mcpConnect, mockMcp, recordMcp, validateMessage } from "../../src/index.js";
import { MODERN, useV2Cleanup, v2Client } from "./support.js";

useV2Cleanup();

const arrayOutput = { type: "array", items: { type: "object", properties: { city: { type: "string" } } } };
const tools = {
  cities: { outputSchema: arrayOutput, responses: { returns: [{ city: "Rome" }, { city: "Oslo" }] } },
  count: { outputSchema: { type: "integer" }, responses: { content: [{ type: "text", text: "3" }], structuredContent: 3 } },
  report: { outputSchema: { type: "object", properties: { ok: { type: "boolean" } } }, responses: { returns: { ok: true } } },
  // An object schema does not take a string as structured content, in either era.
  mislabelled: { outputSchema: { type: "object" }, responses: { returns: "just text" } },
};

async function clients() {
  const server = await mockMcp({ transport: "memory", tools });
  const modern = v2Client({ capabilities: {} });
  await modern.connect(await server.connectInMemory());
  const legacy = new Client({ name: "legacy", version: "1.0.0" });
  await legacy.connect(await server.connectInMemory());
  return { server, modern, legacy };
}

describe("structured output of any JSON type", () => {
  it("2026-07-28: the array schema is listed, and an array or a number goes out as structuredContent", async () => {
    const { server, modern, legacy } = await clients();
    try {
      expect(modern.getProtocolEra?.()).toBe("modern");
      const listed = Object.fromEntries((await modern.listTools()).tools.map((tool) => [tool.name, tool.outputSchema]));
      expect(listed).toMatchObject({ cities: arrayOutput, count: { type: "integer" }, report: { type: "object" } });
      expect(await modern.callTool({ name: "cities", arguments: {} })).toMatchObject({
        structuredContent: [{ city: "Rome" }, { city: "Oslo" }],
        content: [{ type: "text", text: '[{"city":"Rome"},{"city":"Oslo"}]' }],
      });
      expect((await modern.callTool({ name: "count", arguments: {} })).structuredContent).toBe(3);
      expect((await modern.callTool({ name: "report", arguments: {} })).structuredContent).toEqual({ ok: true });
      expect(await modern.callTool({ name: "mislabelled", arguments: {} }).catch((error: Error) => error.message)).toContain("has an output schema but did not return structured content");
      expect(server.calls.at(-1)!.response).toMatchObject({ result: { content: [{ type: "text", text: "just text" }] } });
      expect(server.calls.at(-1)!.response!.result).not.toHaveProperty("structuredContent");
      await legacy.close();
    } finally {
      await server.close();
    }
  });

  it("a legacy client is shown the tool without the non-object schema, and gets the result without the non-object structuredContent", async () => {
    const { server, legacy } = await clients();
    const sent: unknown[] = [];
    server.on("request:end", (event) => void (event.method === "tools/call" && sent.push(event.result)));
    try {
      const listed = Object.fromEntries((await legacy.listTools()).tools.map((tool) => [tool.name, tool.outputSchema]));
      expect(listed).toEqual({ cities: undefined, count: undefined, report: { type: "object", properties: { ok: { type: "boolean" } } }, mislabelled: { type: "object" } });
      const cities = await legacy.callTool({ name: "cities", arguments: {} });
      expect(cities).toEqual({ content: [{ type: "text", text: '[{"city":"Rome"},{"city":"Oslo"}]' }] });
      expect(await legacy.callTool({ name: "count", arguments: {} })).toEqual({ content: [{ type: "text", text: "3" }] });
      expect((await legacy.callTool({ name: "report", arguments: {} })).structuredContent).toEqual({ ok: true });
      // The SDK v1 client checks structured content against the schema it was shown: it must not see an object schema with no structured content.
      expect(await legacy.callTool({ name: "mislabelled", arguments: {} }).catch((error: Error) => error.message)).toContain("has an output schema but did not return structured content");
      // What the legacy client was sent is valid for its revision.
      expect(sent).toHaveLength(4);
      for (const result of sent) expect(validateMessage({ jsonrpc: "2.0", id: 1, result }, { direction: "server-to-client", protocolVersion: "2025-11-25", requestMethod: "tools/call" })).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("the validator takes an array outputSchema and array structuredContent in 2026-07-28 only", () => {
    const list = { jsonrpc: "2.0", id: 1, result: { tools: [{ name: "cities", inputSchema: { type: "object" }, outputSchema: arrayOutput }] } };
    const legacyProblems = validateMessage(list, { direction: "server-to-client", protocolVersion: "2025-11-25", requestMethod: "tools/list" });
    expect(legacyProblems.map((problem) => problem.path)).toEqual(["$.result.tools[0].outputSchema.type"]);
    const modernList = { ...list, result: { ...list.result, resultType: "complete", ttlMs: 0, cacheScope: "private" } };
    expect(validateMessage(modernList, { direction: "server-to-client", protocolVersion: MODERN, requestMethod: "tools/list" })).toEqual([]);
  });

  it("a schema that names no root type takes an object only: a string is never its structured content", async () => {
    await using server = await mockMcp({
      transport: "memory",
      tools: { either: { outputSchema: { anyOf: [{ type: "object" }, { type: "array" }] }, responses: [{ returns: "plain text" }, { returns: { ok: 1 } }] } },
    });
    const sent: unknown[] = [];
    server.on("request:end", (event) => void (event.method === "tools/call" && sent.push(event.result)));
    const meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} };
    for (let id = 1; id <= 2; id++) await server.handle(JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "either", _meta: meta } }));
    expect(sent).toMatchObject([{ content: [{ text: "plain text" }] }, { structuredContent: { ok: 1 } }]);
    expect(sent[0]).not.toHaveProperty("structuredContent");
  });
});

describe("structured output of any JSON type, through the driver", () => {
  it("the driver (2026-07-28) hands back the array as structuredContent, matched with toHaveStructuredContent; in legacy, the text alone", async () => {
    await using server = await mockMcp({ tools: { cities: tools.cities } });
    await using modern = mcpConnect(server.url!);
    const result = await modern.callTool("cities", {});
    expect(modern.protocolVersion).toBe(MODERN);
    expectTypeOf(result.structuredContent).toEqualTypeOf<unknown>();
    expect(result.structuredContent).toEqual([{ city: "Rome" }, { city: "Oslo" }]);
    expect(result).toHaveStructuredContent([{ city: "Rome" }, { city: expect.any(String) }]);
    await using legacy = mcpConnect(server.url!, { versionNegotiation: "legacy" });
    const old = await legacy.callTool("cities", {});
    expect(old.structuredContent).toBeUndefined();
    expect(old.getTextContent()).toBe('[{"city":"Rome"},{"city":"Oslo"}]');
  });
});

describe("structured output of any JSON type, recorded and served from fixtures", () => {
  it("a recording of a 2026-07-28 server's array result loads, and replays to both eras in their own form", async () => {
    await using upstreamServer = await mockMcp({ tools: { cities: tools.cities } });
    await using upstream = mcpConnect(upstreamServer.url!);
    await using recording = await recordMcp(upstream, { mock: { transport: "memory" } });
    const agent = v2Client({ capabilities: {} });
    await agent.connect(await recording.server.connectInMemory());
    expect((await agent.callTool({ name: "cities", arguments: {} })).structuredContent).toEqual([{ city: "Rome" }, { city: "Oslo" }]);
    expect(upstream.protocolVersion).toBe(MODERN);

    // A recorded call answers once (one fixture entry per call): one replay per era.
    for (const saved of [recording.scenario(), { fixtures: (recording.fixture() as { mcpFakes: unknown }).mcpFakes }]) {
      await using toModern = await mockMcp({ transport: "memory", ...(saved as object) });
      const modern = v2Client({ capabilities: {} });
      await modern.connect(await toModern.connectInMemory());
      expect((await modern.callTool({ name: "cities", arguments: {} })).structuredContent).toEqual([{ city: "Rome" }, { city: "Oslo" }]);
      await using toLegacy = await mockMcp({ transport: "memory", ...(saved as object) });
      const legacy = new Client({ name: "legacy", version: "1.0.0" });
      await legacy.connect(await toLegacy.connectInMemory());
      expect((await legacy.listTools()).tools[0]).not.toHaveProperty("outputSchema");
      expect(await legacy.callTool({ name: "cities", arguments: {} })).toEqual({ content: [{ type: "text", text: '[{"city":"Rome"},{"city":"Oslo"}]' }] });
      await legacy.close();
    }
  });
});
