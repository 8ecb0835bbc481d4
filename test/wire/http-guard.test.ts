/**
 * DNS-rebinding protection stands in front of every route on a mock's port: the MCP endpoint,
 * the control API under both prefixes, metrics, mounted handlers. Sent over raw sockets, as a
 * rebound page's browser (or a hand-made request) sends them: a foreign `Host` with no `Origin`,
 * a foreign `Origin`, an absolute-form target naming a foreign authority, a target with a fragment.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import type { McpFakeBlock, MockMcpServer } from "../../src/index.js";
import { socketRequest } from "../fuzz/raw-http.js";
import { ACCEPT_BOTH, initializeRequest, onCleanup, serve, track, useCleanup } from "./support/http.js";
import { mockMcp } from "../../src/index.js";

useCleanup();

/** A bound against a hang only: a refusal comes at once, this is many times that. */
const HANG_GUARD_MS = 10_000;

const pingBlock: McpFakeBlock = { scope: "shared", tools: [{ name: "ping", calls: [{ anyArgs: true, result: "pong" }] }] };
const addedBlock = JSON.stringify({ mcpFakes: { scope: "shared", tools: [{ name: "added", calls: [{ anyArgs: true, result: "evil" }] }] } });
const mcpBody = JSON.stringify(initializeRequest());

/** Every route of a mock with fakes, metrics and a mounted handler, and the request each takes. */
const ROUTES: ReadonlyArray<{ method: string; path: string; body?: string }> = [
  ...["/__mcp-testkit", "/__aimock"].flatMap((prefix) => [
    { method: "GET", path: `${prefix}/journal` },
    { method: "GET", path: `${prefix}/fakes` },
    { method: "GET", path: `${prefix}/health` },
    { method: "POST", path: `${prefix}/fixtures`, body: addedBlock },
    { method: "DELETE", path: `${prefix}/fixtures` },
    { method: "POST", path: `${prefix}/reset`, body: "{}" },
  ]),
  { method: "GET", path: "/__mcp-testkit/metrics" },
  { method: "GET", path: "/__mcp-testkit/trace" },
  { method: "GET", path: "/hook" },
  { method: "POST", path: "/mcp", body: mcpBody },
  { method: "GET", path: "/nothing-here" },
];

/** A mock with fakes, metrics and a mounted handler; `hits` counts the handler's requests. */
async function guardedMock(options: Parameters<typeof serve>[0] = {}) {
  const server = await serve({ fixtures: pingBlock, metrics: true, ...options });
  const hits: string[] = [];
  server.mount("/hook", (request) => {
    hits.push(request.url);
    return new Response(`hook saw ${request.url}`);
  });
  const port = Number(new URL(server.url).port);
  return { server, hits, port };
}

/** What a foreign request could read or change: the fakes, the journal, the calls and sessions, the handler's hits. */
function stateOf(server: MockMcpServer, hits: string[]) {
  return JSON.stringify({ fakes: server.fakes.inspect(), journal: server.fakes.journal.size, calls: server.calls.length, messages: server.messages.length, hits: hits.length });
}

const headersFor = (route: { body?: string }, extra: Record<string, string>) => ({ accept: ACCEPT_BOTH, ...(route.body !== undefined && { "content-type": "application/json" }), ...extra });

describe("a foreign Host or Origin is refused on every route", () => {
  it("a foreign Host with no Origin gets 403 on every route (control API under both prefixes, metrics, a mounted handler, /mcp), and nothing changes", async () => {
    const { server, hits, port } = await guardedMock();
    const before = stateOf(server, hits);
    for (const route of ROUTES) {
      const answer = await socketRequest(port, { method: route.method, target: route.path, headers: headersFor(route, { host: `evil.example:${port}` }), body: route.body }, HANG_GUARD_MS);
      expect(answer.status, `${route.method} ${route.path}`).toBe(403);
      expect(answer.contentType).toBe("application/json");
      expect(JSON.parse(answer.body)).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: {
          code: -32000,
          message: `Forbidden: Host "evil.example:${port}" is not allowed (DNS rebinding protection); loopback names (localhost, 127.0.0.1, [::1]) are, and those in allowedHosts: add "evil.example" there to serve it`,
        },
      });
    }
    expect(stateOf(server, hits)).toBe(before);
    expect(server.fakes.inspect().mounts[0]!.blocks.map((block) => block.tools.map((tool) => tool.name))).toEqual([["ping"]]);
  });

  it("a foreign Origin (or Origin: null, or one that is not an origin) gets 403 on every route, and nothing changes", async () => {
    const { server, hits, port } = await guardedMock();
    const before = stateOf(server, hits);
    for (const origin of ["http://evil.example", "null", "not a url"]) {
      for (const route of ROUTES) {
        const answer = await socketRequest(port, { method: route.method, target: route.path, headers: headersFor(route, { host: `127.0.0.1:${port}`, origin }), body: route.body }, HANG_GUARD_MS);
        expect(answer.status, `${origin} ${route.method} ${route.path}`).toBe(403);
        expect(JSON.parse(answer.body).error.message).toMatch(/^Forbidden: Origin .* \(DNS rebinding protection\)/);
      }
    }
    expect(stateOf(server, hits)).toBe(before);
  });

  it("each refusal is an http:rejected event naming its path", async () => {
    const { server, port } = await guardedMock();
    const rejected: unknown[] = [];
    server.on("http:rejected", (event) => void rejected.push(event));
    await socketRequest(port, { method: "GET", target: "/__mcp-testkit/journal", headers: { host: "evil.example" } }, HANG_GUARD_MS);
    await socketRequest(port, { method: "GET", target: "/mcp#x", headers: { host: `127.0.0.1:${port}` } }, HANG_GUARD_MS);
    expect(rejected).toEqual([
      { status: 403, code: -32000, path: "/__mcp-testkit/journal" },
      { status: 400, code: -32000, path: "/mcp" },
    ]);
  });
});

describe("allowed hosts and origins pass on every route", () => {
  it("loopback names and origins reach the control API, metrics and a mounted handler", async () => {
    const { server, hits, port } = await guardedMock();
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      for (const origin of [undefined, "http://localhost:5173", `http://127.0.0.1:${port}`]) {
        const headers = { host, ...(origin !== undefined && { origin }) };
        expect((await socketRequest(port, { method: "GET", target: "/__mcp-testkit/health", headers }, HANG_GUARD_MS)).status, `${host} ${origin}`).toBe(200);
        expect((await socketRequest(port, { method: "GET", target: "/__aimock/journal", headers }, HANG_GUARD_MS)).status).toBe(200);
        expect((await socketRequest(port, { method: "GET", target: "/__mcp-testkit/metrics", headers }, HANG_GUARD_MS)).status).toBe(200);
      }
    }
    expect((await socketRequest(port, { method: "GET", target: "/hook", headers: { host: `localhost:${port}` } }, HANG_GUARD_MS)).body).toBe(`hook saw http://localhost:${port}/hook`);
    expect(hits).toHaveLength(1);
    const added = await socketRequest(
      port,
      { method: "POST", target: "/__mcp-testkit/fixtures", headers: { host: `127.0.0.1:${port}`, "content-type": "application/json" }, body: addedBlock },
      HANG_GUARD_MS,
    );
    expect([added.status, JSON.parse(added.body).mcpFakesAdded]).toEqual([200, 1]);
    expect(server.fakes.inspect().mounts[0]!.blocks.map((block) => block.tools[0]!.name)).toEqual(["ping", "added"]);
  });

  it("allowedHosts and allowedOrigins open every route to exactly those, the control API included", async () => {
    const { server, port } = await guardedMock({ allowedHosts: ["mcp.test"], allowedOrigins: ["https://ci.example"] });
    const journal = (headers: Record<string, string>) => socketRequest(port, { method: "GET", target: "/__mcp-testkit/journal", headers }, HANG_GUARD_MS);
    expect((await journal({ host: `mcp.test:${port}` })).status).toBe(200);
    expect((await journal({ host: "other.test" })).status).toBe(403);
    expect((await journal({ host: `127.0.0.1:${port}`, origin: "https://ci.example" })).status).toBe(200);
    expect((await journal({ host: `127.0.0.1:${port}`, origin: "https://ci.example:8443" })).status).toBe(403);
    const reset = await socketRequest(
      port,
      { method: "POST", target: "/__aimock/fixtures", headers: { host: `mcp.test:${port}`, origin: "https://ci.example", "content-type": "application/json" }, body: addedBlock },
      HANG_GUARD_MS,
    );
    expect(reset.status).toBe(200);
    expect(server.fakes.inspect().mounts[0]!.blocks).toHaveLength(2);
  });

  it("dnsRebindingProtection: false lets any Host and Origin reach every route", async () => {
    const { hits, port } = await guardedMock({ dnsRebindingProtection: false });
    const headers = { host: `evil.example:${port}`, origin: "http://evil.example" };
    expect((await socketRequest(port, { method: "GET", target: "/__mcp-testkit/journal", headers }, HANG_GUARD_MS)).status).toBe(200);
    expect((await socketRequest(port, { method: "GET", target: "/__mcp-testkit/metrics", headers }, HANG_GUARD_MS)).status).toBe(200);
    expect((await socketRequest(port, { method: "GET", target: "/hook", headers }, HANG_GUARD_MS)).status).toBe(200);
    expect(hits).toEqual([`http://evil.example:${port}/hook`]);
  });

  it("a mount with allowForeignHosts serves any Host and Origin; every route beside it stays guarded", async () => {
    const { server, port } = await guardedMock();
    const seen: string[] = [];
    server.mount(
      "/webhook",
      (request) => {
        seen.push(`${request.headers.get("host")} ${request.headers.get("origin")}`);
        return new Response("received");
      },
      { allowForeignHosts: true },
    );
    const headers = { host: "tunnel.example", origin: "https://elsewhere.example" };
    const open = await socketRequest(port, { method: "POST", target: "/webhook", headers, body: "{}" }, HANG_GUARD_MS);
    expect([open.status, open.body]).toEqual([200, "received"]);
    expect(seen).toEqual(["tunnel.example https://elsewhere.example"]);
    expect((await socketRequest(port, { method: "GET", target: "/__mcp-testkit/journal", headers }, HANG_GUARD_MS)).status).toBe(403);
    expect((await socketRequest(port, { method: "GET", target: "/hook", headers }, HANG_GUARD_MS)).status).toBe(403);
    // Only `true` itself opts out: a value that merely looks true is refused at mount.
    expect(() => server.mount("/maybe", () => new Response("x"), { allowForeignHosts: "yes" as never })).toThrow('"allowForeignHosts" must be true or false, got "yes".');
  });
});

describe("request targets: absolute-form and fragments", () => {
  it("an absolute-form target is judged by its authority, which replaces Host: a foreign one is 403 on every route", async () => {
    const { server, hits, port } = await guardedMock();
    const before = stateOf(server, hits);
    for (const route of ROUTES) {
      const target = `http://evil.example.com${route.path}`;
      const answer = await socketRequest(port, { method: route.method, target, headers: headersFor(route, { host: `127.0.0.1:${port}` }), body: route.body }, HANG_GUARD_MS);
      expect(answer.status, target).toBe(403);
      expect(JSON.parse(answer.body).error.message).toBe(
        `Forbidden: the request target's authority "evil.example.com" (it stands for Host) is not allowed (DNS rebinding protection); loopback names (localhost, 127.0.0.1, [::1]) are, and those in allowedHosts: add "evil.example.com" there to serve it`,
      );
    }
    // Authorities that only look local are refused too: a foreign one 403, one that is not host[:port] 400.
    const looksLocal = { [`HTTP://EVIL.example:${port}/__mcp-testkit/journal?limit=1`]: 403, [`http://127.0.0.1@evil.example:${port}/mcp`]: 400, "http:///mcp": 400 };
    for (const [target, status] of Object.entries(looksLocal)) {
      expect((await socketRequest(port, { method: "GET", target, headers: { host: `127.0.0.1:${port}` } }, HANG_GUARD_MS)).status, target).toBe(status);
    }
    expect(stateOf(server, hits)).toBe(before);
  });

  it("an allowed absolute-form target is routed by its path, whatever the Host header says", async () => {
    const { server, hits, port } = await guardedMock();
    const init = await socketRequest(port, { method: "POST", target: `http://127.0.0.1:${port}/mcp`, headers: headersFor({ body: mcpBody }, { host: "evil.example" }), body: mcpBody }, HANG_GUARD_MS);
    expect(init.status).toBe(200);
    expect(init.headers["mcp-session-id"]).toMatch(/^[0-9a-f]{32}$/);
    expect(server.expireSession()).toBe(1);
    const hook = await socketRequest(port, { method: "GET", target: `http://localhost:${port}/hook?x=1`, headers: { host: `localhost:${port}` } }, HANG_GUARD_MS);
    // The mounted handler's Request has the target's URL, not the Host glued to it.
    expect([hook.status, hook.body]).toEqual([200, `hook saw http://localhost:${port}/hook?x=1`]);
    expect(hits).toEqual([`http://localhost:${port}/hook?x=1`]);
    // The authority ends at "?": what follows is the query of the path "/", not a path to /hook.
    const queryOnly = await socketRequest(port, { method: "GET", target: `http://localhost:${port}?x=/hook`, headers: { host: `localhost:${port}` } }, HANG_GUARD_MS);
    expect(queryOnly.status).toBe(404);
    expect(hits).toHaveLength(1);
  });

  it("a target with a fragment is a malformed request: 400 on every route, the guard on or off", async () => {
    for (const dnsRebindingProtection of [true, false]) {
      const { server, hits, port } = await guardedMock({ dnsRebindingProtection });
      const before = stateOf(server, hits);
      for (const route of ROUTES) {
        const target = `${route.path}#frag`;
        const answer = await socketRequest(port, { method: route.method, target, headers: headersFor(route, { host: `127.0.0.1:${port}` }), body: route.body }, HANG_GUARD_MS);
        expect(answer.status, target).toBe(400);
        expect(JSON.parse(answer.body)).toEqual({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32000, message: "Bad Request: the request target has a fragment (#...); a client never sends one (RFC 9112 §3.2), so send the target without it" },
        });
      }
      expect(stateOf(server, hits)).toBe(before);
    }
  });
});

describe("an authority that is not host[:port] is a bad request", () => {
  it("a Host with user info, a port past 65535, a path, or two Host headers: 400 on every route, the guard on or off, and nothing changes", async () => {
    for (const dnsRebindingProtection of [true, false]) {
      const { server, hits, port } = await guardedMock({ dnsRebindingProtection });
      const before = stateOf(server, hits);
      const malformed: ReadonlyArray<{ label: string; headers: Record<string, string>; said: string }> = [
        { label: "user info", headers: { host: `localhost:${port}@evil.example` }, said: `the Host header "localhost:${port}@evil.example"` },
        { label: "port past 65535", headers: { host: "localhost:99999" }, said: 'the Host header "localhost:99999"' },
        { label: "a path", headers: { host: `127.0.0.1:${port}/x` }, said: `the Host header "127.0.0.1:${port}/x"` },
        { label: "two Host headers", headers: { host: `127.0.0.1:${port}`, Host: "evil.example" }, said: `the Host header "127.0.0.1:${port},evil.example"` },
      ];
      for (const route of ROUTES) {
        for (const { label, headers, said } of malformed) {
          const answer = await socketRequest(port, { method: route.method, target: route.path, headers: headersFor(route, headers), body: route.body }, HANG_GUARD_MS);
          expect(answer.status, `${route.method} ${route.path} with ${label}`).toBe(400);
          expect(JSON.parse(answer.body).error.message).toBe(`Bad Request: ${said} is not host[:port]; send one Host header naming the server (127.0.0.1:3000), with no user info, path or query`);
        }
      }
      // An absolute-form target's authority is read the same way.
      const target = `http://localhost:${port}@evil.example.com/mcp`;
      const answer = await socketRequest(port, { method: "POST", target, headers: headersFor({ body: mcpBody }, { host: `127.0.0.1:${port}` }), body: mcpBody }, HANG_GUARD_MS);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body).error.message).toContain("the request target's authority");
      expect(stateOf(server, hits)).toBe(before);
      // Well-formed names still pass: an IPv6 literal, a name with a port.
      const health = await socketRequest(port, { method: "GET", target: "/__mcp-testkit/health", headers: { host: `[::1]:${port}` } }, HANG_GUARD_MS);
      expect(health.status).toBe(200);
    }
  });
});

describe("the same guard when the mock is mounted in your own server", () => {
  it("through server.handler in a node:http server: foreign Host, foreign Origin, absolute-form and fragment are refused on every route", async () => {
    const server = track(await mockMcp({ transport: "memory", fixtures: pingBlock, metrics: true }));
    const own = createServer((req, res) => server.handler(req, res));
    await new Promise<void>((resolve) => own.listen(0, "127.0.0.1", resolve));
    onCleanup(() => new Promise<void>((resolve) => (own.close(() => resolve()), own.closeAllConnections())));
    const port = (own.address() as AddressInfo).port;
    const before = stateOf(server, []);
    for (const route of ROUTES.filter((candidate) => candidate.path !== "/hook")) {
      const send = (target: string, extra: Record<string, string>) => socketRequest(port, { method: route.method, target, headers: headersFor(route, extra), body: route.body }, HANG_GUARD_MS);
      expect((await send(route.path, { host: "evil.example" })).status, route.path).toBe(403);
      expect((await send(route.path, { host: `127.0.0.1:${port}`, origin: "http://evil.example" })).status, route.path).toBe(403);
      expect((await send(`http://evil.example${route.path}`, { host: `127.0.0.1:${port}` })).status, route.path).toBe(403);
      expect((await send(`${route.path}#frag`, { host: `127.0.0.1:${port}` })).status, route.path).toBe(400);
    }
    expect(stateOf(server, [])).toBe(before);
    expect((await socketRequest(port, { method: "GET", target: "/__mcp-testkit/health", headers: { host: `127.0.0.1:${port}` } }, HANG_GUARD_MS)).status).toBe(200);
  });

  it("through server.fetch: the Host a fetch-style host passes on and the Origin are judged; a caller in this process sends neither", async () => {
    const server = track(await mockMcp({ transport: "memory", fixtures: pingBlock }));
    const journal = (headers: Record<string, string>, url = "http://127.0.0.1:8080/__mcp-testkit/journal") => server.fetch(new Request(url, { headers }));
    expect((await journal({ host: "evil.example:8080" })).status).toBe(403);
    expect((await journal({ host: "127.0.0.1:8080", origin: "http://evil.example" })).status).toBe(403);
    expect((await journal({}, "http://127.0.0.1:8080/__mcp-testkit/journal#frag")).status).toBe(400);
    const reset = await server.fetch(
      new Request("http://127.0.0.1:8080/__aimock/fixtures", { method: "POST", headers: { host: "evil.example", "content-type": "application/json" }, body: addedBlock }),
    );
    expect(reset.status).toBe(403);
    expect(server.fakes.inspect().mounts[0]!.blocks).toHaveLength(1);
    // In process, the URL may be made up and no browser is in between: only what was sent is judged.
    expect((await journal({}, "http://in-process.invalid/__mcp-testkit/journal")).status).toBe(200);
    expect((await journal({ host: "127.0.0.1:8080" })).status).toBe(200);
  });
});
