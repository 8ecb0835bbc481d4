/** validateMessage: requests and notifications, by method and direction, against the 2025-11-25 schema unless said otherwise. */
import { describe, expect, it } from "vitest";
import { validateMessage, type ValidateMessageOptions } from "../../src/protocol/index.js";
import { fromClient, fromServer, implementation, notification, png, request, task, tool } from "./messages.js";

const shape = (path: string, message: string) => ({ path, rule: "params.shape", message });

describe("valid requests and notifications in each direction", () => {
  const clientMessages: [string, object][] = [
    [
      "initialize",
      request("initialize", { protocolVersion: "2025-11-25", capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: { form: {}, url: {} } }, clientInfo: implementation }),
    ],
    ["ping", request("ping")],
    ["tools/list", request("tools/list", { cursor: "page-2" })],
    ["tools/call", request("tools/call", { name: "search", arguments: { q: "bug" }, _meta: { progressToken: "p1" } })],
    ["tools/call as a task", request("tools/call", { name: "search", arguments: {}, task: { ttl: 60000 } })],
    ["resources/list", request("resources/list")],
    ["resources/templates/list", request("resources/templates/list", {})],
    ["resources/read", request("resources/read", { uri: "notes://today" })],
    ["resources/subscribe", request("resources/subscribe", { uri: "file:///a.txt" })],
    ["resources/unsubscribe", request("resources/unsubscribe", { uri: "file:///a.txt" })],
    ["prompts/list", request("prompts/list")],
    ["prompts/get", request("prompts/get", { name: "greet", arguments: { name: "Ada" } })],
    ["completion/complete", request("completion/complete", { ref: { type: "ref/prompt", name: "greet" }, argument: { name: "name", value: "A" }, context: { arguments: { lang: "en" } } })],
    ["completion/complete (resource)", request("completion/complete", { ref: { type: "ref/resource", uri: "notes://{day}" }, argument: { name: "day", value: "m" } })],
    ["logging/setLevel", request("logging/setLevel", { level: "warning" })],
    ["tasks/get", request("tasks/get", { taskId: "t-1" })],
    ["tasks/list", request("tasks/list")],
    ["notifications/initialized", notification("notifications/initialized")],
    ["notifications/cancelled", notification("notifications/cancelled", { requestId: 3, reason: "user" })],
    ["notifications/progress", notification("notifications/progress", { progressToken: 1, progress: 50, total: 100, message: "half" })],
    ["notifications/roots/list_changed", notification("notifications/roots/list_changed")],
    ["notifications/tasks/status", notification("notifications/tasks/status", task)],
  ];
  it.each(clientMessages)("client sends %s", (_name, message) => {
    expect(validateMessage(message, fromClient())).toEqual([]);
  });

  const serverMessages: [string, object][] = [
    ["ping", request("ping")],
    [
      "sampling/createMessage",
      request("sampling/createMessage", {
        messages: [
          { role: "user", content: { type: "text", text: "Hi" } },
          { role: "assistant", content: [{ type: "tool_use", id: "u1", name: "search", input: { q: "x" } }] },
        ],
        maxTokens: 100,
        modelPreferences: { hints: [{ name: "claude" }], costPriority: 0.2 },
        includeContext: "none",
        tools: [tool],
        toolChoice: { mode: "auto" },
      }),
    ],
    ["elicitation/create (form)", request("elicitation/create", { message: "Where?", requestedSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } })],
    ["elicitation/create (url)", request("elicitation/create", { mode: "url", message: "Sign in", elicitationId: "e1", url: "https://example.com/auth" })],
    ["roots/list", request("roots/list")],
    ["notifications/message", notification("notifications/message", { level: "error", logger: "db", data: null })],
    ["notifications/resources/updated", notification("notifications/resources/updated", { uri: "notes://today" })],
    ["notifications/resources/list_changed", notification("notifications/resources/list_changed")],
    ["notifications/tools/list_changed", notification("notifications/tools/list_changed", { _meta: {} })],
    ["notifications/prompts/list_changed", notification("notifications/prompts/list_changed")],
    ["notifications/elicitation/complete", notification("notifications/elicitation/complete", { elicitationId: "e1" })],
    ["notifications/progress", notification("notifications/progress", { progressToken: "t", progress: 1 })],
    ["notifications/cancelled", notification("notifications/cancelled", { requestId: "r1" })],
  ];
  it.each(serverMessages)("server sends %s", (_name, message) => {
    expect(validateMessage(message, fromServer())).toEqual([]);
  });
});

describe("method.unknown and method.kind", () => {
  it("reports a method no one sends, listing what that side may send", () => {
    expect(validateMessage(request("tools/run"), fromServer("2024-11-05"))).toEqual([
      {
        path: "$.method",
        rule: "method.unknown",
        message: 'unknown method "tools/run"; expected one of the server\'s requests: "ping", "sampling/createMessage", "roots/list"',
      },
    ]);
  });

  it("reports a method sent in the wrong direction", () => {
    expect(validateMessage(request("sampling/createMessage", { messages: [], maxTokens: 1 }), fromClient())).toEqual([
      expect.objectContaining({
        path: "$.method",
        rule: "method.unknown",
        message: expect.stringMatching(/^"sampling\/createMessage" is not sent by the client; expected one of the client's requests: "initialize", /),
      }),
    ]);
    expect(validateMessage(notification("notifications/initialized"), fromServer("2024-11-05"))).toEqual([
      {
        path: "$.method",
        rule: "method.unknown",
        message:
          '"notifications/initialized" is not sent by the server; expected one of the server\'s notifications: "notifications/cancelled", "notifications/progress", "notifications/message", "notifications/resources/updated", "notifications/resources/list_changed", "notifications/tools/list_changed", "notifications/prompts/list_changed"',
      },
    ]);
  });

  it("reports a notification sent with an id, and a request sent without one", () => {
    expect(validateMessage(request("notifications/initialized"), fromClient())).toEqual([
      { path: "$.method", rule: "method.kind", message: '"notifications/initialized" is a notification; expected no "id"' },
    ]);
    expect(validateMessage(notification("tools/list"), fromClient())).toEqual([{ path: "$.method", rule: "method.kind", message: '"tools/list" is a request; expected an "id"' }]);
  });
});

describe("params.shape by method", () => {
  const client = fromClient();
  const server = fromServer();
  const check = (message: object, options: ValidateMessageOptions = client) => validateMessage(message, options);

  it("requires params where the method has required fields", () => {
    expect(check(request("tools/call"))).toEqual([shape("$.params", 'required field "params" is missing; expected an object')]);
  });

  it("_meta must be an object where present", () => {
    expect(check(request("ping", { _meta: [] }))).toEqual([shape("$.params._meta", "expected an object; got an array")]);
    expect(check(notification("notifications/initialized", { _meta: "x" }))).toEqual([shape("$.params._meta", 'expected an object; got "x"')]);
  });

  it("allows unknown extra keys (the schema is open)", () => {
    expect(check(request("tools/call", { name: "x", extra: { any: "thing" } }))).toEqual([]);
  });

  it("initialize: protocolVersion, capabilities and clientInfo with name and version", () => {
    expect(check(request("initialize", { protocolVersion: 20251125, capabilities: { roots: true }, clientInfo: { name: "c" } }))).toEqual([
      shape("$.params.protocolVersion", "expected a string; got 20251125"),
      shape("$.params.capabilities.roots", "expected an object; got true"),
      shape("$.params.clientInfo.version", 'required field "version" is missing; expected a string'),
    ]);
    expect(check(request("initialize", {}))).toEqual([
      shape("$.params.protocolVersion", 'required field "protocolVersion" is missing; expected a string'),
      shape("$.params.capabilities", 'required field "capabilities" is missing; expected an object'),
      shape("$.params.clientInfo", 'required field "clientInfo" is missing; expected an object'),
    ]);
  });

  it("tools/call: a string name and object arguments", () => {
    expect(check(request("tools/call", { name: 1, arguments: "q=bug" }))).toEqual([shape("$.params.name", "expected a string; got 1"), shape("$.params.arguments", 'expected an object; got "q=bug"')]);
  });

  it("list requests: cursor is a string", () => {
    expect(check(request("resources/list", { cursor: 2 }))).toEqual([shape("$.params.cursor", "expected a string; got 2")]);
  });

  it("resources/read and subscribe: uri is a URI", () => {
    expect(check(request("resources/read", { uri: "today.txt" }))).toEqual([shape("$.params.uri", 'expected a URI with a scheme (such as "file:///notes.txt"); got "today.txt"')]);
    expect(check(request("resources/subscribe", {}))).toEqual([shape("$.params.uri", 'required field "uri" is missing; expected a string')]);
  });

  it("prompts/get: arguments map to strings", () => {
    expect(check(request("prompts/get", { name: "greet", arguments: { times: 3 } }))).toEqual([shape("$.params.arguments.times", "expected a string; got 3")]);
  });

  it("completion/complete: a known ref type and an argument with name and value", () => {
    expect(check(request("completion/complete", { ref: { type: "ref/tool", name: "x" }, argument: { name: "q" } }))).toEqual([
      shape("$.params.ref.type", 'expected one of "ref/prompt", "ref/resource"; got "ref/tool"'),
      shape("$.params.argument.value", 'required field "value" is missing; expected a string'),
    ]);
    expect(check(request("completion/complete", { ref: { type: "ref/prompt" }, argument: { name: "q", value: "" } }))).toEqual([
      shape("$.params.ref.name", 'required field "name" is missing; expected a string'),
    ]);
  });

  it("logging/setLevel and notifications/message: the level enum", () => {
    const levels = '"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"';
    expect(check(request("logging/setLevel", { level: "verbose" }))).toEqual([shape("$.params.level", `expected one of ${levels}; got "verbose"`)]);
    expect(check(notification("notifications/message", { level: "WARN", data: "x" }), server)).toEqual([shape("$.params.level", `expected one of ${levels}; got "WARN"`)]);
  });

  it("notifications/message: data is required (any value)", () => {
    expect(check(notification("notifications/message", { level: "info" }), server)).toEqual([shape("$.params.data", 'required field "data" is missing; expected any JSON value')]);
  });

  it("notifications/progress: token and numbers", () => {
    expect(check(notification("notifications/progress", { progressToken: null, progress: "50%" }))).toEqual([
      shape("$.params.progressToken", "expected a string or a number; got null"),
      shape("$.params.progress", 'expected a number; got "50%"'),
    ]);
  });

  it("notifications/cancelled: requestId required before 2025-11-25, optional since", () => {
    expect(check(notification("notifications/cancelled", { reason: "bored" }), fromClient("2025-06-18"))).toEqual([
      shape("$.params.requestId", 'required field "requestId" is missing; expected a string or a number'),
    ]);
    expect(check(notification("notifications/cancelled", { reason: "bored" }), fromClient("2025-11-25"))).toEqual([]);
    expect(check(notification("notifications/cancelled", { requestId: {} }))).toEqual([shape("$.params.requestId", "expected a string or a number; got an object")]);
  });

  it("notifications/resources/updated: a uri", () => {
    expect(check(notification("notifications/resources/updated", {}), server)).toEqual([shape("$.params.uri", 'required field "uri" is missing; expected a string')]);
  });

  it("sampling/createMessage: messages, maxTokens, content blocks and preferences in range", () => {
    expect(check(request("sampling/createMessage", { messages: [{ role: "system", content: { type: "text" } }], modelPreferences: { speedPriority: 2 } }), server)).toEqual([
      shape("$.params.messages[0].role", 'expected one of "user", "assistant"; got "system"'),
      shape("$.params.messages[0].content.text", 'required field "text" is missing; expected a string'),
      shape("$.params.modelPreferences.speedPriority", "expected a number <= 1; got 2"),
      shape("$.params.maxTokens", 'required field "maxTokens" is missing; expected a number'),
    ]);
    expect(
      check(request("sampling/createMessage", { messages: [{ role: "user", content: { type: "image", data: png, mimeType: "image/png" } }], maxTokens: 5, includeContext: "everything" }), server),
    ).toEqual([shape("$.params.includeContext", 'expected one of "none", "thisServer", "allServers"; got "everything"')]);
  });

  it("elicitation/create (form): requestedSchema is a flat object schema of primitive fields", () => {
    const params = { message: "Where?", requestedSchema: { type: "object", properties: { city: { type: "object" }, count: { type: "integer", minimum: "1" }, mode: { type: "string", enum: "a" } } } };
    expect(check(request("elicitation/create", params), server)).toEqual([
      shape("$.params.requestedSchema.properties.city.type", 'expected one of "string", "number", "integer", "boolean", "array"; got "object"'),
      shape("$.params.requestedSchema.properties.count.minimum", 'expected a number; got "1"'),
      shape("$.params.requestedSchema.properties.mode.enum", 'expected an array; got "a"'),
    ]);
    expect(check(request("elicitation/create", { message: "x", requestedSchema: { type: "array", properties: {} } }), server)).toEqual([
      shape("$.params.requestedSchema.type", 'expected "object"; got "array"'),
    ]);
  });

  it("elicitation/create (url): elicitationId and a URL; unknown modes are named", () => {
    expect(check(request("elicitation/create", { mode: "url", message: "Sign in", url: "example.com" }), server)).toEqual([
      shape("$.params.elicitationId", 'required field "elicitationId" is missing; expected a string'),
      shape("$.params.url", 'expected a URI with a scheme (such as "file:///notes.txt"); got "example.com"'),
    ]);
    expect(check(request("elicitation/create", { mode: "voice", message: "Say it" }), server)).toEqual([shape("$.params.mode", 'expected one of "form", "url"; got "voice"')]);
  });

  it("notifications/elicitation/complete: an elicitationId", () => {
    expect(check(notification("notifications/elicitation/complete", { elicitationId: 7 }), server)).toEqual([shape("$.params.elicitationId", "expected a string; got 7")]);
  });

  it("tasks: taskId in requests, a full task in status notifications", () => {
    expect(check(request("tasks/get", {}))).toEqual([shape("$.params.taskId", 'required field "taskId" is missing; expected a string')]);
    expect(check(notification("notifications/tasks/status", { ...task, status: "done", ttl: "forever" }), server)).toEqual([
      shape("$.params.status", 'expected one of "working", "input_required", "completed", "failed", "cancelled"; got "done"'),
      shape("$.params.ttl", 'expected a number; got "forever"'),
    ]);
  });
});
