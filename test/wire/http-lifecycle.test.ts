/**
 * `close()` over Streamable HTTP: every session and stream ends, pending calls end `cancelled`,
 * the port is released and no handle is left open (so a test runner exits on its own); and
 * `await using` does all of that at the end of a block.
 */
import { connect } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { mockMcp } from "../../src/index.js";
import { get, headersFor, initializeRequest, post, rawSession, rpcRequest, sdkClient, serve, sseReader, text, track, until, useCleanup } from "./support/http.js";

useCleanup();

/** The TCP handles (servers, sockets) this process holds. */
const tcpHandles = () => process.getActiveResourcesInfo().filter((kind) => kind.startsWith("TCP"));

/** Resolves once the process holds no TCP handle (closing sockets take a loop turn or two). */
const noTcpHandles = () => until(() => tcpHandles().length === 0, 2000, `no TCP handles (still: ${tcpHandles().join(", ")})`);

/** What a fresh TCP connection to the URL's port gives: "connected", or the error code (ECONNREFUSED). */
function connectTo(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once("connect", () => {
      socket.destroy();
      resolve("connected");
    });
    socket.once("error", (error: Error & { code?: string }) => resolve(error.code ?? error.message));
  });
}

describe("close()", () => {
  it("ends every session and stream, cancels pending calls, releases the port and leaves no TCP handle", async () => {
    await noTcpHandles();
    expect(tcpHandles()).toEqual([]);

    const server = await serve({ tools: { wait: { hang: true }, waitSse: { hang: true, stream: { mode: "sse" } }, ok: { returns: "ok" } } });
    const url = server.url;
    expect(tcpHandles()).toContain("TCPServerWrap");
    expect(await connectTo(url)).toBe("connected");

    // An SDK client (with its GET stream), a raw session with a GET stream, and two hung calls.
    const sdk = await sdkClient(url);
    expect(text(await sdk.client.callTool({ name: "ok" }))).toBe("ok");
    const raw = await rawSession(url);
    const getStream = sseReader(await get(url, { sessionId: raw.sessionId }));
    expect(await getStream.next()).toMatchObject({ id: "g_0", data: "" });
    const hungJson = post(url, rpcRequest("tools/call", { name: "wait" }), { sessionId: raw.sessionId }).catch((error: unknown) => error);
    const hungSse = sseReader(await post(url, rpcRequest("tools/call", { name: "waitSse" }), { sessionId: raw.sessionId }));
    expect(await hungSse.next()).toMatchObject({ id: "p0_0", data: "" });
    const sdkPending = sdk.client.callTool({ name: "wait" }, undefined, { timeout: 5000 }).catch((error: unknown) => error);
    await server.waitForCalls(4, { timeoutMs: 2000 });

    await server.close();

    expect(server.calls.map((call) => [call.tool, call.outcome, call.reason ?? null])).toEqual([
      ["ok", "result", null],
      ["wait", "cancelled", "the mock server closed"],
      ["waitSse", "cancelled", "the mock server closed"],
      ["wait", "cancelled", "the mock server closed"],
    ]);
    // Streams end; JSON answers that will never come are dropped.
    expect(await getStream.next()).toBeUndefined();
    expect(await hungSse.next()).toBeUndefined();
    expect(await hungJson).toBeInstanceOf(TypeError);
    expect(await sdkPending).toBeInstanceOf(TypeError);

    // The port is released: connecting is refused.
    expect(await connectTo(url)).toBe("ECONNREFUSED");
    // Closing again is a no-op.
    await server.close();

    await sdk.client.close();
    await noTcpHandles();
    expect(tcpHandles()).toEqual([]);
  });

  it("after close(), the mounted handler and server.fetch of a mock that served them answer 503", async () => {
    const server = track(await mockMcp({ transport: "memory", tools: { t: { returns: "x" } } }));
    const initialize = () => new Request("http://mock.test/mcp", { method: "POST", headers: headersFor({ version: null }), body: JSON.stringify(initializeRequest()) });
    const before = await server.fetch(initialize());
    expect(before.status).toBe(200);
    await before.body?.cancel();
    await server.close();
    const after = await server.fetch(initialize());
    expect(after.status).toBe(503);
    expect(after.headers.get("mcp-session-id")).toBeNull();
    expect(await after.json()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Service Unavailable: the mock server is closed" } });
  });

  // Known bug (src/mock/mock-mcp.ts, not this suite's to fix): close() only closes the HTTP
  // endpoint if it was made already, so a memory mock whose handler / fetch was first used after
  // close() makes a fresh, open endpoint and keeps serving. Flip to `it` once fixed.
  it("after close(), server.fetch of a mock that never served HTTP answers 503 too", async () => {
    const server = track(await mockMcp({ transport: "memory" }));
    await server.close();
    const after = await server.fetch(new Request("http://mock.test/mcp", { method: "POST", headers: headersFor({ version: null }), body: JSON.stringify(initializeRequest()) }));
    expect(after.status).toBe(503);
  });

  it("expireSession() with no id ends every session (all their calls cancelled) and the mock keeps serving", async () => {
    const server = await serve({ tools: { wait: { hang: true }, ok: { returns: "ok" } } });
    const a = await rawSession(server.url);
    const b = await rawSession(server.url);
    const pending = [a, b].map((session) => post(server.url, rpcRequest("tools/call", { name: "wait" }), { sessionId: session.sessionId }).catch((error: unknown) => error));
    await server.waitForCalls(2, { timeoutMs: 2000 });
    expect(server.expireSession()).toBe(2);
    for (const result of await Promise.all(pending)) expect(result).toBeInstanceOf(TypeError);
    expect(server.calls.map((call) => [call.outcome, call.reason])).toEqual([
      ["cancelled", "the session expired (expireSession)"],
      ["cancelled", "the session expired (expireSession)"],
    ]);
    expect((await post(server.url, rpcRequest("ping"), { sessionId: a.sessionId })).status).toBe(404);
    const fresh = await sdkClient(server.url);
    expect(text(await fresh.client.callTool({ name: "ok" }))).toBe("ok");
  });
});

describe("await using", () => {
  it("closes the mock at the end of the block: pending calls cancelled, URL refused, no TCP handle left", async () => {
    await noTcpHandles();
    let url = "";
    let calls: Awaited<ReturnType<typeof mockMcp>>["calls"] = [];
    let pending: Promise<unknown> | undefined;
    {
      await using server = await mockMcp({ tools: { wait: { hang: true } } });
      url = server.url!;
      const { sessionId } = await rawSession(url);
      pending = post(url, rpcRequest("tools/call", { name: "wait" }), { sessionId }).catch((error: unknown) => error);
      calls = await server.waitForCalls(1, { timeoutMs: 2000 });
      expect(calls[0]!.outcome).toBe("pending");
    }
    expect(calls[0]).toMatchObject({ outcome: "cancelled", reason: "the mock server closed" });
    expect(await pending).toBeInstanceOf(TypeError);
    expect(await connectTo(url)).toBe("ECONNREFUSED");
    await noTcpHandles();
    expect(tcpHandles()).toEqual([]);
  });
});

describe("server.fetch and the request's AbortSignal (as the global fetch)", () => {
  const modernCall = (name: string, signal: AbortSignal) =>
    new Request("http://mock.test/mcp", {
      method: "POST",
      signal,
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": name },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } },
      }),
    });

  it("aborted while the response is awaited: rejects with the signal's reason, and the call ends cancelled", async () => {
    await using server = await mockMcp({ transport: "memory", tools: { wait: { hang: true } } });
    const controller = new AbortController();
    const response = server.fetch(modernCall("wait", controller.signal));
    await server.waitForCalls(1, { timeoutMs: 2000 });
    controller.abort(new Error("the test gave up"));
    await expect(response).rejects.toThrow("the test gave up");
    await vi.waitFor(() => expect(server.calls.map((call) => call.outcome)).toEqual(["cancelled"]), { timeout: 2000 });
  });

  it("aborted before it is sent: rejects at once with an AbortError, and no call runs", async () => {
    await using server = await mockMcp({ transport: "memory", tools: { wait: { hang: true } } });
    await expect(server.fetch(modernCall("wait", AbortSignal.abort()))).rejects.toMatchObject({ name: "AbortError" });
    expect(server.calls).toEqual([]);
  });
});
