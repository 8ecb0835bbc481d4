/**
 * OpenTelemetry for the mock (or any server the simulator drives), as the GenAI semantic
 * conventions for MCP say: one SERVER span per admitted request, named `{mcp.method.name}
 * {target}` (the tool or prompt name; never a URI), with `mcp.method.name`,
 * `mcp.protocol.version`, `mcp.session.id`, `jsonrpc.request.id`, `error.type` and friends,
 * its parent taken from the request's `params._meta` (`traceparent`, `tracestate`, `baggage`),
 * and the histogram `mcp.server.operation.duration` (seconds). `@opentelemetry/api` is an
 * optional peer: without it this is a no-op observer. It is an observer like any other, so
 * spans and metrics of an omitted observation are omitted too.
 */
import type { Attributes, Context, MeterProvider, Span, TracerProvider } from "@opentelemetry/api";
import type { McpObserver, ObservedRequest, RequestFinish } from "./observer.js";

export interface OpenTelemetryOptions {
  /** Default: the global one (`trace.getTracerProvider()`). */
  tracerProvider?: TracerProvider;
  /** Default: the global one (`metrics.getMeterProvider()`). */
  meterProvider?: MeterProvider;
}

export type OtelApi = typeof import("@opentelemetry/api");

const SCOPE = "mcp-testkit";
/** Buckets the conventions advise for `mcp.server.operation.duration`. */
const DURATION_BOUNDARIES = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** The span's `{target}`: low-cardinality names only (a tool or a prompt). */
export function targetOf(request: Pick<ObservedRequest, "method" | "params">): string | undefined {
  if (request.method !== "tools/call" && request.method !== "prompts/get") return undefined;
  const name = request.params?.name;
  return typeof name === "string" ? name : undefined;
}

export function networkTransport(wire: string): string | undefined {
  if (wire === "http") return "tcp";
  if (wire === "stdio") return "pipe";
  return undefined;
}

export function startAttributes(request: Pick<ObservedRequest, "method" | "params" | "protocolVersion" | "requestId" | "sessionId" | "wire">): Attributes {
  const attributes: Attributes = {
    "mcp.method.name": request.method,
    "mcp.protocol.version": request.protocolVersion,
    "jsonrpc.request.id": String(request.requestId),
  };
  // Only a real session's id (HTTP, or the simulator's Mcp-Session-Id): a 2026-07-28 request has none, stdio and memory connections are no sessions.
  if (request.sessionId !== "" && (request.wire === "http" || request.wire === "simulated")) attributes["mcp.session.id"] = request.sessionId;
  const target = targetOf(request);
  if (request.method === "tools/call" && target !== undefined) {
    attributes["gen_ai.tool.name"] = target;
    attributes["gen_ai.operation.name"] = "execute_tool";
  }
  if (request.method === "prompts/get" && target !== undefined) attributes["gen_ai.prompt.name"] = target;
  const uri = request.params?.uri;
  if (typeof uri === "string" && request.method.startsWith("resources/")) attributes["mcp.resource.uri"] = uri;
  const transport = networkTransport(request.wire);
  if (transport !== undefined) attributes["network.transport"] = transport;
  if (request.wire === "http") attributes["network.protocol.name"] = "http";
  return attributes;
}

/** `error.type` as the conventions define it: `tool_error`, the JSON-RPC code, or the outcome when nothing was sent. */
function errorType(finish: RequestFinish): string | undefined {
  if (finish.error !== undefined) return String(finish.error.code);
  if (finish.outcome === "application_error") return "tool_error";
  if (finish.outcome === "complete" || finish.outcome === "input_required") return undefined;
  return finish.outcome;
}

function parentContext(api: OtelApi, request: ObservedRequest): Context {
  const carrier = request.traceContext;
  if (carrier === undefined) return api.ROOT_CONTEXT;
  return api.propagation.extract(api.ROOT_CONTEXT, carrier, {
    keys: (value) => Object.keys(value),
    get: (value, key) => (value as Record<string, string | undefined>)[key],
  });
}

/** `@opentelemetry/api` when it is installed (an optional peer), else undefined. */
export async function loadApi(): Promise<OtelApi | undefined> {
  try {
    return await import("@opentelemetry/api");
  } catch {
    return undefined;
  }
}

/**
 * An observer that turns requests into spans and `mcp.server.operation.duration`. Pass it to
 * `mockMcp({ observers })`, `server.observe()` or `simulate(target, { observers })`.
 * Resolves with `enabled: false` (an observer that does nothing) when `@opentelemetry/api` is missing.
 */
export async function openTelemetryObserver(options: OpenTelemetryOptions = {}): Promise<McpObserver & { readonly enabled: boolean }> {
  const api = await loadApi();
  if (api === undefined) return { name: "opentelemetry", enabled: false };
  const tracer = (options.tracerProvider ?? api.trace.getTracerProvider()).getTracer(SCOPE);
  const meter = (options.meterProvider ?? api.metrics.getMeterProvider()).getMeter(SCOPE);
  const duration = meter.createHistogram("mcp.server.operation.duration", {
    unit: "s",
    description: "Duration of MCP requests as the server saw them, from receipt to the client-visible end.",
    advice: { explicitBucketBoundaries: DURATION_BOUNDARIES },
  });
  const spans = new WeakMap<ObservedRequest, Span>();
  return {
    name: "opentelemetry",
    enabled: true,
    requestDidStart(request) {
      const target = targetOf(request);
      const span = tracer.startSpan(
        target === undefined ? request.method : `${request.method} ${target}`,
        { kind: api.SpanKind.SERVER, startTime: request.startedAt, attributes: startAttributes(request) },
        parentContext(api, request),
      );
      spans.set(request, span);
    },
    requestDidFinish(request, finish) {
      const span = spans.get(request);
      spans.delete(request);
      const type = errorType(finish);
      const metricAttributes: Attributes = { "mcp.method.name": request.method, "mcp.protocol.version": request.protocolVersion };
      const transport = networkTransport(request.wire);
      if (transport !== undefined) metricAttributes["network.transport"] = transport;
      if (type !== undefined) metricAttributes["error.type"] = type;
      duration.record(finish.durationMs / 1000, metricAttributes);
      if (span === undefined) return;
      if (type !== undefined) {
        span.setAttribute("error.type", type);
        if (finish.error !== undefined) span.setAttribute("rpc.response.status_code", String(finish.error.code));
        span.setStatus({ code: api.SpanStatusCode.ERROR, ...(finish.error !== undefined && { message: finish.error.message }) });
      }
      span.end(request.startedAt + finish.durationMs);
    },
  };
}

/**
 * The W3C trace context of the active OpenTelemetry context (or `context`), as fields for a
 * request's `params._meta` — how MCP carries it from client to server:
 * `client.callTool({ name, arguments, _meta: await traceContextMeta() })`. Empty when
 * `@opentelemetry/api` is missing or no propagator is registered.
 */
export async function traceContextMeta(context?: Context): Promise<Record<string, string>> {
  const api = await loadApi();
  return api === undefined ? {} : injectTraceContext(api, context ?? api.context.active());
}

const metaSetter = {
  set: (target: Record<string, string>, key: string, value: string) => {
    if (key === "traceparent" || key === "tracestate" || key === "baggage") target[key] = value;
  },
};

/** What the global propagator writes for `context`, kept to the three `_meta` fields (empty without a span or baggage). */
export function injectTraceContext(api: OtelApi, context: Context): Record<string, string> {
  const carrier: Record<string, string> = {};
  api.propagation.inject(context, carrier, metaSetter);
  return carrier;
}
