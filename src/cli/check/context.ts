/**
 * The state the checks share: the driver's session with the server, the initialize result,
 * the four lists fetched once page by page (raw, so every page can be validated), the lines a
 * stdio server wrote to stdout that were not MCP messages, and small helpers to send one
 * request and classify its answer.
 */
import type { RawHttpAnswer } from "./raw-http.js";
import type { AuditTokens } from "./auth-audit.js";
import type { InitializeResult } from "@modelcontextprotocol/sdk/types.js";
import { McpDriverError, RequestFailedError, RequestTimeoutError, type McpDriver } from "../../driver/index.js";
import { ErrorCode } from "../../protocol/errors.js";
import { LIST_KINDS, type ListKind, type ListKindSpec } from "../../protocol/list-kinds.js";
import { itemsOf, walkPages, type PageWalkEnd } from "../../protocol/pagination.js";
import { LATEST_PROTOCOL_VERSION, versionHas, type Feature } from "../../protocol/versions.js";
import { plainLine, type Target } from "../target/target.js";
import { clip } from "../../util/text.js";
import type { ModernContext } from "./modern-checks.js";
import type { EraFinding } from "./types.js";

export type Json = Record<string, unknown>;

export type Reply = { kind: "result"; result: Json } | { kind: "error"; code: number; message: string } | { kind: "timeout"; message: string } | { kind: "failed"; message: string };

export const METHOD_NOT_FOUND = ErrorCode.MethodNotFound;
export const INVALID_PARAMS = ErrorCode.InvalidParams;
export const PARSE_ERROR = ErrorCode.ParseError;

export type { ListKind };

export interface ListSpec extends ListKindSpec {
  /** What makes two items the same item. */
  identity: (item: Json) => unknown;
}

export const LISTS: readonly ListSpec[] = LIST_KINDS.map((spec) => ({ ...spec, identity: (item: Json) => item[spec.identityKey] }));

export interface ListOutcome {
  spec: ListSpec;
  advertised: boolean;
  /** The first page's answer: how the method answered at all. */
  first: Reply;
  /** Every page's result, in order. */
  pages: Json[];
  items: Json[];
  /** A later page that failed. */
  pageFailure?: { page: number; reply: Reply };
  /** A nextCursor that was not a string, or came back again. */
  cursorProblem?: string;
}

/** A server that keeps handing out new cursors is stopped here. */
const MAX_PAGES = 1000;

export class CheckContext {
  init: InitializeResult | undefined;
  /** Why initialize failed, when it did. */
  initFailure: string | undefined;
  /** The raw initialize result, also when the driver refused it (an unknown version). */
  initResult: Json | undefined;
  /** Lines on a stdio server's stdout that were not MCP messages, each with the copy of the server that wrote it (check starts one per probe). */
  readonly strayStdout: Array<{ line: string; from: string }> = [];
  private lists: Promise<Map<ListKind, ListOutcome>> | undefined;
  /** The 2025-11-25 tasks checks' own session (opened by the first of them; `check` closes it). */
  legacyTasksDriver: McpDriver | undefined;
  /** The tool the tasks checks run as a task (`--task-tool`, `--task-args`). */
  taskTool: { name: string; args: Json } | undefined;
  /** The 2026-07-28 era, when the server answered server/discover to a pinned driver. */
  modern: ModernContext | undefined;
  /** Why the server does not speak 2026-07-28, when it does not. */
  modernFailure: string | undefined;
  /** A server that answers server/discover with a DiscoverResult that breaks the schema: it speaks 2026-07-28, and fails its discover check. */
  brokenDiscover: { version: string; problems: readonly string[]; summary: string } | undefined;

  /** The answer to a request without credentials (HTTP): a 401 says the server is protected, and its authorization is audited. */
  unauthenticated: RawHttpAnswer | undefined;
  /** The bearer token the driver signed in with, for the raw probes (they go where the driver went). */
  bearer: () => string | undefined = () => undefined;
  /** Tokens the authorization audit is given (`--narrow-token-env`, `--foreign-token-env`). */
  auditTokens: AuditTokens = {};

  constructor(
    readonly target: Target,
    readonly driver: McpDriver,
  ) {}

  /** Whether the server asked for a token (a request without one got 401). */
  get isProtected(): boolean {
    return this.unauthenticated?.status === 401;
  }

  /**
   * The versions the server speaks: the session's (`initialize`) and the per-request one
   * (`server/discover`). With neither, the version the legacy checks judge by, so a server that
   * nothing works with still gets its report (initialize failing); a 2026-07-28-only server does
   * not get the initialize checks.
   */
  get spokenVersions(): string[] {
    const spoken = [this.init?.protocolVersion, this.modern?.driver.protocolVersion ?? this.brokenDiscover?.version].filter((version): version is string => version !== undefined);
    return spoken.length > 0 ? spoken : [this.version];
  }

  /** Whether a version the server speaks has `feature` (which checks apply). */
  /** Whether a version the server speaks has `feature`; `"any"`: whether it speaks any version at all. */
  speaks(feature: Feature | "any" | "protected"): boolean {
    if (feature === "protected") return this.isProtected && this.spokenVersions.length > 0;
    return this.spokenVersions.some((version) => feature === "any" || versionHas(version, feature));
  }

  eras(): { legacy: EraFinding; modern: EraFinding } {
    const legacy: EraFinding = this.init ? { spoken: true, protocolVersion: this.init.protocolVersion } : { spoken: false, why: this.initFailure ?? "initialize failed" };
    const version = this.modern?.driver.protocolVersion ?? this.brokenDiscover?.version;
    const modern: EraFinding = version ? { spoken: true, protocolVersion: version } : { spoken: false, why: this.modernFailure ?? "not probed" };
    return { legacy, modern };
  }

  /** The negotiated version, or the latest we speak when there is none. */
  get version(): string {
    return this.init?.protocolVersion ?? LATEST_PROTOCOL_VERSION;
  }

  get timeoutMs(): number {
    return this.target.timeoutMs;
  }

  capability(name: string): unknown {
    return (this.init?.capabilities as Json | undefined)?.[name];
  }

  /** Sends one request on the session and classifies the answer (never throws). */
  async ask(method: string, params?: Json): Promise<Reply> {
    try {
      return { kind: "result", result: await this.driver.request(method, params) };
    } catch (error) {
      if (error instanceof RequestFailedError && error.code !== undefined) return { kind: "error", code: error.code, message: error.serverMessage ?? "" };
      if (error instanceof RequestTimeoutError) return { kind: "timeout", message: `no answer within ${error.timeoutMs} ms (raise --timeout if the server is just slow)` };
      return { kind: "failed", message: plainLine(error) + exitNote(error) };
    }
  }

  /** The four lists, each fetched once, page by page. */
  allLists(): Promise<Map<ListKind, ListOutcome>> {
    this.lists ??= (async () => {
      const outcomes = new Map<ListKind, ListOutcome>();
      for (const spec of LISTS) outcomes.set(spec.kind, await this.fetchList(spec));
      return outcomes;
    })();
    return this.lists;
  }

  async list(kind: ListKind): Promise<ListOutcome> {
    return (await this.allLists()).get(kind)!;
  }

  private async fetchList(spec: ListSpec): Promise<ListOutcome> {
    const advertised = this.capability(spec.capability) !== undefined;
    let first: Reply | undefined;
    let pageFailure: ListOutcome["pageFailure"];
    const { pages, end } = await walkPages(async (cursor, page) => {
      const reply = await this.ask(spec.method, cursor === undefined ? undefined : { cursor });
      first ??= reply;
      if (reply.kind === "result") return reply.result;
      if (page > 1) pageFailure = { page, reply };
      return undefined;
    }, MAX_PAGES);
    const outcome: ListOutcome = { spec, advertised, first: first!, pages, items: itemsOf(pages, spec.key) as Json[] };
    if (pageFailure) outcome.pageFailure = pageFailure;
    const problem = describeCursorProblem(spec.method, end);
    if (problem !== undefined) outcome.cursorProblem = problem;
    return outcome;
  }
}

function describeCursorProblem(method: string, end: PageWalkEnd): string | undefined {
  switch (end.kind) {
    case "not-a-string":
      return `${method} page ${end.page}: nextCursor ${JSON.stringify(end.cursor)} is not a string`;
    case "repeated":
      return `${method} page ${end.page}: nextCursor ${JSON.stringify(end.cursor)} came back again, so the pages never end`;
    case "too-many":
      return `${method}: still a nextCursor after ${end.maxPages} pages`;
    default:
      return undefined;
  }
}

/** `-32601 "Method not found"`, `no answer within 5000 ms`, `a result`. */
/** `exit code 5`, or `ended by SIGKILL`: how a server process ended. */
export function describeExit(exit: { code: number | null; signal: string | null }): string {
  return exit.signal !== null ? `ended by ${exit.signal}` : `exit code ${exit.code}`;
}

/** ` (exit code 5; its last stderr line: "…")` for a failure with a process that has ended; the first line of a driver error leaves these out. */
function exitNote(error: unknown): string {
  if (!(error instanceof McpDriverError)) return "";
  const { exitCode, exitSignal, stderr } = error;
  if ((exitCode === null || exitCode === undefined) && (exitSignal === null || exitSignal === undefined)) return "";
  const how = describeExit({ code: exitCode ?? null, signal: exitSignal ?? null });
  const last = stderr?.at(-1);
  return ` (${how}${last === undefined ? "" : `; its last stderr line: ${JSON.stringify(clip(last, 100))}`})`;
}

export function describeReply(reply: Reply): string {
  switch (reply.kind) {
    case "result":
      return "a result";
    case "error":
      return `error ${reply.code} ${JSON.stringify(clip(reply.message, 80))}`;
    case "timeout":
    case "failed":
      return reply.message;
  }
}

export { clip, plural } from "../../util/text.js";
