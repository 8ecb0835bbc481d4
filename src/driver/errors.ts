/**
 * What the driver throws. Every error says what happened, what was expected and what to do, and
 * carries its context as fields: the method and request id, the JSON-RPC error, the validator's
 * problems and, for a spawned server, the command, exit code, signal and the last lines it wrote.
 * All are `McpTestkitError`s, so they share its `[mcp-testkit]` prefix.
 */
import { errorDetail, McpTestkitError } from "../errors.js";
import { isHint, renderParts, type Audience, type DriverHint, type MessagePart, type RenderOptions } from "./error-rendering.js";

export type { Audience, DeclarableCapability, DriverHint, MessagePart, NegotiationModeAsked } from "./error-rendering.js";
import type { JsonRpcId } from "../protocol/jsonrpc.js";
import type { MessageProblem } from "../inspect/types.js";

/** What is known about a spawned server process when an error is made. */
export interface ProcessContext {
  /** The command as given to `mcpShell`. */
  shellCommand: string;
  pid: number | undefined;
  /** Null while the process runs, or when a signal ended it. */
  exitCode: number | null;
  /** The signal that ended the process (`"SIGKILL"`), or null. */
  exitSignal: string | null;
  /** The last lines the process wrote to stdout (JSON-RPC lines included, long lines shortened). */
  stdout: string[];
  /** The last lines the process wrote to stderr. */
  stderr: string[];
  /** How many stderr lines came before those and were not kept (a bounded journal). */
  stderrDropped?: number;
}

interface ErrorDetails {
  /** Show the process's last stdout lines in the message (default: only once it has exited). */
  showStdout?: boolean;
  method?: string | undefined;
  id?: JsonRpcId | undefined;
  process?: ProcessContext | undefined;
  cause?: unknown;
}

/** Lines of output shown in a message; the error's `stdout` / `stderr` fields keep them all. */
const shownLines = 12;

/** The base of every driver error. */
export class McpDriverError extends McpTestkitError {
  override name = "McpDriverError";
  /** The method of the request concerned, if any. */
  readonly method: string | undefined;
  /** The JSON-RPC id of the request concerned, if any. */
  readonly id: JsonRpcId | undefined;
  /** The spawned process, for servers started with `mcpShell`. */
  readonly process: ProcessContext | undefined;
  /** What the error says, as text and typed hints (see `renderDriverError`); `message` is it in the library's words. */
  readonly parts: MessagePart[];
  /** Whether the message shows the process's stdout (see `describeProcess`). */
  readonly showStdout: boolean | undefined;

  constructor(message: string | readonly MessagePart[], details: ErrorDetails = {}) {
    const parts = typeof message === "string" ? [message] : [...message];
    super(renderParts(parts, "library") + describeProcess(details.process, details.showStdout), details.cause === undefined ? undefined : { cause: details.cause });
    // The hints live in `parts`, in the order they are said; the getter below reads them there.
    this.parts = parts;
    this.showStdout = details.showStdout;
    this.method = details.method;
    this.id = details.id;
    this.process = details.process;
  }

  /** The advice and terms this error carries as data (each audience says them in its own words). */
  override get hints(): DriverHint[] {
    return this.parts.filter(isHint);
  }

  /** Adds to what the error says, after what it says already (its message follows). */
  extend(...more: MessagePart[]): this {
    this.parts.push(...more);
    this.restate(renderDriverError(this, "library"));
    return this;
  }

  // The process's facts at the top level too (`error.exitCode`), where a test looks for them first.
  get shellCommand(): string | undefined {
    return this.process?.shellCommand;
  }
  get exitCode(): number | null | undefined {
    return this.process?.exitCode;
  }
  get exitSignal(): string | null | undefined {
    return this.process?.exitSignal;
  }
  get stdout(): string[] | undefined {
    return this.process?.stdout;
  }
  get stderr(): string[] | undefined {
    return this.process?.stderr;
  }
}

/**
 * The server broke the protocol: a line on stdout that is not JSON, a message that is not valid
 * JSON-RPC, a response to no request in flight, or a result that does not fit the MCP schema of
 * the negotiated version (`problems` gives each JSON path and what the schema expected).
 */
export class ProtocolError extends McpDriverError {
  override name = "ProtocolError";
  readonly problems: readonly MessageProblem[];
  /** The raw line, for output that is not JSON. */
  readonly line: string | undefined;
  /** The JSON-RPC response refused, for a response that breaks the schema (so a caller can still tell what it was). */
  readonly response: unknown;

  constructor(message: string | readonly MessagePart[], details: ErrorDetails & { problems?: readonly MessageProblem[]; line?: string; response?: unknown } = {}) {
    super(message, { showStdout: true, ...details });
    this.problems = details.problems ?? [];
    this.line = details.line;
    this.response = details.response;
  }
}

/** The server answered a request with a JSON-RPC error. */
export class RequestFailedError extends McpDriverError {
  override name = "RequestFailedError";
  /** The JSON-RPC error code (`-32601`…); undefined for a tool result with `isError: true`. */
  override readonly code: number | undefined;
  /** The server's own error message. */
  readonly serverMessage: string | undefined;
  readonly data: unknown;

  constructor(message: string | readonly MessagePart[], details: ErrorDetails & { code?: number; serverMessage?: string; data?: unknown } = {}) {
    super(message, details);
    this.code = details.code;
    this.serverMessage = details.serverMessage;
    this.data = details.data;
  }
}

/** `tools/call` failed: a JSON-RPC error, or `expectSuccess()` on a result with `isError: true`. */
export class ToolCallError extends RequestFailedError {
  override name = "ToolCallError";
  readonly toolName: string;
  /** The tool result, when the tool reported the error in its result (`isError: true`). */
  readonly result: unknown;

  constructor(message: string | readonly MessagePart[], details: ConstructorParameters<typeof RequestFailedError>[1] & { toolName: string; result?: unknown }) {
    super(message, details);
    this.toolName = details.toolName;
    this.result = details.result;
  }
}

/** `resources/read` (or subscribe / unsubscribe) was answered with a JSON-RPC error. */
export class ResourceCallError extends RequestFailedError {
  override name = "ResourceCallError";
  readonly uri: string;

  constructor(message: string | readonly MessagePart[], details: ConstructorParameters<typeof RequestFailedError>[1] & { uri: string }) {
    super(message, details);
    this.uri = details.uri;
  }
}

/** `prompts/get` was answered with a JSON-RPC error. */
export class PromptCallError extends RequestFailedError {
  override name = "PromptCallError";
  readonly promptName: string;

  constructor(message: string | readonly MessagePart[], details: ConstructorParameters<typeof RequestFailedError>[1] & { promptName: string }) {
    super(message, details);
    this.promptName = details.promptName;
  }
}

/** No response within the request timeout; `notifications/cancelled` was sent (except for `initialize`). */
export class RequestTimeoutError extends McpDriverError {
  override name = "RequestTimeoutError";
  readonly timeoutMs: number;
  readonly cancelled: boolean;

  constructor(message: string | readonly MessagePart[], details: ErrorDetails & { timeoutMs: number; cancelled: boolean }) {
    super(message, details);
    this.timeoutMs = details.timeoutMs;
    this.cancelled = details.cancelled;
  }
}

/**
 * How a request could not be sent: `notSent` (nothing answered: no server there, or the connection
 * could not be made), `nothingListening` (the connection was refused: nothing listens at `url`),
 * `refused` (an HTTP error status), `closedMidRequest` (the connection was cut
 * before the answer), `notMcpEndpoint` (an answer that is neither JSON nor an event stream).
 */
export type SendFailure = "notSent" | "nothingListening" | "refused" | "closedMidRequest" | "notMcpEndpoint";

/** The connection closed (HTTP, in memory) or the driver was closed while a request waited. */
export class ConnectionClosedError extends McpDriverError {
  override name = "ConnectionClosedError";
  /** How the request could not be sent, when that is why it failed (see `SendFailure`). */
  readonly sendFailure: SendFailure | undefined;
  /** Where nothing answered, when `sendFailure` is `nothingListening`. */
  readonly url: string | undefined;

  constructor(message: string | readonly MessagePart[], details: ErrorDetails & { sendFailure?: SendFailure; url?: string | undefined } = {}) {
    super(message, details);
    this.sendFailure = details.sendFailure;
    this.url = details.url;
  }
}

/** The process could not be spawned, or exited before `initialize` was answered. */
export class ProcessFailedToStart extends McpDriverError {
  override name = "ProcessFailedToStart";
}

/** The process exited while a request waited for its response. */
export class ProcessExitWhileWaitingForResponse extends McpDriverError {
  override name = "ProcessExitWhileWaitingForResponse";
}

/** `close(timeoutMs)`: the process was still running at the timeout; its whole process tree was killed. */
export class ProcessDidNotExit extends McpDriverError {
  override name = "ProcessDidNotExit";
  readonly timeoutMs: number;

  constructor(message: string | readonly MessagePart[], details: ErrorDetails & { timeoutMs: number }) {
    super(message, details);
    this.timeoutMs = details.timeoutMs;
  }
}

/** `close()`: the process exited with a non-zero code, or was ended by a signal it was not sent by us. */
export class ProcessExitedWithError extends McpDriverError {
  override name = "ProcessExitedWithError";
}

/**
 * A driver error in `audience`'s words, without the `[mcp-testkit]` prefix: what it says, then the
 * spawned process's context (unless `summary`, one line for a report).
 */
export function renderDriverError(error: McpDriverError, audience: Audience, options: RenderOptions = {}): string {
  const said = renderParts(error.parts, audience, options);
  return audience === "summary" ? said : said + describeProcess(error.process, error.showStdout);
}

/** What `error` says in the library's words, without the prefix and the process's context (for a reason kept as text). */
export function statementOf(error: unknown): string {
  if (error instanceof McpDriverError) return renderParts(error.parts, "library");
  return errorDetail(error);
}

/** The spawned process's lines a driver error shows after its statement (command, status, last output), or "" without a process. */
export function processContextOf(error: McpDriverError): string {
  return describeProcess(error.process, error.showStdout);
}

function describeProcess(process: ProcessContext | undefined, showStdout: boolean | undefined): string {
  if (process === undefined) return "";
  const status =
    process.pid === undefined
      ? "never started"
      : process.exitCode === null && process.exitSignal === null
        ? "still running"
        : process.exitSignal !== null
          ? `ended by ${process.exitSignal}`
          : `exit code ${process.exitCode}`;
  let text = `\n  command: ${process.shellCommand}${process.pid === undefined ? "" : ` (pid ${process.pid})`}\n  process: ${status}`;
  text += describeLines("stderr", process.stderr, process.stderrDropped);
  // While the server runs, its stdout is the JSON-RPC traffic: noise unless the stream is at fault.
  if (showStdout ?? (process.exitCode !== null || process.exitSignal !== null)) text += describeLines("stdout", process.stdout);
  return text;
}

function describeLines(name: string, lines: readonly string[], dropped = 0): string {
  if (lines.length === 0) return `\n  ${name}: (nothing)`;
  const shown = lines.slice(-shownLines);
  const total = lines.length + dropped;
  const more = total > shown.length ? `last ${shown.length} of ${total} lines` : `${total} line${total === 1 ? "" : "s"}`;
  return `\n  ${name} (${more}):\n${shown.map((line) => `    | ${line}`).join("\n")}`;
}
