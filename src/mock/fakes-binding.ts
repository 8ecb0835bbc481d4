/**
 * Scenario fakes (the `mcpFakes` format) plugged into a mock: the first step source of `tools/call`, the
 * first source of `resources/read` and `prompts/get` (before the catalog), a source of
 * `tools/list`, `resources/list` and `prompts/list` entries, the journal of every request, and the mount paths the
 * fakes' blocks name. The fakes themselves (src/fakes) know nothing of the engine.
 */
import { isAbsolute, resolve } from "node:path";
import { statSync } from "node:fs";
import type { Engine } from "../engine/engine.js";
import type { RequestContext, RequestIdentity } from "../engine/request-context.js";
import type { StepChoice, ToolListSource, ToolStepSource } from "../engine/step-sources.js";
import type { PromptGetSource, ResourceReadSource, SourceAnswer } from "../engine/request-sources.js";
import type { JsonRpcId } from "../protocol/jsonrpc.js";
import { McpTestkitError } from "../errors.js";
import type { StepObject } from "../engine/steps.js";
import { shapeForVersion, TOOL_RESULT_FIELDS } from "../engine/version-shape.js";
import { containedLog } from "../util/log.js";
import { createFakes, type FakeRequestAnswer, type Fakes, type FakesLogger, type JournalEntry, type LoadResult } from "../fakes/index.js";
import type { FakeIdentity, FakeScope, McpFakeBlock } from "../fakes/types.js";
import { listedToolNames } from "./listed-tools.js";

/** Where fakes come from in `mockMcp({ fixtures })`: paths (files or directories) or blocks. */
export type FixturesOption = string | McpFakeBlock | ReadonlyArray<string | McpFakeBlock>;

export interface FakesBindingOptions {
  /** Test ids whose used entries each mount remembers (default 500; 0: no cap). */
  testIdsMax?: number;
  /** Journal entries kept (default 1000). */
  journalMax?: number;
  /**
   * Where `MCP-FAKE:` lines go: each fake failure (mismatch, exhausted, not declared, …) and notes.
   * Given, every line goes there. Without it, failures and notes are written to the mock's log
   * only when `log` is true; a shadowed-entry warning always is.
   */
  logger?: FakesLogger;
  /**
   * Write fake failures and notes to the mock's log, `mockMcp({ logger })` (stderr by default).
   * Default: off, unless the environment variable `MCP_TESTKIT_FAKE_LOG` is `1` or `true`.
   * The client is told what failed either way (the failure is its JSON-RPC error), and so is
   * the journal; `mcp-testkit mock` turns the lines on.
   */
  log?: boolean;
  /**
   * The file the inline blocks of `fixtures` were read from (a scenario file, a saved recording):
   * their ids and messages name it (`recording.json:echo#0`), as a fixture file's do, rather than
   * `code#n`.
   */
  file?: string;
}

/** The environment variable that turns on the fakes' `MCP-FAKE:` lines when `fakesOptions.log` is not given. */
export const FAKE_LOG_ENV = "MCP_TESTKIT_FAKE_LOG";

/** Whether fake failures and notes are logged: the option, else the environment, else not. */
export function fakeLinesWanted(options: FakesBindingOptions, env: NodeJS.ProcessEnv = process.env): boolean {
  if (options.logger !== undefined) return true;
  if (options.log !== undefined) return options.log;
  const value = (env[FAKE_LOG_ENV] ?? "").trim().toLowerCase();
  return value === "1" || value === "true";
}

/**
 * The fakes' sink in a mock. A failure is expected in a test that checks one, and the client
 * already hears it, so without asking only warnings about the user's own fixtures (level "warn":
 * a shadowed entry, said once at load) reach the mock's log; failures ("error") and notes
 * ("info") are dropped.
 */
function fakesSink(engine: Engine, options: FakesBindingOptions): FakesLogger {
  // Contained as the mock's own: a throwing logger's line goes to stderr, not nowhere.
  if (options.logger !== undefined) return containedLog(options.logger);
  if (fakeLinesWanted(options)) return engine.log;
  return (level, line) => {
    if (level === "warn") engine.log(level, line);
  };
}

export class FakesBinding {
  readonly fakes: Fakes;
  /** Requests the fakes journaled themselves (tools/call they answered or refused), by session and id. */
  private readonly journaledByFakes = new Set<string>();
  /** Calls a fake answered with a step, whose journal entry gets the reply when the call ends. */
  private readonly stepsRunning = new Map<string, JournalEntry>();

  constructor(
    private readonly engine: Engine,
    /** The mock's own MCP path: requests on memory, stdio and `handle()` come to it. */
    private readonly defaultMount: string,
    /** Called with each mount path a loaded block names, so the mock can serve it. */
    private readonly onMount: (path: string) => void,
    private readonly options: FakesBindingOptions = {},
  ) {
    this.fakes = createFakes({
      fakeTestIdsMax: options.testIdsMax,
      journalMax: options.journalMax,
      logger: fakesSink(engine, options),
      // What tools/list shows a client with no test id here, as the CLI's banner counts them.
      health: () => ({ tools: listedToolNames(engine.catalog.tools.keys(), this.fakes, defaultMount).length, sessions: engine.sessions.size }),
    });
    engine.toolSources.unshift(this.stepSource);
    engine.toolListSources.push(this.listSource);
    engine.unknownToolHints.push((call, context) => this.scopeHint(call.tool, context));
    engine.resourceReadSources.push(this.readSource);
    engine.promptGetSources.push(this.promptSource);
    engine.resourceListSources.push((context) => this.fakes.listResources(this.listQuery(context)));
    engine.promptListSources.push((context) => this.fakes.listPrompts(this.listQuery(context)));
    engine.events.on("request:end", (event) => {
      const key = `${event.sessionId}\u0000${String(event.requestId)}`;
      if (this.journaledByFakes.delete(key)) {
        const running = this.stepsRunning.get(key);
        if (running === undefined) return;
        this.stepsRunning.delete(key);
        return this.fakes.journal.complete(running, { result: event.result, error: event.error });
      }
      this.fakes.journal.record({
        mount: event.mount ?? this.defaultMount,
        sessionId: event.sessionId,
        testId: event.identity.testId ?? null,
        context: event.identity.context ?? null,
        method: event.method,
        request: { id: event.requestId, params: event.params },
        response: event.error !== undefined ? { error: event.error } : { result: event.result },
      });
    });
  }

  /** Loads fixtures given as the `fixtures` option: files and directories (relative to the working directory) or blocks. */
  loadOption(option: FixturesOption): LoadResult {
    const items = Array.isArray(option) ? option : [option];
    const totals: LoadResult = { warnings: [], added: 0 };
    for (const item of items) {
      const result = typeof item === "string" ? this.loadPath(item) : this.fakes.load(item, this.options.file);
      totals.warnings.push(...result.warnings);
      totals.added += result.added;
    }
    this.announceMounts();
    return totals;
  }

  /** Blocks from code (ids `code#n`). */
  load(blocks: McpFakeBlock | readonly McpFakeBlock[]): LoadResult {
    const result = this.fakes.load(blocks);
    this.announceMounts();
    return result;
  }

  /** Every mount a block names gets served (fakes added through the control API too, on their next call). */
  announceMounts(): void {
    for (const mount of this.fakes.store.mounts.keys()) if (mount !== this.defaultMount) this.onMount(mount);
  }

  private loadPath(path: string): LoadResult {
    const full = isAbsolute(path) ? path : resolve(path);
    let directory: boolean;
    try {
      directory = statSync(full).isDirectory();
    } catch {
      throw new McpTestkitError(`fixtures: ${JSON.stringify(path)} is neither a file nor a directory (looked at ${full}).`);
    }
    if (!directory) return this.fakes.loadFile(full, path);
    const result = this.fakes.loadDir(full);
    if (result.added === 0) {
      throw new McpTestkitError(`fixtures: the directory ${JSON.stringify(path)} holds no fixture file (a .json file with an "mcpFakes" key) at any depth; a scenario is a file, not a directory.`);
    }
    return result;
  }

  private readonly stepSource: ToolStepSource = (call, context) => {
    const answer = this.fakes.answer({
      tool: call.tool,
      arguments: call.arguments,
      identity: fakeIdentity(context.identity),
      mount: context.mount ?? this.defaultMount,
      sessionId: call.sessionId,
      requestId: call.requestId,
    });
    if (answer.kind === "pass") return undefined;
    const key = `${call.sessionId}\u0000${String(call.requestId)}`;
    this.journaledByFakes.add(key);
    if (answer.kind === "step") {
      call.fake = answer.entryId;
      this.stepsRunning.set(key, answer.journaled);
      // Recorded as the step's own kind: a hang the client cancels is "cancelled", a throws "protocol-error".
      // A fixture file's step was checked when the file loaded (one answer key, as checkStep asks).
      return { step: answer.step as StepObject, outputSchema: this.engine.catalog.tools.get(call.tool)?.outputSchema };
    }
    if (answer.kind === "answer") {
      call.fake = answer.entryId;
      // Answered in the client's revision: a structuredContent that is not an object (2026-07-28's) is left out for a legacy client.
      const result = shapeForVersion(answer.result, TOOL_RESULT_FIELDS, call.protocolVersion);
      const choice: StepChoice = { step: { result }, recordAs: answer.result.isError ? "tool-error" : "result" };
      return choice;
    }
    call.fake = answer.code;
    this.countFailure(answer.code);
    const { code, message, data } = answer.jsonRpcError;
    return { step: { throws: { code, message, data } } };
  };

  private readonly listSource: ToolListSource = (context: RequestContext) => this.fakes.listTools(this.listQuery(context));

  /** ` (a fake for it is scoped to testId "a"; this request has no test id …)`, when the tool is faked for other tests only. */
  private scopeHint(tool: string, context: RequestContext): string | undefined {
    const scopes = this.fakes.scopesFaking(tool, context.mount ?? this.defaultMount);
    if (scopes.length === 0) return undefined;
    const shown = scopes.slice(0, 3).map(describeScope).join(", ");
    const more = scopes.length > 3 ? ` and ${scopes.length - 3} more` : "";
    const { testId, context: own } = context.identity;
    const asked =
      testId === undefined && own === undefined ? "no test id or context (send X-Test-Id or ?testId=)" : `test id ${JSON.stringify(testId ?? null)} and context ${JSON.stringify(own ?? null)}`;
    return ` (a fake for it is scoped to ${shown}${more}; this request has ${asked})`;
  }

  private listQuery(context: RequestContext): { mount: string; identity: FakeIdentity } {
    return { mount: context.mount ?? this.defaultMount, identity: fakeIdentity(context.identity) };
  }

  private readonly readSource: ResourceReadSource = (read, context) => this.sourceAnswer(read, this.fakes.readResource({ uri: read.uri, ...this.requestFacts(read, context) }));

  private readonly promptSource: PromptGetSource = (get, context) => this.sourceAnswer(get, this.fakes.getPrompt({ name: get.name, arguments: get.arguments, ...this.requestFacts(get, context) }));

  private requestFacts(request: { sessionId: string; requestId: JsonRpcId }, context: RequestContext) {
    return { ...this.listQuery(context), sessionId: request.sessionId, requestId: request.requestId };
  }

  /** A fake's answer for a read or a prompt as the engine's source answer (undefined: the catalog answers). */
  private sourceAnswer(request: { sessionId: string; requestId: JsonRpcId }, answer: FakeRequestAnswer): SourceAnswer | undefined {
    if (answer.kind === "pass") return undefined;
    this.journaledByFakes.add(`${request.sessionId}\u0000${String(request.requestId)}`);
    if (answer.kind === "answer") return answer.answer;
    this.countFailure(answer.code);
    return { error: answer.jsonRpcError };
  }

  private countFailure(code: string): void {
    if (this.engine.events.has("fake:failure")) this.engine.events.emit("fake:failure", { code });
  }
}

function fakeIdentity(identity: RequestIdentity): FakeIdentity {
  return identity;
}

function describeScope(scope: FakeScope): string {
  if (scope === "shared") return "every test";
  return [scope.testId !== undefined ? `testId ${JSON.stringify(scope.testId)}` : "", scope.context !== undefined ? `context ${JSON.stringify(scope.context)}` : ""].filter(Boolean).join(" with ");
}
