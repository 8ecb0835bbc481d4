/**
 * aimock's config file runs unchanged: `fromAimockConfig(config)` turns it into `mockMcp()`
 * options, served here to the official SDK v1 client over HTTP. The config is the aimock
 * document's example, with a prompt and a tool schema added in aimock's format, and an
 * `llm.fixtures` file whose `mcpFakes` the mock serves beside it.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, describe, expect, it } from "vitest";
import { fromAimockConfig, McpTestkitError, mockMcp } from "../../src/index.js";
import { closedAfterEach } from "../support/closed-after-each.js";

/** The "Config File" example of aimock's document, as it is. */
const DOCUMENT_EXAMPLE = {
  mcp: {
    path: "/mcp",
    tools: [{ name: "search", description: "Search", result: "Found it" }],
    resources: [{ uri: "file:///data.json", name: "Data", text: '{"key": "value"}' }],
  },
};

const folder = mkdtempSync(join(tmpdir(), "mcp-testkit-aimock-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const { servers, clients } = closedAfterEach();

async function serve(config: unknown, onIgnored?: (line: string) => void): Promise<Client> {
  const server = await mockMcp(fromAimockConfig(config, { onIgnored }));
  servers.add(server);
  const client = new Client({ name: "aimock-config", version: "1.0.0" });
  clients.add(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url!)));
  return client;
}

describe("fromAimockConfig", () => {
  it("serves the document's example: its tool answers with the config result, its resource reads", async () => {
    const client = await serve(DOCUMENT_EXAMPLE);
    expect((await client.listTools()).tools).toEqual([expect.objectContaining({ name: "search", description: "Search" })]);
    expect(await client.callTool({ name: "search", arguments: {} })).toMatchObject({ content: [{ type: "text", text: "Found it" }] });
    expect((await client.listResources()).resources).toEqual([expect.objectContaining({ uri: "file:///data.json", name: "Data" })]);
    expect((await client.readResource({ uri: "file:///data.json" })).contents).toEqual([expect.objectContaining({ uri: "file:///data.json", text: '{"key": "value"}' })]);
  });

  it("takes prompts, schemas, blobs and serverInfo in aimock's format, and the mcpFakes of llm.fixtures", async () => {
    const fixture = join(folder, "weather.json");
    writeFileSync(
      fixture,
      JSON.stringify({
        fixtures: [{ match: { userMessage: "weather" }, response: { content: "It rains." } }],
        mcpFakes: { scope: "shared", tools: [{ name: "get_weather", calls: [{ args: { city: "Seattle" }, result: { tempF: 60 } }] }] },
      }),
    );
    const ignored: string[] = [];
    const client = await serve(
      {
        llm: { fixtures: fixture, latency: 20 },
        a2a: { agents: [] },
        mcp: {
          serverInfo: { name: "from-aimock", version: "2.0.0" },
          tools: [{ name: "calc", description: "Calculator", inputSchema: { type: "object", properties: { expr: { type: "string" } } }, result: "42" }],
          resources: [{ uri: "file:///logo.png", name: "Logo", mimeType: "image/png", blob: "iVBORw0KGgo=" }],
          prompts: [
            {
              name: "summarize",
              description: "Summarize a text",
              arguments: [{ name: "text", required: true }],
              result: { messages: [{ role: "user", content: { type: "text", text: "Summarize this." } }] },
            },
          ],
        },
      },
      (line) => ignored.push(line),
    );
    expect(client.getServerVersion()).toMatchObject({ name: "from-aimock", version: "2.0.0" });
    const tools = (await client.listTools()).tools;
    expect(tools.find((tool) => tool.name === "calc")?.inputSchema).toEqual({ type: "object", properties: { expr: { type: "string" } } });
    expect(await client.callTool({ name: "calc", arguments: { expr: "6*7" } })).toMatchObject({ content: [{ type: "text", text: "42" }] });
    expect(await client.callTool({ name: "get_weather", arguments: { city: "Seattle" } })).toMatchObject({ structuredContent: { tempF: 60 } });
    expect((await client.readResource({ uri: "file:///logo.png" })).contents).toEqual([{ uri: "file:///logo.png", mimeType: "image/png", blob: "iVBORw0KGgo=" }]);
    const prompt = await client.getPrompt({ name: "summarize", arguments: { text: "A long story" } });
    expect(prompt.messages).toEqual([{ role: "user", content: { type: "text", text: "Summarize this." } }]);
    expect((await client.listPrompts()).prompts).toEqual([expect.objectContaining({ name: "summarize", arguments: [{ name: "text", required: true }] })]);
    // The parts for aimock's other mocks are left out, said in one line.
    expect(ignored).toEqual([`ignoring the aimock config's parts for its other mocks: a2a, llm.latency; mcp-testkit serves its "mcp" part and the mcpFakes in "llm.fixtures".`]);
  });

  it("llm.fixtures with LLM fixtures only has nothing to serve, and says so in the same line", () => {
    const llmOnly = join(folder, "llm-only.json");
    writeFileSync(llmOnly, JSON.stringify({ fixtures: [{ match: { userMessage: "hi" }, response: { content: "Hello" } }] }));
    const ignored: string[] = [];
    const options = fromAimockConfig({ llm: { fixtures: llmOnly }, mcp: { tools: [{ name: "a" }] } }, { onIgnored: (line) => ignored.push(line) });
    expect(options).toEqual({ tools: { a: {} } });
    expect(ignored).toEqual([
      `ignoring the aimock config's parts for its other mocks: llm.fixtures (${llmOnly} holds no mcpFakes); mcp-testkit serves its "mcp" part and the mcpFakes in "llm.fixtures".`,
    ]);
  });

  it.each([
    [{ mpc: {} }, 'The aimock config has unknown key "mpc"; did you mean "mcp"?'],
    [{ mcp: { tool: [] } }, '"mcp" has unknown key "tool"; did you mean "tools"?'],
    [{ mcp: { tools: [{ name: "a", reslt: "x" }] } }, 'mcp.tools[0] has unknown key "reslt"; did you mean "result"?'],
    [{ mcp: { resources: [{ uri: "file:///a", name: "A", txt: "x" }] } }, 'mcp.resources[0] has unknown key "txt"; did you mean "text"?'],
    [{ mcp: { prompts: [{ description: "no name" }] } }, 'mcp.prompts[0] needs "name" (a string)'],
    [{ mcp: { tools: { search: {} } } }, '"mcp.tools" must be a list of objects with "name", got an object'],
  ])("refuses %j with a message that says what was meant", (config, message) => {
    expect(() => fromAimockConfig(config)).toThrow(McpTestkitError);
    expect(() => fromAimockConfig(config)).toThrow(message);
  });
});
