/**
 * Observers, metrics and OpenTelemetry in the 2026-07-28 era, with real clients: the SDK v2
 * client pinned to 2026-07-28 over HTTP, and raw requests that follow the spec (its `_meta` and
 * headers). A `subscriptions/listen` is a subscription from its acknowledgement to its end, with
 * the reason it ended; `input_required` is an outcome; the modern error codes are labels; a
 * modern request has no session and its own version; `Mcp-Param-*` headers for parameters a
 * tool does not mirror are counted, never as a label of their own.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { mockMcp, openTelemetryObserver, type MockMcpServer } from "../../src/index.js";
import { sdkClient, serve, useCleanup } from "../wire/support/http.js";
import { MODERN, modernRequest, postModern, useV2Cleanup, v2Http } from "../modern/support.js";
import { recordingObserver, until } from "./support.js";

useCleanup();
useV2Cleanup();

const opened: MockMcpServer[] = [];
afterEach(async () => {
  for (const server of opened.splice(0)) await server.close();
});
const onClose = (server: MockMcpServer) => void opened.push(server);

const SUBSCRIPTIONS_ACTIVE = "mcp_testkit_subscriptions_active";
const SUBSCRIPTION_DURATION = "mcp_testkit_subscription_duration_seconds";

describe("subscriptions/listen as a subscription", () => {
  it("opens at its acknowledgement and closes with its reason: cancelled by the client, ended by the mock, the mock stopping", async () => {
    const observer = recordingObserver();
    const server = await serve({ metrics: true, observers: [observer] });
    const client = await v2Http(server.url);

    const cancelled = await client.listen({ toolsListChanged: true });
    await until(() => observer.lines.includes("subscription open"), "the first subscription's open");
    expect(server.metrics().value(SUBSCRIPTIONS_ACTIVE)).toBe(1);
    expect(observer.streams[0]!.stream).toMatchObject({ kind: "subscription", sessionId: "", endpoint: "/mcp" });
    await cancelled.close();
    await until(() => observer.lines.includes("subscription close request_cancelled"), "the cancelled subscription's close");

    const ended = await client.listen({ promptsListChanged: true });
    expect(server.endSubscriptions()).toBe(1);
    expect(await ended.closed).toBe("graceful");
    await until(() => observer.lines.includes("subscription close completed"), "the ended subscription's close");

    await client.listen({ resourcesListChanged: true });
    await until(() => server.metrics().value(SUBSCRIPTIONS_ACTIVE) === 1, "the third subscription");
    const beforeStop = server.metrics();
    await server.close();
    await until(() => observer.lines.includes("subscription close server_stopping"), "the stopped subscription's close");

    const metrics = server.metrics();
    expect(metrics.value(SUBSCRIPTIONS_ACTIVE)).toBe(0);
    for (const reason of ["request_cancelled", "completed", "server_stopping"]) expect(metrics.value(SUBSCRIPTION_DURATION, { endpoint: "/mcp", reason })).toBe(1);
    // A listen's SSE answer is its subscription, not also a request stream.
    expect(beforeStop.value("mcp_testkit_request_streams_active")).toBe(0);
    expect(metrics.value("mcp_testkit_request_stream_duration_seconds")).toBe(0);
    expect(observer.streams.every(({ stream }) => stream.kind === "subscription")).toBe(true);
    // The listen requests are requests too: no session, their own version.
    const listens = observer.finishes.filter(({ request }) => request.method === "subscriptions/listen");
    expect(listens.map(({ finish }) => finish.outcome)).toEqual(["cancelled", "complete", "cancelled"]);
    for (const { request } of listens) expect(request).toMatchObject({ sessionId: "", protocolVersion: MODERN });
  });

  it("is no subscription when it is refused (bad params), and counts -32602 as a protocol error", async () => {
    const observer = recordingObserver();
    const server = await serve({ metrics: true, observers: [observer] });
    const refused = await postModern(server.url, modernRequest("subscriptions/listen", { notifications: "all" }));
    expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(-32602);
    await observer.finished(1);
    expect(observer.finishes[0]!.finish.outcome).toBe("protocol_error");
    expect(observer.streams).toEqual([]);
    expect(server.metrics().value(SUBSCRIPTION_DURATION)).toBe(0);
    expect(server.metrics().value("mcp_testkit_protocol_errors_total", { code: "-32602" })).toBe(1);
  });
});

describe("subscriptions/listen on a wire without HTTP (memory)", () => {
  it("counts under the wire's endpoint: cancelled by notifications/cancelled, then one ended by the client leaving", async () => {
    const observer = recordingObserver();
    const server = await mockMcp({ transport: "memory", metrics: true, observers: [observer] });
    onClose(server);
    const transport = await server.connectInMemory();
    const acknowledged: unknown[] = [];
    transport.onmessage = (message) => void acknowledged.push(message);
    await transport.start();

    await transport.send(modernRequest("subscriptions/listen", { notifications: { toolsListChanged: true } }) as never);
    await until(() => acknowledged.length === 1 && observer.lines.includes("subscription open"), "the first acknowledgement");
    expect(server.metrics().value(SUBSCRIPTIONS_ACTIVE)).toBe(1);
    const first = observer.streams[0]!.stream;
    expect(first).toMatchObject({ kind: "subscription", sessionId: "", endpoint: "memory" });
    const firstId = observer.starts[0]!.requestId;
    await transport.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: firstId } } as never);
    await until(() => observer.lines.includes("subscription close request_cancelled"), "the cancelled subscription");

    await transport.send(modernRequest("subscriptions/listen", { notifications: { toolsListChanged: true } }) as never);
    await until(() => server.metrics().value(SUBSCRIPTIONS_ACTIVE) === 1, "the second subscription");
    await transport.close();
    await until(() => observer.lines.includes("subscription close client_disconnected"), "the abandoned subscription");

    const metrics = server.metrics();
    expect(metrics.value(SUBSCRIPTIONS_ACTIVE)).toBe(0);
    expect(metrics.value(SUBSCRIPTION_DURATION, { endpoint: "memory", reason: "request_cancelled" })).toBe(1);
    expect(metrics.value(SUBSCRIPTION_DURATION, { endpoint: "memory", reason: "client_disconnected" })).toBe(1);
  });
});

describe("outcomes and error codes of 2026-07-28", () => {
  it("input_required is an outcome of its own, then complete on the retry", async () => {
    const observer = recordingObserver();
    const server = await serve({
      metrics: true,
      observers: [observer],
      tools: { ask: [{ inputRequired: { inputRequests: { k: { method: "roots/list" } }, requestState: "s-1" } }, { returns: "after" }] },
    });
    const first = await postModern(server.url, modernRequest("tools/call", { name: "ask", arguments: {} }));
    expect(((await first.json()) as { result: { resultType: string } }).result.resultType).toBe("input_required");
    const retry = await postModern(server.url, modernRequest("tools/call", { name: "ask", arguments: {}, requestState: "s-1", inputResponses: { k: { roots: [] } } }));
    expect(((await retry.json()) as { result: { resultType: string } }).result.resultType).toBe("complete");

    await observer.finished(2);
    expect(observer.finishes.map(({ finish }) => finish.outcome)).toEqual(["input_required", "complete"]);
    const metrics = server.metrics();
    expect(metrics.value("mcp_testkit_requests_total", { endpoint: "/mcp", method: "tools/call", outcome: "input_required" })).toBe(1);
    expect(metrics.value("mcp_testkit_requests_total", { method: "tools/call", outcome: "complete" })).toBe(1);
  });

  it("labels -32020 (a header rule), -32021 (a capability the client lacks) and -32022 (a version not served) by code", async () => {
    const server = await serve({
      metrics: true,
      tools: {
        search: { returns: "found" },
        asks: async (call) => {
          await call.elicit({ mode: "form", message: "Which?", requestedSchema: { type: "object", properties: {} } });
          return { returns: "never" };
        },
      },
    });
    const mismatch = await postModern(server.url, modernRequest("tools/call", { name: "search", arguments: {} }), { "mcp-name": "other" });
    expect(mismatch.status).toBe(400);
    expect(((await mismatch.json()) as { error: { code: number } }).error.code).toBe(-32020);
    const lacking = await postModern(server.url, modernRequest("tools/call", { name: "asks", arguments: {} }));
    expect(((await lacking.json()) as { error: { code: number } }).error.code).toBe(-32021);
    const future = modernRequest("tools/list", {}, { "io.modelcontextprotocol/protocolVersion": "2099-01-01" });
    const unsupported = await postModern(server.url, future, { "mcp-protocol-version": "2099-01-01" });
    expect(((await unsupported.json()) as { error: { code: number } }).error.code).toBe(-32022);

    const metrics = server.metrics();
    for (const code of ["-32020", "-32021", "-32022"]) expect(metrics.value("mcp_testkit_protocol_errors_total", { code })).toBe(1);
    // The header refusal never reached the engine: a transport refusal with its 400.
    expect(metrics.value("mcp_testkit_connections_rejected_total", { status: "400" })).toBe(1);
    expect(metrics.value("mcp_testkit_requests_total", { method: "tools/call", outcome: "protocol_error" })).toBe(1);
  });
});

describe("sessions and versions on spans", () => {
  it("a 2026-07-28 request's span has its own version and no mcp.session.id; a 2025-11-25 one keeps its session's id", async () => {
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    const server = await serve({ observers: [await openTelemetryObserver({ tracerProvider })], tools: { search: { returns: "found" } } });

    const modern = await v2Http(server.url);
    await modern.callTool({ name: "search", arguments: {} });
    const { client: legacy } = await sdkClient(server.url);
    await legacy.callTool({ name: "search", arguments: {} });

    await until(() => exporter.getFinishedSpans().filter((span) => span.name === "tools/call search").length === 2, "both calls' spans");
    const [modernSpan, legacySpan] = exporter.getFinishedSpans().filter((span) => span.name === "tools/call search");
    expect(modernSpan!.attributes["mcp.protocol.version"]).toBe(MODERN);
    expect(modernSpan!.attributes).not.toHaveProperty("mcp.session.id");
    expect(legacySpan!.attributes["mcp.protocol.version"]).toBe("2025-11-25");
    expect(legacySpan!.attributes["mcp.session.id"]).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe("mcp_testkit_unknown_mirrored_headers_total", () => {
  const sql = {
    inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" }, query: { type: "string" } } },
    responses: [{ returns: "rows" }],
  };

  it("counts Mcp-Param-* headers for parameters the tool does not mirror, by endpoint and method; the call still answers", async () => {
    const server = await serve({ metrics: true, tools: { sql } });
    const call = modernRequest("tools/call", { name: "sql", arguments: { region: "us-west1", query: "select 1" } });
    const response = await postModern(server.url, call, { "mcp-param-region": "us-west1", "mcp-param-query": "select 1", "mcp-param-colour": "blue" });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { result: { content: unknown } }).result.content).toEqual([{ type: "text", text: "rows" }]);
    // Right headers only, and a tool the mock does not have: nothing to count.
    await postModern(server.url, modernRequest("tools/call", { name: "sql", arguments: { region: "eu" } }), { "mcp-param-region": "eu" });
    await postModern(server.url, modernRequest("tools/call", { name: "nope", arguments: {} }), { "mcp-param-x": "1" });

    const metrics = server.metrics();
    expect(metrics.value("mcp_testkit_unknown_mirrored_headers_total", { endpoint: "/mcp", method: "tools/call" })).toBe(2);
    expect(metrics.value("mcp_testkit_unknown_mirrored_headers_total")).toBe(2);
  });

  it("stays one series however many header names clients invent", async () => {
    const server = await serve({ metrics: true, tools: { sql } });
    const call = modernRequest("tools/call", { name: "sql", arguments: { region: "eu" } });
    for (let index = 0; index < 50; index++) await postModern(server.url, { ...call, id: index } as typeof call, { "mcp-param-region": "eu", [`mcp-param-invented-${index}`]: "x" });
    const family = server.metrics().family("mcp_testkit_unknown_mirrored_headers_total")!;
    expect(family.samples).toHaveLength(1);
    expect(family.samples[0]).toMatchObject({ labels: { endpoint: "/mcp", method: "tools/call" }, value: 50 });
    expect(await server.metricsText()).toMatch(/^mcp_testkit_unknown_mirrored_headers_total\{endpoint="\/mcp",method="tools\/call"\} 50$/m);
  });
});

describe("a 2026-07-28 request's SSE answer", () => {
  it("is a request stream with no session; the client closing it cancels the request (request_cancelled)", async () => {
    const observer = recordingObserver();
    const server = await serve({
      metrics: true,
      observers: [observer],
      tools: {
        stuck: async (call) => {
          call.progress(1, 2);
          await new Promise<void>((resolve) => call.signal.addEventListener("abort", () => resolve(), { once: true }));
          return { returns: "never" };
        },
      },
    });
    const controller = new AbortController();
    const response = await postModern(server.url, modernRequest("tools/call", { name: "stuck", arguments: {} }, { progressToken: "p" }), {}, controller.signal);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    await until(() => server.metrics().value("mcp_testkit_request_streams_active") === 1, "the open answer stream");
    expect(observer.streams[0]!.stream).toMatchObject({ kind: "request_stream", sessionId: "" });
    controller.abort();
    await until(() => observer.lines.some((line) => line.endsWith("request_cancelled")), "the stream's close");
    await vi.waitFor(() => expect(server.metrics().value("mcp_testkit_request_stream_duration_seconds", { reason: "request_cancelled" })).toBe(1));
    expect(server.metrics().value("mcp_testkit_request_streams_active")).toBe(0);
    await observer.finished(1);
    expect(observer.finishes[0]!.finish.outcome).toBe("cancelled");
  });
});
