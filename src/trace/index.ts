/**
 * `mcp-testkit/trace`: the trace format (JSON Lines of every message in and out, from a mock, a
 * driver or the recorder), reading it back, and its ways out: HAR 1.2 and OTLP JSON, both ways.
 * Write traces with `mockMcp({ trace })`, the driver's `trace` option, `recordMcp(driver, { trace })`.
 */
export { TRACE_FORMAT_VERSION, type TraceEntry, type TraceFault, type TraceHeader, type TraceLine } from "./entry.js";
export { parseTrace, readTrace, type Trace } from "./read-trace.js";
export { DEFAULT_TRACE_LIMIT, TraceLog, type TraceOption, type TraceOptions, type TraceQuery } from "./trace-log.js";
export { traceToHar, type HarMessageFacts, type HarTraceFacts } from "./har-export.js";
export { traceFromHar } from "./har-import.js";
export { traceFromOtlp, traceToOtlp, type OtlpKeyValue, type OtlpSpan, type OtlpTraces, type OtlpValue } from "./otlp.js";
export { readTraffic, TRACE_FORMATS, traceFromText, traceText, type TraceFormat } from "./convert.js";
export { entryFromDriverMessage, entryFromMockMessage } from "./from-events.js";
