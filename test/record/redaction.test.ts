/**
 * Redaction in recordings: secrets planted in a real server's answers (server-everything's
 * `get-env` prints its environment; `echo` repeats its argument) and in the agent's arguments are
 * replaced with "[redacted]" before the recording keeps them, the saved file lists each
 * redaction with its path and rule, and the file still replays: a redacted argument matches any
 * value. The agent itself still gets the real answers while recording.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpTestkitError, mcpAttach, mcpShell, mockMcp, recordMcp, type McpDriver, type McpRecording } from "../../src/index.js";
import { everythingCommand, expectNoProcessLeft } from "../driver/support.js";

// Shaped like the real things, made up for this test.
const SECRETS = {
  openai: `sk-proj-${"A1b2C3d4".repeat(4)}`,
  github: `ghp_${"x7Y8z9W0".repeat(5)}`,
  aws: "AKIAABCDEFGHIJKLMNOP",
  slack: "xoxb-123456789012-abcdefghijkl",
  jwt: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZ2VudCJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ",
  planted: "my-own-secret-4242",
  password: "hunter2-correct-horse",
};

let directory: string;
let upstream: McpDriver;
let recording: McpRecording;
let saved: string;
let fileText: string;
const printed: string[] = [];
const agentSaw: string[] = [];

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "mcp-testkit-redact-"));
  upstream = mcpShell(everythingCommand, { env: { OPENAI_API_KEY: SECRETS.openai, GITHUB_TOKEN: SECRETS.github, AWS_KEY_ID: SECRETS.aws, DEPLOY_NOTE: `note ${SECRETS.planted}` } });
  recording = await recordMcp(upstream, {
    redact: { patterns: [/my-own-secret-\d+/] },
    onExchange: (exchange) => printed.push(JSON.stringify(exchange)),
  });
  const agent = new Client({ name: "agent", version: "1.0.0" });
  await agent.connect(await recording.server.connectInMemory());
  const env = await agent.callTool({ name: "get-env", arguments: {} });
  agentSaw.push(JSON.stringify(env));
  const echoed = await agent.callTool({ name: "echo", arguments: { message: `call with Bearer ${SECRETS.jwt} and ${SECRETS.slack}` } });
  agentSaw.push(JSON.stringify(echoed));
  await agent.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } });
  await agent.close();
  saved = await recording.save(path.join(directory, "everything.json"));
  fileText = await readFile(saved, "utf8");
});

afterAll(async () => {
  await recording?.close();
  await upstream?.close();
  await expectNoProcessLeft(upstream?.pid);
  await rm(directory, { recursive: true, force: true });
});

describe("recording a server that leaks secrets", () => {
  it("the agent still got the real answers while recording", () => {
    expect(agentSaw.join("\n")).toContain(SECRETS.openai);
    expect(agentSaw.join("\n")).toContain(SECRETS.jwt);
  });

  it("writes none of them to the file, and keeps none in the recording or its callback", () => {
    const kept = [fileText, JSON.stringify(recording.exchanges), printed.join("\n")];
    for (const text of kept) {
      for (const [name, secret] of Object.entries(SECRETS)) if (name !== "password") expect(text, `${name} leaked`).not.toContain(secret);
      expect(text).toContain("[redacted]");
    }
  });

  it("lists each redaction with its entry, its path and the rule that caught it", () => {
    const block = JSON.parse(fileText).fixtures[0];
    const rules = (tool: string) =>
      block.redacted.filter((redaction: { tool?: string }) => redaction.tool === tool).map((redaction: { path: string; rule: string }) => `${redaction.path} ${redaction.rule}`);
    expect(rules("get-env")).toEqual(
      expect.arrayContaining([
        "answer.result.content.0.text openai-key",
        "answer.result.content.0.text github-token",
        "answer.result.content.0.text aws-access-key",
        "answer.result.content.0.text pattern:my-own-secret-\\d+",
      ]),
    );
    expect(rules("echo")).toEqual(expect.arrayContaining(["arguments.message bearer-token", "arguments.message slack-token", "answer.result.content.0.text bearer-token"]));
    expect(rules("get-sum")).toEqual([]);
    expect(block.redacted.every((redaction: { entry?: number }) => redaction.entry === 0)).toBe(true);
  });

  it("replays: a redacted argument matches any value, an untouched one still matches exactly", async () => {
    const scenario = JSON.parse(fileText);
    const echo = scenario.fixtures[0].tools.find((tool: { name: string }) => tool.name === "echo");
    expect(echo.calls[0].argsMatch).toEqual({ message: { $schema: {} } });
    const sum = scenario.fixtures[0].tools.find((tool: { name: string }) => tool.name === "get-sum");
    expect(sum.calls[0].args).toEqual({ a: 2, b: 3 });
    await using replay = await mockMcp({ ...scenario, transport: "memory" });
    const agent = new Client({ name: "agent", version: "1.0.0" });
    await agent.connect(await replay.connectInMemory());
    const answered = await agent.callTool({ name: "echo", arguments: { message: "something else entirely" } });
    expect(JSON.stringify(answered)).toContain("Echo: call with [redacted] and [redacted]");
    expect(await agent.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } })).toMatchObject({ content: [{ text: "The sum of 2 and 3 is 5." }] });
    await expect(agent.callTool({ name: "get-sum", arguments: { a: 2, b: 4 } })).rejects.toThrow(/fake mismatch: tool "get-sum" was called with arguments that match no declared fake/);
    await agent.close();
  });
});

describe("redaction rules", () => {
  it("replaces a value under a key named as a credential, a value at a path you name, and a secret in the server's info", async () => {
    await using source = await mockMcp({
      serverInfo: { name: "leaky", version: "1.0.0", title: `Leaky (${SECRETS.github})` },
      tools: { login: { responses: [{ content: [{ type: "text", text: "ok" }], structuredContent: { user: "ada", password: SECRETS.password, session: { id: "s-1", build: "b-7" } } }] } },
    });
    await using driver = mcpAttach(source.connectInMemory());
    await using recorder = await recordMcp(driver, { redact: { paths: ["answer.result.structuredContent.session.build", "**.apiKey"] } });
    const agent = new Client({ name: "agent", version: "1.0.0" });
    await agent.connect(await recorder.server.connectInMemory());
    expect(agent.getServerVersion()?.title).toBe("Leaky ([redacted])");
    await agent.callTool({ name: "login", arguments: { user: "ada", options: { apiKey: "k-123" } } });
    await agent.close();
    const block = recorder.fixture()!.mcpFakes as { redacted?: unknown[]; tools?: { calls: unknown[] }[] };
    expect(block.redacted).toEqual([
      { path: "serverInfo.title", rule: "github-token" },
      { tool: "login", entry: 0, path: "arguments.options.apiKey", rule: "credential-key" },
      { tool: "login", entry: 0, path: "answer.result.structuredContent.password", rule: "credential-key" },
      { tool: "login", entry: 0, path: "answer.result.structuredContent.session.build", rule: "path:answer.result.structuredContent.session.build" },
    ]);
    expect(block.tools![0]!.calls[0]).toEqual({
      argsMatch: { user: "ada", options: { apiKey: { $schema: {} } } },
      result: { content: [{ type: "text", text: "ok" }], structuredContent: { user: "ada", password: "[redacted]", session: { id: "s-1", build: "[redacted]" } } },
    });
    expect(JSON.stringify(recorder.scenario())).not.toContain(SECRETS.github);
  });

  it("can be told to use only your own rules", async () => {
    await using source = await mockMcp({ tools: { login: { responses: [{ content: [{ type: "text", text: "ok" }], structuredContent: { password: SECRETS.password } }] } } });
    await using driver = mcpAttach(source.connectInMemory());
    await using recorder = await recordMcp(driver, { redact: { defaults: false, patterns: ["hunter\\d"] } });
    const agent = new Client({ name: "agent", version: "1.0.0" });
    await agent.connect(await recorder.server.connectInMemory());
    await agent.callTool({ name: "login", arguments: {} });
    await agent.close();
    expect(recorder.exchanges[0]).toMatchObject({ answer: { result: { structuredContent: { password: "[redacted]-correct-horse" } } } });
  });

  it("refuses a malformed path or pattern, naming the option", async () => {
    await using source = await mockMcp({ tools: { t: { returns: "ok" } } });
    await using upstreamDriver = mcpAttach(source.connectInMemory());
    await expect(recordMcp(upstreamDriver, { redact: { paths: ["arguments..key"] } })).rejects.toThrow(McpTestkitError);
    await expect(recordMcp(upstreamDriver, { redact: { paths: ["arguments..key"] } })).rejects.toThrow(/redact\.paths: each path must be dot-separated keys such as "arguments\.apiKey"/);
    await expect(recordMcp(upstreamDriver, { redact: { patterns: ["(unclosed"] } })).rejects.toThrow(/redact\.patterns: "\(unclosed" is not a valid regular expression/);
  });
});
