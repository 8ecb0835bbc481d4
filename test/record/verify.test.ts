/**
 * `verifyRecording(recording, driver)`: a recording made of a real server is asked again of a
 * live server (the same release, or its drifted next one), and each answer is compared path by
 * path, with ids, timestamps and `_meta` ignored and, when asked, arrays compared in any order.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { mcpShell, recordMcp, verifyRecording, type McpDriver } from "../../src/index.js";
import { everythingCommand, filesystemBin, useDrivers } from "../driver/support.js";

const inventory = fileURLToPath(new URL("./servers/inventory.mjs", import.meta.url));
const release = (drift = false) => `"${process.execPath}" "${inventory}"${drift ? " --drift" : ""}`;
const track = useDrivers();

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "mcp-testkit-verify-"));
});
afterAll(async () => {
  if (!process.env.KEEP) await rm(directory, { recursive: true, force: true });
});

/** Records what `use` asks of the server behind `upstream`, and saves it to `file`. */
async function record(upstream: McpDriver, file: string, use: (agent: Client) => Promise<void>): Promise<string> {
  await using recording = await recordMcp(upstream, { mock: { transport: "memory" } });
  const agent = new Client({ name: "agent", version: "1.0.0" });
  await agent.connect(await recording.server.connectInMemory());
  await use(agent);
  await agent.close();
  return await recording.save(path.join(directory, file));
}

describe("a server built with the SDK, and its drifted next release", () => {
  let saved: string;
  beforeAll(async () => {
    saved = await record(track(mcpShell(release())), "inventory.json", async (agent) => {
      await agent.callTool({ name: "lookup", arguments: { item: "apple" } });
      await agent.callTool({ name: "lookup", arguments: { item: "kiwi" } });
      await agent.callTool({ name: "list", arguments: {} });
      await agent.callTool({ name: "remove", arguments: { item: "plum" } });
      await agent.readResource({ uri: "inventory://readme" });
      await agent.getPrompt({ name: "restock", arguments: { item: "pear" } });
    });
  });

  it("matches the release it was recorded from, though each answer has a new id and timestamp", async () => {
    const report = await verifyRecording(saved, track(mcpShell(release())));
    expect(report.summary).toEqual({ total: 6, matched: 6, drifted: 0, failed: 0, skipped: 0 });
    expect(report.ok).toBe(true);
  });

  it("shows each drifted call of the next release with the paths that changed", async () => {
    const report = await verifyRecording(saved, track(mcpShell(release(true))));
    expect(report.ok).toBe(false);
    expect(report.summary).toMatchObject({ total: 6, matched: 3, drifted: 3 });
    const drifted = report.calls.filter((call) => call.status === "drifted");
    expect(drifted.map((call) => [call.kind, "name" in call ? call.name : "", call.entry])).toEqual([
      ["tool", "lookup", 0],
      ["tool", "list", 0],
      ["tool", "remove", 0],
    ]);
    expect(drifted[0]!.differences).toEqual([
      { path: "result.content.0.text", kind: "changed", expected: "3 apple(s) in stock", actual: "apple: 3" },
      { path: "result.structuredContent.unit", kind: "removed", expected: "pieces" },
    ]);
    expect(drifted[1]!.differences.map((difference) => difference.path)).toEqual(["result.structuredContent.items.0", "result.structuredContent.items.2"]);
    // A removed tool: this SDK answers with a tool error where a result was recorded.
    expect(drifted[2]!.differences).toEqual([
      { path: "result.content.0.text", kind: "changed", expected: "removed plum", actual: expect.stringContaining("Tool remove not found") },
      { path: "result.isError", kind: "added", actual: true },
    ]);
  });

  it("compares arrays in any order, and leaves out the paths it is told to ignore", async () => {
    const report = await verifyRecording(saved, track(mcpShell(release(true))), {
      unorderedArrays: ["result.structuredContent.items"],
      ignore: ["result.content.*.text", "**.unit"],
    });
    expect(report.calls.filter((call) => call.status === "drifted").map((call) => ("name" in call ? call.name : ""))).toEqual(["remove"]);
  });

  it("compares ids and timestamps too with defaults: false", async () => {
    const report = await verifyRecording(saved, track(mcpShell(release())), { defaults: false });
    const lookup = report.calls.find((call) => call.status === "drifted")!;
    expect(lookup.differences.map((difference) => difference.path)).toEqual(["result.structuredContent.id"]);
  });
});

describe("server-everything and server-filesystem", () => {
  it("verifies a recording of server-everything against it", async () => {
    const saved = await record(track(mcpShell(everythingCommand)), "everything.json", async (agent) => {
      await agent.callTool({ name: "echo", arguments: { message: "hi" } });
      await agent.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } });
    });
    const report = await verifyRecording(saved, track(mcpShell(everythingCommand)));
    expect(report.summary).toMatchObject({ total: 2, matched: 2 });
  });

  it("finds the drift when a file server-filesystem reads has changed", async () => {
    const files = path.join(directory, "files");
    mkdirSync(files);
    writeFileSync(path.join(files, "notes.txt"), "first\n");
    const server = `"${filesystemBin}" "${files}"`;
    const saved = await record(track(mcpShell(server)), "filesystem.json", async (agent) => {
      await agent.callTool({ name: "read_text_file", arguments: { path: path.join(files, "notes.txt") } });
      await agent.callTool({ name: "list_directory", arguments: { path: files } });
    });
    writeFileSync(path.join(files, "notes.txt"), "second\n");
    const report = await verifyRecording(saved, track(mcpShell(server)));
    expect(report.calls.map((call) => call.status).sort()).toEqual(["drifted", "matched"]);
    const drifted = report.calls.find((call) => call.status === "drifted")!;
    expect(drifted).toMatchObject({ name: "read_text_file" });
    expect(drifted.differences).toContainEqual({ path: "result.content.0.text", kind: "changed", expected: "first\n", actual: "second\n" });
  });
});

describe("what cannot be verified, and bad input", () => {
  it("skips a call whose arguments were redacted, saying why", async () => {
    const saved = await record(track(mcpShell(release())), "redacted.json", async (agent) => {
      await agent.callTool({ name: "lookup", arguments: { item: "sk-proj-0123456789abcdefghijklmn" } });
    });
    const report = await verifyRecording(saved, track(mcpShell(release())));
    expect(report.calls[0]).toMatchObject({ status: "skipped", reason: expect.stringContaining("redacted") });
    expect(report.ok).toBe(true);
  });

  it("reports a call the server could not answer as failed", async () => {
    const saved = path.join(directory, "hand-written.json");
    await writeFile(saved, JSON.stringify({ mcpFakes: { scope: "shared", tools: [{ name: "lookup", calls: [{ args: { item: "apple" }, result: "3" }] }] } }));
    const driver = track(mcpShell(release()));
    await driver.initialize();
    await driver.close();
    const report = await verifyRecording(saved, driver);
    expect(report.calls[0]).toMatchObject({ status: "failed", reason: expect.stringContaining("closed") });
    expect(report.ok).toBe(false);
  });

  it("refuses a file that is missing, not JSON, or no recording, saying what a recording is", async () => {
    const driver = track(mcpShell(release()));
    await expect(verifyRecording(path.join(directory, "nope.json"), driver)).rejects.toThrow(/Cannot read the recording .*nope\.json.*mcp-testkit record/);
    const notJson = path.join(directory, "not.json");
    await writeFile(notJson, "{ nope");
    await expect(verifyRecording(notJson, driver)).rejects.toThrow(/is not JSON/);
    await expect(verifyRecording({ tools: {} }, driver)).rejects.toThrow(/holds no recorded calls: expected a recording written by mcp-testkit record/);
  });

  it("refuses a malformed ignore path, showing what a path looks like", async () => {
    await expect(verifyRecording({ mcpFakes: { scope: "shared", tools: [] } }, track(mcpShell(release())), { ignore: ["result..text"] })).rejects.toThrow(
      /ignore: "result\.\.text" is not a path\. Expected dot-separated keys/,
    );
  });
});
