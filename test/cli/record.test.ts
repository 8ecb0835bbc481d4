/**
 * `mcp-testkit record`: the CLI puts a mock in front of a real server, an agent (the SDK client)
 * uses it, Ctrl-C writes the recording, and `mcp-testkit mock <file>` replays it offline.
 */
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { CLI, collect, exited, runCli, scratchFile, startCli, useCli, waitForLine } from "./support.js";
import { everythingCommand } from "../driver/support.js";

useCli();

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: "agent", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe("mcp-testkit record", () => {
  it("records server-everything through a mock an agent uses; Ctrl-C writes a scenario that `mock` replays", async () => {
    const out = scratchFile("everything.json");
    const child = startCli(["record", everythingCommand, "--out", out]);
    const output = collect(child);
    const [, url] = await waitForLine(child, "stdout", /^mcp-testkit record: recording .* at (http:\/\/127\.0\.0\.1:\d+\/mcp)$/, 15_000);
    expect(output.stdout).toMatch(/\(mcp-servers\/everything [^,]+, 2025-11-25 \(legacy era: initialize\)\)/);
    const client = await connect(url!);
    expect(await client.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } })).toMatchObject({ content: [{ text: "The sum of 2 and 3 is 5." }] });
    // The recording declared elicitation to the server, which then lists its elicitation tool; the request reaches this agent.
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: "decline" };
    });
    const declined = await client.callTool({ name: "trigger-elicitation-request", arguments: {} });
    expect(asked).toEqual(["Please provide inputs for the following fields:"]);
    expect(JSON.stringify(declined.content)).toContain("decline");
    await client.close();
    child.kill("SIGINT");
    const result = await exited(child, output, 10_000);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('get-sum #0 {"a":2,"b":3} → result');
    expect(result.stdout).toContain(`mcp-testkit record: wrote 2 tool calls, 0 resource reads and 0 prompt gets to ${out} (scenario); replay it with: mcp-testkit mock ${out}\n`);
    const scenario = JSON.parse(readFileSync(out, "utf8"));
    expect(scenario.fixtures[0].tools).toEqual([
      {
        name: "get-sum",
        description: expect.any(String),
        inputSchema: expect.any(Object),
        calls: [{ args: { a: 2, b: 3 }, result: { content: [{ type: "text", text: "The sum of 2 and 3 is 5." }] } }],
      },
      {
        name: "trigger-elicitation-request",
        description: expect.any(String),
        inputSchema: expect.any(Object),
        calls: [{ args: {}, step: { asks: [{ method: "elicitation/create", params: expect.objectContaining({ message: asked[0] }) }], ...declined } }],
      },
    ]);

    // The replay, over stdio this time: the same answer, no server-everything.
    const replay = new Client({ name: "agent", version: "1.0.0" });
    await replay.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "mock", "--stdio", out], stderr: "pipe" }));
    try {
      expect(await replay.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } })).toEqual({ content: [{ type: "text", text: "The sum of 2 and 3 is 5." }] });
      await expect(replay.callTool({ name: "echo", arguments: { message: "x" } })).rejects.toThrow(/Not recorded: tool "echo" was listed by the server but never called/);
    } finally {
      await replay.close();
    }
  });

  it("redacts secrets from the file and from the lines it prints: a server's environment, an agent's token, a pattern of your own", async () => {
    const out = scratchFile("redacted.json");
    const apiKey = `sk-proj-${"Zz9Yy8Xx".repeat(4)}`;
    const child = startCli(["record", everythingCommand, "--out", out, "--redact-pattern", "internal-[0-9]+", "--redact", "arguments.note"], {
      env: { LEAKY_API_KEY: apiKey, LEAKY_NOTE: "internal-31337" },
    });
    const output = collect(child);
    const [, url] = await waitForLine(child, "stdout", /^mcp-testkit record: recording .* at (http:\/\/127\.0\.0\.1:\d+\/mcp)$/, 15_000);
    const client = await connect(url!);
    const env = await client.callTool({ name: "get-env", arguments: {} });
    // The agent gets the server's real answer; only what is kept and shown is redacted.
    expect(JSON.stringify(env)).toContain(apiKey);
    await client.callTool({ name: "echo", arguments: { message: `Authorization: Bearer ${apiKey}`, note: "plain words" } });
    await client.close();
    child.kill("SIGINT");
    const result = await exited(child, output, 10_000);
    expect(result.code).toBe(0);
    const file = readFileSync(out, "utf8");
    for (const text of [file, result.stdout, result.stderr]) {
      expect(text).not.toContain(apiKey);
      expect(text).not.toContain("internal-31337");
    }
    expect(result.stdout).toContain('echo #0 {"message":"Authorization: [redacted]","note":"[redacted]"} → result');
    const redacted = JSON.parse(file).fixtures[0].redacted.map((entry: { tool: string; path: string; rule: string }) => `${entry.tool} ${entry.path} ${entry.rule}`);
    expect(redacted).toEqual(
      expect.arrayContaining(["get-env answer.result.content.0.text openai-key", "get-env answer.result.content.0.text pattern:internal-[0-9]+", "echo arguments.note path:arguments.note"]),
    );
  });

  it("--format fixture with nothing recorded: says so and exits 1, writing nothing", async () => {
    const out = scratchFile("nothing.json");
    const child = startCli(["record", everythingCommand, "--out", out, "--format", "fixture", "--test-id", "t1"]);
    const output = collect(child);
    await waitForLine(child, "stdout", /^mcp-testkit record: recording /, 15_000);
    child.kill("SIGTERM");
    const result = await exited(child, output, 10_000);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("mcp-testkit record: stopped (SIGTERM)\n");
    expect(result.stdout).toMatch(
      /mcp-testkit record: Nothing to save as a fixture file yet: the agent made no tools\/call, resources\/read or prompts\/get through the recording mock \(0 recorded\)/,
    );
    expect(() => readFileSync(out)).toThrow(/ENOENT/);
  });

  it.each([
    [["record", everythingCommand], /missing --out <file>: where to write the recording when it stops/],
    [["record", everythingCommand, "--out", "x.json", "--format", "yaml"], /--format must be scenario or fixture, got "yaml"/],
    [["record", everythingCommand, "--out", "/no/such/folder/x.json"], /Cannot write the recording to "\/no\/such\/folder\/x.json": the folder \/no\/such\/folder does not exist\./],
    [["record", everythingCommand, "--out", "x.json", "--stdio", "--port", "3000"], /--port sets up HTTP serving and cannot be combined with --stdio/],
    [["record", everythingCommand, "--out", "x.json", "--test-id", ""], /--test-id needs the test id to scope the recording to/],
    [["record", "a", "b", "--out", "x.json"], /takes one target, got 2/],
    [["record", everythingCommand, "--out", "x.json", "--redact-pattern", "(oops"], /--redact-pattern: "\(oops" is not a valid regular expression/],
    [["record", everythingCommand, "--out", "x.json", "--closed-world"], /--closed-world needs --test-id or --context: a recording shared by every test cannot deny/],
    [["record", everythingCommand, "--out", tmpdir()], /--out ".*" is a directory; give the file to write, such as .*recording\.json/],
  ])("bad usage %j: %s", async (args, message) => {
    const result = await runCli(args);
    expect(result.code === 2 || result.code === 1).toBe(true);
    expect(result.stderr).toMatch(message);
  });
});
