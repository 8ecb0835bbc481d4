/**
 * What a step function `(call) => step` receives: the call's record plus ways to talk back to
 * the client while the call runs (progress, log messages, sampling, elicitation, roots).
 * Every request made here and its answer is recorded on the call (`call.exchanges`).
 */
import { LoggingLevels, type LoggingLevel } from "../protocol/methods.js";
import { versionHas } from "../protocol/versions.js";
import type { JsonRpcId, JsonRpcMessage } from "../protocol/jsonrpc.js";
import type { ClientFacts } from "../protocol/request-meta.js";
import type { Exchange, ToolCall } from "./call-log.js";
import { askClient } from "./ask-client.js";
import { GIVEN_UP_BY_STEP, idKey, ServerRequestError, type Connection } from "./connection.js";
import type { RequestIdentity } from "./request-context.js";
import { InputRound } from "./mrtr/input-round.js";
import { onAbort } from "../util/on-abort.js";

type Json = Record<string, unknown>;

/** Options of one request a step function makes of the client. */
export interface AskOptions {
  /** How the ask is named in a 2026-07-28 `inputRequests` map (ignored in the legacy era). */
  key?: string;
  /**
   * Gives the request up when it aborts: the promise rejects, and the client is told (legacy:
   * `notifications/cancelled`; 2026-07-28: the ask leaves the next round, and an answer the
   * client's retry still brings for it is ignored, as extra input responses are).
   */
  signal?: AbortSignal;
}

/** A client's answer to `elicitation/create` (the spec's `ElicitResult`). */
export interface ElicitAnswer extends Json {
  action: "accept" | "decline" | "cancel";
  /** The form's values, with `accept` in form mode. */
  content?: Record<string, unknown>;
}

/** A client's answer to `sampling/createMessage` (the spec's `CreateMessageResult`). */
export interface SampleAnswer extends Json {
  role: "user" | "assistant";
  /** One content block (`{ type: "text", text }`, …), or several in revisions that allow them. */
  content: Json | Json[];
  model: string;
  stopReason?: string;
}

/** One of the client's roots (`roots/list`). */
export interface ClientRoot extends Json {
  uri: string;
  name?: string;
}

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
  /**
   * Sends a request to the client and waits for the answer (recorded on the call). In
   * 2026-07-28 it becomes an entry of the call's `input_required` result (MRTR), keyed by
   * `options.key` (default `elicitation-1`, `sampling-2`, ...), answered by the client's retry.
   */
  request(method: string, params?: Json, options?: AskOptions): Promise<Json>;
  /** `sampling/createMessage`; resolves with the client's answer (`answer.content.text` for a text reply). */
  sample(params: Json, options?: AskOptions): Promise<SampleAnswer>;
  /** `elicitation/create` (form mode: `{ message, requestedSchema }`; URL mode: `{ mode: "url", ... }`); resolves with `{ action, content? }`. */
  elicit(params: Json, options?: AskOptions): Promise<ElicitAnswer>;
  /** `roots/list`; resolves with the client's roots themselves (the result's `roots` array, `[]` when it sent none). */
  listRoots(options?: AskOptions): Promise<ClientRoot[]>;
  /** What the client declared it can do: per request in 2026-07-28, at `initialize` before. */
  readonly clientCapabilities: Json;
  /**
   * Tells every client, not only this one: legacy sessions get the notification, 2026-07-28
   * `subscriptions/listen` streams get it when they opted in (e.g. `notifications/tools/list_changed`).
   * `notifications/resources/updated` with a `uri` goes only where that resource is subscribed to.
   */
  broadcast(method: string, params?: Json): void;
  /** Ends every open `subscriptions/listen` from the server side (each gets its closing result). */
  endSubscriptions(): number;
  /** `ping` to the client; resolves when it answers. */
  ping(): Promise<void>;
}

/** What a call may tell every client through (the engine). */
export interface CallHub {
  broadcast(method: string, params?: Json): void;
  notifyResourceUpdated(uri: string, params?: Json): void;
  endSubscriptions(): number;
}

const NO_HUB: CallHub = { broadcast: () => undefined, notifyResourceUpdated: () => undefined, endSubscriptions: () => 0 };

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
  /**
   * 2026-07-28 (no server requests): where elicitation, sampling and roots asks wait for the
   * client's retry (MRTR). Undefined in the legacy era, where they are requests on the stream.
   */
  readonly input?: InputRound;
  // Private fields (#) stay out of JSON.stringify and spreads of the context.
  #connection: Connection;
  /** The request now carrying the call: the first one, then each MRTR retry. */
  #requestId: JsonRpcId;
  /** The progress token of that request (`_meta.progressToken`), if it sent one. */
  #progressToken: JsonRpcId | undefined;
  #controller?: AbortController;
  /** The call's requests to the client that wait for an answer (legacy era), each with its own way to give up. */
  #asking?: Set<AbortController>;
  readonly #hub: CallHub;
  /** Set once the step sent the client anything (a notification or a request). */
  spoke = false;

  constructor(
    readonly record: ToolCall,
    connection: Connection,
    readonly protocolVersion: string,
    readonly identity: RequestIdentity,
    /** What a 2026-07-28 request said about its client (capabilities, log level); legacy: undefined. */
    private client?: ClientFacts,
    /** 2026-07-28: `inputResponses` the request already carries, answering asks by key. */
    given?: Json,
    hub: CallHub = NO_HUB,
  ) {
    this.#hub = hub;
    this.tool = record.tool;
    this.arguments = record.arguments;
    if (Object.hasOwn(record, "rawArguments")) (this as { rawArguments?: unknown }).rawArguments = record.rawArguments;
    this.index = record.index;
    this.sessionId = record.sessionId;
    this.meta = record.meta;
    this.requestId = record.requestId;
    this.#requestId = record.requestId;
    this.#progressToken = record.meta?.progressToken as JsonRpcId | undefined;
    this.#connection = connection;
    if (!versionHas(protocolVersion, "serverRequests")) this.input = new InputRound(given);
  }

  /** The capabilities the client declared: per request (2026-07-28) or at initialize. */
  get clientCapabilities(): Record<string, unknown> {
    return this.client?.capabilities ?? this.#connection.negotiated.clientCapabilities;
  }

  /** The call waits for a retry (MRTR): it leaves its request's connection, which may close, but stays cancellable. */
  detach(): void {
    const key = idKey(this.#requestId);
    if (this.#controller !== undefined) this.#connection.releaseInFlight(key, this.#controller);
  }

  /** The client's retry carries the call on: its messages and cancellation go with that request now. */
  rebind(connection: Connection, requestId: JsonRpcId, client: ClientFacts | undefined, progressToken: JsonRpcId | undefined): void {
    this.detach();
    this.#connection = connection;
    this.#requestId = requestId;
    // Progress must name a request in flight: the retry's own token (or none, when it sent none).
    this.#progressToken = progressToken;
    this.client = client;
    if (this.#controller !== undefined) connection.inFlight.set(idKey(requestId), { controller: this.#controller, call: this.record });
  }

  get signal(): AbortSignal {
    return this.cancellable().signal;
  }

  /** Makes the call cancellable (its controller joins the connection's in-flight requests). */
  cancellable(): AbortController {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      // A cancelled call's input requests will never be answered: a step awaiting one stops.
      const input = this.input;
      if (input !== undefined) onAbort(this.#controller.signal, () => input.abandon());
      this.#connection.inFlight.set(idKey(this.#requestId), { controller: this.#controller, call: this.record });
    }
    return this.#controller;
  }

  /** Ends the call from the server side (an MRTR call given up): its signal aborts. */
  cancel(reason: string): void {
    this.#controller?.abort(new Error(reason));
  }

  /** Whether the call was cancelled or its connection closed. */
  get aborted(): boolean {
    return this.#controller?.signal.aborted ?? false;
  }

  /**
   * The call is over: it leaves the in-flight requests (if it joined them), and its requests the
   * client has not answered yet are given up (the client is told, as the spec asks of a sender
   * that stops waiting; in 2026-07-28 they are dropped): a step that answered without waiting
   * for them leaves nothing open.
   */
  release(): void {
    if (this.#asking !== undefined) for (const asking of [...this.#asking]) asking.abort();
    // 2026-07-28: asks still waiting for a round will never go out (the call is answered).
    this.input?.abandon();
    if (this.#controller === undefined) return;
    this.detach();
  }

  progress(progress: number, total?: number, message?: string): void {
    const progressToken = this.#progressToken;
    // Progress must stop once the call is answered (the client forgets the token then).
    if (progressToken === undefined || this.aborted || this.record.outcome !== "pending") return;
    const params: Json = { progressToken, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined && versionHas(this.protocolVersion, "progressMessage")) params.message = message;
    this.send({ jsonrpc: "2.0", method: "notifications/progress", params });
  }

  log(level: LoggingLevel, data: unknown, logger?: string): void {
    // 2026-07-28: a request that names no log level wants no log messages.
    const minimum = this.client !== undefined ? this.client.logLevel : this.#connection.negotiated.logLevel;
    if (this.aborted || (this.client !== undefined && minimum === undefined) || !passesLevel(level, minimum as LoggingLevel | undefined)) return;
    const params: Json = { level, data };
    if (logger !== undefined) params.logger = logger;
    this.send({ jsonrpc: "2.0", method: "notifications/message", params });
  }

  broadcast(method: string, params?: Json): void {
    // An update is news only to those who subscribed to that resource (the spec sends it nowhere else).
    if (method === "notifications/resources/updated" && typeof params?.uri === "string") this.#hub.notifyResourceUpdated(params.uri, params);
    else this.#hub.broadcast(method, params);
  }

  endSubscriptions(): number {
    return this.#hub.endSubscriptions();
  }

  notify(method: string, params?: Json): void {
    this.send(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
  }

  async request(method: string, params?: Json, options?: AskOptions): Promise<Json> {
    if (this.input !== undefined) return this.askInput(method, params, options);
    this.spoke = true;
    const exchange: Exchange = { method, params, sentAt: Date.now() };
    this.record.exchanges.push(exchange);
    try {
      // Given up when the call is cancelled or ends first (release), and when the step says so.
      exchange.result = await askClient(this.#connection, method, params, {
        relatedRequestId: this.#requestId,
        giveUps: [
          [this.signal, undefined],
          [options?.signal, GIVEN_UP_BY_STEP],
        ],
        asking: (this.#asking ??= new Set()),
        declared: () => this.clientCapabilities,
      });
      return exchange.result;
    } catch (error) {
      if (error instanceof ServerRequestError) exchange.error = error.error;
      throw error;
    } finally {
      exchange.answeredAt = Date.now();
    }
  }

  /** MRTR: the ask joins the call's next input_required result; recorded like a request. */
  private askInput(method: string, params?: Json, options?: AskOptions): Promise<Json> {
    if (!InputRound.accepts(method)) {
      const error = { code: -32601, message: `${method} cannot be sent to a client in protocol version ${this.protocolVersion}: servers send no requests there, and only elicitation/create, sampling/createMessage and roots/list travel as input requests (MRTR)` };
      this.record.exchanges.push({ method, params, sentAt: Date.now(), error, answeredAt: Date.now() });
      return Promise.reject(new ServerRequestError(error, method, "", true));
    }
    const exchange: Exchange = { method, params, sentAt: Date.now() };
    this.record.exchanges.push(exchange);
    return this.input!.ask(method, params, exchange, options);
  }

  // The client's answers are typed as the spec shapes them; the driver and SDK clients send those.
  sample(params: Json, options?: AskOptions): Promise<SampleAnswer> {
    return this.request("sampling/createMessage", params, options) as Promise<SampleAnswer>;
  }

  elicit(params: Json, options?: AskOptions): Promise<ElicitAnswer> {
    return this.request("elicitation/create", params, options) as Promise<ElicitAnswer>;
  }

  async listRoots(options?: AskOptions): Promise<ClientRoot[]> {
    return ((await this.request("roots/list", this.input !== undefined ? {} : undefined, options)).roots as ClientRoot[] | undefined) ?? [];
  }

  async ping(): Promise<void> {
    await this.request("ping");
  }

  private send(message: JsonRpcMessage): void {
    this.spoke = true;
    this.#connection.send(message, this.related());
  }

  private related(): { relatedRequestId: JsonRpcId } {
    return { relatedRequestId: this.#requestId };
  }
}

/** Whether a message at `level` gets through a client's minimum level (all pass when unset). */
export function passesLevel(level: LoggingLevel, minimum: LoggingLevel | undefined): boolean {
  return minimum === undefined || LoggingLevels.indexOf(level) >= LoggingLevels.indexOf(minimum);
}
