/**
 * What an observer hears: the server's lifecycle, each admitted request from its start to its
 * finish, and each stream and subscription from open to close. An observer is a plain object
 * with the callbacks it wants (all optional), like an msw handler: a value you pass around.
 */
import type { JsonRpcErrorObject, JsonRpcId } from "../protocol/jsonrpc.js";
import type { McpRequestOutcome, StreamTerminationReason } from "./outcomes.js";

/** W3C trace context a request carried in `params._meta` (never read from HTTP headers). */
export interface TraceContextCarrier {
  readonly traceparent?: string;
  readonly tracestate?: string;
  readonly baggage?: string;
}

/** One admitted request, the same frozen object at its start and at its finish. */
export interface ObservedRequest {
  /** The JSON-RPC method exactly as sent (for diagnostics; metrics use a bounded value). */
  readonly method: string;
  readonly requestId: JsonRpcId;
  readonly sessionId: string;
  readonly protocolVersion: string;
  /** `http`, `stdio`, `memory`, `direct` (a mock), or `simulated` (the simulator's view of any target). */
  readonly wire: string;
  /** The MCP endpoint path for HTTP, else the wire's name. */
  readonly endpoint: string;
  /** Wall-clock time (`Date.now()`) of the semantic start: when the wire received the request. */
  readonly startedAt: number;
  /** The request's params as sent: application data, sensitive; never use as a metric label. */
  readonly params?: Readonly<Record<string, unknown>>;
  /** Trace context from `params._meta`, if it carried any. */
  readonly traceContext?: TraceContextCarrier;
}

/** How an admitted request finished, as its client saw it. */
export interface RequestFinish {
  readonly outcome: McpRequestOutcome;
  /** The JSON-RPC error sent, if one was. */
  readonly error?: JsonRpcErrorObject;
  /** The result sent, if one was (application data). */
  readonly result?: unknown;
  /** From the semantic start to the client-visible end (not including delivery to observers). */
  readonly durationMs: number;
  /** What was caught handling it: the exact thrown objects, sensitive (may carry secrets). */
  readonly errors: readonly unknown[];
}

/** A stream (the SSE answer of one POST) or a subscription (a standalone GET stream). */
export interface ObservedStream {
  readonly kind: "request_stream" | "subscription";
  readonly streamId: string;
  readonly sessionId: string;
  readonly endpoint: string;
  readonly openedAt: number;
}

export interface StreamClosure {
  readonly reason: StreamTerminationReason;
  readonly durationMs: number;
}

/** The server an observer watches, as lifecycle callbacks describe it. */
export interface ObservedServer {
  readonly transport: string;
  readonly url?: string;
}

export interface ServerStopResult {
  readonly outcome: "completed" | "failed";
  readonly error?: unknown;
  /**
   * The driver's observers only: who ended it. `client` for `close()` (or `kill()`), `server`
   * when the server went away on its own (its process exited or closed its stdout, its
   * connection closed, or its URL refused connections). Absent on the mock, which is the server.
   */
  readonly initiator?: "client" | "server";
  /** A spawned server's exit code (null when a signal ended it), once it has exited. */
  readonly exitCode?: number | null;
  /** The signal that ended a spawned server, or null; once it has exited. */
  readonly exitSignal?: string | null;
}

/**
 * An observer: any of these callbacks. Lifecycle callbacks run at the transition itself;
 * request and stream callbacks are delivered from a bounded queue after the client's answer
 * (see `ObserveOptions`). A callback that throws, or returns a promise that rejects, is
 * contained: the client's traffic never changes, and the failure is reported once.
 */
export interface McpObserver {
  /** A name for diagnostics (`observer "audit" threw in requestDidFinish`). */
  readonly name?: string;
  serverWillStart?(server: ObservedServer): void;
  serverDidStart?(server: ObservedServer): void;
  serverDidFailToStart?(server: ObservedServer, error: unknown): void;
  serverWillStop?(server: ObservedServer): void;
  serverDidStop?(server: ObservedServer, result: ServerStopResult): void;
  /** An admitted request started (before any step, fake or handler ran). */
  requestDidStart?(request: ObservedRequest): void | Promise<void>;
  /** It finished, exactly once, even if its handler still runs (a hang whose client left). */
  requestDidFinish?(request: ObservedRequest, finish: RequestFinish): void | Promise<void>;
  streamDidOpen?(stream: ObservedStream): void | Promise<void>;
  streamDidClose?(stream: ObservedStream, closure: StreamClosure): void | Promise<void>;
  subscriptionDidOpen?(stream: ObservedStream): void | Promise<void>;
  subscriptionDidClose?(stream: ObservedStream, closure: StreamClosure): void | Promise<void>;
}

/** A fixed, data-free message about observation itself (never the client's data or an exception's text). */
export interface ObservationDiagnostic {
  readonly type: "observer_failed" | "observations_omitted";
  readonly message: string;
}
