/**
 * Metrics (`mockMcp({ metrics: true })`): the snapshot API, Prometheus and OpenMetrics text at
 * `/__mcp-testkit/metrics`, and labels that stay bounded whatever clients send.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { describe, expect, it } from "vitest";
import { McpTestkitError, METRICS_PATH, mockMcp, UNRECOGNIZED_METHOD } from "../../src/index.js";
import { post, rawSession, rpcRequest, sdkClient, serve, useCleanup } from "../wire/support/http.js";
import { until } from "./support.js";

useCleanup();

const ENDPOINT = { endpoint: "/mcp" };

describe("server.metrics()", () => {
  it("counts requests by endpoint, method and outcome, with durations, live gauges, errors and rejections", async () => {
    const server = await serve({
      metrics: true,
      tools: {
        ok: { returns: "fine" },
        failing: { toolError: "down" },
        slow: async (call) => {
          call.progress(1, 2);
          return { returns: "done" };
        },
      },
    });
    const { client, transport } = await sdkClient(server.url);
    await client.callTool({ name: "ok", arguments: {} });
    await client.callTool({ name: "ok", arguments: {} });
    await client.callTool({ name: "failing", arguments: {} });
    await client.callTool({ name: "slow", arguments: {} }, undefined, { onprogress: () => undefined });
    await expect(client.callTool({ name: "missing", arguments: {} })).rejects.toThrow();
    const refused = await post(server.url, rpcRequest("tools/list"), { headers: { accept: "application/json" } });
    expect(refused.status).toBe(406);

    const metrics = server.metrics();
    expect(metrics.value("mcp_testkit_requests_total", { ...ENDPOINT, method: "tools/call", outcome: "complete" })).toBe(3);
    expect(metrics.value("mcp_testkit_requests_total", { method: "tools/call", outcome: "application_error" })).toBe(1);
    expect(metrics.value("mcp_testkit_requests_total", { method: "tools/call", outcome: "protocol_error" })).toBe(1);
    expect(metrics.value("mcp_testkit_requests_total", { method: "initialize", outcome: "complete" })).toBe(1);
    expect(metrics.value("mcp_testkit_request_duration_seconds", { method: "tools/call" })).toBe(5);
    expect(metrics.value("mcp_testkit_requests_active")).toBe(0);
    expect(metrics.value("mcp_testkit_requests_accepted_total")).toBe(6);
    expect(metrics.value("mcp_testkit_sessions_active")).toBe(1);
    expect(metrics.value("mcp_testkit_connections_accepted_total", { wire: "http" })).toBe(1);
    expect(metrics.value("mcp_testkit_connections_rejected_total", { status: "406" })).toBe(1);
    expect(metrics.value("mcp_testkit_protocol_errors_total", { code: "-32602" })).toBe(1);
    expect(metrics.value("mcp_testkit_progress_emitted_total", ENDPOINT)).toBe(1);
    expect(metrics.value("mcp_testkit_server_starts_total")).toBe(1);
    const histogram = metrics.family("mcp_testkit_request_duration_seconds")!.samples.find((s) => s.labels.method === "tools/call" && s.labels.outcome === "complete")!;
    expect("count" in histogram && histogram.count).toBe(3);
    expect("buckets" in histogram && histogram.buckets.at(-1)).toBe(3);

    await transport.terminateSession();
    await until(() => server.metrics().value("mcp_testkit_sessions_active") === 0, "the session to close");
  });

  it("counts cancellations by method, and a request whose client left is no longer active", async () => {
    const server = await serve({ metrics: true, tools: { wait: { hang: true } } });
    const { client } = await sdkClient(server.url);
    const abort = new AbortController();
    const call = client.callTool({ name: "wait", arguments: {} }, undefined, { signal: abort.signal });
    await until(() => server.metrics().value("mcp_testkit_requests_active") === 1, "the call to be active");
    abort.abort();
    await expect(call).rejects.toThrow();
    await until(() => server.metrics().value("mcp_testkit_cancellations_total", { method: "tools/call" }) === 1, "the cancellation");
    expect(server.metrics().value("mcp_testkit_requests_total", { method: "tools/call", outcome: "cancelled" })).toBe(1);
    expect(server.metrics().value("mcp_testkit_requests_active")).toBe(0);
  });

  it("measures SSE answer streams and the GET subscription by termination reason", async () => {
    const server = await serve({ metrics: true, responseMode: "sse", tools: { ok: { returns: "fine" } } });
    const { sessionId } = await rawSession(server.url);
    await (await post(server.url, rpcRequest("tools/call", { name: "ok", arguments: {} }), { sessionId })).text();
    const stream = await fetch(server.url, { headers: { accept: "text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" } });
    await until(() => server.metrics().value("mcp_testkit_subscriptions_active") === 1, "the subscription");
    server.expireSession(sessionId);
    await stream.body?.cancel();
    const metrics = server.metrics();
    expect(metrics.value("mcp_testkit_subscriptions_active")).toBe(0);
    expect(metrics.value("mcp_testkit_subscription_duration_seconds", { ...ENDPOINT, reason: "session_closed" })).toBe(1);
    expect(metrics.value("mcp_testkit_request_stream_duration_seconds", { reason: "completed" })).toBeGreaterThanOrEqual(2);
    expect(metrics.value("mcp_testkit_request_streams_active")).toBe(0);
  });

  it("counts the scenario fakes' own failures by their codes (a mismatch and an exhausted entry are told apart)", async () => {
    const server = await mockMcp({
      transport: "memory",
      metrics: true,
      fixtures: { scope: { testId: "t" }, tools: [{ name: "search", calls: [{ args: { q: "a" }, result: { content: [{ type: "text", text: "found" }] } }] }] },
    });
    const client = new Client({ name: "metrics-test", version: "1.0.0" });
    await client.connect(await server.connectInMemory({ testId: "t" }));
    await client.callTool({ name: "search", arguments: { q: "a" } });
    await expect(client.callTool({ name: "search", arguments: { q: "zzz" } })).rejects.toMatchObject({ data: { mcpTestkit: { code: "MCP_FAKE_MISMATCH" } } });
    await expect(client.callTool({ name: "search", arguments: { q: "a" } })).rejects.toMatchObject({ data: { mcpTestkit: { code: "MCP_FAKE_EXHAUSTED" } } });
    const metrics = server.metrics();
    expect(metrics.value("mcp_testkit_fake_failures_total", { code: "MCP_FAKE_MISMATCH" })).toBe(1);
    expect(metrics.value("mcp_testkit_fake_failures_total", { code: "MCP_FAKE_EXHAUSTED" })).toBe(1);
    expect(metrics.value("mcp_testkit_fake_failures_total", { code: "other" }) ?? 0).toBe(0);
    await client.close();
    await server.close();
  });

  it("counts fake failures by their stable code (the hook the scenario fakes emit), bounded", async () => {
    const server = await mockMcp({ transport: "memory", metrics: true });
    const events = (server as unknown as { engine: { events: { emit(name: string, payload: unknown): void } } }).engine.events;
    events.emit("fake:failure", { code: "rate_limited" });
    events.emit("fake:failure", { code: "rate_limited" });
    events.emit("fake:failure", { code: "Not A Code! 🙃" });
    for (let i = 0; i < 200; i++) events.emit("fake:failure", { code: `code_${i}` });
    const family = server.metrics().family("mcp_testkit_fake_failures_total")!;
    expect(server.metrics().value("mcp_testkit_fake_failures_total", { code: "rate_limited" })).toBe(2);
    expect(family.samples.length).toBeLessThanOrEqual(65);
    expect(server.metrics().value("mcp_testkit_fake_failures_total", { code: "other" })).toBeGreaterThan(100);
    await server.close();
  });

  it("refuses to read metrics of a mock that collects none, saying how to turn them on", async () => {
    const server = await mockMcp({ transport: "memory" });
    expect(() => server.metrics()).toThrow(McpTestkitError);
    expect(() => server.metrics()).toThrow(/mockMcp\(\{ metrics: true \}\)/);
    await server.close();
  });
});

describe("metrics text", () => {
  it("on a mock that collects none, the metrics path is a 404 saying how to turn them on", async () => {
    const server = await serve({ tools: { ok: { returns: "fine" } } });
    const response = await fetch(new URL(METRICS_PATH, server.url));
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('This mock collects no metrics: create it with mockMcp({ metrics: true }), or put "metrics": true in a scenario file for mcp-testkit mock.\n');
    // Not listed among the mock's endpoints: it is no endpoint to connect to.
    const missing = await fetch(new URL("/nowhere", server.url));
    expect(await missing.text()).not.toContain("metrics");
  });

  it("serves Prometheus text at /__mcp-testkit/metrics, and OpenMetrics when the scraper asks", async () => {
    const server = await serve({ metrics: true, tools: { ok: { returns: "fine" } } });
    const { client } = await sdkClient(server.url);
    await client.callTool({ name: "ok", arguments: {} });
    const url = new URL(METRICS_PATH, server.url);

    const prometheus = await fetch(url);
    expect(prometheus.status).toBe(200);
    expect(prometheus.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const text = await prometheus.text();
    expect(text).toContain("# TYPE mcp_testkit_requests_total counter");
    expect(text).toContain('mcp_testkit_requests_total{endpoint="/mcp",method="tools/call",outcome="complete"} 1');
    expect(text).toContain("# TYPE mcp_testkit_request_duration_seconds histogram");
    expect(text).toMatch(/mcp_testkit_request_duration_seconds_bucket\{endpoint="\/mcp",method="tools\/call",outcome="complete",le="\+Inf"\} 1/);
    expect(text).toContain('mcp_testkit_request_duration_seconds_count{endpoint="/mcp",method="tools/call",outcome="complete"} 1');

    const openMetrics = await fetch(url, { headers: { accept: "application/openmetrics-text; version=1.0.0" } });
    expect(openMetrics.headers.get("content-type")).toBe("application/openmetrics-text; version=1.0.0; charset=utf-8");
    const om = await openMetrics.text();
    expect(om).toContain("# TYPE mcp_testkit_requests counter");
    expect(om).toContain('mcp_testkit_requests_total{endpoint="/mcp",method="tools/call",outcome="complete"} 1');
    expect(om.endsWith("# EOF\n")).toBe(true);
    expect(await server.metricsText("openmetrics")).toContain("# EOF");

    const refused = await fetch(url, { method: "POST", body: "{}" });
    expect(refused.status).toBe(405);
  });
});

describe("bounded labels", () => {
  it("keeps the series count flat under 10,000 unique method names and 10,000 unique tool names", async () => {
    const server = await mockMcp({ transport: "memory", metrics: true, tools: { ok: { returns: "fine" } } });
    await server.handle(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "flood", version: "0" } } }));
    // One of each kind first, so every series the flood can touch exists.
    await server.handle(JSON.stringify({ jsonrpc: "2.0", id: "m", method: "warm/up", params: {} }));
    await server.handle(JSON.stringify({ jsonrpc: "2.0", id: "t", method: "tools/call", params: { name: "warm_up", arguments: {} } }));
    const before = server.metrics().seriesCount;

    for (let i = 0; i < 10_000; i++) {
      await server.handle(JSON.stringify({ jsonrpc: "2.0", id: i, method: `x/unique-method-${i}`, params: { _meta: { traceparent: `00-${i}` } } }));
      await server.handle(JSON.stringify({ jsonrpc: "2.0", id: `t${i}`, method: "tools/call", params: { name: `unique_tool_${i}`, arguments: { q: i } } }));
    }

    const after = server.metrics();
    expect(after.seriesCount).toBe(before);
    expect(after.value("mcp_testkit_requests_total", { method: UNRECOGNIZED_METHOD })).toBe(10_001);
    expect(after.value("mcp_testkit_requests_total", { method: "tools/call", outcome: "protocol_error" })).toBe(10_001);
    const text = await server.metricsText();
    expect(text).not.toMatch(/unique-method|unique_tool|traceparent/);
    await server.close();
  });
});
