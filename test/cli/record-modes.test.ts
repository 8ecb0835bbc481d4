/**
 * `mcp-testkit record --mode`: `auto` answers what the file holds and records the rest into it;
 * `replay` serves the file without starting the server, and a call it never saw fails naming
 * the closest recorded one.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { collect, exited, runCli, scratchFile, startCli, useCli, waitForLine } from "./support.js";

useCli();

const inventory = fileURLToPath(new URL("../record/servers/inventory.mjs", import.meta.url));
const release = (drift = false) => `"${process.execPath}" "${inventory}"${drift ? " --drift" : ""}`;

/** Runs `mcp-testkit record` with `args`, looks up `items` through it, stops it, and returns the texts and the run's output. */
async function session(args: string[], items: string[]) {
  const child = startCli(["record", ...args]);
  const output = collect(child);
  const [, url] = await waitForLine(child, "stdout", /^mcp-testkit record: (?:recording|replaying) .* at (http:\/\/127\.0\.0\.1:\d+\/mcp)/, 15_000);
  const agent = new Client({ name: "agent", version: "1.0.0" });
  await agent.connect(new StreamableHTTPClientTransport(new URL(url!)));
  const texts: string[] = [];
  for (const item of items) {
    const answer = await agent.callTool({ name: "lookup", arguments: { item } }).catch((error: Error) => ({ content: [{ text: error.message }] }));
    texts.push((answer.content as Array<{ text: string }>)[0]!.text);
  }
  await agent.close();
  child.kill("SIGINT");
  return { texts, result: await exited(child, output, 10_000) };
}

describe("mcp-testkit record --mode", () => {
  it("auto records what the file lacks; replay serves the file without the server", async () => {
    const out = scratchFile("modes.json");
    const first = await session([release(), "--out", out, "--mode", "auto"], ["apple"]);
    expect(first.result.code).toBe(0);
    // The next release answers pear; apple still comes from the file.
    const second = await session([release(true), "--out", out, "--mode", "auto"], ["apple", "pear"]);
    expect(second.texts).toEqual(["3 apple(s) in stock", "pear: 5"]);
    expect(JSON.parse(readFileSync(out, "utf8")).fixtures[0].tools[0].calls).toHaveLength(2);

    // A command that cannot start: replay never runs it.
    const replay = await session(["node /nonexistent/server.js", "--out", out, "--mode", "replay"], ["pear", "plum"]);
    expect(replay.texts[0]).toBe("pear: 5");
    expect(replay.texts[1]).toMatch(/MCP fake mismatch: .*Received \{"item":"plum"\}/);
    expect(replay.result.code).toBe(0);
    expect(replay.result.stdout).toContain("nothing written in replay mode");
  });

  it("refuses an unknown mode, and replay of a file that is not there", async () => {
    const bad = await runCli(["record", release(), "--out", scratchFile("x.json"), "--mode", "live"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--mode must be record, replay or auto, got "live"/);
    const missing = await runCli(["record", release(), "--out", scratchFile("missing.json"), "--mode", "replay"], { timeoutMs: 10_000 });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/mode "replay" cannot read the recording .*missing\.json.*Record it first/);
  });
});
