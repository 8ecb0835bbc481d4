/**
 * The kit's test id: `mcpTestKit({ testId: true })` sends the current Vitest test's full name,
 * so fixtures scoped to a test's name answer that test with no headers; `testId: "…"` sends a
 * given id; `server.connectInMemory({ testId, context, undeclared })` underneath.
 */
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mockMcp } from "../../src/index.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createTestKit, mcpTestKit } from "../../src/testing/index.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/test-id-fixtures.json", import.meta.url));
const quiet = { logger: () => undefined };

function textOf(result: Awaited<ReturnType<Client["callTool"]>>): unknown {
  return (result.content as Array<{ text?: string }>)[0]?.text;
}

describe("kit with testId true", () => {
  const kit = mcpTestKit({ testId: true, fixtures: FIXTURE, fakesOptions: quiet, tools: { search: { returns: "scripted" } } }, { beforeEach, afterEach });

  it("answers from the fixture scoped to this test's name", async () => {
    expect(textOf(await kit.client.callTool({ name: "search", arguments: { q: "refund" } }))).toBe("first test's answer");
    expect(kit.server.calls[0].identity?.testId).toBe("kit with testId true > answers from the fixture scoped to this test's name");
    expect(() => kit.server.fakes.assertConsumed({ testId: expect.getState().currentTestName })).not.toThrow();
  });

  it("gives another test its own entries", async () => {
    expect(textOf(await kit.client.callTool({ name: "search", arguments: { q: "refund" } }))).toBe("second test's answer");
    await expect(kit.client.callTool({ name: "search", arguments: { q: "refund" } })).rejects.toMatchObject({ data: { mcpTestkit: { code: "MCP_FAKE_EXHAUSTED" } } });
  });

  it("leaves a test no fixture names to the tool's own script", async () => {
    expect(textOf(await kit.client.callTool({ name: "search", arguments: { q: "refund" } }))).toBe("scripted");
  });
});

describe("kit with a given testId", () => {
  it("sends it for every request of the session", async () => {
    await using kit = await createTestKit({ testId: "given › id", fixtures: FIXTURE, fakesOptions: quiet });
    expect((await kit.client.listTools()).tools.map((tool) => tool.name)).toEqual(["search"]);
    expect(textOf(await kit.client.callTool({ name: "search", arguments: { q: "x" } }))).toBe("given id's answer");
    expect(kit.server.fakes.journal.entries({ testId: "given › id" }).map((entry) => entry.method)).toEqual(["initialize", "tools/list", "tools/call"]);
  });

  it.each([
    ["", 'The kit\'s "testId" must be true (the current test\'s full name) or a non-empty string, got "".'],
    [false, "The kit's \"testId\" must be true (the current test's full name) or a non-empty string, got false."],
  ])("refuses testId %j before starting a server", async (testId, message) => {
    await expect(createTestKit({ testId: testId as never })).rejects.toThrow(message);
  });

  it("refuses testId: true when the runner says no test name, and says what to do", async () => {
    const globals = globalThis as Record<PropertyKey, unknown>;
    const saved = globals[Symbol.for("expect-global")];
    globals[Symbol.for("expect-global")] = undefined;
    try {
      await expect(createTestKit({ testId: true })).rejects.toThrow('Give the test id as a string instead: testId: "tickets > retry on timeout".');
    } finally {
      globals[Symbol.for("expect-global")] = saved;
    }
  });
});

describe("connectInMemory identity", () => {
  it("carries context and the undeclared override like the X-Test-* headers", async () => {
    const server = await mockMcp({
      transport: "memory",
      fakesOptions: quiet,
      tools: { other: { returns: "own" } },
      fixtures: { scope: { context: "ctx" }, tools: [{ name: "search", calls: [{ anyArgs: true, result: "in context" }] }] },
    });
    try {
      const client = new Client({ name: "in-memory", version: "1.0.0" });
      await client.connect(await server.connectInMemory({ context: "ctx", undeclared: "deny" }));
      expect(textOf(await client.callTool({ name: "search", arguments: {} }))).toBe("in context");
      await expect(client.callTool({ name: "other", arguments: {} })).rejects.toMatchObject({ data: { mcpTestkit: { code: "MCP_FAKE_NOT_DECLARED" } } });
      await client.close();
    } finally {
      await server.close();
    }
  });

  it.each([
    [{ testid: "x" }, 'unknown key "testid"'],
    [{ testId: 1 }, 'connectInMemory(identity): "testId" must be a string, got'],
    [{ context: "" }, 'connectInMemory(identity): "context" is an empty string; leave it out for none'],
    [{ undeclared: "maybe" }, 'connectInMemory(identity): "undeclared" must be "allow" or "deny", got "maybe".'],
    ["id", "connectInMemory(identity): expected an object { testId?, context?, undeclared? }, got"],
  ])("refuses %j", async (identity, message) => {
    const server = await mockMcp({ transport: "memory" });
    try {
      await expect(server.connectInMemory(identity as never)).rejects.toThrow(message);
    } finally {
      await server.close();
    }
  });
});

// The example fixtures are scoped to the names the kit sends (`describe > test`), so copying one
// next to a test of that name answers it.
const EXAMPLE_TICKETS = fileURLToPath(new URL("../../examples/fixtures/tickets", import.meta.url));

describe("tickets", () => {
  const kit = mcpTestKit({ testId: true, fixtures: EXAMPLE_TICKETS, fakesOptions: quiet }, { beforeEach, afterEach });

  it("retry on timeout", async () => {
    const first = await kit.client.callTool({ name: "create_ticket", arguments: { title: "Refund" } });
    expect(first.isError).toBe(true);
    const retry = await kit.client.callTool({ name: "create_ticket", arguments: { title: "Refund" } });
    expect(retry.structuredContent).toEqual({ ticket: "T-1042", status: "open" });
    expect(() => kit.server.fakes.assertConsumed({ testId: "tickets > retry on timeout" })).not.toThrow();
  });
});
