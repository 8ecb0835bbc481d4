/**
 * `mcp-testkit/observe`: lifecycle and request observers with bounded delivery, metrics with
 * bounded labels (snapshot, Prometheus / OpenMetrics text), and OpenTelemetry spans and metrics.
 */

/** What an observer is and what it hears: requests, streams, subscriptions, the server's lifecycle. */
export type {
  McpObserver,
  ObservedRequest,
  RequestFinish,
  ObservedStream,
  StreamClosure,
  ObservedServer,
  ServerStopResult,
  ObservationDiagnostic,
  TraceContextCarrier,
} from "./observer.js";
/** The fixed vocabularies: client-visible request outcomes and stream termination reasons. */
export { MCP_REQUEST_OUTCOMES, STREAM_TERMINATION_REASONS, type McpRequestOutcome, type StreamTerminationReason } from "./outcomes.js";
/** Bounded delivery: the queue's default size, the diagnostic's interval, and its options. */
export { DEFAULT_OBSERVATION_QUEUE_CAPACITY, OMISSION_DIAGNOSTIC_INTERVAL_MS, ObserverDelivery, type ObserveOptions } from "./delivery.js";
/** A metrics snapshot (`server.metrics()`), its families, and the text exposition (`server.metricsText()`). */
export { MetricsSnapshot } from "./metrics/snapshot.js";
export { DURATION_BUCKETS_SECONDS, type MetricFamilySnapshot, type MetricType, type CounterSample, type HistogramSample } from "./metrics/families.js";
export { METRICS_PATH, metricsText, type MetricsTextFormat } from "./metrics/exposition.js";
/** The method label of anything outside the known method set. */
export { UNRECOGNIZED_METHOD } from "./metrics/labels.js";
/** OpenTelemetry spans and `mcp.server.operation.duration`, through `@opentelemetry/api` when it is installed. */
export { openTelemetryObserver, traceContextMeta, type OpenTelemetryOptions } from "./otel.js";
