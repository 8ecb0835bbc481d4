/**
 * Version gating both ways: each feature is valid in the revision that introduced it (and later)
 * and one "version.feature" problem, naming the feature and its revision, in the revision before.
 */
import { describe, expect, it } from "vitest";
import { FEATURES, validateMessage, type Feature, type ValidateMessageOptions } from "../../src/protocol/index.js";
import { schemasFor } from "../../src/protocol/validate/schemas/schema-set.js";
import { clientAnswers, fromClient, fromServer, implementation, notification, png, request, response, serverAnswers, task, tool } from "./messages.js";

const previous: Record<string, string> = { "2025-03-26": "2024-11-05", "2025-06-18": "2025-03-26", "2025-11-25": "2025-06-18" };

interface GatedCase {
  name: string;
  feature: Feature;
  message: object;
  options: (version: string) => ValidateMessageOptions;
  path: string;
}

const initializeResult = (capabilities: object, serverInfo: object = implementation) => response({ protocolVersion: "2024-11-05", capabilities, serverInfo });
const initializeRequest = (capabilities: object, clientInfo: object = implementation) => request("initialize", { protocolVersion: "2024-11-05", capabilities, clientInfo });
const toolsList = (extra: object) => response({ tools: [{ ...tool, ...extra }] });
const callResult = (content: object[], extra: object = {}) => response({ content, ...extra });
const sampling = (params: object) => request("sampling/createMessage", { maxTokens: 10, ...params });
const form = (properties: object) => request("elicitation/create", { message: "?", requestedSchema: { type: "object", properties } });

const cases: GatedCase[] = [
  {
    name: "audio content in tool results",
    feature: "audioContent",
    message: callResult([{ type: "audio", data: png, mimeType: "audio/wav" }]),
    options: (v) => serverAnswers("tools/call", v),
    path: "$.result.content[0]",
  },
  {
    name: "audio content in sampling",
    feature: "audioContent",
    message: sampling({ messages: [{ role: "user", content: { type: "audio", data: png, mimeType: "audio/wav" } }] }),
    options: fromServer,
    path: "$.params.messages[0].content",
  },
  {
    name: "tool annotations",
    feature: "toolAnnotations",
    message: toolsList({ annotations: { destructiveHint: false } }),
    options: (v) => serverAnswers("tools/list", v),
    path: "$.result.tools[0].annotations",
  },
  {
    name: "the completions capability",
    feature: "completionsCapability",
    message: initializeResult({ completions: {} }),
    options: (v) => serverAnswers("initialize", v),
    path: "$.result.capabilities.completions",
  },
  {
    name: "a progress message",
    feature: "progressMessage",
    message: notification("notifications/progress", { progressToken: 1, progress: 1, message: "busy" }),
    options: fromServer,
    path: "$.params.message",
  },
  {
    name: "structuredContent",
    feature: "structuredContent",
    message: callResult([], { structuredContent: { c: 21 } }),
    options: (v) => serverAnswers("tools/call", v),
    path: "$.result.structuredContent",
  },
  { name: "outputSchema", feature: "outputSchema", message: toolsList({ outputSchema: { type: "object" } }), options: (v) => serverAnswers("tools/list", v), path: "$.result.tools[0].outputSchema" },
  {
    name: "resource_link content",
    feature: "resourceLinkContent",
    message: callResult([{ type: "resource_link", uri: "file:///a", name: "a" }]),
    options: (v) => serverAnswers("tools/call", v),
    path: "$.result.content[0]",
  },
  {
    name: "resource_link in prompt messages",
    feature: "resourceLinkContent",
    message: response({ messages: [{ role: "user", content: { type: "resource_link", uri: "file:///a", name: "a" } }] }),
    options: (v) => serverAnswers("prompts/get", v),
    path: "$.result.messages[0].content",
  },
  { name: "the elicitation capability", feature: "elicitation", message: initializeRequest({ elicitation: {} }), options: fromClient, path: "$.params.capabilities.elicitation" },
  { name: "a tool title", feature: "titles", message: toolsList({ title: "Search" }), options: (v) => serverAnswers("tools/list", v), path: "$.result.tools[0].title" },
  { name: "an implementation title", feature: "titles", message: initializeRequest({}, { ...implementation, title: "Demo" }), options: fromClient, path: "$.params.clientInfo.title" },
  {
    name: "a prompt argument title",
    feature: "titles",
    message: response({ prompts: [{ name: "p", arguments: [{ name: "a", title: "A" }] }] }),
    options: (v) => serverAnswers("prompts/list", v),
    path: "$.result.prompts[0].arguments[0].title",
  },
  {
    name: "a resource template title",
    feature: "titles",
    message: response({ resourceTemplates: [{ uriTemplate: "x://{y}", name: "t", title: "T" }] }),
    options: (v) => serverAnswers("resources/templates/list", v),
    path: "$.result.resourceTemplates[0].title",
  },
  {
    name: "completion context",
    feature: "completionContext",
    message: request("completion/complete", { ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: "" }, context: { arguments: {} } }),
    options: fromClient,
    path: "$.params.context",
  },
  {
    name: "lastModified in annotations",
    feature: "annotationLastModified",
    message: callResult([{ type: "text", text: "x", annotations: { lastModified: "2025-01-01T00:00:00Z" } }]),
    options: (v) => serverAnswers("tools/call", v),
    path: "$.result.content[0].annotations.lastModified",
  },
  { name: "tool icons", feature: "icons", message: toolsList({ icons: [{ src: "https://example.com/i.svg" }] }), options: (v) => serverAnswers("tools/list", v), path: "$.result.tools[0].icons" },
  {
    name: "resource icons",
    feature: "icons",
    message: response({ resources: [{ uri: "file:///a", name: "a", icons: [] }] }),
    options: (v) => serverAnswers("resources/list", v),
    path: "$.result.resources[0].icons",
  },
  {
    name: "implementation description",
    feature: "implementationDescription",
    message: initializeResult({}, { ...implementation, description: "A demo" }),
    options: (v) => serverAnswers("initialize", v),
    path: "$.result.serverInfo.description",
  },
  {
    name: "URL-mode elicitation",
    feature: "elicitationUrlMode",
    message: request("elicitation/create", { mode: "url", message: "Sign in", elicitationId: "e", url: "https://example.com" }),
    options: fromServer,
    path: "$.params",
  },
  {
    name: "the URL elicitation capability",
    feature: "elicitationUrlMode",
    message: initializeRequest({ elicitation: { url: {} } }),
    options: fromClient,
    path: "$.params.capabilities.elicitation.url",
  },
  { name: "a task-augmented tool call", feature: "tasks", message: request("tools/call", { name: "x", task: { ttl: 1000 } }), options: fromClient, path: "$.params.task" },
  { name: "tool execution", feature: "tasks", message: toolsList({ execution: { taskSupport: "required" } }), options: (v) => serverAnswers("tools/list", v), path: "$.result.tools[0].execution" },
  { name: "the tasks capability", feature: "tasks", message: initializeResult({ tasks: { list: {} } }), options: (v) => serverAnswers("initialize", v), path: "$.result.capabilities.tasks" },
  { name: "a task handle as a tools/call result", feature: "tasks", message: response({ task }), options: (v) => serverAnswers("tools/call", v), path: "$.result" },
  { name: "tools in sampling", feature: "samplingTools", message: sampling({ messages: [], tools: [tool] }), options: fromServer, path: "$.params.tools" },
  { name: "toolChoice in sampling", feature: "samplingTools", message: sampling({ messages: [], toolChoice: { mode: "none" } }), options: fromServer, path: "$.params.toolChoice" },
  {
    name: "tool_use content in sampling",
    feature: "samplingTools",
    message: sampling({ messages: [{ role: "assistant", content: { type: "tool_use", id: "1", name: "x", input: {} } }] }),
    options: fromServer,
    path: "$.params.messages[0].content",
  },
  {
    name: "a list of sampling content blocks",
    feature: "samplingTools",
    message: response({ role: "assistant", content: [{ type: "text", text: "x" }], model: "m" }),
    options: (v) => clientAnswers("sampling/createMessage", v),
    path: "$.result.content",
  },
  {
    name: "multi-select enums in elicitation",
    feature: "elicitationEnumVariants",
    message: form({ tags: { type: "array", items: { type: "string", enum: ["a", "b"] } } }),
    options: fromServer,
    path: "$.params.requestedSchema.properties.tags",
  },
  {
    name: "titled enums in elicitation",
    feature: "elicitationEnumVariants",
    message: form({ size: { type: "string", oneOf: [{ const: "s", title: "Small" }] } }),
    options: fromServer,
    path: "$.params.requestedSchema.properties.size",
  },
  {
    name: "multi-select answers",
    feature: "elicitationEnumVariants",
    message: response({ action: "accept", content: { tags: ["a"] } }),
    options: (v) => clientAnswers("elicitation/create", v),
    path: "$.result.content.tags",
  },
];

function featureProblem(feature: Feature, version: string, path: string) {
  const { since, what } = FEATURES[feature];
  return { path, rule: "version.feature", message: `protocol version ${version} does not have ${what} (feature "${feature}", introduced in ${since})` };
}

describe("feature gating", () => {
  it.each(cases)("$name: valid from the revision that introduced it", ({ feature, message, options }) => {
    const since = FEATURES[feature].since;
    expect(validateMessage(message, options(since))).toEqual([]);
    expect(validateMessage(message, options("2025-11-25"))).toEqual([]);
  });

  it.each(cases)("$name: one version.feature problem in the revision before", ({ feature, message, options, path }) => {
    const before = previous[FEATURES[feature].since]!;
    expect(validateMessage(message, options(before))).toEqual([featureProblem(feature, before, path)]);
  });

  it("spells the problem out in words", () => {
    const message = callResult([], { structuredContent: { c: 21 } });
    expect(validateMessage(message, serverAnswers("tools/call", "2025-03-26"))).toEqual([
      {
        path: "$.result.structuredContent",
        rule: "version.feature",
        message: 'protocol version 2025-03-26 does not have structuredContent in tool results (feature "structuredContent", introduced in 2025-06-18)',
      },
    ]);
  });

  it("leaves gated content types out of the expected list and still names them when used", () => {
    expect(validateMessage(callResult([{ type: "video" }]), serverAnswers("tools/call", "2024-11-05"))).toEqual([
      { path: "$.result.content[0].type", rule: "result.shape", message: 'expected one of "text", "image", "resource"; got "video"' },
    ]);
  });
});

describe("methods that only some revisions have", () => {
  it("elicitation/create arrived in 2025-06-18 (as a request and as an answered request)", () => {
    const elicit = request("elicitation/create", { message: "?", requestedSchema: { type: "object", properties: {} } });
    expect(validateMessage(elicit, fromServer("2025-06-18"))).toEqual([]);
    expect(validateMessage(elicit, fromServer("2025-03-26"))).toEqual([
      {
        path: "$.method",
        rule: "version.feature",
        message: '"elicitation/create" is not available: protocol version 2025-03-26 does not have elicitation (elicitation/create) (feature "elicitation", introduced in 2025-06-18)',
      },
    ]);
    expect(validateMessage(response({ action: "cancel" }), clientAnswers("elicitation/create", "2025-03-26"))).toEqual([
      {
        path: "$",
        rule: "version.feature",
        message: 'requestMethod: "elicitation/create" is not available: protocol version 2025-03-26 does not have elicitation (elicitation/create) (feature "elicitation", introduced in 2025-06-18)',
      },
    ]);
  });

  it("tasks/* and notifications/tasks/status arrived in 2025-11-25, from either side", () => {
    for (const options of [fromClient, fromServer]) {
      expect(validateMessage(request("tasks/cancel", { taskId: "t" }), options("2025-11-25"))).toEqual([]);
      expect(validateMessage(request("tasks/cancel", { taskId: "t" }), options("2025-06-18"))).toEqual([
        {
          path: "$.method",
          rule: "version.feature",
          message: '"tasks/cancel" is not available: protocol version 2025-06-18 does not have tasks (tasks/*) (feature "tasks", introduced in 2025-11-25)',
        },
      ]);
      expect(validateMessage(notification("notifications/tasks/status", task), options("2025-06-18"))[0]).toMatchObject({ path: "$.method", rule: "version.feature" });
    }
  });

  it("notifications/elicitation/complete arrived with URL mode", () => {
    const complete = notification("notifications/elicitation/complete", { elicitationId: "e" });
    expect(validateMessage(complete, fromServer("2025-11-25"))).toEqual([]);
    expect(validateMessage(complete, fromServer("2025-06-18"))).toEqual([
      { path: "$.method", rule: "version.feature", message: `"notifications/elicitation/complete" is not available: ${featureProblem("elicitationUrlMode", "2025-06-18", "$").message}` },
    ]);
  });

  it("unknown-method lists follow the version", () => {
    const [problem] = validateMessage(request("nope"), fromClient("2025-11-25"));
    expect(problem!.message).toContain('"tasks/get"');
    const [old] = validateMessage(request("nope"), fromClient("2025-06-18"));
    expect(old!.message).not.toContain("tasks/");
  });
});

describe("schema sets", () => {
  it("are built once per version and reused", () => {
    expect(schemasFor("2025-06-18")).toBe(schemasFor("2025-06-18"));
    expect(schemasFor("2025-06-18")).not.toBe(schemasFor("2025-11-25"));
  });
});
