/**
 * What a step function `(call) => step` receives: the call's record plus ways to talk back to
 * the client while the call runs (progress, log messages, sampling, elicitation, roots).
 * Every request made here and its answer is recorded on the call (`call.exchanges`).
 */
import { LoggingLevels, type LoggingLevel } from "../protocol/methods.js";
import { versionHas } from "../protocol/versions.js";
import type { JsonRpcId, JsonRpcMessage } from "../protocol/jsonrpc.js";
import type { Exchange, ToolCall } from "./call-log.js";
import { idKey, ServerRequestError, type Connection } from "./connection.js";
import type { RequestIdentity } from "./request-context.js";

type Json = Record<string, unknown>;

export interface ToolCallContext {
  readonly tool: string;
  /** Always an object: `{}` when the client sent none, or sent something else (that value is in `rawArguments`). */
  readonly arguments: Record<string, unknown>;
  /** Only when the client sent `arguments` that are not an object: that value, as sent. */
  readonly rawArguments?: unknown;
  readonly index: number;
  readonly sessionId: string;
  readonly meta?: Record<string, unknown>;
  readonly requestId: JsonRpcId;
  /** The protocol version the request spoke. */
  readonly protocolVersion: string;
  /** Who is calling (test id, context), as the wire read it; empty when nothing said. */
  readonly identity: RequestIdentity;
  /** The call's live record (its outcome is still `pending`). */
  readonly record: ToolCall;
  /** Aborted when the client cancels the call, the connection drops or the server closes. */
  readonly signal: AbortSignal;
  /** Sends `notifications/progress` if the request carried a progress token and is not answered yet (else does nothing). */
  progress(progress: number, total?: number, message?: string): void;
  /** Sends `notifications/message`, unless the client's `logging/setLevel` filters it out. */
  log(level: LoggingLevel, data: unknown, logger?: string): void;
  /** Sends any notification to the client. */
  notify(method: string, params?: Json): void;
  /** Sends a request to the client and waits for the answer (recorded on the call). */
  request(method: string, params?: Json): Promise<Json>;
  /** `sampling/createMessage`. */
  sample(params: Json): Promise<Json>;
  /** `elicitation/create` (form mode: `{ message, requestedSchema }`; URL mode: `{ mode: "url", ... }`). */
  elicit(params: Json): Promise<Json>;
  /** `roots/list`; resolves with the client's roots. */
  listRoots(): Promise<Json[]>;
  /** `ping` to the client; resolves when it answers. */
  ping(): Promise<void>;
}

/**
 * A call in progress, as its step function sees it. One object per call, its methods on the
 * prototype; the abort signal is made only when something asks for it (a step that returns its
 * answer at once never needs one), and from then on the call can be cancelled.
 */
export class LiveCall implements ToolCallContext {
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
  // Declared only: an own property exactly when the client sent non-object arguments.
  declare readonly rawArguments?: unknown;
  readonly index: number;
  readonly sessionId: string;
  readonly meta?: Record<string, unknown>;
  readonly requestId: JsonRpcId;
  // Private fields (#) stay out of JSON.stringify and spreads of the context.
  readonly #connection: Connection;
  #controller?: AbortController;
  /** Set once the step sent the client anything (a notification or a request). */
  spoke = false;

  constructor(
    readonly record: ToolCall,
    connection: Connection,
    readonly protocolVersion: string,
    readonly identity: RequestIdentity,
  ) {
    this.tool = record.tool;
    this.arguments = record.arguments;
    if (Object.hasOwn(record, "rawArguments")) (this as { rawArguments?: unknown }).rawArguments = record.rawArguments;
    this.index = record.index;
    this.sessionId = record.sessionId;
    this.meta = record.meta;
    this.requestId = record.requestId;
    this.#connection = connection;
  }

  get signal(): AbortSignal {
    return this.cancellable().signal;
  }

  /** Makes the call cancellable (its controller joins the connection's in-flight requests). */
  cancellable(): AbortController {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      this.#connection.inFlight.set(idKey(this.record.requestId), { controller: this.#controller, call: this.record });
    }
    return this.#controller;
  }

  /** Whether the call was cancelled or its connection closed. */
  get aborted(): boolean {
    return this.#controller?.signal.aborted ?? false;
  }

  /** The call is over: it leaves the in-flight requests (if it joined them). */
  release(): void {
    if (this.#controller === undefined) return;
    const key = idKey(this.record.requestId);
    if (this.#connection.inFlight.get(key)?.controller === this.#controller) this.#connection.inFlight.delete(key);
  }

  progress(progress: number, total?: number, message?: string): void {
    const progressToken = this.record.meta?.progressToken;
    // Progress must stop once the call is answered (the client forgets the token then).
    if (progressToken === undefined || this.aborted || this.record.outcome !== "pending") return;
    const params: Json = { progressToken, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined && versionHas(this.protocolVersion, "progressMessage")) params.message = message;
    this.send({ jsonrpc: "2.0", method: "notifications/progress", params });
  }

  log(level: LoggingLevel, data: unknown, logger?: string): void {
    if (this.aborted || !passesLevel(level, this.#connection.negotiated.logLevel)) return;
    const params: Json = { level, data };
    if (logger !== undefined) params.logger = logger;
    this.send({ jsonrpc: "2.0", method: "notifications/message", params });
  }

  notify(method: string, params?: Json): void {
    this.send(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
  }

  async request(method: string, params?: Json): Promise<Json> {
    this.spoke = true;
    const exchange: Exchange = { method, params, sentAt: Date.now() };
    this.record.exchanges.push(exchange);
    try {
      exchange.result = await this.#connection.request(method, params, { ...this.related(), signal: this.signal });
      return exchange.result;
    } catch (error) {
      if (error instanceof ServerRequestError) exchange.error = error.error;
      throw error;
    } finally {
      exchange.answeredAt = Date.now();
    }
  }

  sample(params: Json): Promise<Json> {
    return this.request("sampling/createMessage", params);
  }

  elicit(params: Json): Promise<Json> {
    return this.request("elicitation/create", params);
  }

  async listRoots(): Promise<Json[]> {
    return ((await this.request("roots/list")).roots as Json[] | undefined) ?? [];
  }

  async ping(): Promise<void> {
    await this.request("ping");
  }

  private send(message: JsonRpcMessage): void {
    this.spoke = true;
    this.#connection.send(message, this.related());
  }

  private related(): { relatedRequestId: JsonRpcId } {
    return { relatedRequestId: this.record.requestId };
  }
}

/** Whether a message at `level` gets through a client's minimum level (all pass when unset). */
export function passesLevel(level: LoggingLevel, minimum: LoggingLevel | undefined): boolean {
  return minimum === undefined || LoggingLevels.indexOf(level) >= LoggingLevels.indexOf(minimum);
}
