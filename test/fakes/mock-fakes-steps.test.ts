/**
 * Fake entries that answer with a mock step (`step`): delays, hangs the client cancels,
 * dropped connections and JSON-RPC errors, served to real SDK clients over Streamable HTTP,
 * and the load errors of a bad step.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FixtureLoadError, McpFakesAddError, mockMcp, type MockMcpServer } from "../../src/index.js";
import type { McpFakeBlock } from "../../src/fakes/types.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { post, rawSession, rpcRequest, sdkClient, track, useCleanup } from "../wire/support/http.js";

useCleanup();
const logger = () => {};
const TEST_ID = "steps › faults";
const withTestId = { transportOptions: { requestInit: { headers: { "X-Test-Id": encodeURIComponent(TEST_ID) } } } };

async function serveSteps(calls: NonNullable<McpFakeBlock["tools"]>[number]["calls"]): Promise<MockMcpServer & { url: string }> {
  const fixtures: McpFakeBlock = { scope: { testId: TEST_ID }, tools: [{ name: "fetch_page", calls }] };
  return track(await mockMcp({ fakesOptions: { logger }, fixtures })) as MockMcpServer & { url: string };
}

describe("step answers over HTTP", () => {
  it("waits delayMs, then answers, and journals the entry as answered with its reply", async () => {
    const server = await serveSteps([{ id: "slow", anyArgs: true, step: { delayMs: 150, returns: "late page" } }]);
    const { client } = await sdkClient(server.url, withTestId);
    const started = performance.now();
    const result = await client.callTool({ name: "fetch_page", arguments: { url: "https://x" } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(result.content).toEqual([{ type: "text", text: "late page" }]);
    expect(server.calls.map((call) => [call.fake, call.outcome])).toEqual([["code#1:slow", "result"]]);
    const [entry] = server.fakes.journal.entries({ method: "tools/call" });
    expect(entry.response).toMatchObject({ result: { content: [{ type: "text", text: "late page" }] }, mcpFake: { outcome: "answered", entryId: "code#1:slow" } });
  });

  it("hangs until the client's timeout cancels the call, which the record says", async () => {
    const server = await serveSteps([{ id: "stuck", anyArgs: true, step: { hang: true } }]);
    const { client } = await sdkClient(server.url, withTestId);
    await expect(client.callTool({ name: "fetch_page", arguments: {} }, undefined, { timeout: 200 })).rejects.toMatchObject({ code: -32001 });
    const [call] = await server.waitForCalls(1, { ended: true, timeoutMs: 5000 });
    expect(call).toMatchObject({ fake: "code#1:stuck", outcome: "cancelled" });
    const [entry] = server.fakes.journal.entries({ method: "tools/call" });
    expect(entry.response).toEqual({ mcpFake: { outcome: "answered", entryId: "code#1:stuck" } });
  });

  it("drops the connection mid-call", async () => {
    const server = await serveSteps([{ id: "drop", anyArgs: true, step: { disconnect: true } }]);
    const { client } = await sdkClient(server.url, withTestId);
    await expect(client.callTool({ name: "fetch_page", arguments: {} }, undefined, { timeout: 3000 })).rejects.toThrow();
    const [call] = await server.waitForCalls(1, { ended: true, timeoutMs: 5000 });
    expect(call).toMatchObject({ fake: "code#1:drop", outcome: "disconnected" });
  });

  it("throws a JSON-RPC error with its code, then the next entry answers", async () => {
    const server = await serveSteps([
      { id: "down", anyArgs: true, step: { throws: { code: -32001, message: "upstream down", data: { retryAfter: 1 } } } },
      { id: "up", anyArgs: true, result: "page" },
    ]);
    const { client } = await sdkClient(server.url, withTestId);
    await expect(client.callTool({ name: "fetch_page", arguments: {} })).rejects.toMatchObject({ code: -32001, message: expect.stringContaining("upstream down"), data: { retryAfter: 1 } });
    expect((await client.callTool({ name: "fetch_page", arguments: {} })).content).toEqual([{ type: "text", text: "page" }]);
    expect(server.calls.map((call) => [call.fake, call.outcome])).toEqual([
      ["code#1:down", "protocol-error"],
      ["code#1:up", "result"],
    ]);
    const [thrown] = server.fakes.journal.entries({ method: "tools/call" });
    expect(thrown.response).toMatchObject({ error: { code: -32001, message: "upstream down" }, mcpFake: { outcome: "answered", entryId: "code#1:down" } });
  });
});

describe("step answers on the other wires", () => {
  it("writes a raw step's bytes verbatim where the reply would go (HTTP, no SDK: it would refuse them)", async () => {
    const server = track(
      await mockMcp({ fakesOptions: { logger }, fixtures: { scope: "shared", tools: [{ name: "garbage", calls: [{ id: "bytes", anyArgs: true, step: { raw: "not json {" } }] }] } }),
    ) as MockMcpServer & { url: string };
    const { sessionId } = await rawSession(server.url);
    const response = await post(server.url, rpcRequest("tools/call", { name: "garbage" }), { sessionId });
    expect(await response.text()).toBe("not json {");
    expect(server.calls[0]).toMatchObject({ fake: "code#1:bytes" });
  });

  it("delays, then answers, an in-memory client scoped by its identity", async () => {
    const server = track(
      await mockMcp({
        transport: "memory",
        fakesOptions: { logger },
        fixtures: { scope: { testId: TEST_ID }, tools: [{ name: "fetch_page", calls: [{ id: "slow", anyArgs: true, step: { delayMs: 100, toolError: "timed out upstream" } }] }] },
      }),
    );
    const client = new Client({ name: "steps-test", version: "1.0.0" });
    await client.connect(await server.connectInMemory({ testId: TEST_ID }));
    try {
      const result = await client.callTool({ name: "fetch_page", arguments: {} });
      expect(result).toMatchObject({ isError: true, content: [{ type: "text", text: "timed out upstream" }] });
      expect(server.calls[0]).toMatchObject({ fake: "code#1:slow", outcome: "tool-error" });
    } finally {
      await client.close();
    }
  });
});

describe("load errors for a bad step", () => {
  const block = (step: unknown, extra: Record<string, unknown> = {}) => ({ scope: "shared", tools: [{ name: "t", calls: [{ id: "e", anyArgs: true, step, ...extra }] }] }) as never;
  const loadError = async (fixtures: unknown): Promise<FixtureLoadError> => {
    const error = await mockMcp({ transport: "memory", fixtures: fixtures as never }).then(
      (server) => (void server.close(), undefined),
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(FixtureLoadError);
    return error as FixtureLoadError;
  };

  it.each([
    ["a wrong value type", { hang: "yes" }, 'tools[0].calls[0].step: the step: "hang" must be true or false'],
    ["two answers", { returns: "a", raw: "b" }, 'the step gives "returns" and "raw"; a step gives one answer'],
    ["a misspelled key", { delayMS: 10, returns: "a" }, 'unknown step key "delayMS"; did you mean "delayMs"?'],
    ["repeat", { returns: "a", repeat: 2 }, '"repeat" has no meaning in a fake: an entry answers one call'],
    ["a negative delay", { delayMs: -1 }, '"delayMs" must be a number of ms from 0 to 2147483647, got number -1'],
    ["a delay longer than a timer holds", { delayMs: 3e9 }, '"delayMs" must be a number of ms from 0 to 2147483647, got number 3000000000'],
  ])("refuses %s as mcp-fakes/bad-step naming block and entry", async (_what, step, message) => {
    const error = await loadError(block(step));
    expect(error.toJSON()).toMatchObject({ rule: "mcp-fakes/bad-step", blockId: "code#1", entryId: "code#1:e" });
    expect(error.message).toContain(message);
  });

  it("refuses a step beside a result, and a step that is not an object", async () => {
    expect((await loadError(block({ returns: "a" }, { result: "b" }))).message).toContain('has both "result" and "step"; expected exactly one of them');
    const notObject = await loadError(block("hang"));
    expect(notObject.toJSON()).toMatchObject({ rule: "mcp-fakes/bad-entry", entryId: "code#1:e" });
    expect(notObject.message).toContain("step: expected a step object");
  });

  it("refuses a bad step added through the control API with 400, adding nothing", async () => {
    const server = track(await mockMcp({ fakesOptions: { logger } })) as MockMcpServer & { url: string };
    const response = await fetch(new URL("/__mcp-testkit/fixtures", server.url), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ mcpFakes: block({ disconnect: "now" }) }),
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain('\\"disconnect\\" must be true or false');
    expect(server.fakes.inspect().mounts.flatMap((mount) => mount.blocks)).toEqual([]);
  });

  it("reports a bad step and a repeated id beside the block's other problems, all in one load", async () => {
    const error = await loadError({
      scope: { testId: "t" },
      undeclaredTool: "deny",
      tools: [
        {
          name: "t",
          calls: [
            { id: "same", anyArgs: true, step: { hang: "yes" } },
            { id: "same", anyArgs: true, result: "x" },
          ],
        },
        { name: "t", calls: [{ anyArgs: true, result: "y" }] },
      ],
    });
    expect(error).toBeInstanceOf(McpFakesAddError);
    const problems = (error as McpFakesAddError).errors.map((problem) => problem.toJSON());
    expect(problems.map((problem) => problem.rule).sort()).toEqual(["mcp-fakes/bad-step", "mcp-fakes/duplicate-id", "mcp-fakes/duplicate-tool", "mcp-fakes/unknown-key"]);
    expect(problems.find((problem) => problem.rule === "mcp-fakes/bad-step")).toMatchObject({
      entryId: "code#1:same",
      message: expect.stringContaining('tools[0].calls[0].step: the step: "hang" must be true or false'),
    });
    expect(problems.find((problem) => problem.rule === "mcp-fakes/duplicate-id")?.message).toContain('entry id "code#1:same" is used twice in this load on mount /mcp');
    // A bad step alone keeps the block out too: its repeated id is still reported.
    const stepOnly = await loadError({
      scope: { testId: "t" },
      tools: [
        {
          name: "t",
          calls: [
            { id: "same", anyArgs: true, step: { hang: "yes" } },
            { id: "same", anyArgs: true, result: "x" },
          ],
        },
      ],
    });
    expect((stepOnly as McpFakesAddError).errors.map((problem) => problem.rule).sort()).toEqual(["mcp-fakes/bad-step", "mcp-fakes/duplicate-id"]);
  });

  describe("in a fixture file", () => {
    let dir: string;
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it("names the file, and lists every bad step of the load", async () => {
      dir = mkdtempSync(join(tmpdir(), "fake-steps-"));
      const file = join(dir, "faults.json");
      const calls = [
        { id: "a", args: { n: 1 }, step: { hang: 1 } },
        { id: "b", anyArgs: true, step: { throws: 42 } },
      ];
      writeFileSync(file, JSON.stringify({ mcpFakes: { scope: "shared", tools: [{ name: "t", calls }] } }));
      const error = await loadError(file);
      expect(error).toBeInstanceOf(McpFakesAddError);
      const problems = (error as McpFakesAddError).errors.map((problem) => problem.toJSON());
      expect(problems).toMatchObject([
        { rule: "mcp-fakes/bad-step", file, entryId: `${file}:a` },
        { rule: "mcp-fakes/bad-step", file, entryId: `${file}:b` },
      ]);
      expect(problems[0].message).toMatch(/faults\.json.*tools\[0\]\.calls\[0\]\.step: the step: "hang" must be true or false/);
    });
  });
});
