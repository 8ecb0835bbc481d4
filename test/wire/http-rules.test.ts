/**
 * Every status and header rule of the Streamable HTTP transport (spec revision 2025-11-25,
 * anchors §3.4 / §4.1), checked with raw `fetch` (and `node:http` where fetch will not send the
 * header we need) against `server.url`: what a client that gets the rules wrong receives, and
 * what a correct one receives, byte for byte where it matters.
 */
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { ListenError, McpTestkitError, mockMcp } from "../../src/index.js";
import { ACCEPT_BOTH, get, initializeRequest, jsonOrSse, nodeRequest, post, rawSession, readSse, rpcRequest, sdkClient, serve, sseReader, text, track, until, useCleanup } from "./support/http.js";

useCleanup();

/** The JSON-RPC error body every rule answers with: no id, a code, a message saying what was wrong. */
async function errorBody(response: Response): Promise<{ jsonrpc: string; id: null; error: { code: number; message: string } }> {
  expect(response.headers.get("content-type")).toBe("application/json");
  return (await response.json()) as { jsonrpc: string; id: null; error: { code: number; message: string } };
}

async function expectRuleError(response: Response, status: number, code: number, message: RegExp): Promise<void> {
  expect(response.status).toBe(status);
  const body = await errorBody(response);
  expect(body).toEqual({ jsonrpc: "2.0", id: null, error: { code, message: expect.stringMatching(message) } });
}

describe("the endpoint's address: url, host, port, path", () => {
  it("defaults: 127.0.0.1, a free port, /mcp; other paths get 404 naming the endpoint; a query string is ignored", async () => {
    const server = await serve();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const elsewhere = await fetch(server.url.replace(/\/mcp$/, "/other"), { method: "POST", body: "{}" });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.headers.get("content-type")).toBe("text/plain");
    expect(await elsewhere.text()).toBe("No MCP endpoint at /other; endpoints: /mcp\n");
    const withQuery = await post(`${server.url}?tenant=a`, initializeRequest(), { version: null });
    expect(withQuery.status).toBe(200);
    await withQuery.body?.cancel();
  });

  it("port and path options; a path without a leading slash is refused", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    const server = await serve({ port, path: "/tools/mcp" });
    expect(server.url).toBe(`http://127.0.0.1:${port}/tools/mcp`);
    const { sessionId } = await rawSession(server.url);
    expect(sessionId).toMatch(/^[0-9a-f]{32}$/);
    await expect(mockMcp({ path: "mcp" })).rejects.toThrow('"path" must start with "/", got "mcp".');
  });

  it("a second mock on a port in use rejects saying so and what to do, with node's code; the first serves on", async () => {
    const first = await serve({ tools: { hello: { returns: "hi" } } });
    const port = Number(new URL(first.url).port);

    const second = mockMcp({ port });
    await expect(second).rejects.toThrow(ListenError);
    await expect(second).rejects.toThrow(McpTestkitError);
    await expect(second).rejects.toMatchObject({
      name: "ListenError",
      code: "EADDRINUSE",
      host: "127.0.0.1",
      port,
      message: `[mcp-testkit] port ${port} is in use; choose another port or leave it out for a free one.`,
      cause: expect.objectContaining({ code: "EADDRINUSE", syscall: "listen" }),
    });
    // The same as data: the words without the prefix, and the advice as a hint the CLI says with its flag.
    await expect(second).rejects.toMatchObject({ detail: `port ${port} is in use; choose another port or leave it out for a free one.`, hints: [{ kind: "chooseAgain", choice: "port" }] });

    const { client } = await sdkClient(first.url);
    expect(text(await client.callTool({ name: "hello" }))).toBe("hi");
  });
});

describe("POST: Accept, Content-Type, body size, JSON", () => {
  it("a POST whose Accept does not list both application/json and text/event-stream gets 406 (and no session)", async () => {
    const server = await serve();
    for (const accept of ["application/json", "text/event-stream", "*/*", "text/html"]) {
      const response = await post(server.url, initializeRequest(), { version: null, headers: { accept } });
      expect(response.headers.get("mcp-session-id")).toBeNull();
      await expectRuleError(response, 406, -32000, /^Not Acceptable: the Accept header must list both application\/json and text\/event-stream$/);
    }
    // Inside a session too.
    const { sessionId } = await rawSession(server.url);
    const response = await post(server.url, rpcRequest("tools/list"), { sessionId, headers: { accept: "application/json" } });
    await expectRuleError(response, 406, -32000, /^Not Acceptable/);
    // Only the session made by rawSession exists: the rejected initializes minted none.
    expect(server.expireSession()).toBe(1);
  });

  it("a POST whose Content-Type is not application/json gets 415; a charset parameter is fine", async () => {
    const server = await serve();
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "text/event-stream"]) {
      const response = await post(server.url, initializeRequest(), { version: null, headers: { "content-type": type } });
      await expectRuleError(response, 415, -32000, /^Unsupported Media Type: Content-Type must be application\/json$/);
    }
    const ok = await post(server.url, initializeRequest(), { version: null, headers: { "content-type": "application/json; charset=utf-8" } });
    expect(ok.status).toBe(200);
    expect((await jsonOrSse(ok)).result.protocolVersion).toBe("2025-11-25");
  });

  it("a body over maxBodyBytes gets 413, declared or streamed; a body of exactly the limit is accepted", async () => {
    const limit = 512;
    const server = await serve({ maxBodyBytes: limit });
    const sized = (bytes: number) => {
      const message = initializeRequest("2025-11-25");
      const clientInfo = message.params!.clientInfo as { name: string };
      clientInfo.name = "";
      clientInfo.name = "x".repeat(bytes - Buffer.byteLength(JSON.stringify(message)));
      const body = JSON.stringify(message);
      expect(Buffer.byteLength(body)).toBe(bytes);
      return body;
    };

    const declared = await post(server.url, sized(limit + 1), { version: null });
    await expectRuleError(declared, 413, -32000, /^Payload Too Large: the body exceeds 512 bytes$/);

    // No Content-Length: the limit is enforced while reading.
    const chunks = [sized(limit + 200).slice(0, 300), sized(limit + 200).slice(300)];
    const streamed = await fetch(server.url, {
      method: "POST",
      headers: { accept: ACCEPT_BOTH, "content-type": "application/json" },
      body: new ReadableStream({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit & { duplex: "half" });
    await expectRuleError(streamed, 413, -32000, /^Payload Too Large/);

    const exact = await post(server.url, sized(limit), { version: null });
    expect(exact.status).toBe(200);
    expect(exact.headers.get("mcp-session-id")).toMatch(/^[0-9a-f]{32}$/);
    await exact.text();
  });

  it("a body that is not JSON gets 400 with a -32700 parse error, before or inside a session", async () => {
    const server = await serve();
    await expectRuleError(await post(server.url, "{not json", { version: null }), 400, -32700, /^Parse error: /);
    const { sessionId } = await rawSession(server.url);
    await expectRuleError(await post(server.url, '{"jsonrpc":"2.0","id":1,', { sessionId }), 400, -32700, /^Parse error: /);
    // The session is still fine afterwards.
    const after = await post(server.url, rpcRequest("ping"), { sessionId });
    expect(after.status).toBe(200);
    expect(await after.json()).toMatchObject({ jsonrpc: "2.0", result: {} });
  });
});

describe("sessions", () => {
  it("initialize mints a session id: 32 hex characters (visible ASCII), a different one per client", async () => {
    const server = await serve();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await rawSession(server.url)).sessionId);
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      expect([...id].every((char) => char.charCodeAt(0) >= 0x21 && char.charCodeAt(0) <= 0x7e)).toBe(true);
    }
    expect(new Set(ids).size).toBe(3);
  });

  it("a failed initialize mints no session: its JSON-RPC error carries no Mcp-Session-Id (JSON and SSE)", async () => {
    for (const responseMode of ["json", "sse"] as const) {
      const server = await serve({ responseMode });
      const request = rpcRequest("initialize", { capabilities: {} });
      const response = await post(server.url, request, { version: null });
      expect(response.status).toBe(200);
      expect(response.headers.get("mcp-session-id")).toBeNull();
      expect(await jsonOrSse(response)).toEqual({
        jsonrpc: "2.0",
        id: request.id,
        error: { code: -32602, message: 'Invalid params for initialize: "protocolVersion" must be a string, got nothing' },
      });
      expect(server.expireSession()).toBe(0);
    }
  });

  it("a client that goes away before its JSON answer: the call ends disconnected (not cancelled), the session lives on", async () => {
    const server = await serve({ tools: { wait: { hang: true } } });
    const { sessionId } = await rawSession(server.url);
    const controller = new AbortController();
    const pending = post(server.url, rpcRequest("tools/call", { name: "wait" }), { sessionId, signal: controller.signal }).catch((error: unknown) => error);
    await server.waitForCalls(1, { timeoutMs: 2000 });
    controller.abort();
    expect(await pending).toMatchObject({ name: "AbortError" });
    await until(() => server.calls[0]!.outcome !== "pending", 2000, "the call to end");
    expect(server.calls[0]).toMatchObject({ outcome: "disconnected", reason: "the client closed the HTTP connection before the answer" });
    expect((await post(server.url, rpcRequest("ping"), { sessionId })).status).toBe(200);
  });

  it("a request without Mcp-Session-Id gets 400 (POST, GET and DELETE)", async () => {
    const server = await serve();
    await rawSession(server.url);
    const message = /^Bad Request: Mcp-Session-Id header is required/;
    await expectRuleError(await post(server.url, rpcRequest("tools/list")), 400, -32000, message);
    await expectRuleError(await get(server.url), 400, -32000, message);
    await expectRuleError(await post(server.url, undefined, { method: "DELETE" }), 400, -32000, message);
  });

  it("an unknown session id gets 404 with -32001 (POST, GET and DELETE)", async () => {
    const server = await serve();
    const sessionId = "0".repeat(32);
    const message = /^Session not found: it ended or never existed; initialize a new session$/;
    await expectRuleError(await post(server.url, rpcRequest("tools/list"), { sessionId }), 404, -32001, message);
    await expectRuleError(await get(server.url, { sessionId }), 404, -32001, message);
    await expectRuleError(await post(server.url, undefined, { method: "DELETE", sessionId }), 404, -32001, message);
  });

  it("DELETE ends a session: 200, then its requests get 404; other sessions go on; its pending call ends cancelled", async () => {
    const server = await serve({ tools: { wait: { hang: true } } });
    const { sessionId } = await rawSession(server.url);
    const other = await rawSession(server.url);
    const pending = post(server.url, rpcRequest("tools/call", { name: "wait" }), { sessionId }).catch((error: unknown) => error);
    await server.waitForCalls(1, { timeoutMs: 2000 });

    const deleted = await post(server.url, undefined, { method: "DELETE", sessionId });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({});

    // The hung POST's connection is dropped (no answer will come; a request never gets 202) and its call says why.
    expect(await pending).toBeInstanceOf(TypeError);
    expect(server.calls[0]).toMatchObject({ tool: "wait", outcome: "cancelled", reason: "the client ended the session (DELETE)", sessionId });

    await expectRuleError(await post(server.url, rpcRequest("tools/list"), { sessionId }), 404, -32001, /^Session not found/);
    await expectRuleError(await get(server.url, { sessionId }), 404, -32001, /^Session not found/);
    await expectRuleError(await post(server.url, undefined, { method: "DELETE", sessionId }), 404, -32001, /^Session not found/);

    const stillThere = await post(server.url, rpcRequest("ping"), { sessionId: other.sessionId });
    expect(stillThere.status).toBe(200);
  });
});

describe("MCP-Protocol-Version", () => {
  it("an unsupported version gets 400 naming the supported ones; a missing header is accepted (as 2025-03-26)", async () => {
    const server = await serve();
    const { sessionId } = await rawSession(server.url);
    const unsupported = /^Bad Request: unsupported MCP-Protocol-Version "1999-01-01" \(supported: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25\)$/;
    await expectRuleError(await post(server.url, rpcRequest("tools/list"), { sessionId, version: "1999-01-01" }), 400, -32000, unsupported);
    await expectRuleError(await get(server.url, { sessionId, version: "1999-01-01" }), 400, -32000, unsupported);
    await expectRuleError(await post(server.url, undefined, { method: "DELETE", sessionId, version: "1999-01-01" }), 400, -32000, unsupported);

    const missing = await post(server.url, rpcRequest("tools/list"), { sessionId, version: null });
    expect(missing.status).toBe(200);
    expect(await missing.json()).toMatchObject({ result: { tools: [] } });
  });

  it("a version the mock does not offer (protocolVersions) is unsupported too", async () => {
    const server = await serve({ protocolVersions: ["2025-06-18"] });
    const { sessionId, result } = await rawSession(server.url, "2025-11-25");
    expect(result.protocolVersion).toBe("2025-06-18");
    await expectRuleError(await post(server.url, rpcRequest("ping"), { sessionId, version: "2025-11-25" }), 400, -32000, /supported: 2025-06-18\)$/);
    expect((await post(server.url, rpcRequest("ping"), { sessionId, version: "2025-06-18" })).status).toBe(200);
  });
});

describe("notifications, responses and batches", () => {
  it("a notification or a response gets 202 with no body and no content type", async () => {
    const server = await serve();
    const { sessionId } = await rawSession(server.url);
    for (const message of [
      { jsonrpc: "2.0", method: "notifications/roots/list_changed" },
      { jsonrpc: "2.0", id: "nobody-asked", result: {} },
      { jsonrpc: "2.0", id: "nobody-asked-either", error: { code: -1, message: "no" } },
    ]) {
      const response = await post(server.url, message, { sessionId });
      expect(response.status).toBe(202);
      expect(response.headers.get("content-type")).toBeNull();
      expect(await response.text()).toBe("");
    }
    expect(server.messages).toContainEqual({ jsonrpc: "2.0", method: "notifications/roots/list_changed" });
  });

  it("a malformed notification is not accepted: 400 with its JSON-RPC error", async () => {
    const server = await serve();
    const { sessionId } = await rawSession(server.url);
    const response = await post(server.url, { jsonrpc: "1.0", method: "notifications/initialized" }, { sessionId });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: 'Invalid Request: "jsonrpc" must be "2.0"' } });
  });

  it("a batch gets 400 under 2025-06-18 and 2025-11-25", async () => {
    const server = await serve();
    for (const version of ["2025-06-18", "2025-11-25"]) {
      const { sessionId } = await rawSession(server.url, version);
      const response = await post(server.url, [rpcRequest("ping"), rpcRequest("tools/list")], { sessionId, version });
      await expectRuleError(response, 400, -32600, new RegExp(`^Invalid Request: JSON-RPC batches are not allowed in protocol version ${version} \\(only 2025-03-26\\)$`));
    }
  });

  it("a batch is accepted for a session negotiated at 2025-03-26 (header 2025-03-26): one JSON array answers it", async () => {
    const server = await serve({ tools: { echo: (call) => ({ returns: `echo ${String(call.arguments.x)}` }) } });
    const { sessionId, result } = await rawSession(server.url, "2025-03-26");
    expect(result.protocolVersion).toBe("2025-03-26");
    const ping = rpcRequest("ping");
    const call = rpcRequest("tools/call", { name: "echo", arguments: { x: 1 } });
    const response = await post(server.url, [ping, { jsonrpc: "2.0", method: "notifications/roots/list_changed" }, call], { sessionId, version: "2025-03-26" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    const answers = (await response.json()) as Array<{ id: number }>;
    expect(answers).toHaveLength(2);
    expect(answers.find((answer) => answer.id === ping.id)).toEqual({ jsonrpc: "2.0", id: ping.id, result: {} });
    expect(answers.find((answer) => answer.id === call.id)).toEqual({ jsonrpc: "2.0", id: call.id, result: { content: [{ type: "text", text: "echo 1" }] } });

    // A raw step in a batch stands in for its own member's answer: the others still come, in one array.
    const rawServer = await serve({ tools: { echo: (call) => ({ returns: `echo ${String(call.arguments.x)}` }), bytes: { raw: '{"jsonrpc":"2.0","id":"odd","result":{}}' } } });
    const rawSessionOpened = await rawSession(rawServer.url, "2025-03-26");
    const mixed = await post(rawServer.url, [rpcRequest("tools/call", { name: "bytes", arguments: {} }), call], { sessionId: rawSessionOpened.sessionId, version: "2025-03-26" });
    const mixedAnswers = (await mixed.json()) as Array<{ id: unknown }>;
    expect(mixedAnswers.map((answer) => answer.id).sort()).toEqual([call.id, "odd"].sort());
    // On an SSE answer too: the raw bytes, then the other answer, then the stream ends.
    const sseServer = await serve({ responseMode: "sse", tools: { echo: (c) => ({ returns: `echo ${String(c.arguments.x)}` }), bytes: { raw: "RAWBYTES" } } });
    const sseSession = await rawSession(sseServer.url, "2025-03-26");
    const sseText = await (await post(sseServer.url, [rpcRequest("tools/call", { name: "bytes", arguments: {} }), call], { sessionId: sseSession.sessionId, version: "2025-03-26" })).text();
    expect(sseText).toContain("RAWBYTES");
    expect(sseText).toContain('"text":"echo 1"');

    // A batch of notifications only: 202, no body. An empty batch: 400.
    const notes = await post(server.url, [{ jsonrpc: "2.0", method: "notifications/roots/list_changed" }], { sessionId, version: "2025-03-26" });
    expect(notes.status).toBe(202);
    expect(await notes.text()).toBe("");
    await expectRuleError(await post(server.url, [], { sessionId, version: "2025-03-26" }), 400, -32600, /^Invalid Request: the body is an empty array \(a batch of no messages\)/);
  });

  it("initialize inside a batch gets 400 and mints no session", async () => {
    const server = await serve();
    const response = await post(server.url, [initializeRequest("2025-03-26"), rpcRequest("ping")], { version: "2025-03-26" });
    expect(response.headers.get("mcp-session-id")).toBeNull();
    await expectRuleError(response, 400, -32600, /^Invalid Request: initialize must be sent alone, not in a batch$/);
    expect(server.expireSession()).toBe(0);
  });
});

describe("GET, other methods", () => {
  it("a GET that does not accept text/event-stream gets 406", async () => {
    const server = await serve();
    const { sessionId } = await rawSession(server.url);
    await expectRuleError(await get(server.url, { sessionId, headers: { accept: "application/json" } }), 406, -32000, /^Not Acceptable: a GET must accept text\/event-stream$/);
  });

  it("with getStream: false a GET gets 405 with Allow: POST, DELETE", async () => {
    const server = await serve({ getStream: false });
    const { sessionId } = await rawSession(server.url);
    const response = await get(server.url, { sessionId });
    expect(response.headers.get("allow")).toBe("POST, DELETE");
    await expectRuleError(response, 405, -32000, /^Method Not Allowed: this server offers no GET stream$/);
  });

  it("a second GET stream on a session gets 409; the first keeps working", async () => {
    const server = await serve();
    const { sessionId } = await rawSession(server.url);
    const first = await get(server.url, { sessionId });
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("text/event-stream");
    const events = sseReader(first);
    expect(await events.next()).toMatchObject({ id: "g_0", data: "" });

    await expectRuleError(await get(server.url, { sessionId }), 409, -32000, /^Conflict: this session already has a GET stream open$/);

    await server.setTool("late", { returns: "x" });
    expect(await events.next()).toMatchObject({ id: "g_1", event: "message", data: JSON.stringify({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }) });
    await events.cancel();
  });

  it("PUT and PATCH get 405 with Allow: GET, POST, DELETE", async () => {
    const server = await serve();
    for (const method of ["PUT", "PATCH"]) {
      const response = await fetch(server.url, { method, headers: { "content-type": "application/json" }, body: "{}" });
      expect(response.headers.get("allow")).toBe("GET, POST, DELETE");
      await expectRuleError(response, 405, -32000, new RegExp(`^Method Not Allowed: ${method}$`));
    }
  });
});

describe("DNS rebinding protection (Origin and Host)", () => {
  const init = JSON.stringify(initializeRequest());
  const headers = (extra: Record<string, string>) => ({ accept: ACCEPT_BOTH, "content-type": "application/json", ...extra });

  it("a foreign Origin or Host gets 403, before any other rule", async () => {
    const server = await serve();
    const origin = await nodeRequest(server.url, { headers: headers({ origin: "http://evil.example" }), body: init });
    expect(origin.status).toBe(403);
    expect(JSON.parse(origin.body)).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32000,
        message: 'Forbidden: Origin "http://evil.example" is not allowed (DNS rebinding protection); loopback origins are, and those in allowedOrigins: add it there to serve it',
      },
    });
    const host = await nodeRequest(server.url, { headers: headers({ host: "evil.example" }), body: init });
    expect(host.status).toBe(403);
    expect(JSON.parse(host.body).error.message).toBe(
      'Forbidden: Host "evil.example" is not allowed (DNS rebinding protection); loopback names (localhost, 127.0.0.1, [::1]) are, and those in allowedHosts: add "evil.example" there to serve it',
    );
    const hostWithPort = await nodeRequest(server.url, { headers: headers({ host: "evil.example:80" }), body: init });
    expect(hostWithPort.status).toBe(403);
    const nullOrigin = await nodeRequest(server.url, { headers: headers({ origin: "null" }), body: init });
    expect(nullOrigin.status).toBe(403);
    // Checked before the method: a PUT from a foreign origin is refused, not told which methods exist.
    const put = await nodeRequest(server.url, { method: "PUT", headers: { origin: "http://evil.example" } });
    expect(put.status).toBe(403);
    expect(server.expireSession()).toBe(0);
  });

  it("loopback origins and hosts pass; no Origin passes", async () => {
    const server = await serve();
    const port = new URL(server.url).port;
    for (const origin of ["http://localhost:3000", "http://127.0.0.1:5173", "http://[::1]:8080", `http://127.0.0.1:${port}`]) {
      const response = await nodeRequest(server.url, { headers: headers({ origin }), body: init });
      expect(response.status, origin).toBe(200);
    }
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, "localhost"]) {
      const response = await nodeRequest(server.url, { headers: headers({ host }), body: init });
      expect(response.status, host).toBe(200);
    }
  });

  it("allowedOrigins and allowedHosts let exactly those through", async () => {
    const server = await serve({ allowedOrigins: ["http://app.test:3000"], allowedHosts: ["mcp.test"] });
    expect((await nodeRequest(server.url, { headers: headers({ origin: "http://app.test:3000" }), body: init })).status).toBe(200);
    expect((await nodeRequest(server.url, { headers: headers({ origin: "http://app.test:3001" }), body: init })).status).toBe(403);
    expect((await nodeRequest(server.url, { headers: headers({ host: "mcp.test:8080" }), body: init })).status).toBe(200);
    expect((await nodeRequest(server.url, { headers: headers({ host: "other.test" }), body: init })).status).toBe(403);
  });

  it('a mock that listens on a non-loopback host (host: "0.0.0.0") checks nothing by default, so its own URL works; true turns the checks on', async () => {
    // Driven through server.fetch: these tests only listen on 127.0.0.1.
    const request = (headers: Record<string, string>) =>
      new Request("http://0.0.0.0:8080/mcp", { method: "POST", headers: { accept: ACCEPT_BOTH, "content-type": "application/json", ...headers }, body: init });
    const open = track(await mockMcp({ transport: "memory", host: "0.0.0.0" }));
    expect((await open.fetch(request({ host: "0.0.0.0:8080" }))).status).toBe(200);
    expect((await open.fetch(request({ host: "mock.internal:8080", origin: "http://agent.internal" }))).status).toBe(200);
    const guarded = track(await mockMcp({ transport: "memory", host: "0.0.0.0", dnsRebindingProtection: true, allowedHosts: ["mock.internal"] }));
    expect((await guarded.fetch(request({ host: "mock.internal:8080" }))).status).toBe(200);
    expect((await guarded.fetch(request({ host: "0.0.0.0:8080" }))).status).toBe(403);
    // A loopback listen address keeps the default on.
    const loopback = track(await mockMcp({ transport: "memory", host: "localhost" }));
    expect((await loopback.fetch(request({ host: "evil.example" }))).status).toBe(403);
  });

  it("dnsRebindingProtection: false turns the checks off", async () => {
    const server = await serve({ dnsRebindingProtection: false });
    const response = await nodeRequest(server.url, { headers: headers({ origin: "http://evil.example", host: "evil.example" }), body: init });
    expect(response.status).toBe(200);
    expect(response.headers["mcp-session-id"]).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe("JSON or SSE answers, event ids, priming and resumption", () => {
  it("responseMode json answers a request with one application/json body", async () => {
    const server = await serve({ tools: { t: { returns: "hi" } } });
    const { sessionId } = await rawSession(server.url);
    const request = rpcRequest("tools/call", { name: "t" });
    const response = await post(server.url, request, { sessionId });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.text()).toBe(JSON.stringify({ jsonrpc: "2.0", id: request.id, result: { content: [{ type: "text", text: "hi" }] } }));
  });

  it("responseMode sse answers with an event stream (initialize too, with its session header)", async () => {
    const server = await serve({ responseMode: "sse", tools: { t: { returns: "hi" } } });
    const init = await post(server.url, initializeRequest(), { version: null });
    expect(init.status).toBe(200);
    expect(init.headers.get("content-type")).toBe("text/event-stream");
    expect(init.headers.get("cache-control")).toBe("no-cache");
    const sessionId = init.headers.get("mcp-session-id")!;
    expect(sessionId).toMatch(/^[0-9a-f]{32}$/);
    expect((await jsonOrSse(init)).result.protocolVersion).toBe("2025-11-25");
    expect((await post(server.url, { jsonrpc: "2.0", method: "notifications/initialized" }, { sessionId })).status).toBe(202);

    const request = rpcRequest("tools/call", { name: "t" });
    const response = await post(server.url, request, { sessionId });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const events = await readSse(response);
    expect(events.map(({ id, event, data }) => ({ id, event, data }))).toEqual([
      { id: "p1_0", event: undefined, data: "" },
      { id: "p1_1", event: "message", data: JSON.stringify({ jsonrpc: "2.0", id: request.id, result: { content: [{ type: "text", text: "hi" }] } }) },
    ]);
  });

  it("a 2025-11-25 session's streams start with a priming event (id, empty data); ids name the stream", async () => {
    const server = await serve({ responseMode: "sse" });
    const { sessionId } = await rawSession(server.url, "2025-11-25");
    const streams: string[][] = [];
    for (let i = 0; i < 2; i++) {
      const events = await readSse(await post(server.url, rpcRequest("ping"), { sessionId }));
      expect(events[0]).toMatchObject({ data: "" });
      expect(events[1]).toMatchObject({ event: "message" });
      streams.push(events.map((event) => event.id!));
    }
    // The initialize stream was p0; each later POST stream is its own.
    expect(streams).toEqual([
      ["p1_0", "p1_1"],
      ["p2_0", "p2_1"],
    ]);
  });

  it("a 2025-06-18 session gets SSE without ids or priming (nothing to resume)", async () => {
    const server = await serve({ responseMode: "sse" });
    const { sessionId } = await rawSession(server.url, "2025-06-18");
    const request = rpcRequest("ping");
    const events = await readSse(await post(server.url, request, { sessionId, version: "2025-06-18" }));
    expect(events.map(({ id, event, data }) => ({ id, event, data }))).toEqual([{ id: undefined, event: "message", data: JSON.stringify({ jsonrpc: "2.0", id: request.id, result: {} }) }]);
    await expectRuleError(await get(server.url, { sessionId, version: "2025-06-18", lastEventId: "p1_0" }), 400, -32000, /^Bad Request: unknown Last-Event-ID "p1_0"$/);
  });

  it("a JSON-mode answer turns into SSE when the call talks first; a server request goes on that stream and its answer gets 202", async () => {
    const server = await serve({
      tools: {
        ask: async (call) => {
          call.progress(1, 2, "asking");
          const roots = await call.listRoots();
          return { returns: `roots: ${roots.map((root) => String(root.uri)).join(",")}` };
        },
      },
    });
    const { sessionId } = await rawSession(server.url, "2025-11-25", { roots: {} });
    const request = rpcRequest("tools/call", { name: "ask", _meta: { progressToken: "tok" } });
    const response = await post(server.url, request, { sessionId });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("mcp-session-id")).toBeNull();
    const events = sseReader(response);
    expect(await events.next()).toMatchObject({ id: "p0_0", data: "" });
    expect(JSON.parse((await events.next())!.data)).toEqual({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "tok", progress: 1, total: 2, message: "asking" } });
    const rootsRequest = JSON.parse((await events.next())!.data);
    expect(rootsRequest).toEqual({ jsonrpc: "2.0", id: expect.any(String), method: "roots/list" });

    const answered = await post(server.url, { jsonrpc: "2.0", id: rootsRequest.id, result: { roots: [{ uri: "file:///a" }, { uri: "file:///b" }] } }, { sessionId });
    expect(answered.status).toBe(202);
    expect(await answered.text()).toBe("");

    expect(JSON.parse((await events.next())!.data)).toEqual({ jsonrpc: "2.0", id: request.id, result: { content: [{ type: "text", text: "roots: file:///a,file:///b" }] } });
    expect(await events.next()).toBeUndefined();
    expect(server.calls[0]!.exchanges).toEqual([
      { method: "roots/list", params: undefined, result: { roots: [{ uri: "file:///a" }, { uri: "file:///b" }] }, sentAt: expect.any(Number), answeredAt: expect.any(Number) },
    ]);
  });

  it("the GET stream carries server messages unrelated to a request, with ids g_<n> after a priming event", async () => {
    const server = await serve({ resources: { "file:///a.txt": "A" } });
    const { sessionId } = await rawSession(server.url);
    expect((await post(server.url, rpcRequest("resources/subscribe", { uri: "file:///a.txt" }), { sessionId })).status).toBe(200);
    const stream = await get(server.url, { sessionId });
    expect(stream.status).toBe(200);
    const events = sseReader(stream);
    expect(await events.next()).toMatchObject({ id: "g_0", data: "" });
    await server.setTool("added", { returns: "x" });
    await server.setResource("file:///a.txt", "A2");
    expect(await events.next()).toMatchObject({ id: "g_1", data: JSON.stringify({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }) });
    expect(await events.next()).toMatchObject({ id: "g_2", data: JSON.stringify({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "file:///a.txt" } }) });
    await events.cancel();
  });

  it("Last-Event-ID replays exactly the missed events of that stream, then the stream ends; unknown ids get 400", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const server = await serve({
      tools: {
        slow: async (call) => {
          call.progress(1);
          call.progress(2);
          await gate;
          call.progress(3);
          return { returns: "finished" };
        },
      },
    });
    const { sessionId } = await rawSession(server.url);
    const getStream = sseReader(await get(server.url, { sessionId }));
    expect(await getStream.next()).toMatchObject({ id: "g_0" });

    const request = rpcRequest("tools/call", { name: "slow", _meta: { progressToken: 1 } });
    const first = sseReader(await post(server.url, request, { sessionId }));
    expect(await first.next()).toMatchObject({ id: "p0_0", data: "" });
    expect(await first.next()).toMatchObject({ id: "p0_1" });
    expect(await first.next()).toMatchObject({ id: "p0_2" });
    // The client's connection goes away: that is not a cancellation, the call goes on.
    await first.cancel();
    await server.setTool("meanwhile", { returns: "x" }); // goes on the GET stream, never on p0
    release();
    await until(() => server.calls[0]?.outcome === "result", 2000, "the call to end");
    expect(server.calls[0]!.outcome).toBe("result");

    // Resuming while it is... done: the missed events of p0 only, then the end.
    const resumed = await get(server.url, { sessionId, lastEventId: "p0_2" });
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get("content-type")).toBe("text/event-stream");
    const replay = await readSse(resumed);
    expect(replay.map(({ id, data }) => ({ id, data }))).toEqual([
      { id: "p0_2", data: "" },
      { id: "p0_3", data: JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 3 } }) },
      { id: "p0_4", data: JSON.stringify({ jsonrpc: "2.0", id: request.id, result: { content: [{ type: "text", text: "finished" }] } }) },
    ]);
    // From the priming event: every message event of the stream.
    const all = await readSse(await get(server.url, { sessionId, lastEventId: "p0_0" }));
    expect(all.map((event) => event.id)).toEqual(["p0_0", "p0_1", "p0_2", "p0_3", "p0_4"]);

    expect(await getStream.next()).toMatchObject({ id: "g_1", data: JSON.stringify({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }) });
    await getStream.cancel();

    for (const unknown of ["nope", "p9_1", "g", "p0_x", "_1"]) {
      await expectRuleError(await get(server.url, { sessionId, lastEventId: unknown }), 400, -32000, /^Bad Request: unknown Last-Event-ID /);
    }
    // Another session has no stream p0.
    const other = await rawSession(server.url);
    await expectRuleError(await get(server.url, { sessionId: other.sessionId, lastEventId: "p0_2" }), 400, -32000, /^Bad Request: unknown Last-Event-ID "p0_2"$/);
  });

  it("resuming a stream that is still connected gets 409", async () => {
    const server = await serve({ responseMode: "sse", tools: { wait: { hang: true, stream: { mode: "sse" } } } });
    const { sessionId } = await rawSession(server.url);
    const controller = new AbortController();
    const open = sseReader(await post(server.url, rpcRequest("tools/call", { name: "wait" }), { sessionId, signal: controller.signal }));
    expect(await open.next()).toMatchObject({ id: "p1_0", data: "" });
    await expectRuleError(await get(server.url, { sessionId, lastEventId: "p1_0" }), 409, -32000, /^Conflict: that stream is already connected$/);
    await open.cancel();
  });

  it("stream.closeAfterEvents ends the connection after that many events, with retry:, and the client resumes for the rest", async () => {
    const server = await serve({
      tools: {
        polled: async (call) => {
          call.progress(1);
          return { returns: "after resume", delayMs: 30, stream: { closeAfterEvents: 1, retryMs: 25 } };
        },
      },
    });
    const { sessionId } = await rawSession(server.url);
    const request = rpcRequest("tools/call", { name: "polled", _meta: { progressToken: "p" } });
    const first = await readSse(await post(server.url, request, { sessionId }));
    // Priming, the progress event, then retry: and the connection closes: no result on it.
    expect(first.map(({ id, data }) => ({ id, data }))).toEqual([
      { id: "p0_0", data: "" },
      { id: "p0_1", data: JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p", progress: 1 } }) },
    ]);
    const rest = await readSse(await get(server.url, { sessionId, lastEventId: "p0_1" }));
    expect(rest.map(({ id, data, retry }) => ({ id, data, retry }))).toEqual([
      { id: "p0_1", data: "", retry: 25 },
      { id: "p0_2", data: JSON.stringify({ jsonrpc: "2.0", id: request.id, result: { content: [{ type: "text", text: "after resume" }] } }), retry: 25 },
    ]);
  });

  it("before 2025-11-25 a POST stream carries no event ids: stream.closeAfterEvents cuts it for good, and the call ends unanswered", async () => {
    const server = await serve({
      tools: {
        cut: async (call) => {
          call.progress(1);
          return { returns: "never sent", stream: { closeAfterEvents: 1 } };
        },
        kept: { returns: "sent", stream: { closeAfterEvents: 1 } },
      },
    });
    const closes: string[] = [];
    const ends: unknown[] = [];
    server.on("stream:close", (event) => void closes.push(event.reason));
    server.on("request:end", (event) => void (event.method === "tools/call" && ends.push([event.outcome, event.noReplyCause])));
    const { sessionId } = await rawSession(server.url, "2025-06-18");
    const first = await readSse(await post(server.url, rpcRequest("tools/call", { name: "cut", _meta: { progressToken: "p" } }), { sessionId, version: "2025-06-18" }));
    // The progress event went, then the stream closed: nothing can resume it, so the answer is never sent.
    expect(first.map(({ id, data }) => ({ id, data }))).toEqual([
      { id: undefined, data: JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p", progress: 1 } }) },
    ]);
    await until(() => server.calls[0]?.outcome !== "pending", 2000, "the call to end");
    expect(server.calls[0]).toMatchObject({
      outcome: "disconnected",
      reason: expect.stringMatching(/closeAfterEvents closed the response stream before this answer, and the stream cannot be resumed/),
    });
    expect(server.calls[0]!.response).toBeUndefined();
    // An answer that is the stream's last allowed event still goes.
    const second = await readSse(await post(server.url, rpcRequest("tools/call", { name: "kept" }), { sessionId, version: "2025-06-18" }));
    expect(second.map(({ data }) => JSON.parse(data).result?.content?.[0]?.text)).toEqual(["sent"]);
    expect(server.calls[1]).toMatchObject({ outcome: "result" });
    expect(closes).toEqual(["cut_by_step", "cut_by_step"]);
    expect(ends).toEqual([
      ["none", "stream_cut"],
      ["result", undefined],
    ]);
  });

  it("in a 2025-03-26 batch, another request's answer may be the cut: the requests still unanswered end then, and a step function's signal aborts", async () => {
    let aborted: string | undefined;
    const server = await serve({
      tools: {
        slow: { returns: "too late", delayMs: 50, stream: { closeAfterEvents: 1 } },
        quick: { returns: "first" },
        waits: async (call) => {
          await new Promise<void>((resolve) => call.signal.addEventListener("abort", () => resolve(), { once: true }));
          aborted = String(call.signal.reason);
          return { returns: "never" };
        },
      },
    });
    const ends: unknown[] = [];
    server.on("request:end", (event) => void (event.method === "tools/call" && ends.push([(event.params as { name: string }).name, event.outcome, event.noReplyCause])));
    const { sessionId } = await rawSession(server.url, "2025-03-26");
    // waits comes after the cut (quick's answer): it is ended as soon as it is in flight.
    const batch = [rpcRequest("tools/call", { name: "slow" }), rpcRequest("tools/call", { name: "quick" }), rpcRequest("tools/call", { name: "waits" })];
    const events = await readSse(await post(server.url, batch, { sessionId, version: "2025-03-26" }));
    // quick's answer was the one event the cut allowed; slow and waits can never be answered on this stream.
    expect(events.map(({ data }) => JSON.parse(data).result?.content?.[0]?.text)).toEqual(["first"]);
    await until(() => server.calls.every((call) => call.outcome !== "pending"), 2000, "every call to end");
    expect(server.calls.map((call) => [call.tool, call.outcome])).toEqual([
      ["slow", "disconnected"],
      ["quick", "result"],
      ["waits", "disconnected"],
    ]);
    expect(server.calls[0]!.reason).toMatch(/closeAfterEvents closed the response stream before this answer, and the stream cannot be resumed/);
    await until(() => aborted !== undefined, 2000, "the step function's signal to abort");
    expect(aborted).toMatch(/cannot be resumed/);
    expect(ends).toEqual(
      expect.arrayContaining([
        ["slow", "none", "stream_cut"],
        ["quick", "result", undefined],
        ["waits", "none", "stream_cut"],
      ]),
    );
    expect(ends).toHaveLength(3);
  });

  it("a raw step's bytes go out verbatim: as the JSON body, or after the priming event on an SSE stream", async () => {
    const server = await serve({ tools: { json: { raw: "not json {" }, sse: { raw: "data: {broken\n\n", stream: { mode: "sse" } } } });
    const { sessionId } = await rawSession(server.url);
    const asJson = await post(server.url, rpcRequest("tools/call", { name: "json" }), { sessionId });
    expect(asJson.status).toBe(200);
    expect(asJson.headers.get("content-type")).toBe("application/json");
    expect(await asJson.text()).toBe("not json {");
    const asSse = await post(server.url, rpcRequest("tools/call", { name: "sse" }), { sessionId });
    expect(asSse.headers.get("content-type")).toBe("text/event-stream");
    expect(await asSse.text()).toBe("id: p0_0\ndata: \n\ndata: {broken\n\n");
  });

  it("a step with stream.retryMs from the start puts retry: on the priming event", async () => {
    const server = await serve({ tools: { t: { returns: "r", stream: { mode: "sse", retryMs: 40 } } } });
    const { sessionId } = await rawSession(server.url);
    const response = await post(server.url, rpcRequest("tools/call", { name: "t" }), { sessionId });
    const reader = sseReader(response);
    expect(await reader.next()).toMatchObject({ id: "p0_0", data: "", retry: 40 });
    expect(reader.retries).toEqual([40]);
    expect(JSON.parse((await reader.next())!.data).result).toEqual({ content: [{ type: "text", text: "r" }] });
    expect(await reader.next()).toBeUndefined();
  });
});
