/**
 * `mcp-testkit snapshot` and `mcp-testkit diff` (built CLI): a server built with the official SDK,
 * in three releases, snapshotted and diffed in each output format, with `--fail-on` deciding the
 * exit code; a recording of it on one side; and every bad input answered with a clear message.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { mcpAttach, mcpShell, recordMcp } from "../../src/index.js";
import { runCli, scratchFile, useCli } from "./support.js";

useCli();

const issueServer = (release: string) => `"${process.execPath}" "${fileURLToPath(new URL("../snapshot/servers/issue-server.mjs", import.meta.url))}" ${release}`;
const SLOW = { timeoutMs: 60_000 };

/** A snapshot file of one release, written by the CLI. */
async function snapshotFile(release: string): Promise<string> {
  const out = scratchFile(`issue-${release}.json`);
  const result = await runCli(["snapshot", issueServer(release), "--out", out], SLOW);
  expect(result.code, result.stderr).toBe(0);
  return out;
}

describe("mcp-testkit snapshot", () => {
  it("writes a normalized surface to --out, and the same bytes on a second run", async () => {
    const out = await snapshotFile("1.0.0");
    const first = readFileSync(out, "utf8");
    const surface = JSON.parse(first);
    expect(surface).toMatchObject({ mcpSurface: 1, protocolVersion: "2025-11-25", serverInfo: { name: "issue-tracker", version: "1.0.0" }, instructions: "Search issues before creating one." });
    expect(surface.tools.map((tool: { name: string }) => tool.name)).toEqual(["create_issue", "delete_issue", "search_issues"]);
    expect(surface.capabilities).toHaveProperty("logging");
    const again = await runCli(["snapshot", issueServer("1.0.0")], SLOW);
    expect(again.stdout).toBe(first);
  }, 90_000);

  it("refuses bad usage with a message and exit 2", async () => {
    const none = await runCli(["snapshot"]);
    expect([none.code, none.stderr]).toEqual([2, expect.stringContaining("missing the target")]);
    const two = await runCli(["snapshot", "node", "server.js"]);
    expect([two.code, two.stderr]).toEqual([2, expect.stringContaining('takes one target, got 2: "node" "server.js"; quote a command')]);
    const unknown = await runCli(["snapshot", "x", "--outt", "a.json"]);
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringContaining("unknown option --outt; did you mean --out?")]);
  });

  it("fails with exit 1 when --out's folder does not exist, or the file named is missing", async () => {
    const folder = await runCli(["snapshot", issueServer("1.0.0"), "--out", "/nonexistent-folder/s.json"]);
    expect([folder.code, folder.stderr]).toEqual([1, expect.stringContaining('Cannot write the snapshot to "/nonexistent-folder/s.json": the folder /nonexistent-folder does not exist')]);
    const missing = await runCli(["snapshot", "surface-that-is-not-here.json"]);
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining('Cannot read "surface-that-is-not-here.json": there is no such file')]);
  });
});

describe("mcp-testkit diff", () => {
  it("text: a snapshot against the breaking release lists each breaking change and exits 1", async () => {
    const before = await snapshotFile("1.0.0");
    const result = await runCli(["diff", before, issueServer("2.0.0")], SLOW);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toMatch(/: 15 breaking, 1 informational\n/);
    expect(result.stdout).toContain('  - tool "delete_issue" removed: clients that use it fail\n      at tools.delete_issue');
    expect(result.stdout).toContain('tool "search_issues" input: property "limit" became required (accepts less: calls that worked may be refused)');
    // Not a terminal: no colour.
    expect(result.stdout).not.toContain("\x1b[");
  }, 90_000);

  it("--fail-on: breaking (the default) passes compatible changes, any fails them, none passes everything", async () => {
    const before = await snapshotFile("1.0.0");
    const after = await snapshotFile("1.1.0");
    const breaking = await runCli(["diff", before, after]);
    expect(breaking.code, breaking.stdout).toBe(0);
    expect(breaking.stdout).toContain("7 compatible, 2 informational");
    expect((await runCli(["diff", before, after, "--fail-on", "any"])).code).toBe(1);
    const broken = await snapshotFile("2.0.0");
    expect((await runCli(["diff", before, broken, "--fail-on", "none"])).code).toBe(0);
    // --ignore leaves changes out, here every compatible one and the version.
    const ignored = await runCli(["diff", before, after, "--fail-on", "any", "--ignore", "tools", "--ignore", "resources", "--ignore", "prompts", "--ignore", "serverInfo.version"]);
    expect([ignored.code, ignored.stdout]).toEqual([0, expect.stringContaining("no changes\n\n9 changes ignored.")]);
  }, 120_000);

  it("--json, --markdown and --junit say the same changes in their formats, and --out writes the report", async () => {
    const before = await snapshotFile("1.0.0");
    const after = await snapshotFile("2.0.0");
    const json = JSON.parse((await runCli(["diff", before, after, "--json"])).stdout);
    expect(json.counts).toEqual({ breaking: 15, compatible: 0, informational: 1 });
    expect(json.changes[0]).toMatchObject({ kind: "removed", class: "breaking", path: ["capabilities", "logging"], where: "capabilities.logging" });

    const markdown = await runCli(["diff", before, after, "--markdown"]);
    expect(markdown.stdout).toMatch(/^### MCP surface: 15 breaking, 1 informational\n/);
    expect(markdown.stdout).toContain('#### 🔴 Breaking (15)\n\n| | Change | Where |\n|---|---|---|\n| removed | capability "logging" lost: clients that use it fail | `capabilities.logging` |');

    const out = scratchFile("report.xml");
    const junit = await runCli(["diff", before, after, "--junit", "--out", out]);
    expect([junit.code, junit.stdout]).toEqual([1, ""]);
    const xml = readFileSync(out, "utf8");
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="mcp-testkit diff" tests="16" failures="15">/);
    expect(xml.match(/<testcase /g)).toHaveLength(16);
    expect(xml.match(/<failure type="breaking"/g)).toHaveLength(15);
    expect(xml).toContain('<failure type="breaking" message="tool &quot;delete_issue&quot; removed: clients that use it fail">');
  }, 120_000);

  it("a recording of a server on one side: no change against its own release, breaking against the next", async () => {
    const upstream = mcpShell(issueServer("1.0.0"), { requestTimeout: 15_000 });
    await using recording = await recordMcp(upstream, { mock: { transport: "memory" } });
    await using agent = mcpAttach(recording.server.connectInMemory());
    await agent.callTool("search_issues", { query: "crash" });
    const saved = await recording.save(scratchFile("recording.json"));
    await upstream.close();

    const same = await runCli(["diff", saved, issueServer("1.0.0")], SLOW);
    expect([same.code, same.stdout]).toEqual([0, expect.stringContaining("no changes\n\nNot compared: capabilities (only the second side says what they are).")]);
    const next = await runCli(["diff", saved, issueServer("2.0.0"), "--json"], SLOW);
    expect(next.code).toBe(1);
    expect(JSON.parse(next.stdout).counts.breaking).toBe(14);
  }, 120_000);

  it("refuses bad usage with a message and exit 2", async () => {
    const one = await runCli(["diff", "a.json"]);
    expect([one.code, one.stderr]).toEqual([2, expect.stringContaining("takes two sides, before and after, got 1")]);
    const failOn = await runCli(["diff", "a.json", "b.json", "--fail-on", "sometimes"]);
    expect([failOn.code, failOn.stderr]).toEqual([2, expect.stringContaining('--fail-on takes breaking, any or none, got "sometimes"')]);
    const formats = await runCli(["diff", "a.json", "b.json", "--json", "--junit"]);
    expect([formats.code, formats.stderr]).toEqual([2, expect.stringContaining("choose one output format, got --json and --junit")]);
    const ignore = await runCli(["diff", "a.json", "b.json", "--ignore", "tools..x"]);
    expect([ignore.code, ignore.stderr]).toEqual([2, expect.stringContaining('--ignore: ignore path "tools..x" is malformed: an empty segment at 7')]);
  });

  it("names a side it cannot read: a missing file, a file that is no surface, a snapshot with a bad shape", async () => {
    const missing = await runCli(["diff", "nothing-here.json", "also-not.json"]);
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining('Cannot read "nothing-here.json": there is no such file')]);
    const list = scratchFile("list.json", "[1, 2]");
    const notSurface = await runCli(["diff", list, list]);
    expect([notSurface.code, notSurface.stderr]).toEqual([1, expect.stringContaining("is neither a snapshot")]);
    const bad = scratchFile("bad.json", JSON.stringify({ mcpSurface: 1, tools: [{ title: "no name" }], resources: [], resourceTemplates: [], prompts: [] }));
    const badShape = await runCli(["diff", bad, bad]);
    expect([badShape.code, badShape.stderr]).toEqual([
      1,
      expect.stringMatching(/"[^"]*bad\.json" is not a surface snapshot \(mcpSurface 1\): tools\.0\.name: .*Write one with mcp-testkit snapshot\./),
    ]);
    const broken = scratchFile("broken.json", "{ not json");
    const brokenJson = await runCli(["diff", broken, broken]);
    expect([brokenJson.code, brokenJson.stderr]).toEqual([1, expect.stringContaining("is not valid JSON")]);
  });

  it("--help says every option in lines of at most 100 columns", async () => {
    for (const command of ["diff", "snapshot"]) {
      const help = await runCli([command, "--help"]);
      expect(help.code).toBe(0);
      for (const line of help.stdout.split("\n")) expect(line.length, line).toBeLessThanOrEqual(100);
    }
  });
});
