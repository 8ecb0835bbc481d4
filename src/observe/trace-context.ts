/**
 * W3C trace context in MCP: `traceparent`, `tracestate` and `baggage` travel in a request's
 * `params._meta` (never taken from HTTP headers). Values are kept only when they are strings
 * of sane length; they stay untrusted input.
 */
import type { TraceContextCarrier } from "./observer.js";

const MAX_LENGTH = { traceparent: 55, tracestate: 512, baggage: 8192 } as const;

const TRACE_FIELDS = ["traceparent", "tracestate", "baggage"] as const;

/** The trace context of a request's params, or undefined when `_meta` carries none. */
export function traceContextOf(params: Readonly<Record<string, unknown>> | undefined): TraceContextCarrier | undefined {
  const meta = params?._meta;
  if (typeof meta !== "object" || meta === null) return undefined;
  let carrier: { -readonly [K in keyof TraceContextCarrier]?: string } | undefined;
  for (const field of TRACE_FIELDS) {
    const value = (meta as Record<string, unknown>)[field];
    if (typeof value === "string" && value.length > 0 && value.length <= MAX_LENGTH[field]) (carrier ??= {})[field] = value;
  }
  return carrier;
}
