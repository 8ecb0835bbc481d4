/** validateMessage: results, checked by the method of the request they answer (2025-11-25 unless said otherwise). */
import { describe, expect, it } from "vitest";
import { validateMessage } from "../../src/protocol/index.js";
import { clientAnswers, implementation, png, response, serverAnswers, task, tool } from "./messages.js";

const shape = (path: string, message: string) => ({ path, rule: "result.shape", message });
const contentTypes = 'expected one of "text", "image", "audio", "resource", "resource_link"';

describe("valid results", () => {
  const serverResults: [string, object][] = [
    [
      "initialize",
      {
        protocolVersion: "2025-11-25",
        capabilities: { tools: { listChanged: true }, resources: { subscribe: true }, logging: {}, completions: {}, tasks: {} },
        serverInfo: { ...implementation, title: "Demo", icons: [{ src: "https://example.com/i.png", sizes: ["48x48"], theme: "dark" }], websiteUrl: "https://example.com" },
        instructions: "Be nice.",
      },
    ],
    ["ping", {}],
    [
      "tools/list",
      {
        tools: [
          tool,
          {
            ...tool,
            name: "weather",
            title: "Weather",
            outputSchema: { type: "object", properties: { c: { type: "number" } } },
            annotations: { readOnlyHint: true },
            execution: { taskSupport: "optional" },
          },
        ],
        nextCursor: "2",
      },
    ],
    [
      "tools/call",
      {
        content: [
          { type: "text", text: "21°" },
          { type: "resource_link", uri: "file:///r.txt", name: "r" },
        ],
        structuredContent: { c: 21 },
        isError: false,
      },
    ],
    [
      "resources/list",
      { resources: [{ uri: "file:///a.txt", name: "a", mimeType: "text/plain", size: 12, annotations: { audience: ["user", "assistant"], priority: 1, lastModified: "2025-01-01T00:00:00Z" } }] },
    ],
    ["resources/templates/list", { resourceTemplates: [{ uriTemplate: "notes://{day}", name: "notes" }] }],
    [
      "resources/read",
      {
        contents: [
          { uri: "notes://today", text: "Ship it." },
          { uri: "file:///logo.png", mimeType: "image/png", blob: png },
        ],
      },
    ],
    ["resources/subscribe", {}],
    ["prompts/list", { prompts: [{ name: "greet", arguments: [{ name: "name", required: true }] }] }],
    [
      "prompts/get",
      {
        description: "Hi",
        messages: [
          { role: "user", content: { type: "text", text: "Hello" } },
          { role: "assistant", content: { type: "resource", resource: { uri: "notes://x", text: "x" } } },
        ],
      },
    ],
    ["completion/complete", { completion: { values: ["Ada", "Alan"], total: 2, hasMore: false } }],
    ["logging/setLevel", {}],
    ["tasks/get", task],
    ["tasks/list", { tasks: [task] }],
  ];
  it.each(serverResults)("server answers %s", (method, result) => {
    expect(validateMessage(response(result), serverAnswers(method))).toEqual([]);
  });

  const clientResults: [string, object][] = [
    ["sampling/createMessage", { role: "assistant", content: { type: "text", text: "Sunny" }, model: "m", stopReason: "endTurn" }],
    ["elicitation/create", { action: "accept", content: { city: "Oslo", days: 3, ok: true, tags: ["a"] } }],
    ["roots/list", { roots: [{ uri: "file:///work", name: "work" }] }],
    ["ping", {}],
  ];
  it.each(clientResults)("client answers %s", (method, result) => {
    expect(validateMessage(response(result), clientAnswers(method))).toEqual([]);
  });

  it("a request asked to run as a task may be answered with a task handle", () => {
    expect(validateMessage(response({ task }), serverAnswers("tools/call"))).toEqual([]);
    expect(validateMessage(response({ task: { ...task, status: "??" } }), serverAnswers("tools/call"))).toEqual([
      shape("$.result.task.status", 'expected one of "working", "input_required", "completed", "failed", "cancelled"; got "??"'),
    ]);
  });
});

describe("requestMethod", () => {
  it("must be a request the other side sends", () => {
    expect(validateMessage(response({}), serverAnswers("roots/list"))).toEqual([
      expect.objectContaining({
        path: "$",
        rule: "method.unknown",
        message: expect.stringMatching(/^requestMethod: "roots\/list" is not sent by the client; expected one of the client's requests: /),
      }),
    ]);
    expect(validateMessage(response({}), serverAnswers("notifications/initialized"))).toEqual([
      { path: "$", rule: "method.kind", message: 'requestMethod: "notifications/initialized" is a notification, and notifications get no response' },
    ]);
  });
});

describe("result.shape by method", () => {
  it("initialize: protocolVersion, capabilities and serverInfo with name and version", () => {
    expect(validateMessage(response({ capabilities: { tools: { listChanged: "yes" } }, serverInfo: { version: "1" } }), serverAnswers("initialize"))).toEqual([
      shape("$.result.protocolVersion", 'required field "protocolVersion" is missing; expected a string'),
      shape("$.result.capabilities.tools.listChanged", 'expected a boolean; got "yes"'),
      shape("$.result.serverInfo.name", 'required field "name" is missing; expected a string'),
    ]);
  });

  it("tools/list: each tool has a name and an inputSchema of type object", () => {
    const tools = [
      { description: "no name", inputSchema: { type: "object" } },
      { name: "x" },
      { name: "y", inputSchema: { type: "string" } },
      { name: "z", inputSchema: { type: "object", required: "q" } },
    ];
    expect(validateMessage(response({ tools }), serverAnswers("tools/list"))).toEqual([
      shape("$.result.tools[0].name", 'required field "name" is missing; expected a string'),
      shape("$.result.tools[1].inputSchema", 'required field "inputSchema" is missing; expected an object'),
      shape("$.result.tools[2].inputSchema.type", 'expected "object"; got "string"'),
      shape("$.result.tools[3].inputSchema.required", 'expected an array; got "q"'),
    ]);
    expect(validateMessage(response({ tools: [{ ...tool, outputSchema: { type: "array" } }] }), serverAnswers("tools/list"))).toEqual([
      shape("$.result.tools[0].outputSchema.type", 'expected "object"; got "array"'),
    ]);
  });

  it("tools/call: content is required and each block has a known type and its fields", () => {
    expect(validateMessage(response({ isError: true }), serverAnswers("tools/call"))).toEqual([shape("$.result.content", 'required field "content" is missing; expected an array')]);
    const content = [
      { type: "txt", text: "x" },
      { text: "no type" },
      { type: "image", data: "not base64!", mimeType: "image/png" },
      { type: "audio", data: png },
      { type: "resource", resource: { uri: "notes://x" } },
      { type: "resource_link", uri: "notes://x" },
      "plain string",
    ];
    expect(validateMessage(response({ content, structuredContent: [1, 2] }), serverAnswers("tools/call"))).toEqual([
      shape("$.result.content[0].type", `${contentTypes}; got "txt"`),
      shape("$.result.content[1].type", `required field "type" is missing; ${contentTypes}`),
      shape("$.result.content[2].data", 'expected base64-encoded data; got "not base64!"'),
      shape("$.result.content[3].mimeType", 'required field "mimeType" is missing; expected a string'),
      shape("$.result.content[4].resource", 'expected resource contents with "text" (a string) or "blob" (base64); got an object'),
      shape("$.result.content[5].name", 'required field "name" is missing; expected a string'),
      shape("$.result.content[6]", 'expected an object; got "plain string"'),
      shape("$.result.structuredContent", "expected an object; got an array"),
    ]);
  });

  it("shortens long values in messages", () => {
    const data = "!".repeat(500);
    expect(validateMessage(response({ content: [{ type: "image", data, mimeType: "image/png" }] }), serverAnswers("tools/call"))).toEqual([
      shape("$.result.content[0].data", `expected base64-encoded data; got "${"!".repeat(37)}…" (500 characters)`),
    ]);
  });

  it("content annotations: audience roles and a priority between 0 and 1", () => {
    const content = [{ type: "text", text: "x", annotations: { audience: ["robot"], priority: -0.5 } }];
    expect(validateMessage(response({ content }), serverAnswers("tools/call"))).toEqual([
      shape("$.result.content[0].annotations.audience[0]", 'expected one of "user", "assistant"; got "robot"'),
      shape("$.result.content[0].annotations.priority", "expected a number >= 0; got -0.5"),
    ]);
  });

  it("resources/list and templates: uri, uriTemplate and name", () => {
    expect(validateMessage(response({ resources: [{ name: "a" }], nextCursor: 3 }), serverAnswers("resources/list"))).toEqual([
      shape("$.result.resources[0].uri", 'required field "uri" is missing; expected a string'),
      shape("$.result.nextCursor", "expected a string; got 3"),
    ]);
    expect(validateMessage(response({ resourceTemplates: [{ uri: "notes://x", name: "n" }] }), serverAnswers("resources/templates/list"))).toEqual([
      shape("$.result.resourceTemplates[0].uriTemplate", 'required field "uriTemplate" is missing; expected a string'),
    ]);
  });

  it("resources/read: text or base64 blob contents with a uri", () => {
    expect(validateMessage(response({ contents: [{ uri: "notes://x", blob: "@@@" }, { text: "t" }] }), serverAnswers("resources/read"))).toEqual([
      shape("$.result.contents[0].blob", 'expected base64-encoded data; got "@@@"'),
      shape("$.result.contents[1].uri", 'required field "uri" is missing; expected a string'),
    ]);
  });

  it("prompts/list and prompts/get: prompt names, argument flags, message roles and content", () => {
    expect(validateMessage(response({ prompts: [{ name: "p", arguments: [{ name: "a", required: "yes" }] }] }), serverAnswers("prompts/list"))).toEqual([
      shape("$.result.prompts[0].arguments[0].required", 'expected a boolean; got "yes"'),
    ]);
    expect(validateMessage(response({ messages: [{ role: "system", content: { type: "text", text: "x" } }, { role: "user" }] }), serverAnswers("prompts/get"))).toEqual([
      shape("$.result.messages[0].role", 'expected one of "user", "assistant"; got "system"'),
      shape("$.result.messages[1].content", 'required field "content" is missing; expected an object'),
    ]);
  });

  it("completion/complete: at most 100 string values", () => {
    const values = Array.from({ length: 101 }, (_, i) => `v${i}`);
    expect(validateMessage(response({ completion: { values } }), serverAnswers("completion/complete"))).toEqual([shape("$.result.completion.values", "expected at most 100 items; got 101 items")]);
    expect(validateMessage(response({ completion: { values: [1], total: 1.5 } }), serverAnswers("completion/complete"))).toEqual([
      shape("$.result.completion.values[0]", "expected a string; got 1"),
      shape("$.result.completion.total", "expected an integer; got 1.5"),
    ]);
  });

  it("_meta on a result must be an object", () => {
    expect(validateMessage(response({ _meta: 1 }), serverAnswers("ping"))).toEqual([shape("$.result._meta", "expected an object; got 1")]);
  });

  it("sampling/createMessage: role, content and model", () => {
    expect(validateMessage(response({ role: "assistant", content: { type: "video" } }), clientAnswers("sampling/createMessage"))).toEqual([
      shape("$.result.content.type", 'expected one of "text", "image", "audio", "tool_use", "tool_result"; got "video"'),
      shape("$.result.model", 'required field "model" is missing; expected a string'),
    ]);
  });

  it("elicitation/create: the action enum, and content only with accept", () => {
    expect(validateMessage(response({ action: "ok" }), clientAnswers("elicitation/create"))).toEqual([shape("$.result.action", 'expected one of "accept", "decline", "cancel"; got "ok"')]);
    expect(validateMessage(response({ action: "decline", content: { city: "Oslo" } }), clientAnswers("elicitation/create"))).toEqual([
      shape("$.result.content", 'expected no "content" when "action" is "decline"; content comes only with "accept"'),
    ]);
    expect(validateMessage(response({ action: "accept", content: { city: { name: "Oslo" } } }), clientAnswers("elicitation/create"))).toEqual([
      shape("$.result.content.city", "expected a string, a number or a boolean; got an object"),
    ]);
  });

  it("roots/list: file:// URIs", () => {
    expect(validateMessage(response({ roots: [{ uri: "https://example.com" }] }), clientAnswers("roots/list"))).toEqual([
      shape("$.result.roots[0].uri", 'expected a file:// URI; got "https://example.com"'),
    ]);
  });
});

describe("error.data", () => {
  it("-32042 (URL elicitation required) lists URL elicitations", () => {
    const error = (data: unknown) => ({ jsonrpc: "2.0", id: 1, error: { code: -32042, message: "Authorize first", data } });
    const elicitation = { mode: "url", message: "Sign in", elicitationId: "e1", url: "https://example.com/auth" };
    expect(validateMessage(error({ elicitations: [elicitation] }), serverAnswers("tools/call"))).toEqual([]);
    expect(validateMessage(error({ elicitations: [{ ...elicitation, mode: "form" }] }), serverAnswers("tools/call"))).toEqual([
      { path: "$.error.data.elicitations[0].mode", rule: "error.data", message: 'expected "url"; got "form"' },
    ]);
    // Before URL mode, -32042 is just a server-defined code.
    expect(validateMessage(error(undefined), serverAnswers("tools/call", "2025-06-18"))).toEqual([]);
  });
});
