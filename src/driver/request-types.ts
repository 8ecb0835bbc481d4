/**
 * The shapes a request and its answers take in the driver: a call's options, what the session is
 * told about a request (`RequestSpec`), what a server request's handler gets, a notification as
 * kept, and how a JSON-RPC error answer becomes the error a call throws (`ErrorFor`).
 */
import type { MessageProblem } from "../inspect/types.js";
import type { JsonRpcErrorObject, JsonRpcId } from "../protocol/jsonrpc.js";
import type { McpDriverError } from "./errors.js";

export type JsonObject = Record<string, unknown>;

export interface CallOptions {
  /** Overrides the driver's `requestTimeout` for this call, in ms. */
  timeoutMs?: number;
  /** Aborting cancels the request (`notifications/cancelled`) and rejects it. */
  signal?: AbortSignal;
  /**
   * Receives the server's `notifications/progress` for this request (a progress token is sent).
   * Each progress notification restarts the timeout.
   */
  onProgress?: (progress: ProgressParams) => void;
  /**
   * Answers the server's requests that belong to this call, before the driver's own handlers
   * (`onElicitation`, `onSampling`, `roots`): in 2026-07-28 the input requests of this call's
   * `input_required` results; in the legacy era a server request that arrives while this call is
   * the only tools/call, resources/read or prompts/get in flight (a legacy server request does
   * not say which call it serves; with others in flight beside it, it is refused, saying so).
   * Return undefined to leave a request to the driver's handlers. Throwing answers a legacy
   * server request with that error (an `RpcError` for its code); in 2026-07-28, where an input
   * response cannot be an error, it fails the call. The time the handler takes is not the
   * server's: the call's timeout waits meanwhile and starts again after (its signal and
   * `close()` still end the wait). The driver declares only the capabilities its own options
   * imply: declare what this answers in the driver's `capabilities`. A proxy's hook: `recordMcp`
   * passes a call's requests on this way.
   */
  onServerRequest?: CallServerRequestHandler;
}

/** A call's own answer to one of the server's requests; undefined leaves it to the driver's handlers. */
export type CallServerRequestHandler = (method: string, params: JsonObject | undefined, context: ServerRequestContext) => JsonObject | undefined | Promise<JsonObject | undefined>;

export interface ProgressParams {
  progressToken: string | number;
  progress: number;
  total?: number;
  message?: string;
  [key: string]: unknown;
}

export interface RequestSpec extends CallOptions {
  /** How the request is named in errors, e.g. `tools/call "echo"`. */
  label?: string;
  /** What the request is about (a tool's name, a URI), for `errorFor`. */
  subject?: string;
  /**
   * Turns a JSON-RPC error response into the error to throw. One function serves every request
   * of its kind (it reads the request's `subject`), so a call makes no closure of its own.
   */
  errorFor?: ErrorFor;
  /** False for `initialize`, which the spec says must never be cancelled. */
  cancellable?: boolean;
  /** Told the request's JSON-RPC id just before it is written (a subscription is named by it). */
  onId?: (id: JsonRpcId) => void;
  /** Added to a timeout's message: what else went unanswered before this request. */
  timeoutNote?: string;
}

/** Passed to the handlers of server requests (`onSampling`, `onElicitation`). */
export interface ServerRequestContext {
  method: string;
  requestId: JsonRpcId;
  /** Aborted when the server cancels its request or the driver closes. */
  signal: AbortSignal;
}

/** A notification from the server, as the driver keeps it. */
export interface ReceivedNotification {
  method: string;
  params: JsonObject | undefined;
  /** When it arrived, in ms since the epoch. */
  timestamp: number;
  /** Schema problems the validator found in it (empty when valid). */
  problems: readonly MessageProblem[];
}

/** What `errorFor` knows about the request that failed. */
export interface FailedRequest {
  method: string;
  label: string;
  subject: string | undefined;
}

export type ErrorFor = (error: JsonRpcErrorObject, request: FailedRequest) => McpDriverError;
