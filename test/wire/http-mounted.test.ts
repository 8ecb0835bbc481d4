/**
 * Mounted mode: a mock living inside the user's own server. `server.handler` is a node:http /
 * Express style `(req, res)` handler (two mocks on one port under `/a` and `/b`, reached by SDK
 * clients), and `server.fetch(Request) → Response` is the web-standard handler, driven here
 * directly and as an SDK client's `fetch`. The mocks use `transport: "memory"`, so they open no
 * listener of their own.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ListRootsRequestSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { mockMcp, type MockMcpServer } from "../../src/index.js";
import { ACCEPT_BOTH, initializeRequest, onCleanup, readSse, rpcRequest, sdkClient, sseReader, text, track, trackClient, until, useCleanup } from "./support/http.js";

useCleanup();

/** The user's own node:http server on a free loopback port, closed after the test. */
async function ownServer(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; origin: string }> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onCleanup(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function memoryMock(options: Parameters<typeof mockMcp>[0]): Promise<MockMcpServer> {
  return track(await mockMcp({ transport: "memory", ...options }));
}

describe("server.handler inside your own node:http server", () => {
  it("two mocks on one port under /a and /b, each with its own SDK client, sessions and record", async () => {
    const a = await memoryMock({ tools: { whoami: { returns: "mock a" } } });
    const b = await memoryMock({ tools: { whoami: { returns: "mock b" }, onlyB: { returns: "b only" } } });
    expect(a.url).toBeUndefined();
    expect(b.url).toBeUndefined();
    const { origin } = await ownServer((req, res) => {
      if (req.url === "/health") return void res.end("ok");
      if (req.url?.startsWith("/a")) return a.handler(req, res);
      if (req.url?.startsWith("/b")) return b.handler(req, res);
      res.writeHead(404).end();
    });

    const clientA = await sdkClient(`${origin}/a`);
    const clientB = await sdkClient(`${origin}/b`);
    expect(text(await clientA.client.callTool({ name: "whoami" }))).toBe("mock a");
    expect(text(await clientB.client.callTool({ name: "whoami" }))).toBe("mock b");
    expect((await clientA.client.listTools()).tools.map((tool) => tool.name)).toEqual(["whoami"]);
    expect((await clientB.client.listTools()).tools.map((tool) => tool.name)).toEqual(["whoami", "onlyB"]);
    expect(a.calls).toMatchObject([{ tool: "whoami", sessionId: clientA.transport.sessionId }]);
    expect(b.calls).toMatchObject([{ tool: "whoami", sessionId: clientB.transport.sessionId }]);
    // A session of /a means nothing to /b.
    const crossed = await fetch(`${origin}/b`, {
      method: "POST",
      headers: { accept: ACCEPT_BOTH, "content-type": "application/json", "mcp-session-id": clientA.transport.sessionId! },
      body: JSON.stringify(rpcRequest("ping")),
    });
    expect(crossed.status).toBe(404);
    await crossed.body?.cancel();
    // The host's own routes still work.
    expect(await (await fetch(`${origin}/health`)).text()).toBe("ok");
  });

  it("the GET stream and server requests work through the mounted handler", async () => {
    const mock = await memoryMock({
      tools: { ask: async (call) => ({ returns: `roots: ${(await call.listRoots()).length}` }) },
    });
    const { origin } = await ownServer((req, res) => mock.handler(req, res));
    const { client } = await sdkClient(`${origin}/mcp`, { clientOptions: { capabilities: { roots: {} } } });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: "file:///x" }] }));
    const changes: string[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, (notification) => void changes.push(notification.method));
    expect(text(await client.callTool({ name: "ask" }))).toBe("roots: 1");
    await mock.setTool("added", { returns: "x" });
    await until(() => changes.length === 1, 2000, "list_changed on the GET stream");
    expect(changes).toEqual(["notifications/tools/list_changed"]);
  });

  it("a body your framework parsed already is passed as the third argument (express.json() style)", async () => {
    const mock = await memoryMock({ tools: { echo: (call) => ({ returns: `got ${JSON.stringify(call.arguments)}` }) } });
    const { origin } = await ownServer(async (req, res) => {
      // What body-parsing middleware does before the route runs.
      let raw = "";
      for await (const chunk of req) raw += chunk;
      const parsed: unknown = raw === "" ? undefined : JSON.parse(raw);
      mock.handler(req, res, parsed);
    });
    const { client } = await sdkClient(`${origin}/mcp`);
    expect(text(await client.callTool({ name: "echo", arguments: { x: 1 } }))).toBe('got {"x":1}');
  });
});

describe("server.fetch(Request) → Response", () => {
  const url = "http://mock.test/mcp";
  const headers = (extra: Record<string, string> = {}) => ({ accept: ACCEPT_BOTH, "content-type": "application/json", ...extra });

  it("initialize → Mcp-Session-Id → tools/call, with JSON and SSE bodies", async () => {
    const mock = await memoryMock({ tools: { plain: { returns: "json body" }, streamed: { returns: "sse body", stream: { mode: "sse" } } } });

    const init = await mock.fetch(new Request(url, { method: "POST", headers: headers(), body: JSON.stringify(initializeRequest()) }));
    expect(init.status).toBe(200);
    expect(init.headers.get("content-type")).toBe("application/json");
    const sessionId = init.headers.get("mcp-session-id")!;
    expect(sessionId).toMatch(/^[0-9a-f]{32}$/);
    expect(((await init.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe("2025-11-25");
    const session = { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" };

    const initialized = await mock.fetch(new Request(url, { method: "POST", headers: headers(session), body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) }));
    expect(initialized.status).toBe(202);
    expect(initialized.body).toBeNull();

    const plain = rpcRequest("tools/call", { name: "plain" });
    const jsonAnswer = await mock.fetch(new Request(url, { method: "POST", headers: headers(session), body: JSON.stringify(plain) }));
    expect(jsonAnswer.status).toBe(200);
    expect(jsonAnswer.headers.get("content-type")).toBe("application/json");
    expect(await jsonAnswer.json()).toEqual({ jsonrpc: "2.0", id: plain.id, result: { content: [{ type: "text", text: "json body" }] } });

    const streamed = rpcRequest("tools/call", { name: "streamed" });
    const sseAnswer = await mock.fetch(new Request(url, { method: "POST", headers: headers(session), body: JSON.stringify(streamed) }));
    expect(sseAnswer.status).toBe(200);
    expect(sseAnswer.headers.get("content-type")).toBe("text/event-stream");
    const events = await readSse(sseAnswer);
    expect(events.map(({ id, data }) => ({ id, data }))).toEqual([
      { id: "p0_0", data: "" },
      { id: "p0_1", data: JSON.stringify({ jsonrpc: "2.0", id: streamed.id, result: { content: [{ type: "text", text: "sse body" }] } }) },
    ]);

    expect(mock.calls.map((call) => [call.tool, call.sessionId, call.outcome])).toEqual([
      ["plain", sessionId, "result"],
      ["streamed", sessionId, "result"],
    ]);
  });

  it("the same rules apply: 406, 404, 405, 403", async () => {
    const mock = await memoryMock({});
    const post = (extra: Record<string, string>, body: unknown = rpcRequest("ping")) => mock.fetch(new Request(url, { method: "POST", headers: headers(extra), body: JSON.stringify(body) }));
    expect((await post({ accept: "application/json" })).status).toBe(406);
    expect((await post({ "mcp-session-id": "f".repeat(32) })).status).toBe(404);
    const put = await mock.fetch(new Request(url, { method: "PUT", body: "{}" }));
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, POST, DELETE");
    const foreign = await post({ origin: "http://evil.example" }, initializeRequest());
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({
      error: { code: -32000, message: expect.stringMatching(/^Forbidden: Origin "http:\/\/evil\.example" is not allowed \(DNS rebinding protection\); .* allowedOrigins/) },
    });
  });

  it("the GET stream as a Response body: priming, then list_changed", async () => {
    const mock = await memoryMock({});
    const init = await mock.fetch(new Request(url, { method: "POST", headers: headers(), body: JSON.stringify(initializeRequest()) }));
    const sessionId = init.headers.get("mcp-session-id")!;
    await init.body?.cancel();
    const stream = await mock.fetch(new Request(url, { headers: { accept: "text/event-stream", "mcp-session-id": sessionId } }));
    expect(stream.status).toBe(200);
    const events = sseReader(stream);
    expect(await events.next()).toMatchObject({ id: "g_0", data: "" });
    await mock.setTool("t", { returns: "x" });
    expect(await events.next()).toMatchObject({ id: "g_1", data: JSON.stringify({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }) });
    await events.cancel();
  });

  it("an SDK client whose fetch is server.fetch talks to the mock in-process, with no socket", async () => {
    const mock = await memoryMock({ tools: { t: [{ returns: "one" }, { disconnect: true }] } });
    const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: (input, init) => mock.fetch(new Request(input, init)) });
    const client = trackClient(new Client({ name: "in-process", version: "1.0.0" }));
    await client.connect(transport);
    expect(transport.sessionId).toMatch(/^[0-9a-f]{32}$/);
    expect(text(await client.callTool({ name: "t" }))).toBe("one");
    // A disconnect through a fetch handler is a network error (Response.error(), status 0).
    const error = await client.callTool({ name: "t" }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(StreamableHTTPError);
    expect((error as StreamableHTTPError).code).toBe(0);
    expect(mock.calls.map((call) => call.outcome)).toEqual(["result", "disconnected"]);
  });
});
