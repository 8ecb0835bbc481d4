/**
 * One typed emitter for everything a mock can tell (`server.on`): calls, requests, sessions and,
 * over HTTP, SSE streams. Listeners are how the CLI prints its lines and how observers and
 * metrics will hear the mock; a throwing one never reaches the client.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { MockEvents, RequestEndEvent, RequestStartEvent, StreamCloseEvent } from "../../src/index.js";
import { connect, mock, useCleanup } from "../mock/support.js";
import { sdkClient, serve, useCleanup as useHttpCleanup } from "../wire/support/http.js";

useCleanup();
useHttpCleanup();
afterEach(() => vi.restoreAllMocks());

describe("request:start and request:end", () => {
  it("come once per request, with method, outcome, error and duration; notifications have none", async () => {
    const server = await mock({ tools: { ok: { returns: "fine" }, broken: { throws: { code: -32001, message: "nope" } } } });
    const starts: RequestStartEvent[] = [];
    const ends: RequestEndEvent[] = [];
    server.on("request:start", (event) => starts.push(event));
    server.on("request:end", (event) => ends.push(event));
    const client = await connect(server);
    await client.callTool({ name: "ok" });
    await expect(client.callTool({ name: "broken" })).rejects.toThrow(/nope/);

    expect(starts.map((event) => event.method)).toEqual(["initialize", "tools/call", "tools/call"]);
    // Each end carries its own start, the same object: pairs are found by identity, not by id.
    expect(ends.map((event) => starts.indexOf(event.start))).toEqual([0, 1, 2]);
    expect(ends.map((event) => [event.method, event.outcome, event.error?.code])).toEqual([
      ["initialize", "result", undefined],
      ["tools/call", "result", undefined],
      ["tools/call", "error", -32001],
    ]);
    for (const event of ends) {
      expect(event.durationMs).toBeGreaterThanOrEqual(0);
      expect(event.protocolVersion).toBe("2025-11-25");
      expect(event.sessionId).toBe(ends[0]!.sessionId);
    }
  });

  it("ends a hung call exactly once, with outcome none, when the client cancels it", async () => {
    const server = await mock({ tools: { wait: { hang: true } } });
    const ends: RequestEndEvent[] = [];
    server.on("request:end", (event) => ends.push(event));
    const client = await connect(server);
    const error = await client.callTool({ name: "wait" }, undefined, { timeout: 50 }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.RequestTimeout);
    await vi.waitFor(() => expect(ends.filter((event) => event.method === "tools/call")).toHaveLength(1));
    expect(ends.find((event) => event.method === "tools/call")).toMatchObject({ outcome: "none" });
    expect(server.calls[0]!.outcome).toBe("cancelled");
  });
});

describe("session:open and session:close", () => {
  it("tell when an in-memory client connects and leaves, with the wire and the reason", async () => {
    const server = await mock();
    const seen: string[] = [];
    server.on("session:open", (event) => seen.push(`open ${event.wire}`));
    server.on("session:close", (event) => seen.push(`close ${event.wire} ${event.outcome}: ${event.reason}`));
    const client = await connect(server);
    await client.close();
    expect(seen).toEqual(["open memory", "close memory disconnected: the client closed the connection"]);
  });

  it("tell when an HTTP session is initialized and when the client ends it with DELETE", async () => {
    const server = await serve();
    const seen: MockEvents["session:close"][] = [];
    const opened: string[] = [];
    server.on("session:open", (event) => opened.push(event.sessionId));
    server.on("session:close", (event) => seen.push(event));
    const { client, transport } = await sdkClient(server.url);
    const sessionId = transport.sessionId;
    expect(opened).toEqual([sessionId]);
    await transport.terminateSession();
    await client.close();
    expect(seen).toMatchObject([{ sessionId, wire: "http", outcome: "cancelled", reason: "the client ended the session (DELETE)" }]);
  });
});

describe("stream:open and stream:close (Streamable HTTP)", () => {
  it("report each SSE answer stream, closed as completed once the answer went out", async () => {
    const server = await serve({ tools: { t: { returns: "ok", stream: { mode: "sse" } } } });
    const events: string[] = [];
    server.on("stream:open", (event) => events.push(`open ${event.kind}`));
    server.on("stream:close", (event) => events.push(`close ${event.kind} ${event.reason}`));
    const { client } = await sdkClient(server.url);
    await client.callTool({ name: "t" });
    expect(events.filter((line) => line.includes("request"))).toEqual(["open request", "close request completed"]);
  });

  it("say closed_for_resumption when a step closes the stream early, and server_stopping when the mock closes", async () => {
    const server = await serve({ tools: { cut: { delayMs: 30, returns: "late", stream: { mode: "sse", closeAfterEvents: 0, retryMs: 10 } }, wait: { hang: true, stream: { mode: "sse" } } } });
    const closes: StreamCloseEvent[] = [];
    server.on("stream:close", (event) => closes.push(event));
    const { client } = await sdkClient(server.url);
    const result = await client.callTool({ name: "cut" });
    expect(result.content).toEqual([{ type: "text", text: "late" }]);
    expect(closes.map((event) => event.reason)).toContain("closed_for_resumption");

    const pending = client.callTool({ name: "wait" }, undefined, { timeout: 300 }).catch(() => undefined);
    await server.waitForCalls(1, { tool: "wait" });
    closes.length = 0;
    await server.close();
    await pending;
    expect(closes.map((event) => event.reason)).toContain("server_stopping");
  });
});

describe("a listener that throws", () => {
  it("is reported once on stderr and never changes what the client gets", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const server = await mock({ tools: { echo: { returns: "hi" } } });
    server.on("request:end", () => {
      throw new Error("listener bug");
    });
    const client = await connect(server);
    for (let i = 0; i < 3; i++) expect((await client.callTool({ name: "echo" })).content).toEqual([{ type: "text", text: "hi" }]);
    const reports = warn.mock.calls.filter(([line]) => String(line).includes("listener bug"));
    expect(reports).toHaveLength(1);
    expect(String(reports[0]![0])).toMatch(/a "request:end" listener threw \(listener bug\); the client was not affected/);
  });

  it("is contained when async and rejecting: reported once, the call still succeeds, no unhandled rejection", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const server = await mock({ tools: { echo: { returns: "hi" } } });
      server.on("call:end", async () => {
        await Promise.resolve();
        throw new Error("async listener bug");
      });
      const client = await connect(server);
      for (let i = 0; i < 3; i++) expect((await client.callTool({ name: "echo" })).content).toEqual([{ type: "text", text: "hi" }]);
      // Node reports an unhandled rejection after the microtasks drain: give it two turns.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
      const reports = warn.mock.calls.filter(([line]) => String(line).includes("async listener bug"));
      expect(reports).toHaveLength(1);
      expect(String(reports[0]![0])).toMatch(/a "call:end" listener threw \(async listener bug\); the client was not affected/);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("refuses a listener that is not a function", async () => {
    const server = await mock();
    expect(() => server.on("call:end", "print" as never)).toThrow('server.on("call:end", listener): the listener must be a function.');
  });
});
