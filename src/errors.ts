/**
 * The one error type mcp-testkit throws for misuse (bad options, use after close), with one
 * message prefix, so a user can tell our complaints from their own code's exceptions.
 *
 * An error is data as well as words: `detail` is what it says without the prefix (for a command
 * line or a report that names itself), `code` a stable value to branch on where there is one, and
 * `hints` the advice it carries as typed values, which each audience puts in its own words. No
 * module reads any of these back out of `message`.
 */
import { errorText } from "./util/text.js";

export const MESSAGE_PREFIX = "[mcp-testkit]";

/** Advice or a term an error carries as data (`kind` names it); the module that made the error renders it. */
export interface ErrorHint {
  readonly kind: string;
}

export interface McpTestkitErrorOptions {
  cause?: unknown;
  /** See `McpTestkitError.code`. */
  code?: string | number;
  /** See `McpTestkitError.hints`. */
  hints?: readonly ErrorHint[];
}

export class McpTestkitError extends Error {
  override name = "McpTestkitError";
  #detail: string;
  /**
   * A stable value for code to branch on, where the error has one: node's listen code
   * (`ListenError`), the fixture rule it breaks (`FixtureLoadError`), the server's JSON-RPC code
   * (`RequestFailedError`). Undefined when the class says it all.
   */
  readonly code: string | number | undefined;
  readonly #hints: readonly ErrorHint[];

  constructor(detail: string, options?: McpTestkitErrorOptions) {
    super(`${MESSAGE_PREFIX} ${detail}`, options !== undefined && "cause" in options ? { cause: options.cause } : undefined);
    this.#detail = detail;
    this.code = options?.code;
    this.#hints = options?.hints ?? [];
  }

  /** What the error says, without the `[mcp-testkit]` prefix. */
  get detail(): string {
    return this.#detail;
  }

  /** The advice this error carries as data (empty when it has none beyond its words). */
  get hints(): readonly ErrorHint[] {
    return this.#hints;
  }

  /** Says `detail` anew (an error that learns more after it was made), keeping the prefix on `message`. */
  protected restate(detail: string): void {
    this.#detail = detail;
    this.message = `${MESSAGE_PREFIX} ${detail}`;
  }
}

/** What any error says, without our prefix: an `McpTestkitError`'s `detail`, another error's message. */
export function errorDetail(error: unknown): string {
  if (error instanceof McpTestkitError) return error.detail;
  return errorText(error);
}
