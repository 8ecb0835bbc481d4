/**
 * Scenario fakes beyond the document, served to real SDK clients over Streamable HTTP:
 * `argsMatch` patterns, and fakes for resources/read and prompts/get.
 */
import { describe, expect, it } from "vitest";
import { mockMcp, type MockMcpServer } from "../../src/index.js";
import { sdkClient, track, useCleanup } from "../wire/support/http.js";

useCleanup();
const lines: string[] = [];
const logger = (_level: string, line: string) => void lines.push(line);

async function serveFakes(options: Parameters<typeof mockMcp>[0] = {}): Promise<MockMcpServer & { url: string }> {
  return track(await mockMcp({ fakesOptions: { logger }, ...options })) as MockMcpServer & { url: string };
}

const withTestId = (testId: string) => ({ transportOptions: { requestInit: { headers: { "X-Test-Id": encodeURIComponent(testId) } } } });

describe("argsMatch over HTTP", () => {
  it("answers calls that match the pattern and refuses others naming the first difference", async () => {
    const server = await serveFakes({
      fixtures: {
        scope: { testId: "search › refunds" },
        tools: [{ name: "search", calls: [{ id: "refunds", argsMatch: { query: { $regex: "^refund", $flags: "i" }, limit: { $schema: { type: "integer", maximum: 10 } } }, result: "3 tickets" }] }],
      },
    });
    const { client } = await sdkClient(server.url, withTestId("search › refunds"));
    const error = await client.callTool({ name: "search", arguments: { query: "billing", limit: 5 } }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: -32602, data: { mcpTestkit: { code: "MCP_FAKE_MISMATCH", firstDifference: '$.query: expected a string matching /^refund/i, received "billing"' } } });
    const answered = await client.callTool({ name: "search", arguments: { query: "Refunds last week", limit: 5, sort: "new" } });
    expect(answered.content).toEqual([{ type: "text", text: "3 tickets" }]);
    expect(server.calls.map((call) => call.fake)).toEqual(["MCP_FAKE_MISMATCH", "code#1:refunds"]);
  });
});

describe("resource and prompt fakes over HTTP", () => {
  const fixtures = {
    scope: { testId: "docs › summarize" },
    resources: [
      { uri: "file:///guide.md", name: "Guide", mimeType: "text/markdown", reads: [{ id: "guide-v1", result: "# v1" }, { error: { code: -32002, message: "Resource not found: file:///guide.md" } }] },
    ],
    prompts: [
      {
        name: "summarize",
        description: "Summarize",
        arguments: [{ name: "text", required: true }],
        gets: [{ id: "short", argsMatch: { text: { $regex: "^.{1,20}$" } }, result: "In a word, please." }],
      },
    ],
  };

  it("answer reads and prompts of the test in order, list them beside the catalog's, and journal them", async () => {
    const server = await serveFakes({ fixtures, resources: { "file:///own.txt": "mine" }, prompts: { greet: "Hello" } });
    const { client } = await sdkClient(server.url, withTestId("docs › summarize"));

    expect((await client.listResources()).resources.map((resource) => [resource.uri, resource.name])).toEqual([
      ["file:///own.txt", "file:///own.txt"],
      ["file:///guide.md", "Guide"],
    ]);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["greet", "summarize"]);

    expect((await client.readResource({ uri: "file:///guide.md" })).contents).toEqual([{ uri: "file:///guide.md", mimeType: "text/markdown", text: "# v1" }]);
    await expect(client.readResource({ uri: "file:///guide.md" })).rejects.toMatchObject({ code: -32002, message: expect.stringContaining("Resource not found: file:///guide.md") });
    const third = await client.readResource({ uri: "file:///guide.md" }).catch((thrown: unknown) => thrown);
    expect(third).toMatchObject({ code: -31010, data: { mcpTestkit: { code: "MCP_FAKE_EXHAUSTED", resource: "file:///guide.md", testId: "docs › summarize" } } });
    // The catalog still answers what the fakes do not declare.
    expect((await client.readResource({ uri: "file:///own.txt" })).contents[0]).toMatchObject({ text: "mine" });

    const prompt = await client.getPrompt({ name: "summarize", arguments: { text: "a short text" } });
    expect(prompt).toMatchObject({ description: "Summarize", messages: [{ role: "user", content: { type: "text", text: "In a word, please." } }] });
    const mismatch = await client.getPrompt({ name: "summarize", arguments: { text: "a text far longer than twenty characters" } }).catch((thrown: unknown) => thrown);
    expect(mismatch).toMatchObject({
      code: -32602,
      data: { mcpTestkit: { code: "MCP_FAKE_MISMATCH", prompt: "summarize", firstDifference: expect.stringContaining("$.text: expected a string matching") } },
    });

    const journal = server.fakes.journal.entries({ testId: "docs › summarize" }).filter((entry) => entry.method === "resources/read" || entry.method === "prompts/get");
    expect(journal.map((entry) => [entry.method, entry.response.mcpFake?.outcome ?? "not a fake", entry.response.mcpFake?.entryId ?? entry.response.mcpFake?.code ?? null])).toEqual([
      ["resources/read", "answered", "code#1:guide-v1"],
      ["resources/read", "answered", "code#1:resource:file:///guide.md#1"],
      ["resources/read", "exhausted", "MCP_FAKE_EXHAUSTED"],
      ["resources/read", "not a fake", null],
      ["prompts/get", "answered", "code#1:short"],
      ["prompts/get", "mismatch", "MCP_FAKE_MISMATCH"],
    ]);
    expect(server.fakes.failureCounts()).toMatchObject({ MCP_FAKE_EXHAUSTED: 1, MCP_FAKE_MISMATCH: 1 });
    expect(lines.some((line) => line.startsWith("MCP-FAKE:") && line.includes('resource "file:///guide.md"'))).toBe(true);
  });

  it("let a client subscribe to a faked resource (without using up a read); an undeclared URI is still not found", async () => {
    const server = await serveFakes({ fixtures });
    const { client } = await sdkClient(server.url, withTestId("docs › summarize"));
    expect(await client.subscribeResource({ uri: "file:///guide.md" })).toEqual({});
    // The subscription used no read: the first read still gets the first entry.
    expect((await client.readResource({ uri: "file:///guide.md" })).contents).toEqual([{ uri: "file:///guide.md", mimeType: "text/markdown", text: "# v1" }]);
    await expect(client.subscribeResource({ uri: "file:///nowhere.md" })).rejects.toMatchObject({ code: -32002, message: expect.stringContaining("Resource not found: file:///nowhere.md") });
    // Another test's request sees no fake resource, so it cannot subscribe to it.
    const other = await sdkClient(server.url, withTestId("another test"));
    await expect(other.client.subscribeResource({ uri: "file:///guide.md" })).rejects.toMatchObject({ code: -32002, message: expect.stringContaining("Resource not found: file:///guide.md") });
  });

  it("leave other tests' reads and prompts to the catalog", async () => {
    const server = await serveFakes({ fixtures });
    const { client } = await sdkClient(server.url, withTestId("another test"));
    expect((await client.listResources()).resources).toEqual([]);
    await expect(client.readResource({ uri: "file:///guide.md" })).rejects.toThrow("Resource not found: file:///guide.md");
    await expect(client.getPrompt({ name: "summarize", arguments: { text: "x" } })).rejects.toThrow("Unknown prompt: summarize");
  });
});

describe("a fake's answer is the fixture's, and the fixture cannot be changed through it", () => {
  it("the record's result is frozen: changing it throws, and the entry's next answer is unchanged", async () => {
    const result = { content: [{ type: "text", text: "42" }], structuredContent: { answer: 42 } };
    const server = await serveFakes({
      fixtures: {
        scope: "shared",
        tools: [
          {
            name: "ask",
            calls: [
              { anyArgs: true, result },
              { anyArgs: true, result },
            ],
          },
        ],
      },
    });
    const { client } = await sdkClient(server.url);
    expect((await client.callTool({ name: "ask", arguments: {} })).structuredContent).toEqual({ answer: 42 });
    const recorded = server.calls[0]!.response!.result as { structuredContent: { answer: number } };
    expect(() => {
      recorded.structuredContent.answer = 0;
    }).toThrow(TypeError);
    // The loaded fixture is a copy: the object given to the mock stays the caller's to change.
    result.structuredContent.answer = 7;
    expect((await client.callTool({ name: "ask", arguments: {} })).structuredContent).toEqual({ answer: 42 });
  });
});

describe("the health route's tool count", () => {
  it("counts what tools/list lists a client with no test id: the registered tools and the shared fakes' (a name in both once), not other tests' fakes", async () => {
    const server = await serveFakes({
      transport: "http",
      tools: { search: { returns: "registered" }, ping: { returns: "pong" } },
      fixtures: [
        {
          scope: "shared",
          tools: [
            { name: "search", calls: [{ anyArgs: true, result: "faked" }] },
            { name: "get_weather", calls: [{ anyArgs: true, result: "rain" }] },
          ],
        },
        { scope: { testId: "other test" }, tools: [{ name: "create_ticket", calls: [{ anyArgs: true, result: "T-1" }] }] },
      ],
    });
    const { client } = await sdkClient(server.url);
    const listed = (await client.listTools()).tools.map((tool) => tool.name);
    expect(listed.sort()).toEqual(["get_weather", "ping", "search"]);
    const health = await (await fetch(new URL("/__mcp-testkit/health", server.url))).json();
    expect(health).toMatchObject({ status: "ok", tools: 3 });
    // A fake loaded later counts once loaded, as tools/list shows it.
    server.loadFakes({ scope: "shared", tools: [{ name: "translate", calls: [{ anyArgs: true, result: "hei" }] }] });
    expect(await (await fetch(new URL("/__aimock/health", server.url))).json()).toMatchObject({ tools: 4 });
  });
});
