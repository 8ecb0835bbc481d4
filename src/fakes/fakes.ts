/** The fakes of one mock server: its store, its answers, its journal and its control API. */
import { decide, type FakeDecision } from "./answer.js";
import { decideRequest, type DecideRequestInput, type RequestDecision } from "./answer-requests.js";
import { createControlHandler, type ControlTarget } from "./control-api.js";
import { internalError, MCP_FAKE_ERROR_CODES, MCP_FAKE_INTERNAL_ERROR, type FailureContext, type FakeJsonRpcError, type McpFakeErrorCode } from "./fake-errors.js";
import { fakesOfFixture, fixtureFilesIn, readFixtureFile, type FixtureFakes } from "./fixture-files.js";
import { fileName } from "./ids.js";
import { checkInspectQuery, checkQueryFindsScopedBlocks } from "./query-checks.js";
import {
  assertFakesConsumed,
  fakePromptDefinitions,
  fakeResourceDefinitions,
  fakeToolDefinitions,
  inspectFakes,
  type FakePromptDefinition,
  type FakeResourceDefinition,
  type FakesListing,
  type FakeToolDefinition,
  type InspectQuery,
} from "./inspect.js";
import { FakesJournal, type JournalEntry } from "./journal.js";
import type { LogLevel, LogSink } from "../util/log.js";
import { typeLabel } from "../util/text.js";
import { loadFailure, type FakeLoadProblem, type FakeLoadWarning } from "./load-errors.js";
import { FakesStore, type AddOutcome, type FakesInput } from "./store.js";
import { DEFAULT_MOUNT, type FakeCallResult, type FakeIdentity, type FakeRpcAnswer, type FakeScope, type McpFakeStep } from "./types.js";

/** The mock's own log sink and levels, the same shape (`src/util/log.ts`). */
export type FakesLogLevel = LogLevel;
export type FakesLogger = LogSink;

export interface FakesOptions {
  /** Test ids whose consumption state each mount keeps (default 500; 0: no cap). */
  fakeTestIdsMax?: number;
  /** Journal entries kept, newest last (default 1000). */
  journalMax?: number;
  /** Where failures (`MCP-FAKE: …`), shadowed-entry warnings and notes go; nothing is logged without one. */
  logger?: FakesLogger;
  /** Extra fields for `GET /__mcp-testkit/health` (the engine's tools, sessions, …). */
  health?: () => Record<string, unknown>;
}

export const DEFAULT_FAKE_TEST_IDS_MAX = 500;
export const DEFAULT_JOURNAL_MAX = 1000;
/** Evicted marks kept per mount, as a multiple of the cap, so memory stays bounded. */
const EVICTED_MARKS_PER_CAP = 10;

/** One tools/call, as the engine's step source passes it. */
export interface FakeToolCall extends FakeRequestBase {
  tool: string;
  /** The arguments as received (missing arguments are `{}`). */
  arguments?: Record<string, unknown>;
}

/** What every request asked of the fakes carries besides its own fields. */
export interface FakeRequestBase {
  identity?: FakeIdentity;
  /** The mount path of the MCP endpoint (default "/mcp"). */
  mount?: string;
  sessionId?: string | null;
  /** The JSON-RPC id of the request, for the journal. */
  requestId?: string | number | null;
}

export interface FakeResourceRead extends FakeRequestBase {
  uri: string;
}

export interface FakePromptGet extends FakeRequestBase {
  name: string;
  /** The arguments as received (missing arguments are `{}`). */
  arguments?: Record<string, unknown>;
}

/** A resources/read or prompts/get answer: the entry's result or JSON-RPC error, a fake failure, or `pass`. */
export type FakeRequestAnswer = { kind: "answer"; entryId: string; answer: FakeRpcAnswer } | { kind: "error"; code: McpFakeErrorCode; jsonRpcError: FakeJsonRpcError } | { kind: "pass" };

export interface ListQuery {
  mount?: string;
  identity?: FakeIdentity;
}

export type FakeAnswer =
  | { kind: "answer"; entryId: string; result: FakeCallResult }
  /** Run `step`; its reply is known only when it ends, so the caller completes `journaled` then (`journal.complete`). */
  | { kind: "step"; entryId: string; step: McpFakeStep; journaled: JournalEntry }
  | { kind: "error"; code: McpFakeErrorCode; jsonRpcError: FakeJsonRpcError }
  | { kind: "pass" };

export interface LoadResult {
  warnings: FakeLoadWarning[];
  /** Blocks added. */
  added: number;
}

export class Fakes {
  readonly store: FakesStore;
  readonly journal: FakesJournal;
  /** The scopes of the blocks on `mount` that fake `tool`, whoever asks (for a message to a request that sees none of them). */
  scopesFaking(tool: string, mount: string = DEFAULT_MOUNT): FakeScope[] {
    return (this.store.mounts.get(mount)?.blocks ?? []).filter((block) => block.tools.has(tool)).map((block) => block.scope);
  }

  /** Web-standard handler for the control API routes under `/__mcp-testkit/`. */
  readonly handleControl: (request: Request) => Promise<Response>;
  private logger: FakesLogger | undefined;
  private readonly failures = new Map<McpFakeErrorCode, number>();

  constructor(private readonly options: FakesOptions = {}) {
    const cap = options.fakeTestIdsMax ?? DEFAULT_FAKE_TEST_IDS_MAX;
    if (!Number.isInteger(cap) || cap < 0) throw new RangeError(`fakeTestIdsMax must be a whole number ≥ 0 (0: no cap), received ${typeLabel(cap)}`);
    this.store = new FakesStore({ cap, evictedMax: Math.max(cap, 100) * EVICTED_MARKS_PER_CAP });
    const journalMax = options.journalMax ?? DEFAULT_JOURNAL_MAX;
    if (!(Number.isInteger(journalMax) || journalMax === Infinity) || journalMax < 0) {
      throw new RangeError(`journalMax must be a whole number ≥ 0, or Infinity to keep every entry, received ${typeLabel(journalMax)}`);
    }
    this.journal = new FakesJournal(journalMax);
    this.logger = options.logger;
    this.handleControl = createControlHandler(this.controlTarget());
  }

  setLogger(logger: FakesLogger | undefined): void {
    this.logger = logger;
  }

  // ── loading ────────────────────────────────────────────────────────────────

  /**
   * Adds one block or an array of blocks from code (block ids `code#n`), or, given `file`, as
   * that file's blocks (ids and messages name it: blocks a scenario file holds inline). Throws on
   * any problem, adding nothing.
   */
  load(mcpFakes: unknown, file?: string): LoadResult {
    return this.addOrThrow([file === undefined ? { kind: "code", value: mcpFakes } : { kind: "file", file, value: mcpFakes }]);
  }

  /** Loads fixture files; `name` is the file's name in entry ids (its path as given by default). */
  loadFiles(files: ReadonlyArray<{ path: string; name?: string }>): LoadResult {
    return this.addFixtures(files.map((file) => readFixtureFile(file.path, file.name ?? fileName(file.path))));
  }

  loadFile(path: string, name?: string): LoadResult {
    return this.loadFiles([{ path, ...(name !== undefined && { name }) }]);
  }

  /** Loads every .json file under `dir`, each named by its path relative to `dir`. */
  loadDir(dir: string): LoadResult {
    return this.loadFiles(fixtureFilesIn(dir));
  }

  private addFixtures(fixtures: FixtureFakes[]): LoadResult {
    const fileProblems = fixtures.flatMap((fixture) => fixture.problem ?? []);
    const inputs: FakesInput[] = fixtures.filter((fixture) => fixture.mcpFakes !== undefined).map((fixture) => ({ kind: "file", file: fixture.name, value: fixture.mcpFakes }));
    this.noteLlmFixtures(fixtures);
    return this.addOrThrow(inputs, fileProblems);
  }

  private noteLlmFixtures(fixtures: FixtureFakes[]): void {
    const names = fixtures.filter((fixture) => fixture.llmFixtures).map((fixture) => fixture.name);
    if (names.length > 0)
      this.log("info", `MCP-FAKE: note: the LLM "fixtures" array${names.length === 1 ? "" : "s"} of ${names.join(", ")} ${names.length === 1 ? "is" : "are"} ignored; only "mcpFakes" is read.`);
  }

  /** Adds all inputs or none; `commit: false` only checks (when an unreadable file already failed the load). */
  private add(inputs: FakesInput[], commit = true): AddOutcome {
    const outcome = this.store.add(inputs, commit);
    for (const warning of outcome.warnings) this.log("warn", `MCP-FAKE: warning: ${warning.message}`);
    return outcome;
  }

  /** A file that cannot be read still lets the others be checked, so one error lists every problem. */
  private addOrThrow(inputs: FakesInput[], earlier: FakeLoadProblem[] = []): LoadResult {
    const outcome = this.add(inputs, earlier.length === 0);
    const problems = [...earlier, ...outcome.problems];
    if (problems.length > 0) throw loadFailure(problems, outcome.warnings);
    return { warnings: outcome.warnings, added: outcome.added.length };
  }

  // ── answering ──────────────────────────────────────────────────────────────

  /** Asks the fakes about one tools/call: an answer, a fake failure, or `pass` (not handled here). */
  answer(call: FakeToolCall): FakeAnswer {
    const args = call.arguments ?? {};
    const asked = this.ask(call, "tools/call", { name: call.tool, arguments: args }, { name: call.tool }, (testId, context, mount) =>
      decide(this.store.mounts.get(mount), { tool: call.tool, arguments: args, testId, context, undeclared: call.identity?.undeclared ?? null, mount }),
    );
    if (asked.kind === "step") return { kind: "step", entryId: asked.entryId, step: asked.step, journaled: asked.journaled as JournalEntry };
    if (asked.kind !== "answer") return asked;
    return { kind: "answer", entryId: asked.entryId, result: asked.result };
  }

  /** Asks the fakes about one resources/read: the entry's result or error, a fake failure, or `pass` (the catalog answers). */
  readResource(read: FakeResourceRead): FakeRequestAnswer {
    return this.askRequest(read, "resources/read", { uri: read.uri }, { subject: "resource", name: read.uri, arguments: {} });
  }

  /** Asks the fakes about one prompts/get, as `readResource` does. */
  getPrompt(get: FakePromptGet): FakeRequestAnswer {
    const args = get.arguments ?? {};
    return this.askRequest(get, "prompts/get", { name: get.name, arguments: args }, { subject: "prompt", name: get.name, arguments: args });
  }

  private askRequest(request: FakeRequestBase, method: string, params: Record<string, unknown>, input: Pick<DecideRequestInput, "subject" | "name" | "arguments">): FakeRequestAnswer {
    const asked = this.ask(request, method, params, { subject: input.subject, name: input.name }, (testId, context, mount) =>
      decideRequest(this.store.mounts.get(mount), { ...input, testId, context, mount }),
    );
    if (asked.kind !== "answer") return asked;
    return { kind: "answer", entryId: asked.entryId, answer: asked.answer };
  }

  /**
   * One decision, journaled (with the entry id or the failure's outcome), logged and counted on
   * failure; a decision that throws becomes MCP_FAKE_INTERNAL_ERROR. Never throws.
   */
  private ask<D extends FakeDecision | RequestDecision>(
    request: FakeRequestBase,
    method: string,
    params: Record<string, unknown>,
    about: Pick<FailureContext, "subject" | "name">,
    decideFor: (testId: string | null, context: string | null, mount: string) => D,
  ): (D & { journaled?: JournalEntry }) | { kind: "error"; code: McpFakeErrorCode; jsonRpcError: FakeJsonRpcError } {
    const identity = request.identity ?? {};
    const testId = identity.testId ?? null;
    const context = identity.context ?? null;
    const mount = request.mount ?? DEFAULT_MOUNT;
    const record = { mount, sessionId: request.sessionId ?? null, testId, context, method, request: { id: request.requestId ?? null, params } };
    try {
      const decision = decideFor(testId, context, mount);
      if (decision.kind === "pass") return decision;
      if (decision.kind === "answer" || decision.kind === "step") {
        const answered = { outcome: "answered" as const, entryId: decision.entryId };
        const response = "result" in decision ? { result: decision.result, mcpFake: answered } : "answer" in decision ? { ...decision.answer, mcpFake: answered } : { mcpFake: answered };
        const journaled = this.journal.add(record, response);
        return { ...decision, journaled };
      }
      this.fail(decision.code, decision.jsonRpcError);
      this.journal.add(record, { error: decision.jsonRpcError, mcpFake: { outcome: decision.outcome, code: decision.code } });
      return { kind: "error", code: decision.code, jsonRpcError: decision.jsonRpcError };
    } catch (error) {
      const jsonRpcError = internalError({ ...about, testId, context, mount }, error);
      this.fail(MCP_FAKE_INTERNAL_ERROR, jsonRpcError);
      this.journal.record({ ...record, request: { id: record.request.id, params: { [about.subject === "resource" ? "uri" : "name"]: about.name } }, response: { error: jsonRpcError } });
      return { kind: "error", code: MCP_FAKE_INTERNAL_ERROR, jsonRpcError };
    }
  }

  private fail(code: McpFakeErrorCode, error: FakeJsonRpcError): void {
    this.failures.set(code, (this.failures.get(code) ?? 0) + 1);
    this.log("error", `MCP-FAKE: ${error.message}`);
  }

  /** Fake failures counted by code (the `mcp_fake_failures_total{code}` metric). */
  failureCounts(): Record<McpFakeErrorCode, number> {
    const codes = [...Object.keys(MCP_FAKE_ERROR_CODES), MCP_FAKE_INTERNAL_ERROR] as McpFakeErrorCode[];
    return Object.fromEntries(codes.map((code) => [code, this.failures.get(code) ?? 0])) as Record<McpFakeErrorCode, number>;
  }

  /** The tools named in the request's blocks, for tools/list (a registered definition wins over these). */
  listTools(query: ListQuery): FakeToolDefinition[] {
    return fakeToolDefinitions(this.store.mounts.get(query.mount ?? DEFAULT_MOUNT), query.identity?.testId ?? null, query.identity?.context ?? null);
  }

  /** The resources of the request's blocks, for resources/list (a registered resource wins). */
  listResources(query: ListQuery): FakeResourceDefinition[] {
    return fakeResourceDefinitions(this.store.mounts.get(query.mount ?? DEFAULT_MOUNT), query.identity?.testId ?? null, query.identity?.context ?? null);
  }

  /** The prompts of the request's blocks, for prompts/list (a registered prompt wins). */
  listPrompts(query: ListQuery): FakePromptDefinition[] {
    return fakePromptDefinitions(this.store.mounts.get(query.mount ?? DEFAULT_MOUNT), query.identity?.testId ?? null, query.identity?.context ?? null);
  }

  // ── inspection and reset ───────────────────────────────────────────────────

  inspect(query: InspectQuery = {}): FakesListing {
    checkInspectQuery(query, "inspect()");
    return inspectFakes(this.store, query);
  }

  /** Throws listing every unused entry of the scoped blocks for this test id (or context), and when no scoped block applies to it. */
  assertConsumed(query: InspectQuery): void {
    checkInspectQuery(query, "assertConsumed()");
    const listing = inspectFakes(this.store, query);
    checkQueryFindsScopedBlocks(this.store, query, listing, "assertConsumed()");
    assertFakesConsumed(listing, query);
  }

  /** With a test id: its used entries and evicted mark, on every mount. Without: all consumption state and the journal. Blocks and counters stay. */
  reset(options: { testId?: string } = {}): void {
    for (const mount of this.store.mounts.values()) mount.consumption.reset(options.testId);
    if (options.testId === undefined) this.journal.clear();
  }

  /** Removes every block (with its consumption state) and restarts id numbering; returns how many blocks went. */
  clear(): number {
    let removed = 0;
    for (const mount of this.store.mounts.values()) removed += mount.blocks.length;
    this.store.clear();
    return removed;
  }

  private log(level: LogLevel, line: string): void {
    try {
      this.logger?.(level, line);
    } catch {
      // A throwing logger must not turn a fake answer into an error.
    }
  }

  private controlTarget(): ControlTarget {
    return {
      addFromControl: (body) => {
        const fixture = fakesOfFixture("the control API", body);
        this.noteLlmFixtures([fixture]);
        if (fixture.mcpFakes === undefined) return { problems: [], warnings: [], blocksAdded: 0 };
        const outcome = this.add([{ kind: "control-api", value: fixture.mcpFakes }]);
        return { problems: outcome.problems, warnings: outcome.warnings, blocksAdded: outcome.added.length };
      },
      clear: () => this.clear(),
      reset: (testId) => this.reset(testId === undefined ? {} : { testId }),
      inspect: (query) => this.inspect(query),
      journal: (query) => this.journal.entries(query),
      health: () => {
        let blocks = 0;
        let entries = 0;
        for (const mount of this.store.mounts.values()) {
          blocks += mount.blocks.length;
          entries += mount.entryIds.size;
        }
        return { ...this.options.health?.(), fakes: { mounts: [...this.store.mounts.keys()], blocks, entries, journal: this.journal.size } };
      },
    };
  }
}

export function createFakes(options: FakesOptions = {}): Fakes {
  return new Fakes(options);
}
