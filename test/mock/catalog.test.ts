/**
 * What the mock offers besides tool calls: tool definitions in `tools/list` (shaped for the
 * negotiated protocol version), resources and templates, subscriptions, prompts, completion,
 * logging, ping, and cursor pagination on every list.
 */
import { describe, expect, it } from "vitest";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connect, initializeDirect, mock, request, useCleanup } from "./support.js";

useCleanup();

async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection, but the promise resolved");
}

const weatherTool = {
  title: "Weather",
  description: "Current weather for a city",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  outputSchema: { type: "object", properties: { tempC: { type: "number" } } },
  annotations: { readOnlyHint: true, openWorldHint: false },
  icons: [{ src: "https://example.com/sun.png", mimeType: "image/png" }],
  _meta: { team: "weather" },
  responses: { returns: { tempC: 21 } },
};

describe("initialize", () => {
  it("advertises everything the mock can do, with listChanged, plus serverInfo and instructions", async () => {
    const server = await mock({ serverInfo: { name: "acme", version: "2.0.0", title: "Acme" }, instructions: "Be brief." });
    const client = await connect(server);
    expect(client.getServerCapabilities()).toEqual({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      logging: {},
      completions: {},
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    });
    expect(client.getServerVersion()).toEqual({ name: "acme", version: "2.0.0", title: "Acme" });
    expect(client.getInstructions()).toBe("Be brief.");
  });

  it("defaults to serverInfo mcp-testkit 0.1.0 and no instructions", async () => {
    const client = await connect(await mock());
    expect(client.getServerVersion()).toEqual({ name: "mcp-testkit", version: "0.1.0" });
    expect(client.getInstructions()).toBeUndefined();
  });

  it("capabilities can be replaced", async () => {
    const client = await connect(await mock({ capabilities: { tools: {} } }));
    expect(client.getServerCapabilities()).toEqual({ tools: {} });
  });

  it("speaks an older version: no title on serverInfo, no completions capability in 2024-11-05", async () => {
    const server = await mock({ serverInfo: { name: "acme", version: "2.0.0", title: "Acme" } });
    const client = await connect(server, { protocolVersion: "2024-11-05" });
    expect(client.getServerVersion()).toEqual({ name: "acme", version: "2.0.0" });
    expect(client.getServerCapabilities()).toEqual({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      logging: {},
    });
  });
});

describe("tools/list", () => {
  it("lists full definitions in the order given; shorthand tools get a default description and schema", async () => {
    const server = await mock({ tools: { get_weather: weatherTool, ping_tool: { returns: "pong" }, steps: [{ returns: 1 }] } });
    const client = await connect(server);
    expect((await client.listTools()).tools).toEqual([
      {
        name: "get_weather",
        title: "Weather",
        description: "Current weather for a city",
        inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        outputSchema: { type: "object", properties: { tempC: { type: "number" } } },
        annotations: { readOnlyHint: true, openWorldHint: false },
        icons: [{ src: "https://example.com/sun.png", mimeType: "image/png" }],
        _meta: { team: "weather" },
      },
      { name: "ping_tool", description: "Mock tool: ping_tool", inputSchema: { type: "object" } },
      { name: "steps", description: "Mock tool: steps", inputSchema: { type: "object" } },
    ]);
  });

  it.each([
    ["2025-06-18", ["name", "title", "description", "inputSchema", "outputSchema", "annotations", "_meta"]],
    ["2025-03-26", ["name", "description", "inputSchema", "annotations", "_meta"]],
    ["2024-11-05", ["name", "description", "inputSchema", "_meta"]],
  ])("leaves out fields protocol %s does not have", async (version, fields) => {
    const server = await mock({ tools: { get_weather: weatherTool } });
    const client = await connect(server, { protocolVersion: version });
    const [tool] = (await client.listTools()).tools;
    expect(Object.keys(tool!)).toEqual(fields);
    // structuredContent goes with outputSchema.
    const result = await client.callTool({ name: "get_weather" });
    expect("structuredContent" in result).toBe(version >= "2025-06-18");
  });

  it("negotiates through handle() as well: old sessions get old shapes, the latest gets everything", async () => {
    const server = await mock({ tools: { get_weather: weatherTool } });
    expect((await initializeDirect(server, "2025-03-26")).protocolVersion).toBe("2025-03-26");
    const { result } = await request(server, "tools/list");
    expect(result.tools[0]).toEqual({
      name: "get_weather",
      description: "Current weather for a city",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      annotations: { readOnlyHint: true, openWorldHint: false },
      _meta: { team: "weather" },
    });
    const call = await request(server, "tools/call", { name: "get_weather" });
    expect(call.result).toEqual({ content: [{ type: "text", text: '{"tempC":21}' }] });
  });
});

describe("resources", () => {
  const resources = {
    "notes://today": "Ship the docs.",
    "file:///logo.png": { name: "logo", title: "Logo", description: "The logo", blob: new Uint8Array([137, 80, 78, 71]), size: 4 },
    "file:///data.json": { mimeType: "application/json", text: '{"a":1}', annotations: { audience: ["user"], priority: 0.5 } },
    "file:///raw.bin": { blob: "AAEC", mimeType: "application/x-raw" },
    "db://users/{id}": { name: "user", description: "A user", mimeType: "application/json", text: '{"id":"{id}"}' },
    "repo://{owner}/{repo}/files{/path}": {
      name: "file",
      read: (uri: string, variables: Record<string, string>) => [{ text: JSON.stringify(variables) }, { uri: `${uri}#meta`, text: "second part", mimeType: "text/markdown" }],
    },
  };

  it("lists plain resources with their metadata and MIME types", async () => {
    const client = await connect(await mock({ resources }));
    expect((await client.listResources()).resources).toEqual([
      { uri: "notes://today", name: "notes://today", mimeType: "text/plain" },
      { uri: "file:///logo.png", name: "logo", title: "Logo", description: "The logo", mimeType: "application/octet-stream", size: 4 },
      { uri: "file:///data.json", name: "file:///data.json", mimeType: "application/json", annotations: { audience: ["user"], priority: 0.5 } },
      { uri: "file:///raw.bin", name: "file:///raw.bin", mimeType: "application/x-raw" },
    ]);
  });

  it("lists templates in resources/templates/list", async () => {
    const client = await connect(await mock({ resources }));
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      { uriTemplate: "db://users/{id}", name: "user", description: "A user", mimeType: "application/json" },
      { uriTemplate: "repo://{owner}/{repo}/files{/path}", name: "file" },
    ]);
  });

  it("reads text and blobs (bytes are base64-encoded for you)", async () => {
    const client = await connect(await mock({ resources }));
    expect((await client.readResource({ uri: "notes://today" })).contents).toEqual([{ uri: "notes://today", mimeType: "text/plain", text: "Ship the docs." }]);
    expect((await client.readResource({ uri: "file:///logo.png" })).contents).toEqual([{ uri: "file:///logo.png", mimeType: "application/octet-stream", blob: "iVBORw==" }]);
    expect((await client.readResource({ uri: "file:///raw.bin" })).contents).toEqual([{ uri: "file:///raw.bin", mimeType: "application/x-raw", blob: "AAEC" }]);
    expect((await client.readResource({ uri: "file:///data.json" })).contents).toEqual([{ uri: "file:///data.json", mimeType: "application/json", text: '{"a":1}' }]);
  });

  it("reads through a template, filling its variables", async () => {
    const client = await connect(await mock({ resources }));
    expect((await client.readResource({ uri: "db://users/42" })).contents).toEqual([{ uri: "db://users/42", mimeType: "application/json", text: '{"id":"42"}' }]);
    expect((await client.readResource({ uri: "repo://acme/api/files/README.md" })).contents).toEqual([
      { uri: "repo://acme/api/files/README.md", mimeType: "text/plain", text: '{"owner":"acme","repo":"api","path":"README.md"}' },
      { uri: "repo://acme/api/files/README.md#meta", mimeType: "text/markdown", text: "second part" },
    ]);
    // A simple {var} does not span "/", so this URI fits no template.
    const error = await rejection(client.readResource({ uri: "db://users/42/posts" }));
    expect(error.code).toBe(-32002);
  });

  it("an unknown URI is -32002 with the URI in data; a read that throws is -32603", async () => {
    const server = await mock({
      resources: {
        "x://broken": {
          read: () => {
            throw new Error("disk on fire");
          },
        },
      },
    });
    const client = await connect(server);
    const missing = await rejection(client.readResource({ uri: "x://missing" }));
    expect([missing.code, missing.message, missing.data]).toEqual([-32002, "MCP error -32002: Resource not found: x://missing", { uri: "x://missing" }]);
    // A near miss names the closest URI the mock has, as an unknown tool names the closest tool.
    const typo = await rejection(client.readResource({ uri: "x://brokn" }));
    expect(typo.message).toBe('MCP error -32002: Resource not found: x://brokn; did you mean "x://broken"? (the mock has x://broken)');
    const broken = await rejection(client.readResource({ uri: "x://broken" }));
    expect([broken.code, broken.message]).toEqual([-32603, "MCP error -32603: Reading resource x://broken threw: disk on fire"]);
  });

  it("subscribe: setResource on that URI sends notifications/resources/updated to subscribers only", async () => {
    const server = await mock({ resources: { "notes://today": "v1", "notes://other": "o" } });
    const subscribed = await connect(server);
    const bystander = await connect(server);
    const seen: string[] = [];
    const bystanderSaw: string[] = [];
    subscribed.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void seen.push(n.params.uri));
    bystander.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void bystanderSaw.push(n.params.uri));

    expect(await subscribed.subscribeResource({ uri: "notes://today" })).toEqual({});
    await server.setResource("notes://today", "v2");
    await server.setResource("notes://other", "o2");
    await expect.poll(() => seen).toEqual(["notes://today"]);
    expect((await subscribed.readResource({ uri: "notes://today" })).contents[0]).toMatchObject({ text: "v2" });

    await subscribed.unsubscribeResource({ uri: "notes://today" });
    await server.setResource("notes://today", "v3");
    await subscribed.ping(); // a round trip, so a notification sent by mistake would have arrived
    expect(seen).toEqual(["notes://today"]);
    expect(bystanderSaw).toEqual([]);
  });

  it("subscribe to a URI read through a template: replacing the template tells its subscribers", async () => {
    const server = await mock({ resources: { "db://users/{id}": { text: "v1 {id}" }, "db://users/admin": "the admin" } });
    const client = await connect(server);
    const seen: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void seen.push(n.params.uri));
    await client.subscribeResource({ uri: "db://users/7" });
    await client.subscribeResource({ uri: "db://users/admin" });
    await client.subscribeResource({ uri: "db://users/{id}" });
    await server.setResource("db://users/{id}", { text: "v2 {id}" });
    await client.ping();
    // The admin URI is a resource of its own, which the template does not serve.
    expect(seen.sort()).toEqual(["db://users/7", "db://users/{id}"]);
    expect((await client.readResource({ uri: "db://users/7" })).contents[0]).toMatchObject({ text: "v2 7" });
  });

  it("a URI a template served, set as a resource of its own, tells its subscribers it changed (and the list too)", async () => {
    const server = await mock({ resources: { "users://{id}": { text: "user {id}" } } });
    const client = await connect(server);
    const seen: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void seen.push(n.params.uri));
    await client.subscribeResource({ uri: "users://ada" });
    await server.setResource("users://ada", "Ada, by hand");
    await expect.poll(() => seen).toEqual(["users://ada"]);
    expect((await client.readResource({ uri: "users://ada" })).contents[0]).toMatchObject({ text: "Ada, by hand" });
  });

  it("subscribing to an unknown URI is -32002", async () => {
    const client = await connect(await mock());
    const error = await rejection(client.subscribeResource({ uri: "nope://x" }));
    expect([error.code, error.message]).toEqual([-32002, "MCP error -32002: Resource not found: nope://x"]);
  });

  it("a resource whose definition throws answers every read with that JSON-RPC error, and is still listed", async () => {
    const client = await connect(
      await mock({ resources: { "x://gone": { name: "gone", throws: { code: -32001, message: "Gone for good", data: { why: "deleted" } } }, "x://flaky": { throws: "Storage offline" } } }),
    );
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(["x://gone", "x://flaky"]);
    const gone = await rejection(client.readResource({ uri: "x://gone" }));
    expect([gone.code, gone.message, gone.data]).toEqual([-32001, "MCP error -32001: Gone for good", { why: "deleted" }]);
    const flaky = await rejection(client.readResource({ uri: "x://flaky" }));
    expect([flaky.code, flaky.message]).toEqual([-32603, "MCP error -32603: Storage offline"]);
  });

  it("refuses a malformed resource when the mock is made", async () => {
    const { mockMcp } = await import("../../src/index.js");
    await expect(mockMcp({ resources: { "a://b": { text: "x", blob: "eA==" } } })).rejects.toThrow('[mcp-testkit] Resource "a://b" gives both "text" and "blob"; give one.');
    await expect(mockMcp({ resources: { "a://b": 5 as never } })).rejects.toThrow('[mcp-testkit] Resource "a://b" must be a text or a definition object, got number 5.');
    await expect(mockMcp({ resources: { "a://b": { read: "text" as never } } })).rejects.toThrow('[mcp-testkit] Resource "a://b": "read" must be a function, got "text".');
    await expect(mockMcp({ resources: { "a://b": { text: "x", throws: "no" } } })).rejects.toThrow(
      '[mcp-testkit] Resource "a://b" gives "throws" and "text"; "throws" answers every request with an error, so give one or the other.',
    );
    await expect(mockMcp({ resources: { "a://b": { throws: { code: 1.5, message: "x" } } } })).rejects.toThrow(
      '[mcp-testkit] Resource "a://b": "throws" must be a message string or { code?: integer, message: string, data? }, got',
    );
  });
});

describe("prompts", () => {
  const prompts = {
    greet: "Say hello.",
    review: {
      title: "Code review",
      description: "Review a change",
      arguments: [
        { name: "language", description: "Programming language", required: true },
        { name: "style", required: false },
      ],
      messages: [
        { role: "user" as const, content: "Review this {{language}} code in a {{ style }} style." },
        { role: "assistant" as const, content: { type: "resource", resource: { uri: "file:///guide.md", mimeType: "text/markdown", text: "# Guide" } } },
      ],
      complete: { language: ["python", "perl", "typescript"] },
    },
    dynamic: {
      arguments: [{ name: "n" }],
      messages: (args: Record<string, string>) => [{ role: "user" as const, content: `n=${args.n ?? "none"}` }],
    },
  };

  it("lists prompts with their arguments", async () => {
    const client = await connect(await mock({ prompts }));
    expect((await client.listPrompts()).prompts).toEqual([
      { name: "greet" },
      {
        name: "review",
        title: "Code review",
        description: "Review a change",
        arguments: [
          { name: "language", description: "Programming language", required: true },
          { name: "style", required: false },
        ],
      },
      { name: "dynamic", arguments: [{ name: "n" }] },
    ]);
  });

  it("gets a prompt with its arguments filled in, and embedded resources as given", async () => {
    const client = await connect(await mock({ prompts }));
    expect(await client.getPrompt({ name: "greet" })).toEqual({ messages: [{ role: "user", content: { type: "text", text: "Say hello." } }] });
    expect(await client.getPrompt({ name: "review", arguments: { language: "python" } })).toEqual({
      description: "Review a change",
      messages: [
        { role: "user", content: { type: "text", text: "Review this python code in a {{ style }} style." } },
        { role: "assistant", content: { type: "resource", resource: { uri: "file:///guide.md", mimeType: "text/markdown", text: "# Guide" } } },
      ],
    });
    expect((await client.getPrompt({ name: "review", arguments: { language: "go", style: "strict" } })).messages[0]!.content).toEqual({
      type: "text",
      text: "Review this go code in a strict style.",
    });
    expect((await client.getPrompt({ name: "dynamic", arguments: { n: "3" } })).messages).toEqual([{ role: "user", content: { type: "text", text: "n=3" } }]);
  });

  it("a missing required argument is -32602 naming it; an unknown prompt is -32602 listing the prompts", async () => {
    const client = await connect(await mock({ prompts }));
    const missing = await rejection(client.getPrompt({ name: "review", arguments: { style: "terse" } }));
    expect([missing.code, missing.message, missing.data]).toEqual([-32602, "MCP error -32602: Prompt review needs the argument language", { missing: ["language"] }]);
    const unknown = await rejection(client.getPrompt({ name: "nope" }));
    expect([unknown.code, unknown.message, unknown.data]).toEqual([-32602, "MCP error -32602: Unknown prompt: nope", { prompt: "nope", available: ["greet", "review", "dynamic"] }]);
  });

  it("a prompt whose definition throws answers every get with that JSON-RPC error, before its arguments are checked", async () => {
    const client = await connect(
      await mock({ prompts: { retired: { title: "Retired", arguments: [{ name: "topic", required: true }], throws: { code: -32602, message: "This prompt was retired" } } } }),
    );
    expect((await client.listPrompts()).prompts).toEqual([{ name: "retired", title: "Retired", arguments: [{ name: "topic", required: true }] }]);
    const error = await rejection(client.getPrompt({ name: "retired" }));
    expect([error.code, error.message]).toEqual([-32602, "MCP error -32602: This prompt was retired"]);
    const { mockMcp } = await import("../../src/index.js");
    await expect(mockMcp({ prompts: { p: { messages: [], throws: "x" } } })).rejects.toThrow(
      '[mcp-testkit] Prompt "p" gives "throws" and "messages"; "throws" answers every request with an error, so give one or the other.',
    );
  });

  it("a messages function that throws is -32603", async () => {
    const client = await connect(
      await mock({
        prompts: {
          bad: {
            messages: () => {
              throw new Error("template missing");
            },
          },
        },
      }),
    );
    const error = await rejection(client.getPrompt({ name: "bad" }));
    expect([error.code, error.message]).toEqual([-32603, "MCP error -32603: Prompt bad threw: template missing"]);
  });
});

describe("completion/complete", () => {
  it("completes prompt arguments by prefix, from a list or a function", async () => {
    const server = await mock({
      prompts: {
        review: {
          arguments: [{ name: "language" }, { name: "framework" }],
          complete: {
            language: ["python", "perl", "typescript"],
            framework: (value, context) => [`${context.arguments.language ?? "any"}-${value}1`, `${context.arguments.language ?? "any"}-${value}2`],
          },
        },
      },
    });
    const client = await connect(server);
    expect(await client.complete({ ref: { type: "ref/prompt", name: "review" }, argument: { name: "language", value: "p" } })).toEqual({
      completion: { values: ["python", "perl"], total: 2, hasMore: false },
    });
    expect(await client.complete({ ref: { type: "ref/prompt", name: "review" }, argument: { name: "framework", value: "dj" }, context: { arguments: { language: "python" } } })).toEqual({
      completion: { values: ["python-dj1", "python-dj2"], total: 2, hasMore: false },
    });
    // An argument without completions completes to nothing.
    expect(await client.complete({ ref: { type: "ref/prompt", name: "review" }, argument: { name: "other", value: "" } })).toEqual({
      completion: { values: [], total: 0, hasMore: false },
    });
  });

  it("completes template variables, capped at 100 values with hasMore", async () => {
    const many = Array.from({ length: 150 }, (_, i) => `user${i}`);
    const server = await mock({ resources: { "db://users/{id}": { text: "x", complete: { id: many } } } });
    const client = await connect(server);
    const { completion } = await client.complete({ ref: { type: "ref/resource", uri: "db://users/{id}" }, argument: { name: "id", value: "user1" } });
    expect(completion.values).toEqual(["user1", ...Array.from({ length: 10 }, (_, i) => `user1${i}`), ...Array.from({ length: 50 }, (_, i) => `user${100 + i}`)]);
    expect(completion).toMatchObject({ total: 61, hasMore: false });
    const all = await client.complete({ ref: { type: "ref/resource", uri: "db://users/{id}" }, argument: { name: "id", value: "" } });
    expect(all.completion.values).toEqual(many.slice(0, 100));
    expect(all.completion).toMatchObject({ total: 150, hasMore: true });
  });

  it("an unknown prompt or template, or a malformed ref, is -32602", async () => {
    const client = await connect(await mock());
    const prompt = await rejection(client.complete({ ref: { type: "ref/prompt", name: "nope" }, argument: { name: "a", value: "" } }));
    expect([prompt.code, prompt.message]).toEqual([-32602, "MCP error -32602: Unknown prompt: nope"]);
    const template = await rejection(client.complete({ ref: { type: "ref/resource", uri: "x://{y}" }, argument: { name: "y", value: "" } }));
    expect([template.code, template.message]).toEqual([-32602, "MCP error -32602: Unknown resource template: x://{y}"]);
  });

  it("through handle(): a ref of an unknown type or a missing argument is -32602", async () => {
    const server = await mock();
    expect((await request(server, "completion/complete", { ref: { type: "ref/tool", name: "x" }, argument: { name: "a", value: "" } })).error).toEqual({
      code: -32602,
      message: 'Invalid params for completion/complete: "ref" must be { type: "ref/prompt", name } or { type: "ref/resource", uri }',
    });
    expect((await request(server, "completion/complete", { ref: { type: "ref/prompt", name: "x" } })).error).toEqual({
      code: -32602,
      message: 'Invalid params for completion/complete: needs "ref" and "argument" { name: string, value: string }',
    });
  });
});

describe("logging/setLevel and ping", () => {
  it("accepts every level and refuses others with -32602", async () => {
    const client = await connect(await mock());
    for (const level of ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const) {
      expect(await client.setLoggingLevel(level)).toEqual({});
    }
    const error = await rejection(client.setLoggingLevel("verbose" as never));
    expect([error.code, error.message]).toEqual([
      -32602,
      'MCP error -32602: Invalid params for logging/setLevel: "level" must be one of debug, info, notice, warning, error, critical, alert, emergency, got "verbose"',
    ]);
  });

  it("ping answers {}", async () => {
    const server = await mock();
    const client = await connect(server);
    expect(await client.ping()).toEqual({});
    expect(await request(server, "ping")).toMatchObject({ result: {} });
  });
});

describe("pagination", () => {
  /** Follows nextCursor through every page, as a client should; returns the pages' item names. */
  async function allPages<T>(list: (cursor?: string) => Promise<{ nextCursor?: string } & Record<string, unknown>>, key: string, name: (item: T) => string): Promise<string[][]> {
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await list(cursor);
      pages.push((page[key] as T[]).map(name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return pages;
  }

  async function paged(client: Client) {
    return {
      tools: await allPages<{ name: string }>(
        (cursor) => client.listTools({ cursor }),
        "tools",
        (t) => t.name,
      ),
      resources: await allPages<{ uri: string }>(
        (cursor) => client.listResources({ cursor }),
        "resources",
        (r) => r.uri,
      ),
      templates: await allPages<{ uriTemplate: string }>(
        (cursor) => client.listResourceTemplates({ cursor }),
        "resourceTemplates",
        (r) => r.uriTemplate,
      ),
      prompts: await allPages<{ name: string }>(
        (cursor) => client.listPrompts({ cursor }),
        "prompts",
        (p) => p.name,
      ),
    };
  }

  it("splits every list into pages of pageSize; the SDK client follows nextCursor to the end", async () => {
    const server = await mock({
      pageSize: 2,
      tools: { a: {}, b: {}, c: {}, d: {}, e: {} },
      resources: { "r://1": "1", "r://2": "2", "r://3": "3", "t://{a}": "a", "t://{b}/x": "b" },
      prompts: { p1: "1", p2: "2", p3: "3", p4: "4" },
    });
    const client = await connect(server);
    expect(await paged(client)).toEqual({
      tools: [["a", "b"], ["c", "d"], ["e"]],
      resources: [["r://1", "r://2"], ["r://3"]],
      templates: [["t://{a}", "t://{b}/x"]],
      prompts: [
        ["p1", "p2"],
        ["p3", "p4"],
      ],
    });
  });

  it("an empty list is one empty page; a short list has no nextCursor", async () => {
    const client = await connect(await mock({ tools: { a: {} } }));
    expect(await client.listTools()).toEqual({ tools: [{ name: "a", description: "Mock tool: a", inputSchema: { type: "object" } }] });
    expect(await client.listPrompts()).toEqual({ prompts: [] });
    expect(await client.listResources()).toEqual({ resources: [] });
  });

  it.each(["tools/list", "resources/list", "resources/templates/list", "prompts/list"])("%s: a cursor the server did not give out is -32602", async (method) => {
    const server = await mock({ pageSize: 1, tools: { a: {}, b: {} } });
    const client = await connect(server);
    const made = await rejection(client.request({ method, params: { cursor: "bm90LWEtY3Vyc29y" } } as never, (await import("zod")).z.any()));
    expect([made.code, made.message]).toEqual([-32602, 'MCP error -32602: Invalid cursor: "bm90LWEtY3Vyc29y" is not a cursor this server gave out']);
    expect((await request(server, method, { cursor: 7 })).error).toEqual({ code: -32602, message: "Invalid cursor: expected a string, got 7" });
  });

  it.each([
    [0, "number 0"],
    [-1, "number -1"],
    [1.5, "number 1.5"],
    ["10", '"10"'],
  ])("pageSize %j is refused at mockMcp() (0 would make clients page forever)", async (pageSize, got) => {
    const { mockMcp, McpTestkitError } = await import("../../src/index.js");
    const error = await rejection(mockMcp({ transport: "memory", pageSize: pageSize as number }));
    expect(error).toBeInstanceOf(McpTestkitError);
    expect(error.message).toBe(`[mcp-testkit] "pageSize" must be a whole number of items, 1 or more, got ${got}.`);
  });

  it("a cursor past the end gives an empty last page", async () => {
    const server = await mock({ pageSize: 1, tools: { a: {}, b: {} } });
    const client = await connect(server);
    const first = await client.listTools();
    const second = await client.listTools({ cursor: first.nextCursor });
    expect(second.tools.map((t) => t.name)).toEqual(["b"]);
    expect(second.nextCursor).toBeUndefined();
    await server.removeTool("b");
    expect(await client.listTools({ cursor: first.nextCursor })).toEqual({ tools: [] });
  });
});
