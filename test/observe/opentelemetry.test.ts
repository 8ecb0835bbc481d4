/**
 * OpenTelemetry (`openTelemetryObserver()`): spans and `mcp.server.operation.duration` as the
 * GenAI semantic conventions for MCP name them, checked with the real OpenTelemetry SDK's
 * in-memory span exporter and a metric reader; trace context from `params._meta`.
 */
import { afterEach, describe, expect, it } from "vitest";
import { context, propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { MeterProvider, MetricReader, type HistogramMetricData } from "@opentelemetry/sdk-metrics";
import { openTelemetryObserver, traceContextMeta } from "../../src/index.js";
import { sdkClient, serve, useCleanup } from "../wire/support/http.js";
import { recordingObserver, until } from "./support.js";

useCleanup();
afterEach(() => propagation.disable());

/** An OpenTelemetry time ([seconds, nanoseconds]) in milliseconds. */
const milliseconds = ([seconds, nanos]: [number, number]) => seconds * 1e3 + nanos / 1e6;
/** Equal to `ms` to within a microsecond (the conversion to [seconds, nanoseconds] rounds). */
const closeTo = (ms: number) => expect.closeTo(ms, 3);

class TestReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

async function telemetry() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const reader = new TestReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const observer = await openTelemetryObserver({ tracerProvider, meterProvider });
  return { exporter, reader, observer };
}

describe("openTelemetryObserver()", () => {
  it("makes a SERVER span per request, named and attributed per the MCP conventions, parented by params._meta", async () => {
    propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
    const { exporter, observer } = await telemetry();
    expect(observer.enabled).toBe(true);
    const recording = recordingObserver();
    const server = await serve({ observers: [observer, recording], tools: { search: { returns: "found" }, failing: { toolError: "down" } } });
    const { client } = await sdkClient(server.url);
    const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    await client.callTool({ name: "search", arguments: { q: "shoe" }, _meta: { traceparent, tracestate: "vendor=1", baggage: "tenant=acme" } });
    await client.callTool({ name: "failing", arguments: {} });
    await expect(client.callTool({ name: "missing", arguments: {} })).rejects.toThrow();
    await until(() => exporter.getFinishedSpans().length >= 4, "four spans");

    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual(["initialize", "tools/call search", "tools/call failing", "tools/call missing"]);
    const search = spans[1]!;
    expect(search.kind).toBe(SpanKind.SERVER);
    expect(search.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "mcp.protocol.version": "2025-11-25",
      "gen_ai.tool.name": "search",
      "gen_ai.operation.name": "execute_tool",
      "network.transport": "tcp",
    });
    expect(search.attributes["mcp.session.id"]).toMatch(/^[0-9a-f]{32}$/);
    expect(typeof search.attributes["jsonrpc.request.id"]).toBe("string");
    expect(search.spanContext().traceId).toBe("0af7651916cd43dd8448eb211c80319c");
    expect(search.parentSpanContext?.spanId).toBe("b7ad6b7169203331");
    expect(search.parentSpanContext?.traceState?.get("vendor")).toBe("1");
    expect(search.status.code).toBe(SpanStatusCode.UNSET);

    expect(spans[2]!.attributes["error.type"]).toBe("tool_error");
    expect(spans[2]!.status.code).toBe(SpanStatusCode.ERROR);
    expect(spans[3]!.attributes["error.type"]).toBe("-32602");
    expect(spans[3]!.attributes["rpc.response.status_code"]).toBe("-32602");
    // Without a parent in _meta, a request starts its own trace.
    expect(spans[0]!.parentSpanContext).toBeUndefined();
    // Span times are the request's own, not the delivery's: it starts when the request came and
    // lasts as long as the server took, as the mock's own observation of it says.
    await recording.finished(4);
    const observed = recording.finishes.map(({ request, finish }) => ({ method: request.method, id: String(request.requestId), startMs: request.startedAt, durationMs: finish.durationMs }));
    const timed = spans.map((span) => ({
      method: span.attributes["mcp.method.name"],
      id: span.attributes["jsonrpc.request.id"],
      startMs: milliseconds(span.startTime),
      durationMs: milliseconds(span.duration),
    }));
    expect(timed).toEqual(observed.map((own) => ({ ...own, startMs: closeTo(own.startMs), durationMs: closeTo(own.durationMs) })));
  });

  it("records mcp.server.operation.duration in seconds, by method and error.type, without tool names", async () => {
    const { reader, observer } = await telemetry();
    const server = await serve({ observers: [observer], tools: { search: { returns: "found" } } });
    const { client } = await sdkClient(server.url);
    await client.callTool({ name: "search", arguments: {} });
    await client.callTool({ name: "search", arguments: {} });
    await expect(client.callTool({ name: "missing", arguments: {} })).rejects.toThrow();
    let metric: HistogramMetricData | undefined;
    for (let attempt = 0; attempt < 50 && metric === undefined; attempt++) {
      const { resourceMetrics } = await reader.collect();
      metric = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics).find((m) => m.descriptor.name === "mcp.server.operation.duration") as HistogramMetricData | undefined;
      const calls = metric?.dataPoints.filter((point) => point.attributes["mcp.method.name"] === "tools/call").reduce((n, point) => n + point.value.count, 0) ?? 0;
      if (calls < 3) {
        metric = undefined;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    expect(metric).toBeDefined();
    expect(metric!.descriptor.unit).toBe("s");
    const ok = metric!.dataPoints.find((point) => point.attributes["mcp.method.name"] === "tools/call" && point.attributes["error.type"] === undefined)!;
    expect(ok.value.count).toBe(2);
    const failed = metric!.dataPoints.find((point) => point.attributes["error.type"] === "-32602")!;
    expect(failed.value.count).toBe(1);
    for (const point of metric!.dataPoints) expect(Object.keys(point.attributes)).not.toContain("gen_ai.tool.name");
  });

  it("carries a client's active span into params._meta (traceContextMeta), so the server span is its child", async () => {
    propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
    const { exporter, observer } = await telemetry();
    const server = await serve({ observers: [observer], tools: { search: { returns: "found" } } });
    const { client } = await sdkClient(server.url);
    const clientSpan = new TracerProvider().getTracer("client").startSpan("agent step");
    const active = propagation.setBaggage(trace.setSpan(context.active(), clientSpan), propagation.createBaggage({ tenant: { value: "acme" } }));
    const meta = await traceContextMeta(active);
    expect(meta.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
    expect(meta.baggage).toBe("tenant=acme");
    await client.callTool({ name: "search", arguments: {}, _meta: meta });
    await until(() => exporter.getFinishedSpans().some((span) => span.name === "tools/call search"), "the server span");
    const span = exporter.getFinishedSpans().find((s) => s.name === "tools/call search")!;
    expect(span.spanContext().traceId).toBe(clientSpan.spanContext().traceId);
    expect(span.parentSpanContext?.spanId).toBe(clientSpan.spanContext().spanId);
    clientSpan.end();
    expect(await traceContextMeta()).toEqual({}); // no active span: nothing to carry
  });
});
