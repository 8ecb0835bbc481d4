/**
 * What `inspect`, `call` and `check` share: the target (a shell command spawned as a stdio
 * server, or an http(s) URL for Streamable HTTP), the flags that shape the connection
 * (`--header`, `--timeout`), and turning a server that cannot be reached or fails to start
 * into one clear message with the process context (command, exit code, stderr lines).
 */
import type { VersionNegotiation } from "../../driver/options.js";
import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { McpDriver, StdioProcessTransport, mcpConnect, McpDriverError, ProcessFailedToStart, ConnectionClosedError, RequestTimeoutError } from "../../driver/index.js";
import { MESSAGE_PREFIX, errorDetail } from "../../errors.js";
import { processContextOf } from "../../driver/errors.js";
import { renderParts, type RenderOptions } from "../../driver/error-rendering.js";
import { firstLineOf } from "../../util/text.js";
import { isHttpToken } from "../../protocol/http-token.js";
import { CommandError, UsageError } from "../command.js";

import type { Progress } from "../output/progress.js";
import { eraFailure, httpStatusOf, type EraChoice } from "./era.js";
import { causesText } from "../../util/error-causes.js";
import type { ConnectAuth } from "../../driver/auth/options.js";
import { checkAuthOptions } from "../../driver/auth/options.js";
import { flagName, parseSignInFlags, SIGN_IN_HELP, SIGN_IN_OPTIONS } from "./sign-in-flags.js";
export const DEFAULT_TIMEOUT_MS = 5000;

/** The flags every command with a target takes (spread into a command's option table). */
export const TARGET_OPTIONS = {
  ...SIGN_IN_OPTIONS,
  header: { type: "string", multiple: true, short: "H" },
  timeout: { type: "string" },
  trace: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** Their lines in a command's `--help`. */
export const TARGET_HELP = `  -H, --header "K: V"  An HTTP header for every request to a URL target (repeatable),
                       e.g. --header "Authorization: Bearer $TOKEN"
  --timeout <ms>       How long each request may take (default ${DEFAULT_TIMEOUT_MS})
  --trace <file>       Write every message to and from the server there, as a trace (JSON
                       Lines; mcp-testkit trace convert makes HAR or OTLP of it)
  --json               Print the result as JSON on stdout (progress, if any, stays on stderr)
  -h, --help           Show this help

${SIGN_IN_HELP}`;

export const TARGET_EXPLAINED = `The target is a URL when it starts with http:// or https:// (Streamable HTTP); anything
else is a shell command that starts a stdio server (quote it when it has spaces).`;

export interface Target {
  kind: "stdio" | "http";
  /** The command line or the URL, as given. */
  value: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** How to sign in to a URL target (the sign-in flags), if at all. */
  auth?: ConnectAuth;
  /** Where the driver writes its trace (`--trace`). */
  trace?: string;
}

export function isUrl(text: string): boolean {
  return /^https?:\/\//i.test(text);
}

/** Reads the target and the connection flags; throws `UsageError` for anything malformed. */
export function parseTarget(
  value: string | undefined,
  flags: { header?: string[] | undefined; timeout?: string | undefined; trace?: string | undefined } & Parameters<typeof parseSignInFlags>[0],
): Target {
  if (value === undefined || value.trim() === "") throw new UsageError('missing the target: a command that starts a stdio server (e.g. "node server.js") or an http(s) URL');
  const kind = isUrl(value) ? "http" : "stdio";
  if (kind === "http") {
    try {
      new URL(value);
    } catch {
      throw new UsageError(`"${value}" is not a valid URL`);
    }
  }
  const headers: Record<string, string> = {};
  for (const line of flags.header ?? []) {
    const colon = line.indexOf(":");
    const name = colon === -1 ? "" : line.slice(0, colon).trim();
    if (!isHttpToken(name)) throw new UsageError(`--header must look like "Name: value", got "${line}"`);
    const value = line.slice(colon + 1).trim();
    const unsendable = [...value].find((char) => char.codePointAt(0)! > 0xff || char === "\r" || char === "\n" || char === "\0");
    if (unsendable !== undefined) {
      const code = `U+${unsendable.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
      throw new UsageError(
        `--header "${name}" has a character an HTTP header cannot carry (${code}); percent-encode the value (${name}: ${encodeURIComponent(value)}): the mock's X-Test-Id and context headers are percent-decoded`,
      );
    }
    headers[name] = value;
  }
  if (kind === "stdio" && Object.keys(headers).length > 0) {
    throw new UsageError("--header is for URL targets; a stdio server gets no HTTP headers");
  }
  const auth = parseSignInFlags(flags);
  if (auth !== undefined) {
    if (kind === "stdio") throw new UsageError("the sign-in flags are for URL targets; a stdio server is not behind OAuth");
    if (Object.keys(headers).some((name) => name.toLowerCase() === "authorization")) throw new UsageError('--header "Authorization: …" and the sign-in flags both set the credentials: keep one');
    // The driver's own rules, said with the flags' names.
    try {
      checkAuthOptions(auth, flagName);
    } catch (error) {
      throw new UsageError(errorDetail(error));
    }
  }
  if (flags.trace !== undefined && flags.trace.trim() === "") throw new UsageError("--trace needs a file name, such as --trace traces/run.jsonl");
  return { kind, value, headers, timeoutMs: parseTimeout(flags.timeout), ...(auth === undefined ? {} : { auth }), ...(flags.trace !== undefined && { trace: flags.trace }) };
}

function parseTimeout(text: string | undefined): number {
  if (text === undefined) return DEFAULT_TIMEOUT_MS;
  const ms = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(ms >= 1 && ms <= 3_600_000)) throw new UsageError(`--timeout must be a number of milliseconds from 1 to 3600000, got "${text}"`);
  return ms;
}

export interface OpenOptions {
  /** Client capabilities to declare beyond what the driver's handlers imply (`record` declares what it passes on to the agent). */
  capabilities?: ClientCapabilities;
  /** Where lines the server writes to stdout that are not JSON go (stdio); default: stderr, prefixed. */
  onStdoutLine?: (line: string) => void;
  /** Run requests strictly (a result breaking the schema throws); default false, so a flawed server can still be looked at. */
  strict?: boolean;
  /**
   * The era to speak (the driver's option). Default `"auto"`, the driver's own default, so the CLI
   * shows what a test's driver gets: `inspect`, `call` and `record` choose with their era flags
   * (see era.ts); `check` asks for each era it tests.
   */
  versionNegotiation?: VersionNegotiation;
  /** The revision to speak (the driver's option); alone, it implies the negotiation mode. */
  protocolVersion?: string;
  /** Where this driver's trace goes instead of the target's `--trace` file (a second driver's). */
  traceFile?: string;
}

/**
 * A driver for the target, not yet initialized. Stdio servers may print to stdout without
 * breaking the session (those lines are handed to `onStdoutLine`), and schema problems are
 * recorded (`driver.problems`) rather than thrown, unless `strict`.
 */
export function openDriver(target: Target, options: OpenOptions = {}): McpDriver {
  // A version alone lets the driver imply the mode (a pin for 2026-07-28); nothing at all is auto.
  const impliedByVersion = options.versionNegotiation === undefined && options.protocolVersion !== undefined;
  const era = impliedByVersion ? { protocolVersion: options.protocolVersion } : { versionNegotiation: options.versionNegotiation ?? "auto", protocolVersion: options.protocolVersion };
  const trace = target.trace === undefined ? undefined : (options.traceFile ?? target.trace);
  const driverOptions = {
    requestTimeout: target.timeoutMs,
    strict: options.strict ?? false,
    ...era,
    ...(options.capabilities && { capabilities: options.capabilities }),
    ...(trace !== undefined && { trace }),
  };
  if (target.kind === "http") return mcpConnect(target.value, { ...driverOptions, headers: target.headers, ...(target.auth === undefined ? {} : { auth: target.auth }) });
  const process = new StdioProcessTransport({
    shellCommand: target.value,
    allowDebugLogging: true,
    debugOutput: options.onStdoutLine ?? ((line) => globalThis.process.stderr.write(`${MESSAGE_PREFIX} server stdout: ${line}\n`)),
  });
  return new McpDriver({ kind: "stdio", target: target.value, transport: process, process }, driverOptions);
}

/**
 * Initializes, turning a server that cannot be reached, fails to start or refuses the handshake
 * into a `CommandError` (exit 1) whose message shows the process context: what the server did is
 * no bug of ours, so no stack trace. Other failures are rethrown as they are.
 */
export async function connect(driver: McpDriver, target: Target, params: Parameters<McpDriver["initialize"]>[0] = {}) {
  try {
    return await driver.initialize(params);
  } catch (error) {
    throw eraFailure(error, plainMessage) ?? unreachable(error, target) ?? (error instanceof McpDriverError ? new CommandError(plainMessage(error)) : error);
  }
}

/** The `CommandError` for a server that could not be started or reached, or undefined for any other failure. */
export function unreachable(error: unknown, target: Target): CommandError | undefined {
  if (error instanceof ProcessFailedToStart) {
    return new CommandError(`cannot start the server "${target.value}": ${plainStatement(error)}`, processContextOf(error));
  }
  // The driver's message says it already: nothing answered at the URL.
  if (error instanceof ConnectionClosedError && error.sendFailure === "nothingListening") return new CommandError(`${plainStatement(error)}${causesText(error)}`, processContextOf(error));
  // A refusal with an HTTP status reached the server: that is no "cannot reach".
  if (target.kind === "http" && error instanceof ConnectionClosedError && httpStatusOf(error) === undefined) {
    return new CommandError(`cannot reach ${target.value}: ${plainStatement(error)}${causesText(error)}`, processContextOf(error));
  }
  if (error instanceof RequestTimeoutError && error.method === "initialize") {
    const who = target.kind === "http" ? target.value : `the server "${target.value}"`;
    return new CommandError(`${who} did not answer initialize within ${error.timeoutMs} ms (raise --timeout if it is just slow)`, processContextOf(error));
  }
  return undefined;
}

/**
 * An error's message in the CLI's words, without the `[mcp-testkit]` prefix (the CLI names itself
 * already): a driver error's advice names the flags (`--timeout`, `--version-negotiation`)
 * instead of the library's options, and says what the CLI cannot do (declare capabilities).
 * `options.omit` leaves out hints the caller says in its own way.
 */
export function plainMessage(error: unknown, options: RenderOptions = {}): string {
  return error instanceof McpDriverError ? plainStatement(error, options) + processContextOf(error) : errorDetail(error);
}

/** What `plainMessage` says, without a spawned server's lines of context after it. */
export function plainStatement(error: unknown, options: RenderOptions = {}): string {
  if (!(error instanceof McpDriverError)) return errorDetail(error);
  // Every timeout says how to give the server longer, even one whose library message has no such advice.
  const timeoutAdvice = error instanceof RequestTimeoutError && !error.hints.some((hint) => hint.kind === "raiseTimeout");
  return renderParts(error.parts, "cli", timeoutAdvice ? { ...options, add: [{ kind: "raiseTimeout", timeoutMs: error.timeoutMs }] } : options);
}

/** `plainStatement` on one line, for a report's cell or a note. */
export function plainLine(error: unknown, options: RenderOptions = {}): string {
  return firstLineOf(plainStatement(error, options));
}

/**
 * Closes the driver. After a run that worked, a server that misbehaves on the way out (does
 * not exit when its stdin closes, exits with an error) gets a note on stderr, which does not
 * change the exit code; after a failure it is only ended, quickly and quietly.
 */
export async function closeDriver(driver: McpDriver, succeeded: boolean, say: (line: string) => void): Promise<void> {
  try {
    await driver.close(succeeded ? 2000 : 500);
  } catch (error) {
    if (succeeded && error instanceof McpDriverError) say(`note: ${plainLine(error)}`);
  }
}

/**
 * The life of one command against a target: start or reach the server (with a progress line),
 * initialize, hand the driver to `use`, and always close it afterwards.
 */
export async function withConnectedDriver<T>(
  command: string,
  target: Target,
  progress: Progress,
  use: (driver: McpDriver, init: Awaited<ReturnType<McpDriver["initialize"]>>) => Promise<T>,
  era: EraChoice = { asked: false },
  capabilities?: ClientCapabilities,
): Promise<T> {
  const driver = openDriver(target, { versionNegotiation: era.versionNegotiation, protocolVersion: era.protocolVersion, capabilities });
  let succeeded = false;
  try {
    progress.step(target.kind === "http" ? `connecting to ${target.value}` : `starting ${target.value}`);
    const init = await connect(driver, target);
    succeeded = true;
    return await use(driver, init);
  } finally {
    progress.stop();
    await closeDriver(driver, succeeded, (line) => process.stderr.write(`mcp-testkit ${command}: ${line}\n`));
  }
}
