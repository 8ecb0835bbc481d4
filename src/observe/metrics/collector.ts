/**
 * The metrics of one mock, derived from its event hub: requests by endpoint, method and
 * outcome with durations, live requests, sessions, streams and subscriptions, stream and
 * subscription durations by reason, connections, protocol errors, cancellations, progress,
 * keep-alives and fake failures. Every label is bounded (see `labels.ts`). Updates are
 * synchronous map increments; the hub contains a listener that throws.
 */
import { revisionsWith } from "../../protocol/versions.js";
import type { EventHub, MockEvents, StreamOpenEvent } from "../../engine/events.js";
import type { EndpointOf } from "../observe-events.js";
import { mockRequestOutcome } from "../outcomes.js";
import { HistogramFamily, observeInto, ValueFamily, type HistogramSeries } from "./families.js";
import { codeLabel, FakeCodeLabels, methodLabel, statusLabel } from "./labels.js";
import { MetricsSnapshot } from "./snapshot.js";

const PREFIX = "mcp_testkit_";

interface RequestSeries {
  readonly count: { value: number };
  readonly duration: HistogramSeries;
}

export class MetricsCollector {
  readonly serverStarts = this.counter("server_starts_total", "Times the mock server started.");
  readonly shutdowns = this.counter("shutdowns_total", "Times the mock server stopped, by outcome.", ["outcome"]);
  readonly connectionsAccepted = this.counter("connections_accepted_total", "Client connections (memory, stdio) and HTTP sessions opened, by wire.", ["wire"]);
  readonly connectionsRejected = this.counter("connections_rejected_total", "HTTP requests refused by the transport before any message reached the engine, by status.", ["status"]);
  readonly transportFailures = this.counter("transport_failures_total", "Connections the mock dropped (disconnect steps), by fixed reason.", ["reason"]);
  readonly requestsAccepted = this.counter("requests_accepted_total", "Requests admitted to the engine.");
  readonly messagesRejected = this.counter("messages_rejected_total", "Messages refused before they became requests (not JSON, not JSON-RPC), by code.", ["code"]);
  readonly requestsActive = this.gauge("requests_active", "Admitted requests not finished yet.");
  readonly requests = this.counter("requests_total", "Finished requests by endpoint, method and client-visible outcome.", ["endpoint", "method", "outcome"]);
  readonly requestDuration = this.histogram("request_duration_seconds", "Request duration from receipt to the client-visible end, seconds.", ["endpoint", "method", "outcome"]);
  readonly toolCallsActive = this.gauge("tool_calls_active", "Tool calls whose step has not ended.");
  readonly sessionsActive = this.gauge("sessions_active", "Open sessions (HTTP) and connections (memory, stdio).");
  readonly streamsActive = this.gauge("request_streams_active", "Open SSE answer streams of POSTs.");
  readonly streamDuration = this.histogram("request_stream_duration_seconds", "SSE answer stream lifetimes by endpoint and termination reason, seconds.", ["endpoint", "reason"]);
  readonly subscriptionsActive = this.gauge("subscriptions_active", `Open subscriptions: standalone (GET) streams (2025) and subscriptions/listen requests (${revisionsWith("subscriptionsListen")}).`);
  readonly subscriptionDuration = this.histogram("subscription_duration_seconds", "Subscription lifetimes (GET streams, subscriptions/listen) by endpoint and termination reason, seconds.", [
    "endpoint",
    "reason",
  ]);
  readonly cancellations = this.counter("cancellations_total", "Requests cancelled by the client (notifications/cancelled), by endpoint and method.", ["endpoint", "method"]);
  readonly progress = this.counter("progress_emitted_total", "notifications/progress sent, by endpoint.", ["endpoint"]);
  readonly keepAlives = this.counter("keep_alives_emitted_total", "SSE keep-alive comments sent (the mock sends none yet; the family is here for dashboards).");
  readonly protocolErrors = this.counter("protocol_errors_total", "JSON-RPC errors sent (replies, refusals, HTTP transport errors), by code.", ["code"]);
  readonly unknownMirroredHeaders = this.counter(
    "unknown_mirrored_headers_total",
    `Mcp-Param-* headers (${revisionsWith("requestHeaders")}) for a parameter the called tool does not mirror, by endpoint and method.`,
    ["endpoint", "method"],
  );
  readonly fakeFailures = this.counter("fake_failures_total", "Structured failures answered by scenario fakes, by stable code.", ["code"]);

  /** The per-request series without labels, held so a request's start and end touch no map. */
  private readonly accepted = this.requestsAccepted.series([]);
  private readonly active = this.requestsActive.series([]);
  private readonly toolCallsLive = this.toolCallsActive.series([]);

  private readonly families: Array<ValueFamily | HistogramFamily>;
  private readonly fakeCodes = new FakeCodeLabels();
  private readonly streamsOpenedAt = new Map<string, number>();
  /**
   * The count and duration series of each endpoint, method and outcome, found once (a request's
   * end is then two increments). Nested by label, not one joined key: the labels are fixed
   * strings whose hashes are cached, where a joined key is a new string to hash per request.
   */
  private readonly requestSeries = new Map<string, Map<string, Map<string, RequestSeries>>>();

  constructor() {
    this.families = Object.values(this).filter((value): value is ValueFamily | HistogramFamily => value instanceof ValueFamily || value instanceof HistogramFamily);
  }

  /** Listens to a mock's events; returns a function that stops listening. */
  attach(events: EventHub<MockEvents>, endpointOf: EndpointOf): () => void {
    const streamKey = (event: StreamOpenEvent) => `${event.sessionId}\u0000${event.streamId}`;
    const stops = [
      events.on("server:didStart", () => this.serverStarts.add(1)),
      events.on("server:didStop", (event) => this.shutdowns.add(1, event.outcome)),
      events.on("session:open", (event) => {
        this.connectionsAccepted.add(1, event.wire);
        this.sessionsActive.add(1);
      }),
      events.on("session:close", () => this.sessionsActive.add(-1)),
      events.on("http:rejected", (event) => {
        this.connectionsRejected.add(1, statusLabel(event.status));
        this.protocolErrors.add(1, codeLabel(event.code));
      }),
      events.on("message:rejected", (event) => {
        this.messagesRejected.add(1, codeLabel(event.code));
        this.protocolErrors.add(1, codeLabel(event.code));
      }),
      events.on("request:start", () => {
        this.accepted.value++;
        this.active.value++;
      }),
      events.on("request:end", (event) => {
        this.active.value--;
        const endpoint = endpointOf(event.wire);
        const method = methodLabel(event.method);
        const outcome = mockRequestOutcome(event);
        const series = this.requestSeriesOf(endpoint, method, outcome);
        series.count.value++;
        observeInto(series.duration, event.durationMs / 1000);
        if (event.error !== undefined) this.protocolErrors.add(1, codeLabel(event.error.code));
        if (event.noReplyCause === "cancelled") this.cancellations.add(1, endpoint, method);
        if (event.outcome === "drop") this.transportFailures.add(1, "connection_dropped");
      }),
      events.on("call:start", () => this.toolCallsLive.value++),
      events.on("call:end", () => this.toolCallsLive.value--),
      events.on("notification:sent", (event) => {
        if (event.method === "notifications/progress") this.progress.add(1, endpointOf(event.wire));
      }),
      events.on("stream:open", (event) => {
        this.streamsOpenedAt.set(streamKey(event), performance.now());
        (event.kind === "request" ? this.streamsActive : this.subscriptionsActive).add(1);
      }),
      events.on("stream:close", (event) => {
        const key = streamKey(event);
        const openedAt = this.streamsOpenedAt.get(key);
        if (openedAt === undefined) return;
        this.streamsOpenedAt.delete(key);
        const subscription = event.kind !== "request";
        (subscription ? this.subscriptionsActive : this.streamsActive).add(-1);
        (subscription ? this.subscriptionDuration : this.streamDuration).observe((performance.now() - openedAt) / 1000, endpointOf(event.wire ?? "http"), event.reason);
      }),
      events.on("http:unknownMirroredHeader", (event) => this.unknownMirroredHeaders.add(1, endpointOf(event.wire), methodLabel(event.method))),
      events.on("fake:failure", (event) => this.fakeFailures.add(1, this.fakeCodes.label(String(event.code)))),
    ];
    return () => {
      for (const stop of stops) stop();
    };
  }

  private requestSeriesOf(endpoint: string, method: string, outcome: string): RequestSeries {
    let byMethod = this.requestSeries.get(endpoint);
    if (byMethod === undefined) this.requestSeries.set(endpoint, (byMethod = new Map()));
    let byOutcome = byMethod.get(method);
    if (byOutcome === undefined) byMethod.set(method, (byOutcome = new Map()));
    let series = byOutcome.get(outcome);
    if (series === undefined) {
      const labels = [endpoint, method, outcome];
      byOutcome.set(outcome, (series = { count: this.requests.series(labels), duration: this.requestDuration.series(labels) }));
    }
    return series;
  }

  snapshot(): MetricsSnapshot {
    return new MetricsSnapshot(this.families.map((family) => family.snapshot()));
  }

  /** Clears cumulative values (counters, histograms); live gauges keep counting what is open. */
  reset(): void {
    for (const family of this.families) family.reset();
  }

  private counter(name: string, help: string, labelNames: string[] = []): ValueFamily {
    return new ValueFamily(PREFIX + name, help, labelNames, "counter");
  }

  private gauge(name: string, help: string): ValueFamily {
    return new ValueFamily(PREFIX + name, help, [], "gauge");
  }

  private histogram(name: string, help: string, labelNames: string[]): HistogramFamily {
    return new HistogramFamily(PREFIX + name, help, labelNames);
  }
}
