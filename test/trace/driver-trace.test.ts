/**
 * The driver's `trace` option: every message it sends and receives, as trace entries, in memory
 * (`driver.traffic.trace`) and in a JSON Lines file; answers over HTTP with their response's
 * status, and the validator's problems on the message they concern.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mcpAttach, mcpConnect, mcpShell, mockMcp } from "../../src/index.js";
import { readTrace } from "../../src/trace/read-trace.js";
import type { TraceEntry } from "../../src/trace/entry.js";
import { everythingCommand, useDrivers } from "../driver/support.js";

const track = useDrivers();
const folder = mkdtempSync(join(tmpdir(), "mcp-driver-trace-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const TOKEN = "s3cret-driver-token-0c4d";

const methodOf = (entry: TraceEntry) => (entry.message as { method?: string }).method;

describe("a driver's trace", () => {
  it("over stdio, with a real server: a file with both sides of every call", async () => {
    const file = join(folder, "everything.jsonl");
    const app = track(mcpShell(everythingCommand, { trace: file, versionNegotiation: "legacy", requestTimeout: 15_000 }));
    expect((await app.callTool("echo", { message: "traced" })).getTextContent()).toContain("traced");
    await app.close();

    const trace = await readTrace(file);
    expect(trace.header).toMatchObject({ source: "driver", target: everythingCommand });
    const call = trace.entries.find((entry) => methodOf(entry) === "tools/call")!;
    const id = (call.message as { id: number }).id;
    expect(call).toMatchObject({ from: "client", wire: "stdio", callId: id, protocolVersion: "2025-11-25" });
    expect(trace.entries.find((entry) => entry.from === "server" && entry.callId === id)).toMatchObject({ message: { result: { content: [{ text: expect.stringContaining("traced") }] } } });
  }, 60_000);

  it("over HTTP: answers carry their response's status; the target and the headers keep no credential", async () => {
    await using mock = await mockMcp({ tools: { echo: { returns: "hi" } } });
    const app = track(mcpConnect(`${mock.url}?token=${TOKEN}`, { trace: true, headers: { Authorization: `Bearer ${TOKEN}` }, versionNegotiation: "legacy" }));
    await app.callTool("echo");
    const trace = app.traffic.trace!;
    const answer = trace
      .entries()
      .find((entry) => entry.from === "server" && (entry.message as { result?: unknown }).result !== undefined && entry.callId !== undefined && methodOf(entry) === undefined)!;
    expect(answer.http).toMatchObject({ status: 200 });
    expect(trace.header.target).toBe(mock.url);
    expect(trace.text()).not.toContain(TOKEN);
  });

  it("marks what the validator found wrong on the message it concerns", async () => {
    await using mock = await mockMcp({ transport: "memory", tools: { broken: { result: { content: "not a list" } } } });
    const app = track(mcpAttach(mock.connectInMemory(), { trace: true, strict: false, versionNegotiation: "legacy" }));
    await app.callTool("broken").catch(() => undefined);
    const flagged = app.traffic.trace!.entries().filter((entry) => entry.problems !== undefined);
    expect(flagged).toHaveLength(1);
    expect(flagged[0]).toMatchObject({ from: "server", message: { result: { content: "not a list" } }, problems: [expect.objectContaining({ path: expect.stringContaining("content") })] });
  });

  it("refuses a bad trace option before anything starts", () => {
    expect(() => mcpShell(everythingCommand, { trace: { limit: -1 } })).toThrow('"trace.limit" must be a whole number of entries');
  });
});

// The file is written as messages pass: before close, what went is on disk by the next turn.
it("a driver's trace file grows while the driver runs", async () => {
  await using mock = await mockMcp({ transport: "memory", tools: { echo: { returns: "hi" } } });
  const file = join(folder, "live.jsonl");
  const app = track(mcpAttach(mock.connectInMemory(), { trace: file }));
  await app.callTool("echo");
  const lineCount = () => readFileSync(file, "utf8").split("\n").filter(Boolean).length;
  // Lines are gathered for a few milliseconds, then written: wait for them, boundedly.
  for (let tries = 0; tries < 100 && lineCount() <= 3; tries++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(lineCount()).toBeGreaterThan(3);
});
