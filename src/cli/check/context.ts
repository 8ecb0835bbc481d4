/**
 * The state the checks share: the driver's session with the server, the initialize result,
 * the four lists fetched once page by page (raw, so every page can be validated), the lines a
 * stdio server wrote to stdout that were not MCP messages, and small helpers to send one
 * request and classify its answer.
 */
import type { InitializeResult } from "@modelcontextprotocol/sdk/types.js";
import { RequestFailedError, RequestTimeoutError, type McpDriver } from "../../driver/index.js";
import { ErrorCode } from "../../protocol/errors.js";
import { LATEST_PROTOCOL_VERSION } from "../../protocol/versions.js";
import { plainMessage, type Target } from "../target/target.js";
import { clip } from "../../util/text.js";

export type Json = Record<string, unknown>;

export type Reply =
  | { kind: "result"; result: Json }
  | { kind: "error"; code: number; message: string }
  | { kind: "timeout"; message: string }
  | { kind: "failed"; message: string };

export const METHOD_NOT_FOUND = ErrorCode.MethodNotFound;
export const INVALID_PARAMS = ErrorCode.InvalidParams;
export const PARSE_ERROR = ErrorCode.ParseError;

export type ListKind = "tools" | "resources" | "resourceTemplates" | "prompts";

export interface ListSpec {
  kind: ListKind;
  method: string;
  /** The result's array field. */
  key: string;
  /** The server capability that promises the method. */
  capability: "tools" | "resources" | "prompts";
  /** What makes two items the same item. */
  identity: (item: Json) => unknown;
  /** "tool", "resource", ... */
  noun: string;
}

export const LISTS: readonly ListSpec[] = [
  { kind: "tools", method: "tools/list", key: "tools", capability: "tools", identity: (item) => item.name, noun: "tool" },
  { kind: "resources", method: "resources/list", key: "resources", capability: "resources", identity: (item) => item.uri, noun: "resource" },
  { kind: "resourceTemplates", method: "resources/templates/list", key: "resourceTemplates", capability: "resources", identity: (item) => item.uriTemplate, noun: "resource template" },
  { kind: "prompts", method: "prompts/list", key: "prompts", capability: "prompts", identity: (item) => item.name, noun: "prompt" },
];

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
  /** Lines on a stdio server's stdout that were not MCP messages, with where they came from. */
  readonly strayStdout: string[] = [];
  private lists: Promise<Map<ListKind, ListOutcome>> | undefined;

  constructor(
    readonly target: Target,
    readonly driver: McpDriver,
  ) {}

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
      return { kind: "failed", message: plainMessage(error).split("\n")[0]! };
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
    const first = await this.ask(spec.method);
    const outcome: ListOutcome = { spec, advertised, first, pages: [], items: [] };
    let reply = first;
    const cursors = new Set<string>();
    for (let page = 1; page <= MAX_PAGES; page++) {
      if (reply.kind !== "result") {
        if (page > 1) outcome.pageFailure = { page, reply };
        return outcome;
      }
      outcome.pages.push(reply.result);
      const items = reply.result[spec.key];
      if (Array.isArray(items)) outcome.items.push(...(items as Json[]));
      const next = reply.result.nextCursor;
      if (next === undefined) return outcome;
      if (typeof next !== "string") {
        outcome.cursorProblem = `${spec.method} page ${page}: nextCursor ${JSON.stringify(next)} is not a string`;
        return outcome;
      }
      if (cursors.has(next)) {
        outcome.cursorProblem = `${spec.method} page ${page}: nextCursor ${JSON.stringify(next)} came back again, so the pages never end`;
        return outcome;
      }
      cursors.add(next);
      reply = await this.ask(spec.method, { cursor: next });
    }
    outcome.cursorProblem = `${spec.method}: still a nextCursor after ${MAX_PAGES} pages`;
    return outcome;
  }
}

/** `-32601 "Method not found"`, `no answer within 5000 ms`, `a result`. */
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
