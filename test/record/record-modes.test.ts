/**
 * Record modes, as nock and VCR have them: `auto` answers what a recording holds and forwards,
 * records and appends the rest; `replay` answers from the recording only and fails loud on a
 * call it never saw. The upstream is a server built with the SDK (its next release, in `auto`,
 * shows which answers came from the file and which from the server).
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { mcpShell, recordMcp, type McpDriver, type RecordMcpOptions } from "../../src/index.js";
import { useDrivers } from "../driver/support.js";

const inventory = fileURLToPath(new URL("./servers/inventory.mjs", import.meta.url));
const release = (drift = false) => `"${process.execPath}" "${inventory}"${drift ? " --drift" : ""}`;
const track = useDrivers();

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "mcp-testkit-modes-"));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** The texts an agent gets for each item it looks up through a recording in `options.mode`; the recording is saved back to `file`. */
async function lookUp(upstream: McpDriver, options: RecordMcpOptions, items: string[], file: string): Promise<string[]> {
  await using recording = await recordMcp(upstream, { ...options, mock: { transport: "memory" } });
  const agent = new Client({ name: "agent", version: "1.0.0" });
  await agent.connect(await recording.server.connectInMemory());
  const texts: string[] = [];
  for (const item of items) {
    const answer = await agent.callTool({ name: "lookup", arguments: { item } }).catch((error: Error) => ({ content: [{ text: error.message }] }));
    texts.push((answer.content as Array<{ text: string }>)[0]!.text);
  }
  await agent.close();
  if (options.mode !== "replay") await recording.save(file);
  return texts;
}

describe("record modes", () => {
  it("auto records on the first run, then answers what it recorded and appends what it had not", async () => {
    const file = path.join(directory, "auto.json");
    // No file yet: everything is forwarded and recorded.
    expect(await lookUp(track(mcpShell(release())), { mode: "auto", from: file }, ["apple"], file)).toEqual(["3 apple(s) in stock"]);
    // The next release answers differently: apple still comes from the file, pear from the server.
    expect(await lookUp(track(mcpShell(release(true))), { mode: "auto", from: file }, ["apple", "pear"], file)).toEqual(["3 apple(s) in stock", "pear: 5"]);
    const saved = JSON.parse(await readFile(file, "utf8"));
    const calls = saved.fixtures[0].tools.find((tool: { name: string }) => tool.name === "lookup").calls;
    expect(calls.map((call: { args: unknown }) => call.args)).toEqual([{ item: "apple" }, { item: "pear" }]);
  });

  it("replay answers from the recording only, and a call it never saw fails naming the closest recorded one", async () => {
    const file = path.join(directory, "replay.json");
    // A recording saved before any call: auto starts from it as from nothing.
    await lookUp(track(mcpShell(release())), { mode: "record" }, [], file);
    await lookUp(track(mcpShell(release())), { mode: "auto", from: file }, ["apple", "pear"], file);
    const upstream = track(mcpShell(release()));
    const texts = await lookUp(upstream, { mode: "replay", from: file }, ["pear", "apple", "plum"], file);
    expect(texts.slice(0, 2)).toEqual(["5 pear(s) in stock", "3 apple(s) in stock"]);
    expect(texts[2]).toMatch(/MCP fake mismatch: .*lookup.*Received \{"item":"plum"\}/);
    // The server was never started: replay does not reach it.
    expect(upstream.protocolVersion).toBeUndefined();
  });

  it("keeps a redacted argument replayable when auto extends the file", async () => {
    const file = path.join(directory, "redacted.json");
    const key = `sk-proj-${"Ab12Cd34".repeat(3)}`;
    await lookUp(track(mcpShell(release())), { mode: "auto", from: file }, [key], file);
    expect(await lookUp(track(mcpShell(release(true))), { mode: "auto", from: file }, [`sk-proj-${"Zz99".repeat(6)}`, "plum"], file)).toEqual(["No such item: [redacted]", "plum: 0"]);
    const text = await readFile(file, "utf8");
    expect(text).not.toContain(key);
    const lookup = JSON.parse(text).fixtures[0].tools[0];
    expect(lookup.calls[0]).toEqual(expect.objectContaining({ argsMatch: { item: { $schema: {} } } }));
    expect(lookup.calls).toHaveLength(2);
  });

  it("refuses replay or auto without a recording, and replay of a file that is not there", async () => {
    const upstream = track(mcpShell(release()));
    await expect(recordMcp(upstream, { mode: "replay" })).rejects.toThrow(/mode "replay" needs from: the recording \(its path or content\)/);
    await expect(recordMcp(upstream, { mode: "auto" })).rejects.toThrow(/mode "auto" needs from/);
    await expect(recordMcp(upstream, { mode: "replay", from: path.join(directory, "missing.json") })).rejects.toThrow(/mode "replay" cannot read the recording .*missing\.json.*Record it first/);
    await expect(recordMcp(upstream, { mode: "live" as never, from: "x" })).rejects.toThrow(/mode must be "record", "replay" or "auto", got "live"/);
  });
});
