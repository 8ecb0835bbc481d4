/**
 * `validateMessage` for protocol revision 2026-07-28, held to the spec's own examples
 * (`fixtures/spec-2026-07-28/`, copied from the spec repository: see the README there): every
 * example is valid, and mutations of them are invalid with the JSON path and rule expected.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { validateMessage } from "../../src/protocol/validate/index.js";

const MODERN = "2026-07-28";
const root = fileURLToPath(new URL("./fixtures/spec-2026-07-28", import.meta.url));
type Json = Record<string, any>;

/** Every example, as [type folder, file name, content]. */
const examples: [string, string, Json][] = readdirSync(root, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((dir) => readdirSync(path.join(root, dir.name)).map((file) => [dir.name, file, JSON.parse(readFileSync(path.join(root, dir.name, file), "utf8"))] as [string, string, Json]));

/** The method a result type answers. */
const METHOD_OF: Record<string, string> = {
  CallTool: "tools/call",
  Complete: "completion/complete",
  Discover: "server/discover",
  GetPrompt: "prompts/get",
  ListPrompts: "prompts/list",
  ListResourceTemplates: "resources/templates/list",
  ListResources: "resources/list",
  ListTools: "tools/list",
  ReadResource: "resources/read",
  SubscriptionsListen: "subscriptions/listen",
};

const meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} };
const fromClient = { direction: "client-to-server", protocolVersion: MODERN } as const;
const answers = (requestMethod: string) => ({ direction: "server-to-client", protocolVersion: MODERN, requestMethod }) as const;
const response = (result: unknown) => ({ jsonrpc: "2.0", id: 1, result });
/** A retry of tools/call carrying `inputResponses` (where the three client results travel in 2026-07-28). */
const retry = (inputResponses: unknown) => ({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "x", inputResponses, requestState: "s", _meta: meta } });
/** An input_required result carrying `inputRequests` (where the three server requests travel). */
const asking = (inputRequests: unknown) => response({ resultType: "input_required", inputRequests });

const pathsOf = (problems: { path: string; rule: string }[]) => problems.map((problem) => [problem.path, problem.rule]);

/** How an example of `type` is checked as a whole message: the message and the options. */
function asMessage(type: string, example: Json): [unknown, Parameters<typeof validateMessage>[1]] {
  const base = type.replace(/(ResultResponse|Result|Request)$/, "");
  if (type.endsWith("ResultResponse")) return [example, answers(METHOD_OF[base]!)];
  if (type === "InputRequiredResult") return [response(example), answers("tools/call")];
  if (["CreateMessageResult", "ElicitResult", "ListRootsResult"].includes(type)) return [retry({ key: example }), fromClient];
  if (type === "InputResponses") return [retry(example), fromClient];
  if (["CreateMessageRequest", "ElicitRequest", "ListRootsRequest"].includes(type)) return [asking({ key: example }), answers("tools/call")];
  if (type === "InputRequests") return [asking(example), answers("tools/call")];
  if (type.endsWith("Result")) return [response(example), answers(METHOD_OF[base]!)];
  if (type.endsWith("Request")) return [example, fromClient];
  if (type.endsWith("Notification")) return [example, { direction: "server-to-client", protocolVersion: MODERN }];
  // Errors: whole error responses, or the error objects alone.
  return ["jsonrpc" in example ? example : { jsonrpc: "2.0", id: 1, error: example }, { direction: "server-to-client", protocolVersion: MODERN }];
}

/** The first example of `type`, copied. */
function firstOf(type: string): Json {
  const found = examples.find(([t]) => t === type);
  if (!found) throw new Error(`no example of ${type}`);
  return structuredClone(found[2]);
}

/** The request the params of `type` belong to (the elicitation modes share one; pagination is any list's). */
const PARAMS_OF: Record<string, string> = { ElicitRequestFormParams: "ElicitRequest", ElicitRequestURLParams: "ElicitRequest", PaginatedRequestParams: "ListToolsRequest" };

/**
 * Where each part travels (a type that is not a message on its own: params, content blocks,
 * capabilities, schemas, listed items): the message type whose first example carries it, and
 * how it goes in. The message is then checked as `asMessage` checks that type.
 */
const CARRIED_IN: Record<string, [string, (message: Json, part: Json) => void]> = {
  AudioContent: ["CallToolResult", (result, part) => (result.content = [part])],
  ImageContent: ["CallToolResult", (result, part) => (result.content = [part])],
  TextContent: ["CallToolResult", (result, part) => (result.content = [part])],
  EmbeddedResource: ["CallToolResult", (result, part) => (result.content = [part])],
  ResourceLink: ["CallToolResult", (result, part) => (result.content = [part])],
  ToolUseContent: ["CreateMessageResult", (result, part) => Object.assign(result, { content: part, stopReason: "toolUse" })],
  ToolResultContent: ["CreateMessageRequest", (request, part) => (request.params.messages = [{ role: "user", content: [part] }])],
  SamplingMessage: ["CreateMessageRequest", (request, part) => (request.params.messages = [part])],
  ModelPreferences: ["CreateMessageRequest", (request, part) => (request.params.modelPreferences = part)],
  BlobResourceContents: ["ReadResourceResult", (result, part) => (result.contents = [part])],
  TextResourceContents: ["ReadResourceResult", (result, part) => (result.contents = [part])],
  Resource: ["ListResourcesResult", (result, part) => (result.resources = [part])],
  Root: ["ListRootsResult", (result, part) => (result.roots = [part])],
  Tool: ["ListToolsResult", (result, part) => (result.tools = [part])],
  ClientCapabilities: ["ListToolsRequest", (request, part) => (request.params._meta["io.modelcontextprotocol/clientCapabilities"] = part)],
  ServerCapabilities: ["DiscoverResult", (result, part) => (result.capabilities = part)],
  ...Object.fromEntries(
    ["BooleanSchema", "NumberSchema", "StringSchema", "TitledMultiSelectEnumSchema", "TitledSingleSelectEnumSchema", "UntitledMultiSelectEnumSchema", "UntitledSingleSelectEnumSchema"].map((type) => [
      type,
      ["ElicitRequest", (request: Json, part: Json) => (request.params.requestedSchema = { type: "object", properties: { field: part } })] as const,
    ]),
  ),
};

/** A part in the message that carries it, as [that message's type, the message]; a message type as it is. */
function carried(type: string, example: Json): [string, Json] {
  if (type.endsWith("Params")) {
    const container = PARAMS_OF[type] ?? type.replace(/Params$/, "");
    const message = firstOf(container);
    // A request's params need the per-request _meta in 2026-07-28: the container's, where the part has none.
    message.params = { ...(message.params?._meta !== undefined && example._meta === undefined && { _meta: message.params._meta }), ...example };
    return [container, message];
  }
  const into = CARRIED_IN[type];
  if (into === undefined) return [type, example];
  const message = firstOf(into[0]);
  into[1](message, structuredClone(example));
  return [into[0], message];
}

/**
 * Examples that break the spec's own schema, with the problems expected. This one predates the
 * caching hints: schema.json requires ttlMs and cacheScope on ReadResourceResult, and
 * server/utilities/caching says "Servers MUST include caching hints on results with
 * resultType: complete" (its sibling read-resource-result-response-with-ttl.json has them).
 */
const KNOWN_INVALID: Record<string, [string, string][]> = {
  "ReadResourceResultResponse/read-resource-result-response.json": [
    ["$.result.ttlMs", "result.shape"],
    ["$.result.cacheScope", "result.shape"],
  ],
};

describe("validateMessage holds to the 2026-07-28 examples of the spec", () => {
  it("has every example (129 files in 88 types)", () => {
    expect(examples).toHaveLength(129);
    expect(new Set(examples.map(([type]) => type)).size).toBe(88);
  });

  it.each(examples.map(([type, file, example]) => [`${type}/${file}`, type, example] as const))("%s is valid", (name, type, example) => {
    const [messageType, message] = carried(type, example);
    const [whole, options] = asMessage(messageType, message);
    expect(pathsOf(validateMessage(whole, options))).toEqual(KNOWN_INVALID[name] ?? []);
  });
});

/** A deep copy of example `type/file`, changed by `change`. */
function mutated(type: string, file: string, change: (copy: Json) => void): Json {
  const example = examples.find(([t, f]) => t === type && f === file);
  if (!example) throw new Error(`no example ${type}/${file}`);
  const copy = structuredClone(example[2]);
  change(copy);
  return copy;
}

describe("mutations of the examples are invalid where they were changed", () => {
  it("parts, checked where they travel: a tool's inputSchema must still be an object type; an image needs its data", () => {
    const tool = mutated("Tool", "tool-with-array-output-schema.json", (t) => (t.inputSchema = { type: "array" }));
    const [listType, list] = carried("Tool", tool);
    expect(pathsOf(validateMessage(...asMessage(listType, list)))).toEqual([["$.result.tools[0].inputSchema.type", "result.shape"]]);
    const image = mutated("ImageContent", "image-png-content-with-annotations.json", (i) => delete i.data);
    const [resultType, result] = carried("ImageContent", image);
    expect(pathsOf(validateMessage(...asMessage(resultType, result)))).toEqual([["$.result.content[0].data", "result.shape"]]);
  });

  it("server/discover without supportedVersions", () => {
    const message = mutated("DiscoverResultResponse", "discover-result-response.json", (m) => delete m.result.supportedVersions);
    expect(pathsOf(validateMessage(message, answers("server/discover")))).toEqual([["$.result.supportedVersions", "result.shape"]]);
  });

  it("a list result without ttlMs, or with a cacheScope that is neither public nor private", () => {
    const noTtl = mutated("ListToolsResultResponse", "list-tools-result-response.json", (m) => delete m.result.ttlMs);
    expect(pathsOf(validateMessage(noTtl, answers("tools/list")))).toEqual([["$.result.ttlMs", "result.shape"]]);
    const shared = mutated("ListToolsResultResponse", "list-tools-result-response.json", (m) => (m.result.cacheScope = "shared"));
    const problems = validateMessage(shared, answers("tools/list"));
    expect(pathsOf(problems)).toEqual([["$.result.cacheScope", "result.shape"]]);
    expect(problems[0]!.message).toMatch(/"private".*"public"|"public".*"private"/);
    const negative = mutated("ReadResourceResultResponse", "read-resource-result-response-with-ttl.json", (m) => (m.result.ttlMs = -1));
    expect(pathsOf(validateMessage(negative, answers("resources/read")))).toEqual([["$.result.ttlMs", "result.shape"]]);
  });

  it("a result without resultType, and input_required where a method may not ask for input", () => {
    const missing = mutated("CallToolResultResponse", "call-tool-result-response.json", (m) => delete m.result.resultType);
    expect(pathsOf(validateMessage(missing, answers("tools/call")))).toEqual([["$.result.resultType", "result.shape"]]);
    const asks = mutated("ListToolsResultResponse", "list-tools-result-response.json", (m) => (m.result.resultType = "input_required"));
    expect(pathsOf(validateMessage(asks, answers("tools/list")))).toEqual([["$.result.resultType", "result.shape"]]);
    const unknown = mutated("CallToolResultResponse", "call-tool-result-response.json", (m) => (m.result.resultType = "partial"));
    expect(pathsOf(validateMessage(unknown, answers("tools/call")))).toEqual([["$.result.resultType", "result.shape"]]);
  });

  it("a request without the per-request _meta version or capabilities", () => {
    const noVersion = mutated("CallToolRequest", "call-tool-request.json", (m) => delete m.params._meta["io.modelcontextprotocol/protocolVersion"]);
    expect(pathsOf(validateMessage(noVersion, fromClient))).toEqual([['$.params._meta["io.modelcontextprotocol/protocolVersion"]', "params.shape"]]);
    const noCapabilities = mutated("ListToolsRequest", "list-tools-request.json", (m) => delete m.params._meta["io.modelcontextprotocol/clientCapabilities"]);
    expect(pathsOf(validateMessage(noCapabilities, fromClient))).toEqual([['$.params._meta["io.modelcontextprotocol/clientCapabilities"]', "params.shape"]]);
    const noMeta = mutated("DiscoverRequest", "server-discover-request.json", (m) => delete m.params);
    expect(pathsOf(validateMessage(noMeta, fromClient))).toEqual([["$.params", "params.shape"]]);
    const badInfo = mutated("CallToolRequest", "call-tool-request.json", (m) => (m.params._meta["io.modelcontextprotocol/clientInfo"] = { name: "x" }));
    expect(pathsOf(validateMessage(badInfo, fromClient))).toEqual([['$.params._meta["io.modelcontextprotocol/clientInfo"].version', "params.shape"]]);
  });

  it("MRTR: an input_required result with neither inputRequests nor requestState, an input request of another method, a state that is not a string", () => {
    const empty = mutated("InputRequiredResult", "input-required-result-with-request-state-only.json", (m) => delete m.requestState);
    expect(pathsOf(validateMessage(response(empty), answers("tools/call")))).toEqual([["$.result", "result.shape"]]);
    const other = mutated("InputRequiredResult", "input-required-result-with-elicitation-and-sampling-and-request-state.json", (m) => (m.inputRequests.github_login.method = "tools/call"));
    expect(pathsOf(validateMessage(response(other), answers("prompts/get")))).toEqual([["$.result.inputRequests.github_login.method", "result.shape"]]);
    const badState = retry({});
    badState.params.requestState = 42 as never;
    expect(pathsOf(validateMessage(badState, fromClient))).toEqual([["$.params.requestState", "params.shape"]]);
    const badAnswer = retry({ github_login: { action: "maybe" } });
    expect(pathsOf(validateMessage(badAnswer, fromClient))).toEqual([["$.params.inputResponses.github_login.action", "params.shape"]]);
    // An answer of no known kind is said to be none of the three, not a sampling result missing its fields.
    const unknownKind = validateMessage(retry({ github_login: { answer: "Paris" } }), fromClient);
    expect(unknownKind.map((problem) => [problem.path, problem.message])).toEqual([
      ["$.params.inputResponses.github_login", "expected an elicitation result ({ action }), a roots result ({ roots }) or a sampling result ({ role, content, model }); got an object"],
    ]);
  });

  it("a URL-mode input request needs no elicitationId in 2026-07-28 (the server correlates through requestState); a 2025-11-25 elicitation/create still does", () => {
    const url = { method: "elicitation/create", params: { mode: "url", message: "Sign in", url: "https://example.com/login" } };
    const modern = { jsonrpc: "2.0" as const, id: 1, result: { resultType: "input_required", inputRequests: { signin: url } } };
    expect(validateMessage(modern, answers("tools/call"))).toEqual([]);
    const legacy = { jsonrpc: "2.0" as const, id: "s1", method: "elicitation/create", params: url.params };
    expect(pathsOf(validateMessage(legacy, { protocolVersion: "2025-11-25", direction: "server-to-client" }))).toEqual([["$.params.elicitationId", "params.shape"]]);
  });

  it("subscriptions/listen without its filter; an acknowledgement with a filter that is not one", () => {
    const noFilter = mutated("SubscriptionsListenRequest", "listen-for-list-changes.json", (m) => delete m.params.notifications);
    expect(pathsOf(validateMessage(noFilter, fromClient))).toEqual([["$.params.notifications", "params.shape"]]);
    const badAck = mutated("SubscriptionsAcknowledgedNotification", "listen-acknowledged.json", (m) => (m.params.notifications.toolsListChanged = "yes"));
    expect(pathsOf(validateMessage(badAck, { direction: "server-to-client", protocolVersion: MODERN }))).toEqual([["$.params.notifications.toolsListChanged", "params.shape"]]);
    const closedWithoutId = mutated("SubscriptionsListenResultResponse", "listen-closed-response.json", (m) => delete m.result._meta);
    expect(pathsOf(validateMessage(closedWithoutId, answers("subscriptions/listen")))).toEqual([["$.result._meta", "result.shape"]]);
  });

  it("a request whose _meta names another revision than the one it is validated as", () => {
    const versionPath = '$.params._meta["io.modelcontextprotocol/protocolVersion"]';
    for (const named of ["2025-11-25", "2099-01-01"]) {
      const call = mutated("CallToolRequest", "call-tool-request.json", (m) => (m.params._meta["io.modelcontextprotocol/protocolVersion"] = named));
      expect(validateMessage(call, fromClient), named).toEqual([
        {
          path: versionPath,
          rule: "params.shape",
          message: `the request names protocol version "${named}" but is validated as 2026-07-28; its _meta (like its MCP-Protocol-Version header) must name the revision the request is sent in: expected "2026-07-28"`,
        },
      ]);
    }
    // A version that is no string at all keeps the plain type problem.
    const numbered = mutated("CallToolRequest", "call-tool-request.json", (m) => (m.params._meta["io.modelcontextprotocol/protocolVersion"] = 20260728));
    expect(validateMessage(numbered, fromClient)).toEqual([{ path: versionPath, rule: "params.shape", message: "expected a string; got 20260728" }]);
    // Only revisions with the per-request _meta read that key: to 2025-11-25 it is any metadata.
    const call = mutated("CallToolRequest", "call-tool-request.json", () => {});
    expect(validateMessage(call, { direction: "client-to-server", protocolVersion: "2025-11-25" })).toEqual([]);
  });

  it("-32022's data.requested is a string, and a missing one is named in our words", () => {
    const unsupported = (change: (data: Json) => void) => mutated("UnsupportedProtocolVersionError", "unsupported-version.json", (m) => change(m.error.data));
    const problemsOf = (message: Json) => validateMessage(message, { direction: "server-to-client", protocolVersion: MODERN, requestMethod: "tools/call" });
    const at = (message: string) => [{ path: "$.error.data.requested", rule: "error.data", message }];
    expect(problemsOf(unsupported((data) => delete data.requested))).toEqual(at('required field "requested" is missing; expected a string'));
    expect(problemsOf(unsupported((data) => (data.requested = 5)))).toEqual(at("expected a string; got 5"));
    expect(problemsOf(unsupported((data) => (data.requested = null)))).toEqual(at("expected a string; got null"));
  });

  it("-32022 without data.supported; -32021 without data.requiredCapabilities", () => {
    const unsupported = mutated("UnsupportedProtocolVersionError", "unsupported-version.json", (m) => delete m.error.data.supported);
    expect(pathsOf(validateMessage(unsupported, { direction: "server-to-client", protocolVersion: MODERN }))).toEqual([["$.error.data.supported", "error.data"]]);
    const missing = mutated("MissingRequiredClientCapabilityError", "missing-elicitation-capability.json", (m) => delete m.error.data.requiredCapabilities);
    expect(pathsOf(validateMessage(missing, { direction: "server-to-client", protocolVersion: MODERN }))).toEqual([["$.error.data.requiredCapabilities", "error.data"]]);
  });

  it("what 2026-07-28 removed is a version.feature problem; what it added is one in 2025-11-25", () => {
    const request = (method: string, params: Json = { _meta: meta }) => ({ jsonrpc: "2.0", id: 1, method, params });
    for (const method of ["initialize", "ping", "logging/setLevel", "resources/subscribe"]) {
      expect(pathsOf(validateMessage(request(method), fromClient)), method).toContainEqual(["$.method", "version.feature"]);
    }
    // The one client notification 2026-07-28 removed (its changelog: "Remove ping, logging/setLevel, and notifications/roots/list_changed").
    const rootsChanged = { jsonrpc: "2.0", method: "notifications/roots/list_changed" };
    expect(validateMessage(rootsChanged, fromClient)).toEqual([
      {
        path: "$.method",
        rule: "version.feature",
        message:
          '"notifications/roots/list_changed" is not available: protocol version 2026-07-28 does not have notifications/roots/list_changed (2026-07-28: a server asks for roots in a result\'s input requests) (feature "rootsListChanged", only from 2024-11-05 up to, not including, 2026-07-28)',
      },
    ]);
    expect(validateMessage(rootsChanged, { direction: "client-to-server", protocolVersion: "2025-11-25" })).toEqual([]);
    // A client's progress reports on a server's request, which 2026-07-28 has none of; a server's progress stays.
    const progress = { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "t", progress: 1 } };
    expect(validateMessage(progress, fromClient)).toEqual([
      {
        path: "$.method",
        rule: "version.feature",
        message:
          '"notifications/progress" is not available: in protocol version 2026-07-28 a client sends no progress notifications, since they only reported on server-to-client requests, which 2026-07-28 removed (feature "serverRequests", only from 2024-11-05 up to, not including, 2026-07-28)',
      },
    ]);
    expect(validateMessage(progress, { direction: "client-to-server", protocolVersion: "2025-11-25" })).toEqual([]);
    expect(validateMessage(progress, { direction: "server-to-client", protocolVersion: MODERN })).toEqual([]);
    const elicit = { jsonrpc: "2.0", id: 1, method: "elicitation/create", params: { message: "x", requestedSchema: { type: "object", properties: {} } } };
    expect(validateMessage(elicit, { direction: "server-to-client", protocolVersion: MODERN })[0]).toMatchObject({
      path: "$.method",
      rule: "version.feature",
      message: expect.stringContaining("server-to-client JSON-RPC requests"),
    });
    const discover = examples.find(([type]) => type === "DiscoverRequest")![2];
    expect(pathsOf(validateMessage(discover, { direction: "client-to-server", protocolVersion: "2025-11-25" }))).toEqual([["$.method", "version.feature"]]);
    // Legacy results need no resultType.
    expect(validateMessage(response({ content: [] }), { direction: "server-to-client", protocolVersion: "2025-11-25", requestMethod: "tools/call" })).toEqual([]);
  });
});
