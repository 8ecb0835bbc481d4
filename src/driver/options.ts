/** Options of `mcpShell`, `mcpConnect` and `mcpAttach`, and the MCP data types the driver returns. */
import type { ConnectAuth } from "./auth/options.js";
import type { TraceOption } from "../trace/trace-log.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type {
  BlobResourceContents,
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  Implementation,
  InitializeRequestParams,
  InitializeResult,
  Prompt,
  ReadResourceResult as ReadResourceResultData,
  Resource,
  Root,
  ServerCapabilities,
  TextResourceContents,
  Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { ServerRequestContext } from "./rpc-channel.js";
import type { ObserveOptions } from "../observe/delivery.js";
import type { McpObserver } from "../observe/observer.js";

export const DEFAULT_REQUEST_TIMEOUT = 5000;
export const DEFAULT_CLOSE_TIMEOUT = 5000;
export const DEFAULT_MAX_INPUT_ROUNDS = 10;
export const DEFAULT_CLIENT_INFO: Implementation = { name: "mcp-testkit", version: "0.1.0" };

/** See `DriverOptions.versionNegotiation`. */
export type VersionNegotiation = "legacy" | "auto" | { pin: string };

/** Options every driver takes, whatever the wire. */
export interface DriverOptions {
  /** How long a request may wait for its response, in ms (default 5000; at most 2147483647, the longest a timer holds: a longer one is refused, not shortened). */
  requestTimeout?: number;
  /**
   * The client's roots. Given (even `[]`), the driver declares the `roots` capability and answers
   * `roots/list` with them; `setRoots()` changes them later. Default: no roots capability.
   */
  roots?: Root[];
  /** Answers `sampling/createMessage`; declares the `sampling` capability. Default: an error naming this option. */
  onSampling?: (params: CreateMessageRequestParams, context: ServerRequestContext) => CreateMessageResult | Promise<CreateMessageResult>;
  /** Answers `elicitation/create`; declares the `elicitation` capability. Default: an error naming this option. */
  onElicitation?: (params: ElicitRequestParams, context: ServerRequestContext) => ElicitResult | Promise<ElicitResult>;
  /** The `clientInfo` sent in `initialize` (default `{ name: "mcp-testkit", version }`). */
  clientInfo?: Implementation;
  /**
   * The protocol version to speak. A legacy one (2025-11-25 and older) is asked for in
   * `initialize`; 2026-07-28 is named in every request's `_meta`. Given alone, it also chooses
   * `versionNegotiation` (a legacy version: `"legacy"`; a modern one: `{ pin }`).
   */
  protocolVersion?: string;
  /**
   * How the era is chosen (default `"auto"`, or what `protocolVersion` implies):
   * - `"auto"`: probe with `server/discover` (2026-07-28); a server that answers with no
   *   recognised modern result or error (-32601, an HTTP 4xx, a timeout) is legacy, and the
   *   driver falls back to `initialize`, as the spec's backward-compatibility rules say;
   * - `"legacy"`: `initialize` only, as before 2026-07-28;
   * - `{ pin: "2026-07-28" }`: the modern era only; a server that does not speak it fails the
   *   first call with an error saying so.
   */
  versionNegotiation?: VersionNegotiation;
  /**
   * 2026-07-28, default true: follow list changes as the legacy era does. There is no session to
   * bring `notifications/tools/list_changed` and the like, so with the first list the driver
   * fetches it opens one `subscriptions/listen` for the lists whose capability says `listChanged`
   * (that list is handed back once the server acknowledged it); its notifications make the
   * cached lists stale and arrive in `notifications`. `close()` ends it. False: no subscription,
   * the lists go stale only by their `ttlMs` (open your own with `listen()`).
   */
  followListChanges?: boolean;
  /**
   * 2026-07-28: how many `input_required` rounds (MRTR) one call may take before the driver
   * gives up with a ProtocolError (default 10). Each round answers the server's input requests
   * with `onElicitation`, `onSampling` and `roots`, then retries the call.
   */
  maxInputRounds?: number;
  /** More client capabilities to declare, merged over those the options imply. */
  capabilities?: ClientCapabilities;
  /**
   * Default true: a result that breaks the negotiated version's schema fails its call with a
   * `ProtocolError`. False: such problems are only recorded (`driver.problems`). Messages that
   * are not JSON-RPC at all always fail.
   */
  strict?: boolean;
  /** How many messages the traffic recorder keeps (default 10 000). */
  maxRecords?: number;
  /**
   * Observers (the objects `mockMcp({ observers })` takes) of this driver's requests, seen from
   * the client's side: each request's start and its finish, once, with the outcome the driver
   * saw (`complete`, `application_error` for an `isError` tool result, `protocol_error`,
   * `deadline_exceeded` on a timeout, `cancelled` on an abort, `client_disconnected` when
   * `close()` came first, `write_failed` when the connection went away), and the connection's
   * lifecycle (created, started, closed). Delivered after the driver's answer; an observer that
   * throws never changes what the driver returns.
   */
  observers?: readonly McpObserver[];
  /** Delivery of `observers`: queue size and where diagnostics go. */
  observe?: ObserveOptions;
  /**
   * Default true: when `@opentelemetry/api` is installed and a span is active (or baggage is
   * set), every request's `_meta` carries `traceparent`, `tracestate` and `baggage` from the
   * global propagator, so the server's span is a child of the caller's. False: never.
   */
  traceContext?: boolean;
  /**
   * Keep a trace of every message both ways (default off): `true` keeps the newest 10,000
   * entries in memory (`driver.traffic.trace`); a file name also writes them there as JSON
   * Lines as they pass; `{ file, limit }` sets the cap. Entries carry the validator's problems.
   */
  trace?: TraceOption;
}

/** Options of `mcpShell` (expect-mcp's `MCPStdinSubprocessOptions`, and more). */
export interface McpShellOptions extends DriverOptions {
  /** Print lines the server writes to stdout that are not JSON (to stderr) instead of failing with a ProtocolError. */
  allowDebugLogging?: boolean;
  /** Variables added to this process's environment for the server (the whole environment is inherited). */
  env?: Record<string, string | undefined>;
  /** The server's working directory. */
  cwd?: string;
}

/**
 * Each option's name, typed by the interfaces (an option added without a row fails the type
 * check), so a misspelled one in plain JS fails with a did-you-mean instead of being ignored.
 */
const DRIVER_OPTION_NAMES: Record<keyof DriverOptions, true> = {
  requestTimeout: true,
  roots: true,
  onSampling: true,
  onElicitation: true,
  clientInfo: true,
  protocolVersion: true,
  versionNegotiation: true,
  followListChanges: true,
  maxInputRounds: true,
  capabilities: true,
  strict: true,
  maxRecords: true,
  observers: true,
  observe: true,
  traceContext: true,
  trace: true,
};
const SHELL_OPTION_NAMES: Record<keyof McpShellOptions, true> = { ...DRIVER_OPTION_NAMES, allowDebugLogging: true, env: true, cwd: true };

/** The option names each way of getting a driver takes. */
export const OPTION_NAMES = {
  mcpShell: Object.keys(SHELL_OPTION_NAMES),
  mcpConnect: Object.keys({ ...DRIVER_OPTION_NAMES, headers: true, fetch: true, sessionId: true, auth: true } satisfies Record<keyof McpConnectOptions, true>),
  mcpAttach: [...Object.keys(DRIVER_OPTION_NAMES), "name"],
  MCPStdinSubprocess: [...Object.keys(SHELL_OPTION_NAMES), "command", "args"],
} as const;

/** expect-mcp's name for the options of `mcpShell`. */
export type MCPStdinSubprocessOptions = McpShellOptions;

/** Options of `mcpConnect` (Streamable HTTP). */
export interface McpConnectOptions extends DriverOptions {
  /** Headers sent with every HTTP request (e.g. `Authorization`). */
  headers?: Record<string, string>;
  /** A fetch to use instead of the global one. */
  fetch?: FetchLike;
  /**
   * Go on with a 2025 session begun elsewhere (its `Mcp-Session-Id`): no `initialize` is sent, and
   * requests go on it in `protocolVersion` (default the latest legacy one). What its server said
   * at `initialize` is not known here (`serverInfo` undefined, `serverCapabilities` `{}`);
   * `close()` ends the session (DELETE) as for any other.
   */
  sessionId?: string;
  /**
   * Signs in to an OAuth-protected server: a static `token`, client credentials, or the
   * authorization code flow with PKCE (the default), headless unless `authorize` drives a browser.
   * Tokens, codes and secrets never reach the traffic tap, errors or recordings.
   */
  auth?: ConnectAuth;
}

export type InitializeParams = InitializeRequestParams;

// expect-mcp's type names, for code moving over.
export type MCPTool = Tool;
export type MCPResource = Resource;
export type MCPPrompt = Prompt;
export type MCPCapabilities = ServerCapabilities;
export type MCPInitializeParams = InitializeRequestParams;
export type MCPInitializeResult = InitializeResult;
export type MCPReadResourceResult = ReadResourceResultData;
export type MCPTextResourceContents = TextResourceContents;
export type MCPBlobResourceContents = BlobResourceContents;
export type MCPResourceContents = TextResourceContents | BlobResourceContents;
