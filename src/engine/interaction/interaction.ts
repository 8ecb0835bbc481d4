/**
 * A handler's interaction with its client while it runs, whatever the method (a tool's step
 * function, a prompt's messages, a resource's read, a `server.use()` handler): its cancellation
 * signal, its asks (a server request in the legacy era; in 2026-07-28 an entry of an input
 * round, answered by the client's retry), progress and log messages. One object per request, its
 * methods on the prototype; the abort signal is made only when something asks for it, so a
 * handler that answers at once costs no controller.
 */
import { ErrorCode } from "../../protocol/errors.js";
import type { JsonRpcErrorObject, JsonRpcId, JsonRpcMessage } from "../../protocol/jsonrpc.js";
import { LoggingLevels, type LoggingLevel } from "../../protocol/methods.js";
import type { ClientFacts } from "../../protocol/request-meta.js";
import { versionHas } from "../../protocol/versions.js";
import { askClient } from "../ask-client.js";
import type { ServerRequestExchange, ToolCall } from "../call-log.js";
import { GIVEN_UP_BY_STEP, idKey, ServerRequestError, type Connection, type GiveUp } from "../connection.js";
import { InputRound } from "../mrtr/input-round.js";
import { notAnInputRequest } from "./era-refusals.js";

type Json = Record<string, unknown>;

/** Options of one request a handler makes of the client. */
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

/** Where one request came from and how its handler's asks are given up. */
export interface InteractionOrigin {
  readonly connection: Connection;
  readonly requestId: JsonRpcId;
  readonly protocolVersion: string;
  /** What a 2026-07-28 request said about its client (capabilities, log level); legacy: undefined. */
  readonly client?: ClientFacts;
  /** 2026-07-28: `inputResponses` the request already carries, answering asks by key. */
  readonly given?: Json;
  /** The request's progress token (`_meta.progressToken`), if it sent one. */
  readonly progressToken?: JsonRpcId;
  /** Why asks still waiting are given up when the handler has answered (the client is told). */
  readonly ended: GiveUp;
  /** The tool call this request runs, if any: cancelling the request ends its record. */
  readonly call?: ToolCall;
  /** Where each ask and its answer is recorded. */
  readonly exchanges?: ServerRequestExchange[];
}

/** Where a handler's asks go once its work goes on as a task's (see `continueAs`). */
export type AskRoute = (method: string, params: Json | undefined, exchange: ServerRequestExchange, options?: AskOptions) => Promise<Json>;

export class Interaction {
  readonly protocolVersion: string;
  /**
   * 2026-07-28 (no server requests): where elicitation, sampling and roots asks wait for the
   * client's retry (MRTR). Undefined in the legacy era, where they are requests on the stream.
   */
  readonly input?: InputRound;
  // Private fields (#) stay out of JSON.stringify and spreads of a context built on this.
  #connection: Connection;
  /** The request now carrying the interaction: the first one, then each MRTR retry. */
  #requestId: JsonRpcId;
  #progressToken: JsonRpcId | undefined;
  #client: ClientFacts | undefined;
  #controller?: AbortController;
  /** Legacy-era asks that wait for an answer, each with its own way to give up. */
  #asking?: Set<AbortController>;
  #released = false;
  readonly #ended: GiveUp;
  readonly #call: ToolCall | undefined;
  readonly #exchanges: ServerRequestExchange[] | undefined;
  /** Set once the handler's work went on as a task's: where its asks go instead. */
  #askRoute?: AskRoute;
  /** Set once the handler sent the client anything (a notification or a request). */
  spoke = false;

  constructor(origin: InteractionOrigin) {
    this.protocolVersion = origin.protocolVersion;
    this.#connection = origin.connection;
    this.#requestId = origin.requestId;
    this.#progressToken = origin.progressToken;
    this.#client = origin.client;
    this.#ended = origin.ended;
    this.#call = origin.call;
    this.#exchanges = origin.exchanges;
    // A copy: the asks use the given answers up, and the request's own params stay as they came.
    if (!versionHas(origin.protocolVersion, "serverRequests")) this.input = new InputRound(origin.given && { ...origin.given });
  }

  /** The capabilities the client declared: per request (2026-07-28) or at initialize. */
  get clientCapabilities(): Json {
    return this.#client?.capabilities ?? this.#connection.negotiated.clientCapabilities;
  }

  get signal(): AbortSignal {
    return this.cancellable().signal;
  }

  /** Makes the request cancellable (its controller joins the connection's in-flight requests). */
  cancellable(): AbortController {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      // A cancelled request's input requests will never be answered: a handler awaiting one stops.
      if (this.input !== undefined) this.#controller.signal.addEventListener("abort", () => this.input!.abandon(this.#endedError()), { once: true });
      this.#joinInFlight();
    }
    return this.#controller;
  }

  /** Whether the request was cancelled or its connection closed. */
  get aborted(): boolean {
    return this.#controller?.signal.aborted ?? false;
  }

  /** The interaction waits for a retry (MRTR): it leaves its request's connection, which may close, but stays cancellable. */
  detach(): void {
    if (this.#controller !== undefined) this.#connection.releaseInFlight(idKey(this.#requestId), this.#controller);
  }

  /** The client's retry carries the interaction on: its messages and cancellation go with that request now. */
  rebind(connection: Connection, requestId: JsonRpcId, client: ClientFacts | undefined, progressToken: JsonRpcId | undefined): void {
    this.detach();
    this.#connection = connection;
    this.#requestId = requestId;
    // Progress must name a request in flight: the retry's own token (or none, when it sent none).
    this.#progressToken = progressToken;
    this.#client = client;
    if (this.#controller !== undefined) this.#joinInFlight();
  }

  /**
   * The handler's work goes on after its request was answered, as a task's: its asks go to
   * `route` (the task's input), and its signal aborts when `ends` does (the task was cancelled
   * or expired), not with the request, which is answered already.
   */
  continueAs(route: AskRoute, ends: AbortSignal): void {
    this.#askRoute = route;
    const controller = (this.#controller ??= new AbortController());
    if (ends.aborted) controller.abort(ends.reason);
    else ends.addEventListener("abort", () => controller.abort(ends.reason), { once: true });
  }

  /** Ends the interaction from the server side (given up while parked): its signal aborts. */
  cancel(reason: string): void {
    this.#controller?.abort(new Error(reason));
  }

  /**
   * The handler has answered: the request leaves the in-flight ones, and its asks the client has
   * not answered are given up (legacy: the client is told, as the spec asks of a sender that
   * stops waiting; 2026-07-28: they never go out).
   */
  release(): void {
    this.#released = true;
    if (this.#asking !== undefined) for (const asking of [...this.#asking]) asking.abort(this.#ended);
    this.input?.abandon(this.#endedError());
    this.detach();
  }

  progress(progress: number, total?: number, message?: string): void {
    const progressToken = this.#progressToken;
    // Progress must stop once the request is answered (the client forgets the token then).
    if (progressToken === undefined || this.aborted || this.#released || (this.#call !== undefined && this.#call.outcome !== "pending")) return;
    const params: Json = { progressToken, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined && versionHas(this.protocolVersion, "progressMessage")) params.message = message;
    this.#send({ jsonrpc: "2.0", method: "notifications/progress", params });
  }

  log(level: LoggingLevel, data: unknown, logger?: string): void {
    // 2026-07-28: a request that names no log level wants no log messages.
    const client = this.#client;
    const minimum = client !== undefined ? client.logLevel : this.#connection.negotiated.logLevel;
    if (this.aborted || (client !== undefined && minimum === undefined) || !passesLevel(level, minimum as LoggingLevel | undefined)) return;
    const params: Json = { level, data };
    if (logger !== undefined) params.logger = logger;
    this.#send({ jsonrpc: "2.0", method: "notifications/message", params });
  }

  notify(method: string, params?: Json): void {
    this.#send(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
  }

  /**
   * Asks the client and waits for the answer (recorded). In 2026-07-28 the ask becomes an entry
   * of the next `input_required` result, keyed by `options.key` (default `elicitation-1`, ...).
   */
  async request(method: string, params?: Json, options?: AskOptions): Promise<Json> {
    const exchange: ServerRequestExchange = { method, params, sentAt: Date.now() };
    if (this.#askRoute !== undefined) {
      this.#exchanges?.push(exchange);
      return this.#askRoute(method, params, exchange, options);
    }
    if (this.input !== undefined) {
      if (!InputRound.accepts(method)) {
        const error = notAnInputRequest(method, this.protocolVersion);
        exchange.error = error;
        exchange.answeredAt = exchange.sentAt;
        this.#exchanges?.push(exchange);
        throw new ServerRequestError(error, method, "", true);
      }
      this.#exchanges?.push(exchange);
      return this.input.ask(method, params, exchange, options);
    }
    this.spoke = true;
    this.#exchanges?.push(exchange);
    try {
      // Given up when the request is cancelled or answered first (release), and when the handler says so.
      exchange.result = await askClient(this.#connection, method, params, {
        relatedRequestId: this.#requestId,
        giveUps: [
          [this.signal, this.#ended],
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

  #endedError(): JsonRpcErrorObject {
    return { code: ErrorCode.InternalError, message: this.#ended.why };
  }

  #joinInFlight(): void {
    const entry = this.#call !== undefined ? { controller: this.#controller!, call: this.#call } : { controller: this.#controller! };
    this.#connection.inFlight.set(idKey(this.#requestId), entry);
  }

  #send(message: JsonRpcMessage): void {
    this.spoke = true;
    this.#connection.send(message, { relatedRequestId: this.#requestId });
  }
}

/** Whether a message at `level` gets through a client's minimum level (all pass when unset). */
export function passesLevel(level: LoggingLevel, minimum: LoggingLevel | undefined): boolean {
  return minimum === undefined || LoggingLevels.indexOf(level) >= LoggingLevels.indexOf(minimum);
}
