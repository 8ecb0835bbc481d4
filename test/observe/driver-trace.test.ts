/**
 * Trace context in the driver: with `@opentelemetry/api` installed and a span active around a
 * call, the driver writes `traceparent` / `tracestate` / `baggage` into the request's `_meta`
 * (the global propagator's output), so the mock's SERVER span (openTelemetryObserver) is the
 * client span's child. Real OpenTelemetry SDK, the driver against a mock in memory and over HTTP.
 */
import { afterEach, describe, expect, it } from "vitest";
import { context, propagation, trace, type Context } from "@opentelemetry/api";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import { InMemorySpanExporter, SimpleSpanProcessor, StackContextManager, TracerProvider } from "@opentelemetry/sdk-trace";
import { mockMcp, openTelemetryObserver } from "../../src/index.js";
import { mcpAttach, mcpConnect, type McpDriver } from "../../src/driver/index.js";
import { serve, useCleanup } from "../wire/support/http.js";
import { until } from "./support.js";

useCleanup();

let contextManager: StackContextManager | undefined;
afterEach(() => {
  propagation.disable();
  context.disable();
  contextManager = undefined;
});

/** The global propagator and a context manager (synchronous: the call is made inside `context.with`). */
function useGlobals(): void {
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
  contextManager = new StackContextManager().enable();
  context.setGlobalContextManager(contextManager);
}

async function telemetry() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const observer = await openTelemetryObserver({ tracerProvider });
  const clientSpan = tracerProvider.getTracer("test-client").startSpan("client work");
  const active: Context = propagation.setBaggage(trace.setSpan(context.active(), clientSpan), propagation.createBaggage({ tenant: { value: "acme" } }));
  return { exporter, observer, clientSpan, active };
}

/** The `_meta` of the last `method` request the driver sent. */
function sentMeta(app: McpDriver, method: string): Record<string, unknown> | undefined {
  const record = app.messages.filter((entry) => entry.direction === "outgoing" && (entry.content as { method?: string }).method === method).at(-1);
  return (record?.content as { params?: { _meta?: Record<string, unknown> } } | undefined)?.params?._meta;
}

describe("the driver injects trace context into _meta", () => {
  for (const negotiation of ["legacy", "auto"] as const) {
    it(`makes the mock's span the child of the active client span (in memory, versionNegotiation ${negotiation})`, async () => {
      useGlobals();
      const { exporter, observer, clientSpan, active } = await telemetry();
      await using mock = await mockMcp({ observers: [observer], tools: { search: { returns: "found" } } });
      await using app = mcpAttach(mock.connectInMemory(), { versionNegotiation: negotiation });
      await app.initialize();
      const result = await context.with(active, () => app.callTool("search", { q: "shoe" }));
      expect(result.getTextContent()).toBe("found");
      clientSpan.end();

      const meta = sentMeta(app, "tools/call")!;
      const { traceId, spanId } = clientSpan.spanContext();
      expect(meta.traceparent).toBe(`00-${traceId}-${spanId}-01`);
      expect(meta.baggage).toBe("tenant=acme");
      await until(() => exporter.getFinishedSpans().some((span) => span.name === "tools/call search"), "the server span");
      const server = exporter.getFinishedSpans().find((span) => span.name === "tools/call search")!;
      expect(server.spanContext().traceId).toBe(traceId);
      expect(server.parentSpanContext?.spanId).toBe(spanId);
      // The handshake ran outside the span: it started its own trace.
      const handshake = exporter.getFinishedSpans().find((span) => span.name === "initialize" || span.name === "server/discover")!;
      expect(handshake.parentSpanContext).toBeUndefined();
      expect(sentMeta(app, handshake.name)?.traceparent).toBeUndefined();
    });
  }

  it("does the same over HTTP", async () => {
    useGlobals();
    const { exporter, observer, clientSpan, active } = await telemetry();
    const server = await serve({ observers: [observer], tools: { search: { returns: "found" } } });
    await using app = mcpConnect(server.url, { versionNegotiation: "legacy" });
    await app.initialize();
    await context.with(active, () => app.callTool("search"));
    clientSpan.end();
    await until(() => exporter.getFinishedSpans().some((span) => span.name === "tools/call search"), "the server span");
    const span = exporter.getFinishedSpans().find((entry) => entry.name === "tools/call search")!;
    expect(span.spanContext().traceId).toBe(clientSpan.spanContext().traceId);
    expect(span.parentSpanContext?.spanId).toBe(clientSpan.spanContext().spanId);
  });

  it("adds nothing with traceContext: false, with no active span, or when the caller set its own traceparent", async () => {
    useGlobals();
    const { active, clientSpan } = await telemetry();
    await using mock = await mockMcp({ tools: { search: { returns: "found" } } });
    await using off = mcpAttach(mock.connectInMemory(), { versionNegotiation: "legacy", traceContext: false });
    await off.initialize();
    await context.with(active, () => off.callTool("search"));
    expect(sentMeta(off, "tools/call")).toBeUndefined();

    await using on = mcpAttach(mock.connectInMemory(), { versionNegotiation: "legacy" });
    await on.callTool("search");
    expect(sentMeta(on, "tools/call")).toBeUndefined(); // no span active: no _meta at all
    const own = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    await context.with(active, () => on.request("tools/call", { name: "search", arguments: {}, _meta: { traceparent: own } }));
    expect(sentMeta(on, "tools/call")).toMatchObject({ traceparent: own, baggage: "tenant=acme" });
    clientSpan.end();
  });

  it("rejects a traceContext that is not a boolean", () => {
    expect(() => mcpConnect("http://127.0.0.1:1/mcp", { traceContext: "yes" as never })).toThrow(/traceContext must be true or false/);
  });
});
