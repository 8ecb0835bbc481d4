/**
 * One typed emitter for everything the mock can tell: calls, requests, sessions and (over HTTP)
 * streams. The CLI's live lines, observers and metrics are all listeners of it. A listener runs
 * synchronously; one that throws (or, when async, rejects) is contained and reported once, so it
 * never changes what the client under test receives. An async listener is not awaited; one that
 * falls behind (1,000 of its promises unsettled) misses events until it catches up, and each
 * event it missed is counted (`dropped`), so a slow listener costs bounded memory.
 */
import type { HttpFacts } from "../protocol/http-facts.js";
import type { JsonRpcErrorObject, JsonRpcId, JsonRpcMessage } from "../protocol/jsonrpc.js";
import type { ToolCall } from "./call-log.js";
import type { RequestIdentity, TransportFacts } from "./request-context.js";
import { logToStderr } from "../util/log.js";
import { errorText } from "../util/text.js";

/** What a request ended with, as the client saw it. */
export type RequestOutcome =
  /** A result was sent. */
  | "result"
  /** A JSON-RPC error was sent. */
  | "error"
  /** Nothing was sent (cancelled, hung until the client left, or the connection closed). */
  | "none"
  /** The connection was dropped (a `disconnect` step). */
  | "drop"
  /** Raw bytes were written instead of a response (a `raw` step). */
  | "raw";

export interface SessionOpenEvent {
  readonly sessionId: string;
  readonly wire: TransportFacts["wire"];
}

export interface SessionCloseEvent extends SessionOpenEvent {
  /** `disconnected` when the client went away, `cancelled` when the mock ended it. */
  readonly outcome: "cancelled" | "disconnected";
  readonly reason: string;
}

export interface RequestStartEvent {
  readonly method: string;
  /** The wire the request came on (`http`, `stdio`, `memory`, `direct`). */
  readonly wire: TransportFacts["wire"];
  /** The request's params as sent (for people and the journal; never a metric label). */
  readonly params?: Record<string, unknown>;
  readonly requestId: JsonRpcId;
  readonly sessionId: string;
  readonly protocolVersion: string;
  /** Who asked (test id, context), as the wire read it; never a metric label. */
  readonly identity: RequestIdentity;
  /** The MCP endpoint's path, when the mock serves several. */
  readonly mount?: string;
  readonly receivedAt: number;
}

/** Why a request ended with nothing sent, when it did (`outcome: "none"`). */
export type NoReplyCause =
  /** The client sent `notifications/cancelled`. */
  | "cancelled"
  /** The client went away (its HTTP request or its connection closed). */
  | "client_disconnected"
  /** The mock ended the session (close, expiry, DELETE): nothing will be sent any more. */
  | "session_closed"
  /** A step cut the response stream before the answer (`closeAfterEvents`), and the stream cannot be resumed. */
  | "stream_cut";

export interface RequestEndEvent extends RequestStartEvent {
  /** The `request:start` event this one ends, the same object: pair the two by identity. */
  readonly start: RequestStartEvent;
  readonly outcome: RequestOutcome;
  /** The JSON-RPC error sent, when the outcome is `error`. */
  readonly error?: JsonRpcErrorObject;
  /** The result sent, when the outcome is `result` (for people and observers; never a metric label). */
  readonly result?: unknown;
  /** Why nothing was sent: the request ended before its handler answered (the handler may still run), or its step cut its stream (`stream_cut`). */
  readonly noReplyCause?: NoReplyCause;
  /** What the mock caught while handling the request (a step function's or reader's throw), exact objects. */
  readonly errors?: readonly unknown[];
  /** From the wire's receipt of the request to its outcome, in milliseconds (fractional). */
  readonly durationMs: number;
}

/** A message refused before it became a request (not JSON, not JSON-RPC): answered with `code`. */
export interface MessageRejectedEvent {
  readonly code: number;
  readonly sessionId: string;
  readonly wire: TransportFacts["wire"];
}

/** An HTTP request refused by the transport before any message reached the engine. */
export interface HttpRejectedEvent {
  readonly status: number;
  /** The JSON-RPC error code of the refusal's body. */
  readonly code: number;
  readonly path: string;
}

/** A notification the mock sent a client (progress, log, list changes, ...). */
export interface NotificationSentEvent {
  readonly method: string;
  readonly sessionId: string;
  readonly wire: TransportFacts["wire"];
}

/** A 2026-07-28 `tools/call` came with an `Mcp-Param-*` header for a parameter its tool does not mirror (`x-mcp-header`). */
export interface UnknownMirroredHeaderEvent {
  readonly method: string;
  /** The header's lower-case name (for people; never a metric label). */
  readonly header: string;
  readonly wire: TransportFacts["wire"];
}

export interface FakeFailureEvent {
  /** The fake error's stable code (`MCP_FAKE_MISMATCH`); a metric label only while it is a short word (letters, digits, `_.-`), and at most 64 of them. */
  readonly code: string;
}

/** The mock server, as lifecycle events describe it. */
export interface ServerLifecycleEvent {
  /** `http`, `stdio` or `memory`. */
  readonly transport: string;
  /** The Streamable HTTP URL, once listening. */
  readonly url?: string;
}

export interface ServerFailedToStartEvent extends ServerLifecycleEvent {
  readonly error: unknown;
}

export interface ServerStoppedEvent extends ServerLifecycleEvent {
  /** `completed` when every part closed; `failed` with the error otherwise. */
  readonly outcome: "completed" | "failed";
  readonly error?: unknown;
}

/** Why an HTTP SSE stream closed. */
export type StreamCloseReason =
  /** Everything it had to carry was written and it ended. */
  | "completed"
  /** The client closed the connection. */
  | "client_disconnected"
  /** A step closed it early (`closeAfterEvents`), for the client to resume. */
  | "closed_for_resumption"
  /** A step closed it early (`closeAfterEvents`) where it cannot be resumed (its events carry no ids: 2026-07-28, and legacy before 2025-11-25): anything after the cut is lost (an answer that was the last event allowed went). */
  | "cut_by_step"
  /** The client cancelled its request: `notifications/cancelled` for the POST's requests (legacy), a `subscriptions/listen` cancelled, or in 2026-07-28 its stream closed, which cancels it. */
  | "request_cancelled"
  /** Its session ended (DELETE, expiry, a dropped connection). */
  | "session_closed"
  /** The mock is closing. */
  | "server_stopping";

export interface StreamOpenEvent {
  /** The session's id; "" for a stream of a 2026-07-28 request (no session). */
  readonly sessionId: string;
  readonly streamId: string;
  /**
   * `request`: the answer stream of a POST; `standalone`: the GET stream (2025); `listen`: a
   * `subscriptions/listen` (2026-07-28, any wire), from its acknowledgement to its end.
   */
  readonly kind: "request" | "standalone" | "listen";
  /** The wire it is on, when not HTTP (a listen over stdio or memory). */
  readonly wire?: TransportFacts["wire"];
}

export interface StreamCloseEvent extends StreamOpenEvent {
  readonly reason: StreamCloseReason;
}

/**
 * One JSON-RPC message into or out of the mock, on any wire: every request, notification and
 * response a client sent, every answer, and every request or notification the mock sent. Built
 * only while someone listens.
 */
export interface MessageEvent {
  /** `in`: the client sent it; `out`: the mock sent it. */
  readonly direction: "in" | "out";
  /** The message; absent when bytes went instead (`raw`). */
  readonly message?: JsonRpcMessage;
  /** Text that is not a JSON-RPC message: what a client sent that did not parse, or a `raw` step's bytes. */
  readonly raw?: string;
  readonly sessionId: string;
  readonly wire: TransportFacts["wire"];
  /** Who sent it or was sent it (test id, context), where the wire knew. */
  readonly identity?: RequestIdentity;
  /** An `out` message's client request: the one it answers, or the call it travels with. */
  readonly relatedRequestId?: JsonRpcId;
  /** `Date.now()` when the wire received it, or when the mock sent it. */
  readonly at: number;
  /** The protocol revision the message was handled in (the request's, or the session's). */
  readonly protocolVersion: string;
  /** The test id of the request it came with or answers, where the wire knew one. */
  readonly testId?: string;
  /**
   * Over HTTP: the request that carried it (or that it answers): method, path and headers, with
   * credentials (`Authorization`, cookies, API keys, anything named like a token, secret or key)
   * replaced by "[redacted]". For an answer the mock sent on an HTTP response, the response's
   * status and its headers (redacted) instead of the request's: the event is told once the wire
   * has chosen them.
   */
  readonly http?: HttpFacts;
}

/** Every event a mock emits, by name. */
export interface MockEvents {
  /** A tool call arrived (its outcome is still `pending`). */
  "call:start": ToolCall;
  /** A tool call ended: answered, failed, cancelled or disconnected. */
  "call:end": ToolCall;
  /** A client connected (memory, stdio) or initialized an HTTP session. */
  "session:open": SessionOpenEvent;
  "session:close": SessionCloseEvent;
  /** A request (not a notification) reached the engine. */
  "request:start": RequestStartEvent;
  /** A request was answered, or ended with no answer. Exactly once per `request:start`. */
  "request:end": RequestEndEvent;
  /** An SSE stream opened (HTTP), or a `subscriptions/listen` was acknowledged (any wire). */
  "stream:open": StreamOpenEvent;
  "stream:close": StreamCloseEvent;
  /** A message was refused before it became a request (parse error, invalid request). */
  "message:rejected": MessageRejectedEvent;
  /** An HTTP request was refused by the transport (403, 404, 406, 413, 415, 400 ...). */
  "http:rejected": HttpRejectedEvent;
  /** The mock sent a client a notification. */
  "notification:sent": NotificationSentEvent;
  /** A JSON-RPC message went into or out of the mock (every one, on every wire). */
  message: MessageEvent;
  /** A 2026-07-28 request carried an `Mcp-Param-*` header its tool does not mirror (one event per header). */
  "http:unknownMirroredHeader": UnknownMirroredHeaderEvent;
  /** A scenario fake answered with one of its structured failures (`code`: its stable code). The fakes emit it. */
  "fake:failure": FakeFailureEvent;
  /** `mockMcp()` is about to start the server's wire. */
  "server:willStart": ServerLifecycleEvent;
  "server:didStart": ServerLifecycleEvent;
  "server:failedToStart": ServerFailedToStartEvent;
  /** `close()` began. */
  "server:willStop": ServerLifecycleEvent;
  "server:didStop": ServerStoppedEvent;
}

export type MockEventName = keyof MockEvents;
export const MOCK_EVENT_NAMES: readonly MockEventName[] = [
  "call:start",
  "call:end",
  "session:open",
  "session:close",
  "request:start",
  "request:end",
  "stream:open",
  "stream:close",
  "message:rejected",
  "http:rejected",
  "notification:sent",
  "message",
  "http:unknownMirroredHeader",
  "fake:failure",
  "server:willStart",
  "server:didStart",
  "server:failedToStart",
  "server:willStop",
  "server:didStop",
];

type Listener<T> = (payload: T) => void;
type ListenerSets<Events> = { [E in keyof Events]?: Set<Listener<Events[E]>> };

/** How a listener's throw is reported (once per listener). Default: a line on stderr. */
export type ListenerErrorReporter = (event: string, error: unknown) => void;

/** The line that reports a listener's throw. */
export function listenerThrewLine(event: string, error: unknown): string {
  const message = errorText(error);
  return `mcp-testkit: a "${event}" listener threw (${message}); the client was not affected. Later throws from this listener are not reported.`;
}

const reportToStderr: ListenerErrorReporter = (event, error) => logToStderr("warn", listenerThrewLine(event, error));

/** How many unsettled promises an async listener may have before it misses events. */
export const MAX_PENDING_PER_LISTENER = 1000;

export class EventHub<Events extends object = MockEvents> {
  private readonly sets: ListenerSets<Events> = {};
  private readonly failed = new WeakSet<object>();
  /** Unsettled promises per async listener (only listeners that returned one are here). */
  private readonly pending = new WeakMap<object, number>();
  private droppedEvents = 0;

  constructor(private readonly report: ListenerErrorReporter = reportToStderr) {}

  /** Whether anyone listens: emitters skip building a payload nobody reads. */
  has<E extends keyof Events>(event: E): boolean {
    const set = this.sets[event];
    return set !== undefined && set.size > 0;
  }

  /** Listens to `event`; returns a function that stops listening. */
  on<E extends keyof Events>(event: E, listener: Listener<Events[E]>): () => void {
    const set = (this.sets[event] ??= new Set()) as Set<Listener<Events[E]>>;
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  emit<E extends keyof Events>(event: E, payload: Events[E]): void {
    const set = this.sets[event];
    if (set === undefined || set.size === 0) return;
    for (const listener of set) {
      const behind = this.pending.get(listener);
      if (behind !== undefined && behind >= MAX_PENDING_PER_LISTENER) {
        this.droppedEvents++;
        continue;
      }
      try {
        // `void` accepts an async listener: its rejection is contained like a throw, or it
        // would be an unhandled rejection (which ends a Node process by default).
        const returned: unknown = listener(payload);
        if (isThenable(returned)) this.track(String(event), listener, returned);
      } catch (error) {
        this.fail(String(event), listener, error);
      }
    }
  }

  /** Events async listeners missed because they were too far behind (see MAX_PENDING_PER_LISTENER). */
  get dropped(): number {
    return this.droppedEvents;
  }

  private track(event: string, listener: object, returned: PromiseLike<unknown>): void {
    this.pending.set(listener, (this.pending.get(listener) ?? 0) + 1);
    const settled = () => this.pending.set(listener, this.pending.get(listener)! - 1);
    returned.then(settled, (error: unknown) => {
      settled();
      this.fail(event, listener, error);
    });
  }

  /** Reports a listener's first throw or rejection; later ones from the same listener stay quiet. */
  private fail(event: string, listener: object, error: unknown): void {
    if (this.failed.has(listener)) return;
    this.failed.add(listener);
    try {
      this.report(event, error);
    } catch {
      // A reporter that throws must not reach the client either.
    }
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as { then?: unknown }).then === "function";
}
