/**
 * Methods no web-standard `Request` can carry (the fetch standard forbids CONNECT, TRACE and
 * TRACK) on the routes served by web handlers: the control API under both prefixes and a
 * mounted handler. Sent over raw sockets, since no fetch client can send them either.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { mockMcp } from "../../src/index.js";
import { socketRequest } from "../fuzz/raw-http.js";
import { onCleanup, serve, track, useCleanup } from "./support/http.js";

useCleanup();

/** A bound against a hang only: a refusal comes at once, this is many times that. */
const HANG_GUARD_MS = 10_000;

async function mockWithHook() {
  const server = await serve({ fixtures: { scope: "shared", tools: [{ name: "ping", calls: [{ anyArgs: true, result: "pong" }] }] } });
  const hits: string[] = [];
  server.mount("/hook", (request) => {
    hits.push(request.method);
    return new Response("hooked");
  });
  return { server, hits, port: Number(new URL(server.url).port) };
}

describe("a method no Request can carry, on a route served by a web handler", () => {
  it("TRACE on the control API, under both prefixes, is 501 naming the methods the route takes, with an Allow header", async () => {
    const { server, port } = await mockWithHook();
    const cases = [
      { path: "/__mcp-testkit/journal", allow: "GET" },
      { path: "/__aimock/journal", allow: "GET" },
      { path: "/__mcp-testkit/fixtures", allow: "POST, DELETE" },
      { path: "/__aimock/reset", allow: "POST" },
    ];
    for (const { path, allow } of cases) {
      const answer = await socketRequest(port, { method: "TRACE", target: path, headers: { host: `127.0.0.1:${port}` } }, HANG_GUARD_MS);
      expect(answer.status, path).toBe(501);
      expect(answer.headers.allow, path).toBe(allow);
      expect(answer.contentType).toBe("application/json");
      expect(JSON.parse(answer.body)).toEqual({
        code: "MCP_HTTP_METHOD_NOT_IMPLEMENTED",
        error: `TRACE has no handler here: ${path} is served by a web handler (Request → Response), and no Request can carry CONNECT, TRACE or TRACK (the fetch standard forbids them); ${path} takes ${allow}.`,
      });
    }
    // The route still serves the methods it takes.
    expect((await socketRequest(port, { method: "GET", target: "/__aimock/journal", headers: { host: `127.0.0.1:${port}` } }, HANG_GUARD_MS)).status).toBe(200);
    expect(server.fakes.journal.size).toBe(0);
  });

  it("TRACE on a mounted handler is 501 without calling it; its methods are unknown, so no Allow header", async () => {
    const { hits, port } = await mockWithHook();
    const answer = await socketRequest(port, { method: "TRACE", target: "/hook", headers: { host: `127.0.0.1:${port}` } }, HANG_GUARD_MS);
    expect(answer.status).toBe(501);
    expect(answer.headers.allow).toBeUndefined();
    expect(JSON.parse(answer.body)).toEqual({
      code: "MCP_HTTP_METHOD_NOT_IMPLEMENTED",
      error:
        "TRACE has no handler here: /hook is served by a web handler (Request → Response), and no Request can carry CONNECT, TRACE or TRACK (the fetch standard forbids them); send it with a method the route takes, such as GET or POST.",
    });
    expect(hits).toEqual([]);
    const get = await socketRequest(port, { method: "GET", target: "/hook", headers: { host: `127.0.0.1:${port}` } }, HANG_GUARD_MS);
    expect([get.status, get.body, hits]).toEqual([200, "hooked", ["GET"]]);
  });

  it("TRACE reaching the control API through the mock's node handler, mounted in the user's own server, is 501 too", async () => {
    const server = track(await mockMcp({}));
    const host = createServer(server.handler);
    await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
    onCleanup(() => new Promise<void>((resolve) => (host.closeAllConnections(), host.close(() => resolve()))));
    const port = (host.address() as AddressInfo).port;
    const answer = await socketRequest(port, { method: "TRACE", target: "/__mcp-testkit/health", headers: { host: `127.0.0.1:${port}` } }, HANG_GUARD_MS);
    expect([answer.status, answer.headers.allow, JSON.parse(answer.body).code]).toEqual([501, "GET", "MCP_HTTP_METHOD_NOT_IMPLEMENTED"]);
  });

  it("CONNECT on the mock's port is 501 (it tunnels nothing) instead of a connection dropped unheard, whatever the target", async () => {
    const { port } = await mockWithHook();
    for (const target of [`127.0.0.1:${port}`, "/__mcp-testkit/journal", "/__aimock/journal", "/hook"]) {
      const answer = await socketRequest(port, { method: "CONNECT", target, headers: { host: `127.0.0.1:${port}` } }, HANG_GUARD_MS);
      expect(answer.status, target).toBe(501);
      expect(JSON.parse(answer.body), target).toEqual({
        code: "MCP_HTTP_METHOD_NOT_IMPLEMENTED",
        error: "CONNECT has no handler here: this is an MCP server, not a proxy, so it opens no tunnels; send GET, POST or DELETE to its MCP endpoint.",
      });
    }
  });

  it("TRACK, which node's parser does not know, is refused by it with 400 before any route: never a 500", async () => {
    const { hits, port } = await mockWithHook();
    for (const target of ["/__mcp-testkit/journal", "/__aimock/journal", "/hook"]) {
      const answer = await socketRequest(port, { method: "TRACK", target, headers: { host: `127.0.0.1:${port}` } }, HANG_GUARD_MS);
      expect(answer.status, target).toBe(400);
    }
    expect(hits).toEqual([]);
  });
});
