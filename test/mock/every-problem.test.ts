/**
 * `mockMcp()` with options that have several problems says every one of them in one error
 * (a `MockOptionsError`, each problem with its rule), so a scenario with four typos takes one
 * run to fix, not four. Options with one problem throw that problem's own error, as before.
 */
import { describe, expect, it } from "vitest";
import { FixtureLoadError, McpTestkitError, mockMcp, MockOptionsError, type MockMcpOptions } from "../../src/index.js";

async function refusal(options: Record<string, unknown>): Promise<unknown> {
  return await mockMcp({ ...(options as MockMcpOptions), transport: "memory" }).then(
    async (mock) => {
      await mock.close();
      return "accepted";
    },
    (error: unknown) => error,
  );
}

describe("mockMcp() options with several problems", () => {
  it("names every problem at once: a misspelt option, two tools, a resource and a fixture block", async () => {
    const error = await refusal({
      severInfo: { name: "x", version: "1" },
      tools: { search: { retuns: "found" }, fetch: { descripton: "Fetch", responses: [{ returns: 1 }] }, fine: { returns: "ok" } },
      resources: { "no-scheme": "text" },
      fixtures: [{ tools: [{ name: "late", calls: [{ anyArgs: true, result: "x" }] }] }],
    });
    expect(error).toBeInstanceOf(MockOptionsError);
    const problems = (error as MockOptionsError).problems;
    expect(problems.map((problem) => problem.rule)).toEqual(["mcp-testkit/scenario", "mcp-testkit/scenario", "mcp-testkit/scenario", "mcp-testkit/scenario", "mcp-fakes/bad-scope"]);
    expect(problems.map((problem) => problem.message)).toEqual([
      expect.stringMatching(/^mockMcp\(\) options has unknown key "severInfo"; did you mean "serverInfo"\?/),
      expect.stringMatching(/^Tool "search" has unknown key "retuns"; did you mean "returns"\?/),
      expect.stringMatching(/^Tool "fetch" has unknown key "descripton"; did you mean "description"\?/),
      expect.stringMatching(/^Resource "no-scheme": the key must be an absolute URI/),
      expect.stringMatching(/^code, block \(code#1\): scope: is missing/),
    ]);
    expect(problems[4]).toMatchObject({ file: null, blockId: "code#1" });
    // The message lists them too, for a test run's output.
    expect((error as Error).message).toContain('[mcp-testkit] 5 problems in the mockMcp() options; fix each:\n  1. mockMcp() options has unknown key "severInfo"');
    expect((error as Error).message).toContain('\n  3. Tool "fetch" has unknown key "descripton"');
  });

  it("a bad fakesOptions is said once, and the fixtures are still checked", async () => {
    const error = await refusal({ fakesOptions: { journalMax: -1 }, fixtures: [{ scope: "shared", tools: [{ name: "t", calls: [{ args: {}, result: "a", error: "b" }] }] }] });
    expect(error).toBeInstanceOf(MockOptionsError);
    expect((error as MockOptionsError).problems.map((problem) => problem.rule)).toEqual(["mcp-testkit/scenario", "mcp-fakes/bad-entry"]);
    expect((error as MockOptionsError).problems[0]!.message).toContain("journalMax must be a whole number");
  });

  it("one problem throws that problem's own error, unchanged", async () => {
    const typo = await refusal({ tools: { search: { retuns: "found" } } });
    expect(typo).toBeInstanceOf(McpTestkitError);
    expect(typo).not.toBeInstanceOf(MockOptionsError);
    expect((typo as Error).message).toMatch(/^\[mcp-testkit\] Tool "search" has unknown key "retuns"; did you mean "returns"\?/);

    const block = await refusal({ fixtures: [{ tools: [] }] });
    expect(block).toBeInstanceOf(FixtureLoadError);
    expect((block as FixtureLoadError).rule).toBe("mcp-fakes/bad-scope");
  });
});
