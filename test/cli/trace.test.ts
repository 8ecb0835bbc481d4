/**
 * Traces from the command line (the built CLI): `mock --trace`, `--trace` on the commands that
 * drive a server, and `trace convert` between a trace, HAR and OTLP.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { mockMcp } from "../../src/index.js";
import { parseTrace } from "../../src/trace/index.js";
import { runCli, scenarioFile, scratchFile, useCli } from "./support.js";

useCli();

const usage = (message: string) => `mcp-testkit trace: ${message}\nRun "mcp-testkit trace --help" for usage.\n`;
const lines = (...messages: object[]) => `${messages.map((message) => JSON.stringify(message)).join("\n")}\n`;

describe("mcp-testkit mock --trace", () => {
  it("writes every message of a stdio session to the file", async () => {
    const file = scratchFile("mock.jsonl");
    const scenario = scenarioFile("echo.json", { tools: { echo: { returns: "hi" } } });
    const input = lines(
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "cli-test", version: "1" } } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: {} } },
    );
    const result = await runCli(["mock", "--stdio", scenario, "--trace", file], { input });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`trace: ${file}`);
    const trace = parseTrace(readFileSync(file, "utf8"));
    expect(trace.header).toMatchObject({ source: "mock", target: "stdio" });
    expect(trace.entries.map((entry) => `${entry.from} ${(entry.message as { method?: string }).method ?? "answer"}`)).toEqual([
      "client initialize",
      "server answer",
      "client notifications/initialized",
      "client tools/call",
      "server answer",
    ]);
    expect(trace.entries.every((entry) => entry.wire === "stdio")).toBe(true);
  });

  it("an empty file name is bad usage", async () => {
    const result = await runCli(["mock", "--stdio", scenarioFile("e.json", {}), "--trace", ""]);
    expect(result).toMatchObject({ code: 2, stderr: expect.stringContaining("--trace needs a file name") });
  });
});

describe("--trace on the commands that drive a server", () => {
  it("call writes the driver's side of the conversation", async () => {
    await using mock = await mockMcp({ tools: { echo: { returns: "hi" } } });
    const file = scratchFile("call.jsonl");
    const result = await runCli(["call", mock.url, "echo", "--trace", file]);
    expect(result).toMatchObject({ code: 0, stdout: "hi\n" });
    const trace = parseTrace(readFileSync(file, "utf8"));
    expect(trace.header).toMatchObject({ source: "driver", target: mock.url });
    const call = trace.entries.find((entry) => (entry.message as { method?: string }).method === "tools/call")!;
    expect(trace.entries.find((entry) => entry.from === "server" && entry.callId === call.callId)!.http).toMatchObject({ status: 200 });
  });
});

describe("mcp-testkit trace convert", () => {
  async function traceFile(): Promise<string> {
    const file = scratchFile("source.jsonl");
    await using mock = await mockMcp({ trace: file, tools: { echo: { returns: "hi" } } });
    expect((await runCli(["call", mock.url, "echo"])).code).toBe(0);
    return file;
  }

  it("turns a trace into HAR and OTLP, and either back into a trace with every message", async () => {
    const source = await traceFile();
    const original = parseTrace(readFileSync(source, "utf8")).entries;
    for (const format of ["har", "otlp"]) {
      const out = scratchFile(`out.${format}`);
      const converted = await runCli(["trace", "convert", source, "--to", format, "--out", out]);
      expect(converted).toMatchObject({ code: 0, stdout: "", stderr: `Wrote ${original.length} messages from trace to ${out} as ${format}.\n` });
      const back = await runCli(["trace", "convert", out, "--to", "trace"]);
      expect(back.code).toBe(0);
      expect(parseTrace(back.stdout).entries.map((entry) => entry.message)).toEqual(original.map((entry) => entry.message));
    }
    const har = JSON.parse(readFileSync(scratchFile("out.har"), "utf8"));
    expect(har.log.version).toBe("1.2");
  });

  it.each([
    [["trace"], 'missing the action: "mcp-testkit trace convert <file> --to <format>"'],
    [["trace", "convrt", "x"], 'unknown action "convrt"; the one action is "convert" (did you mean "convert"?)'],
    [["trace", "convert", "x.jsonl"], "missing --to: one of trace, har, otlp"],
    [["trace", "convert", "x.jsonl", "--to", "hra"], '--to must be one of trace, har, otlp, got "hra" (did you mean "har"?)'],
  ])("%j is bad usage, saying what it takes", async (args, message) => {
    expect(await runCli(args)).toMatchObject({ code: 2, stderr: usage(message) });
  });

  it("a file that is no trace, HAR or OTLP fails, naming it", async () => {
    const notes = scratchFile("notes.txt", "hello");
    const result = await runCli(["trace", "convert", notes, "--to", "har"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${notes} is neither a trace`);
    writeFileSync(notes, "");
    expect((await runCli(["trace", "convert", scratchFile("missing.jsonl"), "--to", "har"])).stderr).toContain("Cannot read");
  });
});
