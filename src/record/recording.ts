/**
 * What a recording holds and how it is written down. A recording is the answers a real server
 * gave, request by request, beside the surface it listed; it is written as an ordinary
 * scenario-fakes block (the `mcpFakes` format), so the fakes that answer hand-written
 * fixtures replay it, and as a scenario (the mock's options as JSON) that also lists every tool
 * the server had, with its full definition, its name and its instructions.
 */
import { argsMatchFor, type Redaction } from "./redact.js";
import { META } from "../protocol/meta-keys.js";
import { withParams } from "../protocol/jsonrpc.js";
import { UriTemplate } from "../engine/uri-template.js";
import type { FakeScope, McpFakeBlock, McpFakeCall, McpFakePrompt, McpFakeResource, McpFakeTool, McpFakeRedaction } from "../fakes/types.js";

type Json = Record<string, unknown>;

/** A JSON-RPC error as the server sent it. */
export interface RecordedError {
  code: number;
  message: string;
  data?: unknown;
}

/** One request the real server answered while recording, in the order the requests were made. */
export type RecordedExchange =
  | { kind: "tool"; name: string; arguments: Json; answer: RecordedAnswer; durationMs: number; asks?: RecordedAsk[] }
  | { kind: "resource"; uri: string; answer: RecordedAnswer; durationMs: number }
  | { kind: "prompt"; name: string; arguments: Record<string, string>; answer: RecordedAnswer; durationMs: number };

export type RecordedAnswer = { result: Json } | { error: RecordedError };

/**
 * A request the server made of its client during a call (elicitation, sampling, roots), passed
 * on to the agent, and the agent's answer. A replay makes the same requests of its client, in
 * order, before the recorded answer (the step's `asks`); the answers stay in the recording's
 * `exchanges` and are not written down (a replay answers the same whatever its client says).
 */
export interface RecordedAsk {
  method: string;
  params?: Json;
  answer: RecordedAnswer;
}

/** What the real server said it is and offers, as listed when the recording started. */
export interface RecordedSurface {
  serverInfo: Json;
  instructions?: string;
  protocolVersion: string;
  tools: Json[];
  resources: Json[];
  /** Resource templates (`resources/templates/list`). */
  templates: Json[];
  prompts: Json[];
}

/**
 * A value the recorder replaced with the marker before writing: where (the tool, resource or
 * prompt and the index of its entry, or none for the server's info) and the path inside that
 * entry's exchange (`arguments.apiKey`, `answer.result.content.0.text`, `serverInfo.build`).
 */
export type RecordedRedaction = McpFakeRedaction;

export interface FixtureOptions {
  /** The block's scope (default `"shared"`): `{ testId }` to replay for one test only. */
  scope?: FakeScope;
  /** Close the world (`undeclaredTools: "deny"`; needs a `scope`): a call to a tool the recording never saw fails instead of reaching the mock's own tools. */
  closedWorld?: boolean;
}

/**
 * The keys of the definitions the mock accepts (src/engine/catalog.ts), copied from the server's
 * listing. A tool's `execution` (task support, 2025-11-25) is not: the mock answers every call
 * directly, so a replay that promised tasks would break a client that asks for one.
 */
const TOOL_DEFINITION_KEYS = ["title", "description", "inputSchema", "outputSchema", "annotations", "icons", "_meta"] as const;
const RESOURCE_DEFINITION_KEYS = ["name", "title", "description", "mimeType", "size", "annotations", "icons", "_meta"] as const;
const TEMPLATE_DEFINITION_KEYS = ["name", "title", "description", "mimeType", "annotations", "icons", "_meta"] as const;
const PROMPT_DEFINITION_KEYS = ["title", "description", "arguments", "icons", "_meta"] as const;
/** The keys a fixture's full tool result may have (src/fakes/format.ts). */
const FULL_RESULT_KEYS = new Set(["content", "isError", "structuredContent", "_meta"]);
/** Added by the revision, not by the tool: a replay's own mock adds them again (2026-07-28). */
const PROTOCOL_RESULT_KEYS = new Set(["resultType", "ttlMs", "cacheScope"]);

export class Recording {
  readonly exchanges: RecordedExchange[] = [];
  /** What was redacted, and where, in the surface and the exchanges. */
  readonly redactions: RecordedRedaction[] = [];

  constructor(
    readonly surface: RecordedSurface,
    surfaceRedactions: readonly Redaction[] = [],
  ) {
    this.redactions.push(...surfaceRedactions);
  }

  /** Starts from an earlier recording's exchanges and redactions (the auto mode extends a file). */
  seed(exchanges: readonly RecordedExchange[], redactions: readonly RecordedRedaction[]): void {
    this.exchanges.push(...exchanges);
    this.redactions.push(...redactions);
  }

  /** Keeps an exchange (already redacted), and what was redacted in it, placed by its entry. */
  add(exchange: RecordedExchange, redactions: readonly Redaction[] = []): void {
    if (redactions.length > 0) {
      const key = exchange.kind === "resource" ? exchange.uri : exchange.name;
      const entry = this.exchanges.filter((earlier) => earlier.kind === exchange.kind && (earlier.kind === "resource" ? earlier.uri : earlier.name) === key).length;
      for (const { path, rule } of redactions) this.redactions.push({ [exchange.kind]: key, entry, path, rule });
    }
    this.exchanges.push(exchange);
  }

  /** The recording as one `mcpFakes` block: the tools, resources and prompts that were asked for, with their answers in order. */
  toBlock(options: FixtureOptions = {}): McpFakeBlock {
    const block: McpFakeBlock = { scope: options.scope ?? "shared" };
    if (options.closedWorld) block.undeclaredTools = "deny";
    const tools = this.toolBlocks();
    const resources = this.resourceBlocks();
    const prompts = this.promptBlocks();
    if (tools.length > 0) block.tools = tools;
    if (resources.length > 0) block.resources = resources;
    if (prompts.length > 0) block.prompts = prompts;
    if (this.redactions.length > 0) block.redacted = this.redactions.map((redaction) => ({ ...redaction }));
    return block;
  }

  /** A fixture file's content: `{ "mcpFakes": block }`, for a fixtures directory. Undefined when nothing was asked for (a block fakes at least one thing). */
  toFixture(options: FixtureOptions = {}): { mcpFakes: McpFakeBlock } | undefined {
    const block = this.toBlock(options);
    return block.tools || block.resources || block.prompts ? { mcpFakes: block } : undefined;
  }

  /**
   * A scenario (`mockMcp()` options as JSON, for `mcp-testkit mock <file>`): the server's name and
   * instructions, every tool, resource, resource template and prompt it listed with its full
   * definition (so a replay lists what the server listed), and the recording as fakes. The fakes
   * answer what was asked for (a call with other arguments fails there, naming the closest
   * recorded one); the definition's own `throws` answers the rest, saying it was not recorded.
   */
  toScenario(options: FixtureOptions = {}): Json {
    const scenario: Json = { serverInfo: this.surface.serverInfo };
    if (this.surface.instructions !== undefined) scenario.instructions = this.surface.instructions;
    const asked = this.askedFor();
    const readUris = this.exchanges.flatMap((exchange) => (exchange.kind === "resource" ? [exchange.uri] : []));
    const wasAsked = (kind: Subject, name: string) => (kind === "resource template" ? readUris.some((uri) => new UriTemplate(name).match(uri) !== undefined) : asked.has(`${kind}\u0000${name}`));
    const unanswered = (kind: Subject, name: string) => {
      if (!wasAsked(kind, name)) return { throws: notRecorded(kind, name, undefined) };
      const readAt = kind === "resource template" ? readUris.filter((uri) => new UriTemplate(name).match(uri) !== undefined) : [];
      return { throws: notRecorded(kind, name, options.scope ?? "shared", readAt) };
    };
    const tools = byKey(this.surface.tools, "name", (tool, name) => ({ ...pick(tool, TOOL_DEFINITION_KEYS), responses: unanswered("tool", name) }));
    const resources = {
      ...byKey(this.surface.resources, "uri", (resource, uri) => ({ ...pick(resource, RESOURCE_DEFINITION_KEYS), ...unanswered("resource", uri) })),
      ...byKey(this.surface.templates, "uriTemplate", (template, uriTemplate) => ({ ...pick(template, TEMPLATE_DEFINITION_KEYS), ...unanswered("resource template", uriTemplate) })),
    };
    const prompts = byKey(this.surface.prompts, "name", (prompt, name) => ({ ...promptDefinition(prompt), ...unanswered("prompt", name) }));
    if (Object.keys(tools).length > 0) scenario.tools = tools;
    if (Object.keys(resources).length > 0) scenario.resources = resources;
    if (Object.keys(prompts).length > 0) scenario.prompts = prompts;
    const fixture = this.toFixture(options);
    if (fixture !== undefined) scenario.fixtures = [fixture.mcpFakes];
    return scenario;
  }

  /** `kind\0name` of every tool, resource and prompt the recording has an answer for. */
  private askedFor(): Set<string> {
    return new Set(this.exchanges.map((exchange) => (exchange.kind === "resource" ? `resource\u0000${exchange.uri}` : `${exchange.kind}\u0000${exchange.name}`)));
  }

  private toolBlocks(): McpFakeTool[] {
    return this.grouped(
      "tool",
      (exchange) => exchange.name,
      (exchange) => {
        const listed = this.surface.tools.find((candidate) => candidate.name === exchange.name);
        return { item: { name: exchange.name, ...pick(listed, ["description", "inputSchema"]), calls: [] } as McpFakeTool, entries: (tool) => tool.calls };
      },
      (exchange) => toolCall(exchange.arguments, exchange.answer, exchange.asks),
    );
  }

  private resourceBlocks(): McpFakeResource[] {
    return this.grouped(
      "resource",
      (exchange) => exchange.uri,
      (exchange) => {
        const listed = this.surface.resources.find((candidate) => candidate.uri === exchange.uri);
        return { item: { uri: exchange.uri, ...pick(listed, ["name", "description", "mimeType"]), reads: [] } as McpFakeResource, entries: (resource) => resource.reads };
      },
      (exchange) => ("error" in exchange.answer ? { error: exchange.answer.error } : { result: withoutProtocolKeys(exchange.answer.result) }),
    );
  }

  private promptBlocks(): McpFakePrompt[] {
    return this.grouped(
      "prompt",
      (exchange) => exchange.name,
      (exchange) => {
        const listed = this.surface.prompts.find((candidate) => candidate.name === exchange.name);
        const prompt = { name: exchange.name, ...pick(listed, ["description", "arguments"]), gets: [] } as McpFakePrompt;
        if (prompt.arguments !== undefined) prompt.arguments = prompt.arguments.map((argument) => pick(argument as Json, ["name", "description", "required"]) as { name: string });
        return { item: prompt, entries: (made) => made.gets };
      },
      (exchange) => ({ ...argsEntry(exchange.arguments), ...("error" in exchange.answer ? { error: exchange.answer.error } : { result: promptResult(exchange.answer.result) }) }),
    );
  }

  /** The exchanges of one kind, grouped by tool, URI or prompt in first-seen order, each group's entries in the order they were made. */
  private grouped<K extends RecordedExchange["kind"], Item, Entry>(
    kind: K,
    keyOf: (exchange: Extract<RecordedExchange, { kind: K }>) => string,
    make: (exchange: Extract<RecordedExchange, { kind: K }>) => { item: Item; entries: (item: Item) => unknown[] },
    entryOf: (exchange: Extract<RecordedExchange, { kind: K }>) => Entry,
  ): Item[] {
    const groups = new Map<string, { item: Item; entries: unknown[] }>();
    for (const exchange of this.exchanges) {
      if (exchange.kind !== kind) continue;
      const ofKind = exchange as Extract<RecordedExchange, { kind: K }>;
      const key = keyOf(ofKind);
      let group = groups.get(key);
      if (group === undefined) {
        const { item, entries } = make(ofKind);
        group = { item, entries: entries(item) };
        groups.set(key, group);
      }
      group.entries.push(entryOf(ofKind));
    }
    return [...groups.values()].map((group) => group.item);
  }
}

type Subject = "tool" | "resource" | "resource template" | "prompt";

/**
 * Why a replay has no answer: the server listed it but it was never asked for (`scope`
 * undefined), its answers were recorded for one test id or context this request is not in, or
 * (a template) it was read at other URIs only (`readAt`).
 */
function notRecorded(kind: Subject, name: string, scope: FakeScope | undefined, readAt: readonly string[] = []): RecordedError {
  const what = `${kind} ${JSON.stringify(name)}`;
  if (scope === undefined) {
    const asked = kind === "tool" ? "called" : kind === "prompt" ? "got" : "read";
    return {
      code: -32603,
      message: `Not recorded: ${what} was listed by the server but never ${asked} while this recording was made, so the recording has no answer for it. Record again with a request to it, or give it an entry in this file's fixtures.`,
    };
  }
  if (scope === "shared") {
    if (readAt.length === 0)
      return { code: -32603, message: `Not recorded: the recording has no answer for this request to ${what}. Record again with this request, or give it an entry in this file's fixtures.` };
    return {
      code: -32603,
      message: `Not recorded: ${what} was read only at ${readAt.map((uri) => JSON.stringify(uri)).join(", ")} while this recording was made, so the recording has no answer for this URI. Record again with a read of it, or give it an entry in this file's fixtures.`,
    };
  }
  const parts = [scope.testId === undefined ? undefined : `test id ${JSON.stringify(scope.testId)}`, scope.context === undefined ? undefined : `context ${JSON.stringify(scope.context)}`].filter(
    (part) => part !== undefined,
  );
  const send = [scope.testId === undefined ? undefined : `X-Test-Id: ${scope.testId}`, scope.context === undefined ? undefined : `X-Test-Context: ${scope.context}`].filter(
    (part) => part !== undefined,
  );
  return {
    code: -32603,
    message: `Not recorded for this request: the answers for ${what} were recorded for ${parts.join(" and ")} only, and this request is not in that scope. Send ${send.join(" and ")} (or ?testId=/?context= on the URL) to replay them, or record without --test-id/--context to share them with every request.`,
  };
}

/** Definitions by their key (name, URI or URI template), in the order the server listed them. */
function byKey(listed: readonly Json[], key: string, make: (item: Json, id: string) => Json): Json {
  const out: Json = {};
  for (const item of listed) out[String(item[key])] = make(item, String(item[key]));
  return out;
}

/** A prompt's definition as the mock takes it (its arguments with the keys a prompt argument has). */
function promptDefinition(prompt: Json): Json {
  const definition = pick(prompt, PROMPT_DEFINITION_KEYS);
  if (Array.isArray(definition.arguments)) definition.arguments = definition.arguments.map((argument) => pick(argument as Json, ["name", "title", "description", "required"]));
  return definition;
}

/**
 * One call entry: the exact arguments, and the result as the fixture format spells a full result
 * (else as a raw result step) or the error as a `throws` step; a call that asked its client
 * something is a step whose `asks` come first.
 */
function toolCall(recordedArgs: Json, answer: RecordedAnswer, asked: readonly RecordedAsk[] = []): McpFakeCall {
  const asks = asked.length === 0 ? undefined : asked.map(({ method, params }) => withParams({ method }, params));
  const args = argsEntry(recordedArgs);
  if ("error" in answer) return { ...args, step: { ...(asks && { asks }), throws: answer.error } };
  const result = withoutProtocolKeys(answer.result);
  if (!Array.isArray(result.content)) result.content = [];
  if (result.isError !== true) delete result.isError;
  const keys = Object.keys(result);
  if (asks === undefined && keys.every((key) => FULL_RESULT_KEYS.has(key))) return { ...args, result };
  // After asks, content (and structured content) as a step of their own, shaped for each client's
  // revision like any answer; a result with more (isError, _meta, a server's own extensions) is sent as is.
  if (asks !== undefined && keys.every((key) => key === "content" || key === "structuredContent")) return { ...args, step: { asks, ...result } };
  return { ...args, step: { ...(asks && { asks }), result } };
}

/** How an entry matches its recorded arguments: exactly, or (where a value was redacted) any value in its place. */
function argsEntry(args: Json): { args: Json } | { argsMatch: Json } {
  const match = argsMatchFor(args);
  return match === undefined ? { args } : { argsMatch: match };
}

/** A prompts/get result in the fixture's full form (`messages`, `description`, `_meta`). */
function promptResult(result: Json): Json {
  return pick(withoutProtocolKeys(result), ["messages", "description", "_meta"]);
}

/** The result without what the protocol added to it (2026-07-28's `resultType`, caching hints and server identity). */
export function withoutProtocolKeys(result: Json): Json {
  const copy: Json = {};
  for (const [key, value] of Object.entries(result)) if (!PROTOCOL_RESULT_KEYS.has(key)) copy[key] = value;
  if (typeof copy._meta === "object" && copy._meta !== null) {
    const { [META.serverInfo]: _identity, ...meta } = copy._meta as Json;
    if (Object.keys(meta).length === 0) delete copy._meta;
    else copy._meta = meta;
  }
  return copy;
}

function pick(source: Json | undefined, keys: readonly string[]): Json {
  const picked: Json = {};
  if (source === undefined) return picked;
  for (const key of keys) if (source[key] !== undefined) picked[key] = source[key];
  return picked;
}
