/**
 * Observers of a mock, fed by its event hub: `request:start` / `request:end` become a request's
 * start and finish, `stream:open` / `stream:close` a stream's or subscription's, `server:*` the
 * lifecycle. The pairing (one frozen `ObservedRequest` for both halves, omitted pairs skipped
 * at their finish) lives here; delivery is `ObserverDelivery`'s.
 */
import type { EventHub, MockEvents, RequestStartEvent, StreamOpenEvent } from "../engine/events.js";
import type { StreamCloseReason } from "../engine/events.js";
import { ObserverDelivery, type ObserveOptions } from "./delivery.js";
import type { McpObserver, ObservedRequest, ObservedStream } from "./observer.js";
import { mockRequestOutcome, type StreamTerminationReason } from "./outcomes.js";
import { traceContextOf } from "./trace-context.js";
import { versionHas } from "../protocol/versions.js";

/** The endpoint label of a wire: the MCP path for HTTP, else the wire's name. */
export type EndpointOf = (wire: string) => string;

const OMITTED = Symbol("omitted");
const NO_ERRORS: readonly unknown[] = Object.freeze([]);

const STREAM_REASONS: Record<StreamCloseReason, StreamTerminationReason> = {
  completed: "completed",
  client_disconnected: "client_disconnected",
  closed_for_resumption: "closed_for_resumption",
  cut_by_step: "cut_by_step",
  request_cancelled: "request_cancelled",
  session_closed: "session_closed",
  server_stopping: "server_stopping",
};

function streamKey(event: StreamOpenEvent): string {
  return `${event.sessionId}\u0000${event.streamId}`;
}

/**
 * Observations in flight, by key: a start that found the queue full is remembered as omitted,
 * so its finish is skipped too (a pair is delivered whole or not at all).
 */
class Pairs<K, T> {
  private readonly open = new Map<K, T | typeof OMITTED>();

  constructor(private readonly delivery: ObserverDelivery) {}

  /** Reserves the pair's slots and keeps `value` until its finish; undefined (omitted) when the queue is full. */
  start(key: K, value: T): T | undefined {
    if (!this.delivery.reservePair()) {
      this.open.set(key, OMITTED);
      return undefined;
    }
    this.open.set(key, value);
    return value;
  }

  /** The started value for `key`, forgotten now; undefined when it was omitted or never seen. */
  finish(key: K): T | undefined {
    const value = this.open.get(key);
    this.open.delete(key);
    return value === OMITTED ? undefined : value;
  }
}

/** Attaches `observers` to a mock's events; returns a function that detaches them. */
export function observeEvents(events: EventHub<MockEvents>, observers: readonly McpObserver[], endpointOf: EndpointOf, options?: ObserveOptions): () => void {
  const delivery = new ObserverDelivery(observers, options);
  // A request's end carries its start event: the pair's key, with no string to build per request.
  const requests = new Pairs<RequestStartEvent, ObservedRequest>(delivery);
  const streams = new Pairs<string, ObservedStream>(delivery);
  const stops = [
    events.on("request:start", (event) => {
      // Spelled out (absent fields undefined), not spread: this runs per request.
      const request = requests.start(
        event,
        Object.freeze({
          method: event.method,
          requestId: event.requestId,
          // A request that names its version per request (2026-07-28) has no session, whatever its connection.
          sessionId: versionHas(event.protocolVersion, "perRequestMeta") ? "" : event.sessionId,
          protocolVersion: event.protocolVersion,
          wire: event.wire,
          endpoint: endpointOf(event.wire),
          startedAt: event.receivedAt,
          params: event.params,
          traceContext: traceContextOf(event.params),
        }),
      );
      if (request !== undefined) delivery.requestStarted(request);
    }),
    events.on("request:end", (event) => {
      const request = requests.finish(event.start);
      if (request === undefined) return;
      delivery.requestFinished(
        request,
        Object.freeze({ outcome: mockRequestOutcome(event), error: event.error, result: event.result, durationMs: event.durationMs, errors: event.errors ?? NO_ERRORS }),
      );
    }),
    events.on("stream:open", (event) => {
      // The GET stream (2025) and a subscriptions/listen (2026-07-28) are subscriptions; a POST's answer is a request stream.
      const kind = event.kind === "request" ? "request_stream" : "subscription";
      const stream = streams.start(streamKey(event), Object.freeze({ kind, streamId: event.streamId, sessionId: event.sessionId, endpoint: endpointOf(event.wire ?? "http"), openedAt: Date.now() }));
      if (stream !== undefined) delivery.streamOpened(stream);
    }),
    events.on("stream:close", (event) => {
      const stream = streams.finish(streamKey(event));
      if (stream === undefined) return;
      delivery.streamClosed(stream, Object.freeze({ reason: STREAM_REASONS[event.reason], durationMs: Date.now() - stream.openedAt }));
    }),
    events.on("server:willStart", (server) => delivery.lifecycle("serverWillStart", server)),
    events.on("server:didStart", (server) => delivery.lifecycle("serverDidStart", server)),
    events.on("server:failedToStart", (server) => delivery.lifecycle("serverDidFailToStart", { transport: server.transport }, server.error)),
    events.on("server:willStop", (server) => delivery.lifecycle("serverWillStop", server)),
    events.on("server:didStop", (server) =>
      delivery.lifecycle("serverDidStop", { transport: server.transport, ...optional("url", server.url) }, { outcome: server.outcome, ...optional("error", server.error) }),
    ),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}

/** `{ [key]: value }` when value is defined, else `{}` (for spreads of optional fields). */
export function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
