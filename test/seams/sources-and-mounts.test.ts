/**
 * Step sources and the unknown-tool policy (`onUnknownTool`, in msw's `onUnhandledRequest`
 * spirit), the request context a step function sees, and `server.mount()`: other handlers on
 * the mock's port and through `server.handler` / `server.fetch`.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { McpTestkitError } from "../../src/index.js";
import { connect, mock, useCleanup } from "../mock/support.js";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { ACCEPT_BOTH, onCleanup, post, rpcRequest, serve, useCleanup as useHttpCleanup } from "../wire/support/http.js";

useCleanup();
useHttpCleanup();
afterEach(() => vi.restoreAllMocks());

describe("onUnknownTool", () => {
  it('"error" (the default): -32602 naming the tools, recorded as unknown-tool', async () => {
    const server = await mock({ tools: { search: { returns: "ok" } } });
    const client = await connect(server);
    await expect(client.callTool({ name: "serch" })).rejects.toThrow("Unknown tool: serch");
    expect(server.calls[0]).toMatchObject({ tool: "serch", outcome: "unknown-tool", response: { error: { code: -32602, data: { tool: "serch", available: ["search"] } } } });
  });

  it('"warn": the same answer, plus a line on stderr saying what to do', async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const server = await mock({ tools: { search: { returns: "ok" } }, onUnknownTool: "warn" });
    const client = await connect(server);
    await expect(client.callTool({ name: "serch" })).rejects.toThrow("Unknown tool: serch");
    expect(warn).toHaveBeenCalledWith('mcp-testkit: tools/call for unknown tool "serch" (tools: search); answered -32602. Add the tool, or set onUnknownTool.');
    expect(server.calls[0]!.outcome).toBe("unknown-tool");
  });

  it("a function answers every unknown tool like a step function, sync or async", async () => {
    const server = await mock({ onUnknownTool: async (call) => ({ returns: `no ${call.tool}, args ${JSON.stringify(call.arguments)}` }) });
    const client = await connect(server);
    const result = await client.callTool({ name: "anything", arguments: { a: 1 } });
    expect(result.content).toEqual([{ type: "text", text: 'no anything, args {"a":1}' }]);
    expect(server.calls[0]).toMatchObject({ tool: "anything", outcome: "result" });
  });

  it("refuses anything else, saying what it takes", async () => {
    await expect(mock({ onUnknownTool: "ignore" as never })).rejects.toThrow('"onUnknownTool" must be "error", "warn" or a function (call) => step, got "ignore".');
  });
});

describe("what a step function sees of its request", () => {
  it("the protocol version of this request and an empty identity (no test id sent)", async () => {
    const seen: unknown[] = [];
    const server = await mock({ tools: { t: (call) => (seen.push([call.protocolVersion, call.identity]), { returns: "ok" }) } });
    const client = await connect(server, { protocolVersion: "2025-03-26" });
    await client.callTool({ name: "t" });
    expect(seen).toEqual([["2025-03-26", {}]]);
    expect(server.calls[0]!.protocolVersion).toBe("2025-03-26");
  });

  it("over HTTP, a test id header in any spelling of its name (X-Test-Id as node sends it, unlowered)", async () => {
    const seen: unknown[] = [];
    const server = await serve({ tools: { t: (call) => (seen.push(call.identity), { returns: "ok" }) } });
    const opened = await post(server.url, rpcRequest("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } }));
    const sessionId = opened.headers.get("mcp-session-id")!;
    // node:http keeps a header name as written (fetch lower-cases it): the rawHeaders are "X-Test-Id".
    const status = await new Promise<number>((resolve, reject) => {
      const body = JSON.stringify(rpcRequest("tools/call", { name: "t", arguments: {} }));
      const request = httpRequest(
        server.url,
        { method: "POST", headers: { Accept: ACCEPT_BOTH, "Content-Type": "application/json", "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": "2025-11-25", "X-Test-Id": "spelled-out" } },
        (response) => {
          response.resume();
          response.on("end", () => resolve(response.statusCode ?? 0));
        },
      );
      request.on("error", reject);
      request.end(body);
    });
    expect(status).toBe(200);
    expect(seen).toEqual([{ testId: "spelled-out" }]);
    expect(server.calls[0]!.identity).toEqual({ testId: "spelled-out" });
  });

  it("a step function that answers at once may still ask for the signal and hang until cancelled", async () => {
    let signal: AbortSignal | undefined;
    const server = await mock({ tools: { t: (call) => ((signal = call.signal), { hang: true }) } });
    const client = await connect(server);
    await expect(client.callTool({ name: "t" }, undefined, { timeout: 50 })).rejects.toThrow(/timed out/i);
    await vi.waitFor(() => expect(signal?.aborted).toBe(true));
    expect(server.calls[0]!.outcome).toBe("cancelled");
  });

  it("a step function's context is plain to serialize (no connection internals)", async () => {
    let text = "";
    const server = await mock({ tools: { t: (call) => ((text = JSON.stringify({ args: call.arguments, ...call })), { returns: "ok" }) } });
    const client = await connect(server);
    await client.callTool({ name: "t", arguments: { q: 1 } });
    expect(JSON.parse(text)).toMatchObject({ tool: "t", args: { q: 1 }, index: 0, protocolVersion: "2025-11-25" });
  });
});

describe("server.mount()", () => {
  const health = () => new Response(JSON.stringify({ ok: true }), { headers: { "content-type": "application/json" } });

  it("serves a web handler on the mock's own port beside the MCP endpoint, and unmounts it", async () => {
    const server = await serve({ tools: { t: { returns: "ok" } } });
    const origin = new URL(server.url).origin;
    const unmount = server.mount("/health", health);
    const response = await fetch(`${origin}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    unmount();
    const gone = await fetch(`${origin}/health`);
    expect(gone.status).toBe(404);
    expect(await gone.text()).toBe("No MCP endpoint at /health; endpoints: /mcp\n");
  });

  it("a prefix mount gets every path under it, with method, query, headers and body", async () => {
    const server = await serve();
    const seen: string[] = [];
    server.mount(
      "/__control",
      async (request) => {
        const url = new URL(request.url);
        seen.push(`${request.method} ${url.pathname}${url.search} ${request.headers.get("x-test-id")} ${await request.text()}`);
        return new Response("done", { status: 201 });
      },
      { prefix: true },
    );
    const origin = new URL(server.url).origin;
    const response = await fetch(`${origin}/__control/fakes?scope=a`, { method: "POST", headers: { "x-test-id": "t1" }, body: "{}" });
    expect([response.status, await response.text()]).toEqual([201, "done"]);
    expect(seen).toEqual(["POST /__control/fakes?scope=a t1 {}"]);
  });

  it("a failing web handler answers 500 naming the mount, and the MCP endpoint keeps working", async () => {
    const server = await serve({ tools: { t: { returns: "ok" } } });
    server.mount("/boom", () => {
      throw new Error("handler bug");
    });
    const origin = new URL(server.url).origin;
    const response = await fetch(`${origin}/boom`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: "the handler mounted at /boom failed: handler bug" });
    const client = await connect(server);
    expect((await client.callTool({ name: "t" })).content).toEqual([{ type: "text", text: "ok" }]);
  });

  it("reaches mounted handlers through server.fetch; every other path is the MCP endpoint", async () => {
    const server = await mock();
    server.mount("/health", health);
    expect(await (await server.fetch(new Request("http://localhost/health"))).json()).toEqual({ ok: true });
    const mcp = await server.fetch(new Request("http://localhost/anything", { method: "GET" }));
    expect(mcp.status).toBe(406); // the MCP endpoint's own answer to a GET without Accept: text/event-stream
  });

  it("through server.fetch, a failing web handler answers 500 naming the mount, as over listen()", async () => {
    const server = await mock();
    server.mount("/boom", () => {
      throw new Error("handler bug");
    });
    server.mount("/async-boom", async () => Promise.reject(new Error("async handler bug")));
    server.mount("/not-a-response", () => ({ status: "ok" }) as never);
    const sync = await server.fetch(new Request("http://localhost/boom"));
    expect(sync.status).toBe(500);
    expect(await sync.json()).toEqual({ error: "the handler mounted at /boom failed: handler bug" });
    const rejected = await server.fetch("http://localhost/async-boom");
    expect([rejected.status, await rejected.json()]).toEqual([500, { error: "the handler mounted at /async-boom failed: async handler bug" }]);
    const wrong = await server.fetch("http://localhost/not-a-response");
    expect([wrong.status, await wrong.json()]).toEqual([500, { error: "the handler mounted at /not-a-response failed: it returned an object, not a Response" }]);
  });

  it("through server.handler inside your own node:http server, a mounted route is served beside the MCP endpoint", async () => {
    const server = await mock({ tools: { t: { returns: "ok" } } });
    server.mount("/health", health);
    server.mount("/boom", () => {
      throw new Error("handler bug");
    });
    const own = createServer((req, res) => server.handler(req, res));
    await new Promise<void>((resolve) => own.listen(0, "127.0.0.1", resolve));
    onCleanup(() => new Promise<void>((resolve) => (own.close(() => resolve()), own.closeAllConnections())));
    const origin = `http://127.0.0.1:${(own.address() as AddressInfo).port}`;
    const response = await fetch(`${origin}/health`);
    expect([response.status, response.headers.get("content-type"), await response.json()]).toEqual([200, "application/json", { ok: true }]);
    const failed = await fetch(`${origin}/boom`);
    expect([failed.status, await failed.json()]).toEqual([500, { error: "the handler mounted at /boom failed: handler bug" }]);
    // Every other path is still the MCP endpoint.
    const initialized = await post(`${origin}/mcp`, rpcRequest("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } }));
    expect(initialized.status).toBe(200);
    expect(initialized.headers.get("mcp-session-id")).toMatch(/^[0-9a-f]{32}$/);
    await initialized.body?.cancel();
  });

  it("refuses a taken path and a path without a leading slash", async () => {
    const server = await mock();
    expect(() => server.mount("/mcp", health)).toThrow(McpTestkitError);
    expect(() => server.mount("/mcp", health)).toThrow("Something is mounted at /mcp already; mounted: /mcp.");
    expect(() => server.mount("health", health)).toThrow('A mount path must start with "/", got "health".');
  });
});
