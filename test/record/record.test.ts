/**
 * `recordMcp(upstream)`: an agent (the SDK v1 client) talks to a recording mock in front of a real
 * server (server-everything over stdio, the SDK v2 server in 2026-07-28); the recording, saved as
 * a scenario or a fixture file, replays the same answers offline with the mock's own fakes.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { mcpConnect, mcpShell, mockMcp, recordMcp, type McpDriver, type McpRecording, type MockMcpServer } from "../../src/index.js";
import { everythingCommand, expectNoProcessLeft, zoo } from "../driver/support.js";

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "mcp-testkit-record-"));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

async function agent(server: MockMcpServer): Promise<Client> {
  const client = new Client({ name: "agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url!)));
  clients.push(client);
  return client;
}

describe("recording server-everything (stdio, legacy era) and replaying it", () => {
  let upstream: McpDriver;
  let recording: McpRecording;
  let saved: string;

  beforeAll(async () => {
    upstream = mcpShell(everythingCommand);
    recording = await recordMcp(upstream);
    const client = await agent(recording.server);
    // What the agent sees is what the server lists and answers.
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual((await upstream.getTools()).map((tool) => tool.name));
    expect(await client.callTool({ name: "echo", arguments: { message: "hi" } })).toMatchObject({ content: [{ type: "text", text: "Echo: hi" }] });
    expect(await client.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } })).toMatchObject({ content: [{ type: "text", text: expect.stringContaining("5") }] });
    expect(await client.callTool({ name: "get-sum", arguments: { a: "x" } })).toMatchObject({ isError: true });
    const doc = await client.readResource({ uri: "demo://resource/static/document/architecture.md" });
    expect(doc.contents[0]).toMatchObject({ mimeType: "text/markdown" });
    expect((await client.getPrompt({ name: "args-prompt", arguments: { city: "Paris" } })).messages[0]).toMatchObject({ content: { text: expect.stringContaining("Paris") } });
    saved = await recording.save(path.join(directory, "everything.json"));
  });
  afterAll(async () => {
    await recording.close();
    await upstream.close();
    await expectNoProcessLeft(upstream.pid);
  });

  it("keeps each answer in the order the agent asked, with the exact arguments", () => {
    expect(recording.exchanges.map((exchange) => (exchange.kind === "resource" ? `read ${exchange.uri}` : `${exchange.kind} ${exchange.name} ${JSON.stringify(exchange.arguments)}`))).toEqual([
      'tool echo {"message":"hi"}',
      'tool get-sum {"a":2,"b":3}',
      'tool get-sum {"a":"x"}',
      "read demo://resource/static/document/architecture.md",
      'prompt args-prompt {"city":"Paris"}',
    ]);
  });

  it("saves a scenario: the server's identity, every tool with its definition, the answers as one shared fakes block", async () => {
    const scenario = JSON.parse(await readFile(saved, "utf8"));
    expect(scenario.serverInfo).toMatchObject({ name: "mcp-servers/everything" });
    expect(scenario.instructions).toEqual(expect.any(String));
    expect(Object.keys(scenario.tools)).toEqual((await upstream.getTools()).map((tool) => tool.name));
    expect(scenario.tools.echo).toMatchObject({ description: expect.any(String), inputSchema: { type: "object" } });
    const [block] = scenario.fixtures;
    expect(block.scope).toBe("shared");
    expect(block.tools.map((tool: { name: string; calls: unknown[] }) => [tool.name, tool.calls.length])).toEqual([
      ["echo", 1],
      ["get-sum", 2],
    ]);
    expect(block.tools[1].calls[1]).toEqual({ args: { a: "x" }, result: { content: expect.any(Array), isError: true } });
    expect(block.resources[0].reads[0].result.contents[0]).toMatchObject({ uri: "demo://resource/static/document/architecture.md", mimeType: "text/markdown" });
    expect(block.prompts[0].gets[0].args).toEqual({ city: "Paris" });
  });

  it("replays offline: the same calls get the same answers; another argument fails naming the closest recorded call; an unrecorded tool says so", async () => {
    await using replay = await mockMcp(JSON.parse(await readFile(saved, "utf8")));
    const client = await agent(replay);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("get-tiny-image");
    expect(await client.callTool({ name: "get-sum", arguments: { b: 3, a: 2 } })).toEqual((recording.exchanges[1]!.answer as { result: unknown }).result);
    expect(await client.callTool({ name: "get-sum", arguments: { a: "x" } })).toMatchObject({ isError: true });
    const mismatch = await client.callTool({ name: "echo", arguments: { message: "bye" } }).catch((error: unknown) => error);
    expect(mismatch).toBeInstanceOf(McpError);
    expect((mismatch as McpError).message).toMatch(
      /MCP fake mismatch: tool "echo" was called with arguments that match no declared fake .*Received \{"message":"bye"\}\. Declared: .*\{"message":"hi"\}/,
    );
    const unrecorded = await client.callTool({ name: "get-tiny-image", arguments: {} }).catch((error: unknown) => error);
    expect((unrecorded as McpError).message).toMatch(/Not recorded: tool "get-tiny-image" was listed by the server but never called while this recording was made/);
    expect((await client.readResource({ uri: "demo://resource/static/document/architecture.md" })).contents).toEqual(
      (recording.exchanges[3]!.answer as { result: { contents: unknown[] } }).result.contents,
    );
    expect((await client.getPrompt({ name: "args-prompt", arguments: { city: "Paris" } })).messages[0]).toMatchObject({ content: { text: expect.stringContaining("Paris") } });
  });

  it("replays the server's listings whole: every resource, template and prompt with its definition; one never asked for says so", async () => {
    await using replay = await mockMcp(JSON.parse(await readFile(saved, "utf8")));
    await using driver = mcpConnect(replay.url!);
    const uris = (resources: Array<{ uri: string }>) => resources.map((resource) => resource.uri).sort();
    expect(uris(await driver.getResources())).toEqual(uris(await upstream.getResources()));
    expect((await driver.getResourceTemplates()).map((template) => template.uriTemplate)).toEqual((await upstream.getResourceTemplates()).map((template) => template.uriTemplate));
    // A prompt keeps its title, description and arguments, as the server listed them.
    const prompts = await upstream.getPrompts();
    expect(prompts.length).toBeGreaterThan(1);
    expect(await driver.getPrompts()).toEqual(prompts);
    const unread = (await upstream.getResources()).find((resource) => resource.uri !== "demo://resource/static/document/architecture.md")!;
    await expect(driver.readResource(unread.uri)).rejects.toMatchObject({ serverMessage: expect.stringMatching(`^Not recorded: resource "${unread.uri}" was listed by the server but never read`) });
    const unasked = prompts.find((prompt) => prompt.name !== "args-prompt")!;
    await expect(driver.getPrompt(unasked.name, {})).rejects.toMatchObject({ serverMessage: expect.stringMatching(`^Not recorded: prompt "${unasked.name}" was listed by the server but never got`) });
  });

  it("a recording scoped to a test id replays for that test id; another request is told the scope and how to send it", async () => {
    const scoped = await recordMcp(upstream, { scope: { testId: "sums" }, mock: { transport: "memory" } });
    try {
      const client = new Client({ name: "agent", version: "1.0.0" });
      await client.connect(await scoped.server.connectInMemory());
      clients.push(client);
      await client.callTool({ name: "get-sum", arguments: { a: 1, b: 1 } });
    } finally {
      await scoped.close();
    }
    await using replay = await mockMcp(scoped.scenario());
    const outsider = await agent(replay);
    await expect(outsider.callTool({ name: "get-sum", arguments: { a: 1, b: 1 } })).rejects.toThrow(
      /Not recorded for this request: the answers for tool "get-sum" were recorded for test id "sums" only, and this request is not in that scope\. Send X-Test-Id: sums/,
    );
    const insider = new Client({ name: "agent", version: "1.0.0" });
    await insider.connect(new StreamableHTTPClientTransport(new URL(replay.url!), { requestInit: { headers: { "X-Test-Id": "sums" } } }));
    clients.push(insider);
    expect(await insider.callTool({ name: "get-sum", arguments: { a: 1, b: 1 } })).toMatchObject({ content: [{ text: expect.stringContaining("2") }] });
  });

  it("saves atomically: saves made at once each write a whole file; a directory is refused; no temporary file is left", async () => {
    const folder = await mkdtemp(path.join(directory, "saves-"));
    const target = path.join(folder, "same.json");
    const written = await Promise.all([recording.save(target), recording.save(target, { format: "fixture" }), recording.save(target)]);
    expect(written).toEqual([target, target, target]);
    // Whichever rename came last, the file is one save's whole content.
    expect([recording.scenario(), recording.fixture()]).toContainEqual(JSON.parse(await readFile(target, "utf8")));
    await expect(recording.save(folder)).rejects.toThrow(/Cannot save the recording to ".*saves-\w+": it is a directory .* Give a file path, such as .*recording\.json/);
    expect(await readdir(folder)).toEqual(["same.json"]);
  });

  it("a closed world needs a scope: recordMcp refuses it up front for a shared recording", async () => {
    await expect(recordMcp(upstream, { closedWorld: true, mock: { transport: "memory" } })).rejects.toThrow(/recordMcp: closedWorld needs a scope \(\{ testId \} or \{ context \}\)/);
  });

  it("saves a fixture file for a fixtures directory, with a test id's scope and a closed world when asked", async () => {
    const file = path.join(directory, "fixtures", "everything.json");
    const scoped = await recordMcp(upstream, { scope: { testId: "weather › sums" }, closedWorld: true, mock: { transport: "memory" } });
    try {
      const client = new Client({ name: "agent", version: "1.0.0" });
      await client.connect(await scoped.server.connectInMemory());
      clients.push(client);
      await client.callTool({ name: "get-sum", arguments: { a: 1, b: 1 } });
      await scoped.save(file, { format: "fixture" });
    } finally {
      await scoped.close();
    }
    const fixture = JSON.parse(await readFile(file, "utf8"));
    expect(fixture.mcpFakes).toMatchObject({ scope: { testId: "weather › sums" }, undeclaredTools: "deny", tools: [{ name: "get-sum", calls: [{ args: { a: 1, b: 1 } }] }] });
    await using replay = await mockMcp({ fixtures: file });
    const answered = replay.fakes.answer({ tool: "get-sum", arguments: { a: 1, b: 1 }, identity: { testId: "weather › sums" } });
    expect(answered).toMatchObject({ kind: "answer", result: { content: [{ type: "text", text: expect.stringContaining("2") }] } });
  });
});

describe("recording a 2026-07-28 server for a legacy agent", () => {
  it("forwards and records over the modern era; the replay serves both eras", async () => {
    await using upstream = mcpShell(zoo("sdk-v2-server") + " stdio");
    await using recording = await recordMcp(upstream);
    expect(upstream.era).toBe("modern");
    const client = await agent(recording.server);
    const answer = await client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
    expect(answer).toEqual({ content: [{ type: "text", text: "42" }] });
    // What 2026-07-28 adds to a result (resultType, the server's identity) is not part of the recording.
    expect(recording.exchanges[0]!.answer).toEqual({ result: { content: [{ type: "text", text: "42" }] } });
    const scenario = recording.scenario();
    expect(scenario.serverInfo).toMatchObject({ name: "sdk-v2-fixture" });
    await using replay = await mockMcp(scenario);
    const legacy = await agent(replay);
    expect(await legacy.callTool({ name: "add", arguments: { a: 2, b: 40 } })).toEqual(answer);
    // Each recorded answer answers one call, as it did once; a reset of the fakes starts over.
    replay.fakes.reset();
    await using modern = mcpShell(zoo("sdk-v2-server") + " stdio"); // the same server, for comparison
    const replayed = await replay.handle(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "add", arguments: { a: 2, b: 40 }, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } },
      }),
    );
    expect(JSON.parse(replayed!).result).toMatchObject({ content: [{ type: "text", text: "42" }], resultType: "complete" });
    expect((await modern.callTool("add", { a: 2, b: 40 })).getTextContent()).toBe("42");
  });
});

describe("what is not a server's answer is not recorded", () => {
  it("a server that exits mid-call: the agent gets an internal error naming it, and the recording stays empty", async () => {
    const upstream = mcpShell(zoo("crashes-mid-call"));
    onTestFinished(() => upstream.close({ allowFailure: true }));
    await using recording = await recordMcp(upstream);
    const client = await agent(recording.server);
    const tool = (await client.listTools()).tools[0]!.name;
    const failed = await client.callTool({ name: tool, arguments: {} }).catch((error: unknown) => error);
    expect((failed as McpError).message).toMatch(
      /^MCP error -32603: mcp-testkit record: the recorded server did not answer: \[mcp-testkit\] The server process exited before answering tools\/call "echo"[\s\S]*\(nothing was recorded for this request\)$/,
    );
    expect(recording.exchanges).toEqual([]);
    await expect(recording.save(path.join(directory, "empty.json"), { format: "fixture" })).rejects.toThrow(
      /Nothing to save as a fixture file yet: the agent made no tools\/call, resources\/read or prompts\/get/,
    );
  });
});
