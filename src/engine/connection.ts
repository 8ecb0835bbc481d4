/**
 * One client's connection to the mock: where server-initiated messages go (its peer), which of
 * its requests are in flight (so they can be cancelled), and the requests the mock sent it that
 * await an answer. What the client negotiated is kept apart, in `negotiated`.
 */
import type { JsonRpcErrorObject, JsonRpcId, JsonRpcMessage, JsonRpcResponse } from "../protocol/jsonrpc.js";
import type { ToolCall } from "./call-log.js";
import { NegotiatedState } from "./negotiated.js";
import { LATEST_PROTOCOL_VERSION } from "../protocol/versions.js";
import type { Peer, SendOptions, StreamHints } from "./outcome.js";
import type { TransportFacts } from "./request-context.js";
import type { EventHub } from "./events.js";
import { onAbort } from "../util/on-abort.js";

export interface InFlightRequest {
  controller: AbortController;
  call?: ToolCall;
}

interface PendingServerRequest {
  resolve(result: Record<string, unknown>): void;
  reject(error: ServerRequestError): void;
}

/** The client answered a server-initiated request with a JSON-RPC error (or never could). */
export class ServerRequestError extends Error {
  constructor(
    readonly error: JsonRpcErrorObject,
    readonly method: string,
    /** Why the client may have refused, when the mock knows (a capability it never declared). */
    hint = "",
    /** The client never answered: the mock gave the request up (`error` says why), so no answer is claimed. */
    readonly unanswered = false,
  ) {
    super(unanswered ? `The client did not answer ${method}: ${error.message}` : `The client answered ${method} with error ${error.code}: ${error.message}${hint}`);
    this.name = "ServerRequestError";
  }
}

/** Request ids are compared by value; 1 and "1" are different ids. */
export function idKey(id: JsonRpcId): string {
  return typeof id === "number" ? `n${id}` : `s${id}`;
}

const NO_KEYS: readonly string[] = Object.freeze([]);

export class Connection {
  // Made on first use: a 2026-07-28 request's own connection (one per POST) mostly needs none of these.
  #inFlight?: Map<string, InFlightRequest>;
  #negotiated?: NegotiatedState;
  #pending?: Map<string, PendingServerRequest & { method: string }>;
  private nextServerRequestId = 0;
  closed = false;

  constructor(
    readonly id: string,
    private readonly peer: Peer | undefined,
    /** Which wire the client came in on. */
    readonly wire: TransportFacts["wire"],
    /** False for one 2026-07-28 HTTP request's own connection: no session, no session events. */
    readonly session: boolean = true,
    /** Hears `notification:sent` (the engine's hub). */
    private readonly events?: EventHub,
  ) {}

  /** The requests that can be cancelled now (a step that asked for a signal, a listen), by id key. */
  get inFlight(): Map<string, InFlightRequest> {
    return (this.#inFlight ??= new Map());
  }

  /**
   * Takes the cancellable request with this key out (only if it is `controller`'s, when given) and
   * returns it; undefined, and no map made, when there is none.
   */
  releaseInFlight(key: string, controller?: AbortController): InFlightRequest | undefined {
    const entry = this.#inFlight?.get(key);
    if (entry === undefined || (controller !== undefined && entry.controller !== controller)) return undefined;
    this.#inFlight!.delete(key);
    return entry;
  }

  /** The keys of the requests that can be cancelled now, as a list of their own (a shared empty one when none: a 2026-07-28 request's connection closes on every request). */
  inFlightKeys(): readonly string[] {
    return this.#inFlight === undefined || this.#inFlight.size === 0 ? NO_KEYS : [...this.#inFlight.keys()];
  }

  /** What the client agreed on at `initialize` (a legacy-era session's state). */
  get negotiated(): NegotiatedState {
    return (this.#negotiated ??= new NegotiatedState());
  }

  /** The version `initialize` agreed, without making the negotiated state of a connection that never negotiates. */
  get negotiatedVersion(): string {
    return this.#negotiated?.protocolVersion ?? LATEST_PROTOCOL_VERSION;
  }

  private get pending(): Map<string, PendingServerRequest & { method: string }> {
    return (this.#pending ??= new Map());
  }

  /** Whether server-initiated messages can reach this client. */
  get reachable(): boolean {
    return this.peer !== undefined && !this.closed;
  }

  send(message: JsonRpcMessage, options?: SendOptions): void {
    if (!this.reachable) return;
    // Serialized here, for every wire; a value JSON cannot carry throws to the step that sent it.
    this.peer!.send(JSON.stringify(message), options);
    if (this.events?.has("message")) {
      this.events.emit("message", {
        direction: "out",
        message,
        sessionId: this.id,
        wire: this.wire,
        relatedRequestId: options?.relatedRequestId,
        protocolVersion: this.negotiatedVersion,
        at: Date.now(),
      });
    }
    if (this.events?.has("notification:sent") && "method" in message && !("id" in message)) {
      this.events.emit("notification:sent", { method: message.method, sessionId: this.id, wire: this.wire });
    }
  }

  /** Tells the wire how a request's answer should travel; false when the answer cannot go any more. */
  prepare(requestId: JsonRpcId, hints: StreamHints): boolean {
    return this.reachable ? this.peer!.prepare?.(requestId, hints) !== false : true;
  }

  /** Sends a request to the client and resolves with its result (rejects with ServerRequestError). */
  request(method: string, params: Record<string, unknown> | undefined, options: SendOptions & { signal?: AbortSignal } = {}): Promise<Record<string, unknown>> {
    if (!this.reachable) {
      return Promise.reject(new ServerRequestError({ code: -32000, message: "the client is not connected (or cannot receive server requests on this wire)" }, method, "", true));
    }
    // A call that already ended asks nothing (its abort listener would never fire, and the request would wait for ever).
    if (options.signal?.aborted) return Promise.reject(givenUp(options.signal).error(method));
    const id = `mcp-testkit-${this.nextServerRequestId++}`;
    return new Promise((resolve, reject) => {
      const key = idKey(id);
      const stopListening = onAbort(options.signal, () => {
        this.pending.delete(key);
        const why = givenUp(options.signal!);
        // Tell the client to stop working on it, as the spec asks of a sender that gives up.
        this.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: why.told } }, { relatedRequestId: options.relatedRequestId });
        reject(why.error(method));
      });
      this.pending.set(key, {
        method,
        resolve: (result) => {
          stopListening();
          resolve(result);
        },
        reject: (error) => {
          stopListening();
          reject(error);
        },
      });
      this.send(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params }, { relatedRequestId: options.relatedRequestId });
    });
  }

  /** Routes a client's response to the server request it answers; false when none waits for it. */
  settle(response: JsonRpcResponse): boolean {
    if (response.id === null || this.#pending === undefined) return false;
    const key = idKey(response.id);
    const waiting = this.pending.get(key);
    if (!waiting) return false;
    this.pending.delete(key);
    if ("error" in response) waiting.reject(new ServerRequestError(response.error, waiting.method));
    else waiting.resolve(response.result);
    return true;
  }

  /** Ends the session: every pending server request fails. In-flight calls are ended by the engine. */
  close(): void {
    this.closed = true;
    if (this.#pending === undefined) return;
    for (const waiting of this.pending.values()) waiting.reject(new ServerRequestError({ code: -32000, message: "the connection closed" }, waiting.method, "", true));
    this.pending.clear();
  }
}

/** Why a request to the client was given up: the error's words, and the reason the client is told. */
export class GiveUp {
  constructor(
    readonly why: string,
    readonly told: string,
  ) {}

  error(method: string): ServerRequestError {
    return new ServerRequestError({ code: -32000, message: this.why }, method, "", true);
  }
}

/** The reason a tool call gives up what its step asked and did not wait for. */
export const CALL_ENDED = new GiveUp("the tool call ended before the client answered", "the tool call ended");
/** The reason a prompts/get or resources/read gives up what its function asked and did not wait for. */
export const REQUEST_ENDED = new GiveUp("the prompts/get or resources/read that asked was answered first", "the server answered the request that asked");
/** The reason any other request's handler gives up what it asked and did not wait for. */
export function requestAnswered(method: string): GiveUp {
  return new GiveUp(`the ${method} that asked was answered first`, "the server answered the request that asked");
}
/** The reason a request's signal aborts with when the step itself gives the request up (`AskOptions.signal`). */
export const GIVEN_UP_BY_STEP = new GiveUp("the step gave the request up (its signal aborted) before the client answered", "the server gave the request up");

function givenUp(signal: AbortSignal): GiveUp {
  return signal.reason instanceof GiveUp ? signal.reason : CALL_ENDED;
}
