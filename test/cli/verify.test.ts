/**
 * `mcp-testkit verify <recording> --target <server>`: a recording of a server built with the SDK
 * is verified against the same release (exit 0) and its drifted next one (exit 1, each drifted
 * call with the paths that changed), as text and as JSON.
 */
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { mcpShell, recordMcp } from "../../src/index.js";
import { runCli, scratchFile, useCli } from "./support.js";

useCli();

const inventory = fileURLToPath(new URL("../record/servers/inventory.mjs", import.meta.url));
const release = (drift = false) => `"${process.execPath}" "${inventory}"${drift ? " --drift" : ""}`;

let recorded: string;
beforeAll(async () => {
  await using upstream = mcpShell(release());
  await using recording = await recordMcp(upstream, { mock: { transport: "memory" } });
  const agent = new Client({ name: "agent", version: "1.0.0" });
  await agent.connect(await recording.server.connectInMemory());
  await agent.callTool({ name: "lookup", arguments: { item: "apple" } });
  await agent.callTool({ name: "list", arguments: {} });
  await agent.readResource({ uri: "inventory://readme" });
  await agent.close();
  recorded = await recording.save(scratchFile("inventory.json"));
});

describe("mcp-testkit verify", () => {
  it("exits 0 when the live server answers as recorded", async () => {
    const result = await runCli(["verify", recorded, "--target", release()], { timeoutMs: 20_000 });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`mcp-testkit verify: ${recorded} against ${release()} (inventory 1.0.0,`);
    expect(result.stdout).toContain('  ok   tool lookup #0 {"item":"apple"}\n');
    expect(result.stdout).toContain("  ok   resource inventory://readme #0\n");
    expect(result.stdout).toContain("3 calls: 3 matched, 0 drifted, 0 failed, 0 skipped; the server answers as recorded.\n");
  });

  it("exits 1 and shows each drifted call with the paths that changed", async () => {
    const result = await runCli(["verify", recorded, "--target", release(true)], { timeoutMs: 20_000 });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      [
        '  DIFF tool lookup #0 {"item":"apple"}',
        '         result.content.0.text: expected "3 apple(s) in stock", got "apple: 3"',
        '         result.structuredContent.unit: removed (was "pieces")',
        "  DIFF tool list #0",
        '         result.structuredContent.items.0: expected "apple", got "plum"',
      ].join("\n"),
    );
    expect(result.stdout).toContain("3 calls: 1 matched, 2 drifted, 0 failed, 0 skipped; the server no longer answers as recorded.\n");
  });

  it("--unordered-at and --ignore leave out what may change; --json prints the report", async () => {
    const result = await runCli(
      ["verify", recorded, "--target", release(true), "--unordered-at", "result.structuredContent.items", "--ignore", "result.content.0.text", "--ignore", "**.unit", "--json"],
      { timeoutMs: 20_000 },
    );
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ recording: recorded, server: { name: "inventory", version: "2.0.0" }, ok: true, summary: { total: 3, matched: 3 } });
  });

  it("shows values with secrets redacted", async () => {
    const token = `ghp_${"a1B2c3D4e5".repeat(4)}`;
    const file = scratchFile(
      "secret.json",
      JSON.stringify({
        mcpFakes: {
          scope: "shared",
          tools: [
            {
              name: "lookup",
              calls: [
                { args: { item: "x" }, result: "0" },
                { args: { item: token }, result: "0" },
              ],
            },
          ],
        },
      }),
    );
    const result = await runCli(["verify", file, "--target", release()], { timeoutMs: 20_000 });
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).not.toContain(token);
    expect(result.stdout).toContain('         result.content.0.text: expected "0", got "No such item: [redacted]"');
  });

  it.each([
    [["verify", "--target", "node x.js"], /missing the recording: the file written by mcp-testkit record/],
    [["verify", "rec.json"], /missing --target <command \| url>: the live server to verify the recording against/],
    [["verify", "a.json", "b.json", "--target", "node x.js"], /takes one recording, got 2/],
    [["verify", "rec.json", "--target", "node x.js", "--ignore", "a..b"], /--ignore: "a\.\.b" is not a path/],
    [["verify", "/nonexistent/rec.json", "--target", "node x.js"], /Cannot read the recording "\/nonexistent\/rec\.json".*Give the path of a file written by mcp-testkit record/],
  ])("bad usage exits 2 and says what to give: %j", async (args, message) => {
    const result = await runCli(args as string[]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it("a file that holds no recording exits 2, saying what a recording is", async () => {
    const file = scratchFile("empty.json", JSON.stringify({ serverInfo: { name: "x", version: "1" } }));
    const result = await runCli(["verify", file, "--target", release()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/holds no recorded calls: expected a recording written by mcp-testkit record/);
  });
});
