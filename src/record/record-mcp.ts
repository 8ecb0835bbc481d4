/**
 * `recordMcp(upstream)`: a mock that stands in front of a real server. It lists what the server
 * lists, forwards each `tools/call`, `resources/read` and `prompts/get` to it through the driver,
 * answers the agent with the server's answer, and keeps every answer in a `Recording`, which
 * `save()` writes as a fixture file or a scenario that replays it offline (nock's record mode,
 * undici's SnapshotAgent; see docs/decisions.md).
 */
import { TRACE_SOURCE } from "../mock/mock-trace.js";
import type { TraceOption } from "../trace/trace-log.js";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { CallServerRequestHandler, McpDriver } from "../driver/index.js";
import { RequestFailedError } from "../driver/errors.js";
import { McpTestkitError } from "../errors.js";
import { mockMcp, type MockMcpOptions, type MockMcpServer } from "../mock/mock-mcp.js";
import type { PromptDefinition, ResourceDefinition, ToolDefinition } from "../engine/catalog.js";
import { RpcError } from "../engine/outcome.js";
import type { ToolCallContext } from "../engine/call-context.js";
import type { StepObject } from "../engine/steps.js";
import { errorText } from "../util/text.js";
import { Recording, withoutProtocolKeys, type FixtureOptions, type RecordedAnswer, type RecordedAsk, type RecordedError, type RecordedExchange } from "./recording.js";
import { Redactor, type Redaction, type RedactionOptions } from "./redact.js";
import { ServerRequestError } from "../engine/connection.js";
import { CLIENT_CAPABILITY_OF_REQUEST } from "../protocol/methods.js";
import { versionHas } from "../protocol/versions.js";
import { withParams } from "../protocol/jsonrpc.js";
import { readRecordedAnswers, type RecordedAnswers } from "./recorded-answers.js";
import { replayOnly } from "./replay-only.js";

type Json = Record<string, unknown>;

/** The mock's own options that a recording leaves to you: where and how the agent reaches it. */
export type RecordingMockOptions = Omit<MockMcpOptions, "tools" | "resources" | "prompts" | "serverInfo" | "instructions" | "fixtures" | "capabilities">;

export interface RecordMcpOptions extends FixtureOptions {
  /** The mock the agent connects to (default: Streamable HTTP on a free port of 127.0.0.1). */
  mock?: RecordingMockOptions;
  /** Told of each answer as it is recorded, redacted (the CLI prints a line per request). */
  onExchange?: (exchange: RecordedExchange) => void;
  /**
   * What is replaced by "[redacted]" before anything is kept: the built-in rules (keys named as
   * credentials, bearer tokens, well-known API key prefixes, JWTs, private keys) and your own
   * paths and patterns. The file lists each redaction; a redacted argument matches any value on
   * replay. HTTP headers are never recorded at all.
   */
  redact?: RedactionOptions;
  /**
   * A trace of the agent's side (what it sent the recording mock, and every answer passed on):
   * `true` in memory (`recording.server.trace`), a file name for JSON Lines as it passes, or
   * `{ file, limit }`. Its header names the recorder as its source.
   */
  trace?: TraceOption;
  /**
   * As nock and VCR have them: `"record"` (default) forwards every request and records it;
   * `"replay"` answers from `from` only and never reaches the server (a request the recording
   * never saw fails with MCP_FAKE_MISMATCH, naming the closest recorded one); `"auto"` answers
   * what `from` recorded and forwards, records and appends the rest (save it back to `from`).
   */
  mode?: RecordMode;
  /** The recording `"replay"` and `"auto"` answer from: its path (for `"auto"` a missing file is an empty recording), or its content. */
  from?: string | Json;
}

export type RecordMode = "record" | "replay" | "auto";

/** What `save()` writes: a scenario for `mcp-testkit mock <file>` (default), or a fixture file for a fixtures directory. */
export type RecordingFormat = "scenario" | "fixture";

export interface McpRecording extends AsyncDisposable {
  /** The mock the agent under test connects to (`server.url`, `connectInMemory()`, …). */
  readonly server: MockMcpServer;
  /** Everything recorded so far, in the order the requests were made (in the auto mode, what the file held first). */
  readonly exchanges: readonly RecordedExchange[];
  /** The recording as `mockMcp()` options (JSON): the server's identity and tools, and the answers as fakes. */
  scenario(): Json;
  /** The recording as a fixture file's content, `{ mcpFakes }`; undefined before anything was asked for. */
  fixture(): Json | undefined;
  /** Writes the recording (`format`: "scenario" by default) to `path` as JSON, atomically; resolves with the full path. */
  save(path: string, options?: { format?: RecordingFormat }): Promise<string>;
  /** Closes the mock (not the upstream driver, which stays yours). */
  close(): Promise<void>;
}

/**
 * Starts a recording mock in front of `upstream`, a connected (or connectable) driver of the real
 * server. The server's tools, resources, resource templates and prompts are listed once, now.
 */
export async function recordMcp(upstream: McpDriver, options: RecordMcpOptions = {}): Promise<McpRecording> {
  if (options.closedWorld && (options.scope === undefined || options.scope === "shared")) {
    // The fakes refuse a closed world on a shared block (it would reach every test): say so now, not when the file is replayed.
    throw new McpTestkitError(
      'recordMcp: closedWorld needs a scope ({ testId } or { context }): a recording shared by every test cannot deny the tools it never saw to all of them (the fakes refuse undeclaredTools: "deny" on a shared block). Give scope, or leave closedWorld out.',
    );
  }
  // A malformed rule is refused before the server is asked anything.
  const redactor = new Redactor(options.redact);
  const mode = options.mode ?? "record";
  if (mode !== "record" && options.from === undefined) {
    throw new McpTestkitError(`recordMcp: mode "${mode}" needs from: the recording (its path or content) to answer from. Give from, or use mode "record".`);
  }
  if (mode === "replay") return await replayOnly(options.from!, options.mock);
  if (mode !== "record" && mode !== "auto") throw new McpTestkitError(`recordMcp: mode must be "record", "replay" or "auto", got ${JSON.stringify(mode)}.`);
  const replayed = mode === "auto" ? await readRecordedAnswers(options.from!) : undefined;
  const init = await upstream.initialize();
  const capabilities = (init.capabilities ?? {}) as Json;
  const [tools, resources, templates, prompts] = await Promise.all([
    listed(capabilities.tools, () => upstream.getTools()),
    listed(capabilities.resources, () => upstream.getResources()),
    listed(capabilities.resources, () => upstream.getResourceTemplates()),
    listed(capabilities.prompts, () => upstream.getPrompts()),
  ]);
  const surfaceRedactions: Redaction[] = [];
  const identity = redactor.redact({ serverInfo: { ...init.serverInfo } as Json, ...(typeof init.instructions === "string" ? { instructions: init.instructions } : {}) }, surfaceRedactions);
  const recording = new Recording(
    {
      ...identity,
      protocolVersion: init.protocolVersion,
      tools: tools as unknown as Json[],
      resources: resources as unknown as Json[],
      templates: templates as unknown as Json[],
      prompts: prompts as unknown as Json[],
    },
    surfaceRedactions,
  );
  // What the file held is written again first, in its order; new answers follow.
  if (replayed !== undefined) recording.seed(replayed.exchanges, replayed.redactions);
  const keep = (exchange: RecordedExchange) => {
    const redactions: Redaction[] = [];
    const kept = redactExchange(redactor, exchange, redactions);
    recording.add(kept, redactions);
    options.onExchange?.(kept);
  };
  const forward = new Forwarder(upstream, keep, replayed);
  const server = await mockMcp({
    ...options.mock,
    ...(options.trace !== undefined && { trace: options.trace, [TRACE_SOURCE]: "recorder" }),
    serverInfo: recording.surface.serverInfo as { name: string; version: string },
    ...(recording.surface.instructions === undefined ? {} : { instructions: recording.surface.instructions }),
    tools: Object.fromEntries((tools as unknown as Json[]).map((tool) => [String(tool.name), forward.tool(tool)])),
    resources: Object.fromEntries([
      ...(resources as unknown as Json[]).map((resource) => [String(resource.uri), forward.resource(resource)]),
      ...(templates as unknown as Json[]).map((template) => [String(template.uriTemplate), forward.resource(template)]),
    ]),
    prompts: Object.fromEntries((prompts as unknown as Json[]).map((prompt) => [String(prompt.name), forward.prompt(prompt)])),
  } as MockMcpOptions);
  const fixtureOptions: FixtureOptions = { scope: options.scope, closedWorld: options.closedWorld };
  const close = () => server.close();
  return {
    server,
    exchanges: recording.exchanges,
    scenario: () => recording.toScenario(fixtureOptions),
    fixture: () => recording.toFixture(fixtureOptions),
    async save(path, { format = "scenario" } = {}) {
      const content = format === "fixture" ? recording.toFixture(fixtureOptions) : recording.toScenario(fixtureOptions);
      if (content === undefined) {
        throw new McpTestkitError(
          `Nothing to save as a fixture file yet: the agent made no tools/call, resources/read or prompts/get through the recording mock (${recording.exchanges.length} recorded). Save the scenario format instead, which also lists the server's tools, or make a call first.`,
        );
      }
      return await writeJsonAtomically(path, content);
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** A list the server advertises; one it advertises but does not have (-32601) is empty, as a client would treat it. */
async function listed<T>(advertised: unknown, list: () => Promise<T[]>): Promise<T[]> {
  if (advertised === undefined) return [];
  try {
    return await list();
  } catch (error) {
    if (error instanceof RequestFailedError && error.code === -32601) return [];
    throw error;
  }
}

/** Makes the mock's definitions whose answers come from the real server. */
class Forwarder {
  constructor(
    private readonly upstream: McpDriver,
    private readonly keep: (exchange: RecordedExchange) => void,
    /** The auto mode's earlier answers, given before the server is asked. */
    private readonly replayed?: RecordedAnswers,
  ) {}

  tool(listed: Json): ToolDefinition {
    const name = String(listed.name);
    const definition = definitionOf(listed, ["title", "description", "inputSchema", "outputSchema", "annotations", "icons", "_meta"]) as ToolDefinition;
    definition.responses = async (call: ToolCallContext): Promise<StepObject> => {
      const earlier = this.replayed?.take("tool", name, call.arguments);
      if (earlier !== undefined) return "error" in earlier ? { throws: earlier.error } : { result: earlier.result };
      const started = performance.now();
      const signal = call.signal;
      const passing = new PassedOn(call, this.upstream);
      const answer = await this.answer(signal, async () => {
        const { isError, ...result } = await this.upstream.callTool(name, call.arguments, {
          signal,
          onProgress: ({ progress, total, message }) => call.progress(progress, total, message),
          onServerRequest: passing.handler,
        });
        // The driver reads a missing isError as false; only a failure needs saying.
        return isError ? { ...result, isError } : result;
      });
      if (answer === undefined) return { throws: { code: -32603, message: `mcp-testkit record: the recorded server's tools/call "${name}" was cancelled` } };
      const outcome = recordable(answer, passing);
      if ("failure" in outcome) return { throws: outcome.failure };
      const { kept } = outcome;
      const asks = passing.asks;
      this.keep({ kind: "tool", name, arguments: call.arguments, answer: kept, durationMs: performance.now() - started, ...(asks.length > 0 && { asks }) });
      return "error" in kept ? { throws: kept.error } : { result: kept.result };
    };
    return definition;
  }

  resource(listed: Json): ResourceDefinition {
    const definition = definitionOf(listed, ["name", "title", "description", "mimeType", "size", "annotations", "icons", "_meta"]) as ResourceDefinition;
    definition.read = async (uri, _variables, request) => {
      const earlier = this.replayed?.take("resource", uri);
      if (earlier !== undefined) return answerOf(earlier, (result) => result.contents) as never;
      const started = performance.now();
      // What the server asks meanwhile goes to the agent too, live; the replay's resources do not ask.
      const passing = new PassedOn(request, this.upstream);
      // The agent cancelling its read cancels the server's too.
      const answer = await this.answer(request.signal, async () => ({ ...(await this.upstream.readResource(uri, { signal: request.signal, onServerRequest: passing.handler })) }));
      if (answer === undefined) throw new RpcError(-32603, `mcp-testkit record: the recorded server's resources/read ${JSON.stringify(uri)} was cancelled`);
      const outcome = recordable(answer, passing);
      if ("failure" in outcome) throw new RpcError(outcome.failure.code, outcome.failure.message);
      const { kept } = outcome;
      this.keep({ kind: "resource", uri, answer: kept, durationMs: performance.now() - started });
      if ("error" in kept) throw new RpcError(kept.error.code, kept.error.message, kept.error.data);
      return (Array.isArray(kept.result.contents) ? kept.result.contents : []) as never;
    };
    return definition;
  }

  prompt(listed: Json): PromptDefinition {
    const name = String(listed.name);
    const definition = definitionOf(listed, ["title", "description", "arguments", "icons", "_meta"]) as PromptDefinition;
    definition.messages = async (args, request) => {
      const earlier = this.replayed?.take("prompt", name, args);
      if (earlier !== undefined) return answerOf(earlier, (result) => result.messages) as never;
      const started = performance.now();
      const passing = new PassedOn(request, this.upstream);
      const answer = await this.answer(request.signal, async () => ({ ...(await this.upstream.getPrompt(name, args, { signal: request.signal, onServerRequest: passing.handler })) }));
      if (answer === undefined) throw new RpcError(-32603, `mcp-testkit record: the recorded server's prompts/get "${name}" was cancelled`);
      const outcome = recordable(answer, passing);
      if ("failure" in outcome) throw new RpcError(outcome.failure.code, outcome.failure.message);
      const { kept } = outcome;
      this.keep({ kind: "prompt", name, arguments: args, answer: kept, durationMs: performance.now() - started });
      if ("error" in kept) throw new RpcError(kept.error.code, kept.error.message, kept.error.data);
      return (Array.isArray(kept.result.messages) ? kept.result.messages : []) as never;
    };
    return definition;
  }

  /**
   * The server's answer: its result, or the JSON-RPC error it sent (both recorded). A failure
   * that is not the server's answer (it went away, timed out, broke the protocol) is not
   * recorded: it is the `failure` the agent gets, an internal error naming it. Undefined: the
   * agent cancelled the call (nothing to record).
   */
  private async answer(signal: AbortSignal | undefined, request: () => Promise<Json>): Promise<RecordedAnswer | { failure: RecordedError } | undefined> {
    try {
      // What the revision added (resultType, caching hints, the server's identity) is the mock's to add again.
      return { result: withoutProtocolKeys({ ...(await request()) }) };
    } catch (error) {
      if (signal?.aborted) return undefined;
      if (error instanceof RequestFailedError && error.code !== undefined) return { error: serverError(error) };
      return { failure: { code: -32603, message: `mcp-testkit record: the recorded server did not answer: ${errorText(error)} (nothing was recorded for this request)` } };
    }
  }
}

/**
 * The requests the recorded server makes during one call, passed on to the agent in that call (a
 * server request in the legacy era, an input round in 2026-07-28) and kept with the agent's
 * answers. `ping` is the driver's to answer, and so is a request the agent did not declare the
 * capability for (the agent cannot be asked it: the upstream driver's own handlers refuse it).
 */
class PassedOn {
  readonly asks: RecordedAsk[] = [];
  /** Set when the call cannot be recorded as it went: the agent was not reached, or its error could not go back. */
  failure: RecordedError | undefined;

  constructor(
    /** Who asks the agent: the tool call's context, or a prompt's or resource's request. */
    private readonly call: Pick<ToolCallContext, "request" | "clientCapabilities">,
    private readonly upstream: McpDriver,
  ) {}

  /** The upstream call's `onServerRequest`. */
  readonly handler: CallServerRequestHandler = (method, params, context) => this.ask(method, params, context.signal);

  /**
   * `withdrawn` aborts when the recorded server cancels its request (or the upstream call's round
   * fails): the agent is told, and the ask is not kept.
   */
  async ask(method: string, params: Json | undefined, withdrawn: AbortSignal): Promise<Json | undefined> {
    const capability = CLIENT_CAPABILITY_OF_REQUEST[method];
    if (capability === undefined || this.call.clientCapabilities[capability] === undefined) return undefined;
    const ask: Omit<RecordedAsk, "answer"> = withParams({ method }, params);
    try {
      const result = await this.call.request(method, params ?? {}, { signal: withdrawn });
      this.asks.push({ ...ask, answer: { result } });
      return result;
    } catch (error) {
      if (!(error instanceof ServerRequestError)) throw error;
      // The server took its request back (or, 2026-07-28, its round failed, which fails the call): nothing to replay.
      if (withdrawn.aborted) throw error;
      if (error.unanswered) {
        this.failure ??= {
          code: -32603,
          message: `mcp-testkit record: the recorded server asked ${method} during the call, and it could not be passed on to the agent (${errorText(error)}); nothing was recorded for this call`,
        };
        throw error;
      }
      const answered: RecordedError = withData({ code: error.error.code, message: error.error.message }, error.error.data);
      this.asks.push({ ...ask, answer: { error: answered } });
      // A 2026-07-28 input response cannot be an error: the server's call cannot go on, and says nothing the replay could hold.
      if (this.upstream.protocolVersion !== undefined && !versionHas(this.upstream.protocolVersion, "serverRequests")) {
        this.failure ??= {
          code: -32603,
          message: `mcp-testkit record: the agent answered the recorded server's ${method} with error ${answered.code} (${answered.message}), which a ${this.upstream.protocolVersion} input request cannot carry back, so the server's call could not go on; nothing was recorded for this call`,
        };
      }
      throw new RpcError(answered.code, answered.message, answered.data);
    }
  }
}

/**
 * The server's answer to keep, or why there is none (what the agent is told): the agent could
 * not be asked what the server asked, or the server did not answer.
 */
function recordable(answer: RecordedAnswer | { failure: RecordedError }, passing: PassedOn): { kept: RecordedAnswer } | { failure: RecordedError } {
  if (passing.failure !== undefined) return { failure: passing.failure };
  return "failure" in answer ? answer : { kept: answer };
}

/** A recorded answer as a resource's contents or a prompt's messages, or its error thrown. */
function answerOf(answer: RecordedAnswer, items: (result: Json) => unknown): unknown[] {
  if ("error" in answer) throw new RpcError(answer.error.code, answer.error.message, answer.error.data);
  const found = items(answer.result);
  return Array.isArray(found) ? found : [];
}

function serverError(error: RequestFailedError): RecordedError {
  return withData({ code: error.code!, message: error.serverMessage ?? error.message }, error.data);
}

function withData(error: RecordedError, data: unknown): RecordedError {
  return data === undefined ? error : { ...error, data };
}

function definitionOf(listed: Json, keys: readonly string[]): Json {
  const definition: Json = {};
  for (const key of keys) if (listed[key] !== undefined) definition[key] = listed[key];
  return definition;
}

let temporaries = 0;

/** Writes beside the target and renames over it, so a reader never sees half a file; a failed write leaves nothing behind. */
async function writeJsonAtomically(path: string, content: unknown): Promise<string> {
  const full = resolve(path);
  const existing = await stat(full).catch(() => undefined);
  if (existing?.isDirectory())
    throw new McpTestkitError(`Cannot save the recording to ${JSON.stringify(path)}: it is a directory (${full}). Give a file path, such as ${join(path, "recording.json")}.`);
  await mkdir(dirname(full), { recursive: true });
  // One name per save, so saves made at once do not write into each other's file.
  const temporary = `${full}.${process.pid}.${++temporaries}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(content, null, 2)}\n`);
    await rename(temporary, full);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return full;
}

/** The exchange as it may be kept: its arguments, answer and asks redacted (its kind, name, URI and time are not). */
function redactExchange(redactor: Redactor, exchange: RecordedExchange, found: Redaction[]): RecordedExchange {
  const { kind, durationMs, ...rest } = exchange as RecordedExchange & Json;
  const named = "uri" in exchange ? { uri: exchange.uri } : { name: exchange.name };
  const { uri: _uri, name: _name, ...redactable } = rest as Json;
  return { kind, ...named, ...redactor.redact(redactable, found), durationMs } as RecordedExchange;
}
