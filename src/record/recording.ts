/**
 * What a recording holds and how it is written down. A recording is the answers a real server
 * gave, request by request, beside the surface it listed; it is written as an ordinary
 * scenario-fakes block (seed 003's `mcpFakes` format), so the fakes that answer hand-written
 * fixtures replay it, and as a scenario (the mock's options as JSON) that also lists every tool
 * the server had, with its full definition, its name and its instructions.
 */
import { META } from "../protocol/meta-keys.js";
import type { FakeScope, McpFakeBlock, McpFakeCall, McpFakePrompt, McpFakeResource, McpFakeTool } from "../fakes/types.js";

type Json = Record<string, unknown>;

/** A JSON-RPC error as the server sent it. */
export interface RecordedError {
  code: number;
  message: string;
  data?: unknown;
}

/** One request the real server answered while recording, in the order the requests were made. */
export type RecordedExchange =
  | { kind: "tool"; name: string; arguments: Json; answer: RecordedAnswer; durationMs: number }
  | { kind: "resource"; uri: string; answer: RecordedAnswer; durationMs: number }
  | { kind: "prompt"; name: string; arguments: Record<string, string>; answer: RecordedAnswer; durationMs: number };

export type RecordedAnswer = { result: Json } | { error: RecordedError };

/** What the real server said it is and offers, as listed when the recording started. */
export interface RecordedSurface {
  serverInfo: Json;
  instructions?: string;
  protocolVersion: string;
  tools: Json[];
  resources: Json[];
  prompts: Json[];
}

export interface FixtureOptions {
  /** The block's scope (default `"shared"`): `{ testId }` to replay for one test only. */
  scope?: FakeScope;
  /** Close the world (`undeclaredTools: "deny"`): a call to a tool the recording never saw fails instead of reaching the mock's own tools. */
  closedWorld?: boolean;
}

/** The keys of a tool definition the mock accepts (src/engine/catalog.ts), copied from the server's listing. */
const TOOL_DEFINITION_KEYS = ["title", "description", "inputSchema", "outputSchema", "annotations", "icons", "_meta"] as const;
/** The keys a fixture's full tool result may have (src/fakes/format.ts). */
const FULL_RESULT_KEYS = new Set(["content", "isError", "structuredContent", "_meta"]);
/** Added by the revision, not by the tool: a replay's own mock adds them again (2026-07-28). */
const PROTOCOL_RESULT_KEYS = new Set(["resultType", "ttlMs", "cacheScope"]);

export class Recording {
  readonly exchanges: RecordedExchange[] = [];

  constructor(readonly surface: RecordedSurface) {}

  add(exchange: RecordedExchange): void {
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
    return block;
  }

  /** A fixture file's content: `{ "mcpFakes": block }`, for a fixtures directory. Undefined when nothing was asked for (a block fakes at least one thing). */
  toFixture(options: FixtureOptions = {}): { mcpFakes: McpFakeBlock } | undefined {
    const block = this.toBlock(options);
    return block.tools || block.resources || block.prompts ? { mcpFakes: block } : undefined;
  }

  /**
   * A scenario (`mockMcp()` options as JSON, for `mcp-testkit mock <file>`): the server's name and
   * instructions, every tool it listed with its full definition, and the recording as fakes. A
   * tool that was listed but never called answers with an error that says so.
   */
  toScenario(options: FixtureOptions = {}): Json {
    const scenario: Json = { serverInfo: this.surface.serverInfo };
    if (this.surface.instructions !== undefined) scenario.instructions = this.surface.instructions;
    const tools: Json = {};
    // A called tool is answered by the fakes (a call with other arguments fails there, naming the
    // closest recorded one); the tool's own step answers only a tool that was never called.
    for (const tool of this.surface.tools) tools[String(tool.name)] = { ...pick(tool, TOOL_DEFINITION_KEYS), responses: { throws: notRecorded(String(tool.name)) } };
    if (Object.keys(tools).length > 0) scenario.tools = tools;
    const fixture = this.toFixture(options);
    if (fixture !== undefined) scenario.fixtures = [fixture.mcpFakes];
    return scenario;
  }

  private toolBlocks(): McpFakeTool[] {
    return this.grouped("tool", (exchange) => exchange.name, (exchange) => {
      const listed = this.surface.tools.find((candidate) => candidate.name === exchange.name);
      return { item: { name: exchange.name, ...pick(listed, ["description", "inputSchema"]), calls: [] } as McpFakeTool, entries: (tool) => tool.calls };
    }, (exchange) => toolCall(exchange.arguments, exchange.answer));
  }

  private resourceBlocks(): McpFakeResource[] {
    return this.grouped("resource", (exchange) => exchange.uri, (exchange) => {
      const listed = this.surface.resources.find((candidate) => candidate.uri === exchange.uri);
      return { item: { uri: exchange.uri, ...pick(listed, ["name", "description", "mimeType"]), reads: [] } as McpFakeResource, entries: (resource) => resource.reads };
    }, (exchange) => ("error" in exchange.answer ? { error: exchange.answer.error } : { result: withoutProtocolKeys(exchange.answer.result) }));
  }

  private promptBlocks(): McpFakePrompt[] {
    return this.grouped("prompt", (exchange) => exchange.name, (exchange) => {
      const listed = this.surface.prompts.find((candidate) => candidate.name === exchange.name);
      const prompt = { name: exchange.name, ...pick(listed, ["description", "arguments"]), gets: [] } as McpFakePrompt;
      if (prompt.arguments !== undefined) prompt.arguments = prompt.arguments.map((argument) => pick(argument as Json, ["name", "description", "required"]) as { name: string });
      return { item: prompt, entries: (made) => made.gets };
    }, (exchange) => ("error" in exchange.answer ? { args: exchange.arguments, error: exchange.answer.error } : { args: exchange.arguments, result: promptResult(exchange.answer.result) }));
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

function notRecorded(name: string): RecordedError {
  return {
    code: -32603,
    message: `Not recorded: tool "${name}" was listed by the server but never called while this recording was made, so the recording has no answer for it. Record again with a call to it, or give it an entry in this file's fixtures.`,
  };
}

/** One call entry: the exact arguments, and the result as the fixture format spells a full result (else as a raw result step) or the error as a `throws` step. */
function toolCall(args: Json, answer: RecordedAnswer): McpFakeCall {
  if ("error" in answer) return { args, step: { throws: answer.error } };
  const result = withoutProtocolKeys(answer.result);
  if (!Array.isArray(result.content)) result.content = [];
  if (result.isError !== true) delete result.isError;
  // A result with keys the full-result form does not allow (a server's own extensions) is sent as is.
  const asFull = Object.keys(result).every((key) => FULL_RESULT_KEYS.has(key));
  return asFull ? { args, result } : { args, step: { result } };
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
