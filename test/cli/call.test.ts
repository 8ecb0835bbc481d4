/**
 * `mcp-testkit call` as a user runs it (the built CLI): tools, resources and prompts of
 * server-everything over stdio and of our mock over Streamable HTTP; tool errors and JSON-RPC
 * errors exit 1 with the message; --json; bad usage exits 2.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mockMcp, type MockMcpServer } from "../../src/index.js";
import { REPO, runCli, useCli } from "./support.js";

useCli();

type Json = Record<string, any>;

const everything = `"${join(REPO, "node_modules", ".bin", "mcp-server-everything")}" stdio`;
const usage = (message: string) => `mcp-testkit call: ${message}\nRun "mcp-testkit call --help" for usage.\n`;

describe("mcp-testkit call over stdio (server-everything)", () => {
  it("calls a tool and prints its text", async () => {
    expect(await runCli(["call", everything, "echo", "--args", '{"message":"hi there"}'])).toMatchObject({ code: 0, stdout: "Echo: hi there\n", stderr: "" });
  });

  it("--json prints the whole result", async () => {
    const result = await runCli(["call", everything, "get-sum", "--args", '{"a":2,"b":3}', "--json"]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(result.stdout)).toEqual({ content: [{ type: "text", text: "The sum of 2 and 3 is 5." }], isError: false });
  });

  it("prints images as a line, and structured content once", async () => {
    const image = await runCli(["call", everything, "get-tiny-image"]);
    expect(image.code).toBe(0);
    expect(image.stdout).toMatch(/^Here's the image you requested:\n\[image image\/png, \d+ bytes\]\nThe image above is the MCP logo\.\n$/);
    const weather = await runCli(["call", everything, "get-structured-content", "--args", '{"location":"Chicago"}']);
    expect(weather.code).toBe(0);
    const printed = JSON.parse(weather.stdout) as Json;
    expect(printed).toEqual({ temperature: expect.any(Number), conditions: expect.any(String), humidity: expect.any(Number) });
  });

  it("an unknown tool exits 1 listing the server's tools and the closest name", async () => {
    const result = await runCli(["call", everything, "ecko", "--args", '{"message":"hi"}']);
    expect(result).toMatchObject({ code: 1, stdout: "" });
    expect(result.stderr).toMatch(
      /^mcp-testkit call: the server has no tool "ecko"; did you mean "echo"\? Its tools: .*\becho\b.*\bget-sum\b.*\. Run mcp-testkit inspect ".*mcp-server-everything\\?" stdio" to see each tool's arguments\.\n$/,
    );
    const far = await runCli(["call", everything, "no-such-tool"]);
    expect(far.stderr).toMatch(/^mcp-testkit call: the server has no tool "no-such-tool"\. Its tools: /);
  });

  it("an unknown tool on a server with many tools lists the first 30 and counts the rest", async () => {
    const many = await mockMcp({ tools: Object.fromEntries(Array.from({ length: 33 }, (_, n) => [`tool_${String(n).padStart(2, "0")}`, { returns: "ok" }])) });
    try {
      const result = await runCli(["call", many.url!, "nope"]);
      expect(result).toMatchObject({ code: 1, stdout: "" });
      expect(result.stderr).toContain(`Its tools: ${Array.from({ length: 30 }, (_, n) => `tool_${String(n).padStart(2, "0")}`).join(", ")}, … and 3 more. Run mcp-testkit inspect`);
    } finally {
      await many.close();
    }
  });

  it("missing required arguments exit 1 with the tool's input schema", async () => {
    const result = await runCli(["call", everything, "get-sum", "--args", '{"a":2}']);
    expect(result).toMatchObject({ code: 1, stdout: "" });
    expect(result.stderr).toMatch(
      /^mcp-testkit call: tool "get-sum" needs the argument "b", missing from --args\. Its input schema:\n  a: number — .*\n  b: number — .*\nFor example: --args '\{"a":2,"b":"…"\}'\n$/,
    );
  });

  it("--read reads a resource; --prompt gets a prompt with its arguments", async () => {
    const read = await runCli(["call", everything, "--read", "demo://resource/dynamic/text/2"]);
    expect(read).toMatchObject({ code: 0, stderr: "" });
    expect(read.stdout).toContain("Resource 2");
    const blob = await runCli(["call", everything, "--read", "demo://resource/dynamic/blob/1"]);
    expect(blob.stdout).toMatch(/^\[blob [\w/.-]+, \d+ bytes\]\n$/);
    const prompt = await runCli(["call", everything, "--prompt", "args-prompt", "--args", '{"city":"Paris","state":"Texas"}']);
    expect(prompt).toMatchObject({ code: 0, stdout: "user: What's weather in Paris, Texas?\n", stderr: "" });
  });

  it("a JSON-RPC error exits 1 with the server's message; --json prints it as { error }", async () => {
    const result = await runCli(["call", everything, "--prompt", "no-such-prompt", "--json"]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({ error: { code: -32602, message: "MCP error -32602: Prompt no-such-prompt not found" } });
    expect(result.stderr).toBe(
      'mcp-testkit call: Prompt "no-such-prompt" failed: the server answered prompts/get with JSON-RPC error -32602 (InvalidParams): "MCP error -32602: Prompt no-such-prompt not found"\n',
    );
  });
});

describe("mcp-testkit call over Streamable HTTP (our mock)", () => {
  let server: MockMcpServer;
  beforeAll(async () => {
    server = await mockMcp({
      tools: {
        search: [{ returns: { hits: 2 } }, { throws: { code: -32000, message: "rate limited", data: { retryAfter: 5 } } }],
        fail: { toolError: "disk full" },
      },
      resources: { "file:///notes.txt": "first line\nsecond line" },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it("calls a tool with its arguments, then a JSON-RPC error exits 1", async () => {
    const first = await runCli(["call", server.url!, "search", "--args", '{"query":"bug"}']);
    expect(first).toMatchObject({ code: 0, stdout: '{"hits":2}\n', stderr: "" });
    expect(server.calls.at(-1)).toMatchObject({ tool: "search", arguments: { query: "bug" } });

    const second = await runCli(["call", server.url!, "search", "--args", '{"query":"bug"}', "--json"]);
    expect(second.code).toBe(1);
    expect(JSON.parse(second.stdout)).toEqual({ error: { code: -32000, message: "rate limited", data: { retryAfter: 5 } } });
    expect(second.stderr).toBe('mcp-testkit call: Tool "search" failed: the server answered tools/call with JSON-RPC error -32000: "rate limited" (data: {"retryAfter":5})\n');
  });

  it("a tool error in --json mode prints the result and exits 1", async () => {
    const result = await runCli(["call", server.url!, "fail", "--json"]);
    expect(result.code).toBe(1);
    // The result as the default era (auto, as in the library) gets it from our mock: 2026-07-28's.
    expect(JSON.parse(result.stdout)).toEqual({
      content: [{ type: "text", text: "disk full" }],
      isError: true,
      resultType: "complete",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "mcp-testkit", version: "0.1.0" } },
    });
    expect(result.stderr).toBe('mcp-testkit call: tool "fail" returned an error (isError: true)\n');
  });

  it("a call that times out names the --timeout flag", async () => {
    const slow = await mockMcp({ tools: { wait: { hang: true } } });
    try {
      const result = await runCli(["call", slow.url, "wait", "--timeout", "300"]);
      expect(result).toMatchObject({ code: 1, stdout: "" });
      expect(result.stderr).toMatch(/^mcp-testkit call: .*tools\/call.* got no response within 300 ms.* If the server is just slow, raise --timeout \(it was 300 ms\)\.\n/);
      expect(result.stderr).not.toContain("requestTimeout");
      // The driver cancelled the call as it gave up.
      expect((await slow.waitForCalls(1, { ended: true })).map((call) => call.outcome)).toEqual(["cancelled"]);
    } finally {
      await slow.close();
    }
  });

  it("reads a resource", async () => {
    expect(await runCli(["call", server.url!, "--read", "file:///notes.txt"])).toMatchObject({ code: 0, stdout: "first line\nsecond line\n", stderr: "" });
  });
});

describe("mcp-testkit call usage", () => {
  it("bad usage exits 2 with a message", async () => {
    const cases: Array<[string[], string]> = [
      [["call"], 'missing the target: a command that starts a stdio server (e.g. "node server.js") or an http(s) URL'],
      [["call", everything], "missing what to call: a tool name after the target, --read <uri> or --prompt <name>"],
      [["call", everything, "echo", "--read", "x://y"], 'calls one thing at a time, got the tool "echo" and --read'],
      [["call", everything, "echo", "--args", "{oops"], `--args must be a JSON object such as '{"message":"hi"}': ${jsonError("{oops")}`],
      [["call", everything, "echo", "--args", "[1]"], `--args must be a JSON object such as '{"message":"hi"}', got [1]`],
      [["call", everything, "--read", "x://y", "--args", "{}"], "--args goes with a tool or --prompt, not --read"],
      [["call", everything, "--prompt", "p", "--args", '{"n":1}'], "prompt arguments must be strings, got n: 1"],
      [["call", everything, "echo", "extra"], 'unexpected argument "extra"; quote a command with arguments, e.g. mcp-testkit call "node server.js" echo'],
      // Words meant as the arguments get the arguments' own error, not advice to quote the command.
      [["call", everything, "echo", "not json"], `the arguments after the tool name must be a JSON object such as '{"message":"hi"}': ${jsonError("not json")}`],
      [["call", everything, "echo", "[1,2]"], `the arguments after the tool name must be a JSON object such as '{"message":"hi"}', got [1,2]`],
      [["call", everything, "echo", "--read"], "option --read needs a value"],
    ];
    for (const [args, message] of cases) expect(await runCli(args)).toMatchObject({ code: 2, stdout: "", stderr: usage(message) });
  });
});

function jsonError(text: string): string {
  try {
    JSON.parse(text);
    return "";
  } catch (error) {
    return (error as Error).message;
  }
}
