/**
 * The Streamable HTTP rules of 2026-07-28, with raw requests: each bad header or body gets its
 * exact status and JSON-RPC code with a message naming what was wrong; POST only; no session
 * minted and a session id ignored; a closed response stream cancels the request.
 */
import { describe, expect, it } from "vitest";
import { serve, useCleanup, until } from "../wire/support/http.js";
import { MODERN, modernRequest, postModern } from "./support.js";

useCleanup();

const tools = {
  sql: {
    inputSchema: {
      type: "object",
      properties: { region: { type: "string", "x-mcp-header": "Region" }, limit: { type: "integer", "x-mcp-header": "Limit" }, query: { type: "string" } },
    },
    responses: [{ returns: "rows" }],
  },
  "wetter-größe": { returns: "ok" },
};

async function errorOf(response: Response): Promise<{ status: number; code: number; message: string; data?: unknown }> {
  const body = (await response.json()) as { error: { code: number; message: string; data?: unknown } };
  return { status: response.status, ...body.error };
}

const call = (args: Record<string, unknown> = { region: "us-west1", query: "q" }) => modernRequest("tools/call", { name: "sql", arguments: args });

describe("2026-07-28 request headers", () => {
  it("a conforming request is answered 200 as JSON, with no Mcp-Session-Id", async () => {
    const server = await serve({ tools });
    const response = await postModern(server.url, call(), { "mcp-param-region": "us-west1" });
    expect(response.status).toBe(200);
    expect(response.headers.get("mcp-session-id")).toBeNull();
    const body = (await response.json()) as { result: Record<string, unknown> };
    expect(body.result).toMatchObject({ content: [{ type: "text", text: "rows" }], resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": { name: "mcp-testkit" } } });
  });

  it.each([
    ["no MCP-Protocol-Version", { "mcp-protocol-version": null }, /MCP-Protocol-Version header is required/],
    ["MCP-Protocol-Version unlike _meta", { "mcp-protocol-version": "2025-11-25" }, /MCP-Protocol-Version header value "2025-11-25" does not match the body's _meta version "2026-07-28"/],
    ["no Mcp-Method", { "mcp-method": null }, /Mcp-Method header is required on every request \(expected "tools\/call"\)/],
    ["Mcp-Method unlike the body", { "mcp-method": "tools/list" }, /Mcp-Method header value "tools\/list" does not match the body's method "tools\/call"/],
    ["no Mcp-Name", { "mcp-name": null }, /Mcp-Name header is required on tools\/call \(expected params.name, "sql"\)/],
    ["Mcp-Name unlike the body", { "mcp-name": "other" }, /Mcp-Name header value "other" does not match the body's params.name "sql"/],
    ["a malformed Base64 sentinel", { "mcp-name": "=?base64?***?=" }, /Mcp-Name header value "=\?base64\?\*\*\*\?=" is not valid Base64/],
    ["a mirrored parameter left out", {}, /Mcp-Param-Region header is required: tool "sql" mirrors arguments.region \("us-west1"\)/],
    ["a mirrored parameter unlike the body", { "mcp-param-region": "eu-north1" }, /Mcp-Param-Region header value "eu-north1" does not match the body's arguments.region "us-west1"/],
  ])("%s → 400 -32020 HeaderMismatch", async (_what, headers, message) => {
    const server = await serve({ tools });
    const error = await errorOf(await postModern(server.url, call(), headers as Record<string, string | null>));
    expect(error).toMatchObject({ status: 400, code: -32020 });
    expect(error.message).toMatch(message);
    expect(server.calls).toEqual([]);
  });

  it("Base64 sentinels are decoded before comparing; integers compare as numbers; absent parameters need no header", async () => {
    const server = await serve({ tools });
    const name = "wetter-größe";
    const named = modernRequest("tools/call", { name, arguments: {} });
    const encoded = `=?base64?${Buffer.from(name).toString("base64")}?=`;
    expect((await postModern(server.url, named, { "mcp-name": encoded })).status).toBe(200);
    const limited = call({ region: "  padded ", limit: 42 });
    const padded = `=?base64?${Buffer.from("  padded ").toString("base64")}?=`;
    expect((await postModern(server.url, limited, { "mcp-param-region": padded, "mcp-param-limit": "42.0" })).status).toBe(200);
    expect((await postModern(server.url, call({ query: "no region" }))).status).toBe(200);
    // Another spelling of the number is another value to an intermediary reading the header: refused, and the tool does not run.
    const served = server.calls.length;
    const hex = await errorOf(await postModern(server.url, call({ region: "eu", limit: 42 }), { "mcp-param-region": "eu", "mcp-param-limit": "0x2A" }));
    expect(hex).toMatchObject({ status: 400, code: -32020, message: expect.stringContaining('Mcp-Param-Limit header value "0x2A" does not match the body\'s arguments.limit 42') });
    expect(server.calls).toHaveLength(served);
  });

  it("an unsupported version → 400 -32022 listing the supported ones", async () => {
    const server = await serve({ tools });
    const request = modernRequest("tools/list", {}, { "io.modelcontextprotocol/protocolVersion": "2099-01-01" });
    const error = await errorOf(await postModern(server.url, request, { "mcp-protocol-version": "2099-01-01" }));
    expect(error).toMatchObject({ status: 400, code: -32022, data: { supported: [MODERN, "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"], requested: "2099-01-01" } });
    expect(error.message).toMatch(/2026-07-28 per request \(in _meta\); 2025-11-25, .* through initialize/);
  });

  it("a _meta version that is not a string is refused as a version (-32022), not as a header mismatch", async () => {
    const server = await serve({ tools });
    const request = modernRequest("tools/list", {}, { "io.modelcontextprotocol/protocolVersion": 2026 });
    const error = await errorOf(await postModern(server.url, request, { "mcp-protocol-version": "2026" }));
    expect(error).toMatchObject({ status: 400, code: -32022, data: { requested: "2026" } });
    expect(error.message).toMatch(/^Unsupported protocol version 2026: this server speaks 2026-07-28 per request/);
  });

  it("a legacy-only mock refuses 2026-07-28 with -32022", async () => {
    const server = await serve({ tools, protocolVersions: ["2025-11-25"] });
    const error = await errorOf(await postModern(server.url, modernRequest("tools/list")));
    expect(error).toMatchObject({ status: 400, code: -32022, data: { supported: ["2025-11-25"], requested: MODERN } });
  });

  it("an unknown method, and methods 2026-07-28 removed, → 404 -32601", async () => {
    const server = await serve({ tools });
    for (const method of ["no/such", "ping", "logging/setLevel", "resources/subscribe", "initialize"]) {
      const error = await errorOf(await postModern(server.url, modernRequest(method)));
      expect(error, method).toMatchObject({ status: 404, code: -32601 });
    }
    const removed = await errorOf(await postModern(server.url, modernRequest("ping")));
    expect(removed.message).toBe("Method not found: ping is not part of protocol version 2026-07-28 (it was removed in 2026-07-28)");
  });

  it("GET and DELETE of a modern client → 405 Allow: POST", async () => {
    const server = await serve({ tools });
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(server.url, { method, headers: { accept: "text/event-stream", "mcp-protocol-version": MODERN } });
      expect(response.status, method).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/subscriptions\/listen replaces the GET stream/);
    }
  });

  it("any other method of a modern client → 405 Allow: POST too; a legacy one keeps Allow: GET, POST, DELETE", async () => {
    const server = await serve({ tools });
    for (const method of ["PUT", "PATCH"]) {
      const modern = await fetch(server.url, { method, headers: { "content-type": "application/json", "mcp-protocol-version": MODERN }, body: "{}" });
      expect(modern.status, method).toBe(405);
      expect(modern.headers.get("allow"), method).toBe("POST");
      expect(((await modern.json()) as { error: { message: string } }).error.message).toBe(
        `Method Not Allowed: ${method} is not part of protocol version ${MODERN} (POST each request; subscriptions/listen replaces the GET stream)`,
      );
      const legacy = await fetch(server.url, { method, headers: { "content-type": "application/json", "mcp-protocol-version": "2025-11-25" }, body: "{}" });
      expect(legacy.status, method).toBe(405);
      expect(legacy.headers.get("allow"), method).toBe("GET, POST, DELETE");
    }
  });

  it("a missing required client capability → 400 -32021 over HTTP", async () => {
    const server = await serve({
      tools: {
        asks: async (call) => {
          await call.elicit({ message: "Which?", requestedSchema: { type: "object", properties: {} } });
          return { returns: "never" };
        },
      },
    });
    // The client's _meta declares no capabilities, so it cannot be asked for elicitation.
    const error = await errorOf(await postModern(server.url, modernRequest("tools/call", { name: "asks", arguments: {} })));
    expect(error).toMatchObject({ status: 400, code: -32021 });
    expect(error.message).toMatch(/elicitation/);
  });

  it("an Mcp-Session-Id header is ignored, even an unknown one", async () => {
    const server = await serve({ tools });
    const response = await postModern(server.url, modernRequest("tools/list"), { "mcp-session-id": "no-such-session" });
    expect(response.status).toBe(200);
    expect(response.headers.get("mcp-session-id")).toBeNull();
  });

  it("a response in the body → 400 -32600 (clients send none in 2026-07-28)", async () => {
    const server = await serve({ tools });
    const response = await fetch(server.url, {
      method: "POST",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": MODERN },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} }),
    });
    expect(await errorOf(response)).toMatchObject({ status: 400, code: -32600 });
  });

  it("closing the response stream cancels the request", async () => {
    const server = await serve({
      tools: {
        slow: (call) =>
          new Promise((resolve) => {
            call.progress(1);
            call.signal.addEventListener("abort", () => resolve({ returns: "late" }));
          }),
      },
    });
    const controller = new AbortController();
    const request = modernRequest("tools/call", { name: "slow", arguments: {} }, { progressToken: "p" });
    const response = await postModern(server.url, request, {}, controller.signal);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    controller.abort();
    await until(() => server.calls[0]?.outcome === "cancelled", 2000, "the call to be cancelled");
    expect(server.calls[0]!.reason).toMatch(/closed the response stream/);
  });
});

describe("2026-07-28 request bodies", () => {
  it.each([
    ["no _meta at all", { jsonrpc: "2.0", id: 1, method: "server/discover", params: {} }, "io.modelcontextprotocol/protocolVersion"],
    [
      "_meta without clientCapabilities",
      { jsonrpc: "2.0", id: 2, method: "server/discover", params: { _meta: { "io.modelcontextprotocol/protocolVersion": MODERN } } },
      "io.modelcontextprotocol/clientCapabilities",
    ],
  ])("%s → 400 -32602 naming the missing field", async (_what, body, missing) => {
    const server = await serve({});
    const response = await fetch(server.url, {
      method: "POST",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": MODERN, "mcp-method": "server/discover" },
      body: JSON.stringify(body),
    });
    const error = await errorOf(response);
    expect(error).toMatchObject({ status: 400, code: -32602, data: { missing } });
    expect(error.message).toMatch(/a 2026-07-28 request carries params._meta with/);
  });

  /** POSTs any body with the 2026-07-28 headers of a tools/list (override with `headers`). */
  const postRaw = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: "POST",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": MODERN, "mcp-method": "tools/list", ...headers },
      body: JSON.stringify(body),
    });

  it.each([
    ['"id": true', { id: true }, { id: null, message: /"id" must be a string or a number/ }],
    ['"id": null', { id: null }, { id: null, message: /"id" must be a string or a number \(MCP does not allow null\)/ }],
    ['"jsonrpc": "1.0"', { id: 7, jsonrpc: "1.0" }, { id: 7, message: /"jsonrpc" must be "2.0"/ }],
    ['"params": []', { id: 8, params: [] }, { id: 8, message: /"params" must be an object/ }],
  ])("an invalid envelope (%s) → 400 -32600, never 202", async (_what, change, expected) => {
    const server = await serve({ tools });
    const rejected: unknown[] = [];
    server.on("http:rejected", (event) => void rejected.push(event));
    const body = { jsonrpc: "2.0", method: "tools/list", params: { _meta: modernRequest("tools/list").params._meta }, ...change };
    const response = await postRaw(server.url, body);
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { id: unknown; error: { code: number; message: string } };
    expect(answer.id).toBe(expected.id);
    expect(answer.error.code).toBe(-32600);
    expect(answer.error.message).toMatch(expected.message);
    expect(server.calls).toEqual([]);
    expect(rejected).toEqual([{ status: 400, code: -32600, path: "/mcp" }]);
  });

  it("a valid notification (no id) → 202 with no body", async () => {
    const server = await serve({ tools });
    const response = await postRaw(
      server.url,
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, _meta: modernRequest("tools/list").params._meta } },
      { "mcp-method": "notifications/cancelled" },
    );
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("");
  });

  it.each([
    [
      "named by its MCP-Protocol-Version header",
      [
        { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
        { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} },
      ],
      { "mcp-protocol-version": MODERN },
    ],
    ["named by its members' _meta", [modernRequest("tools/list"), modernRequest("tools/list")], {}],
  ])("a batch %s → 400 -32600: one message per POST", async (_what, batch, headers) => {
    const server = await serve({ tools });
    const response = await fetch(server.url, {
      method: "POST",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json", ...headers },
      body: JSON.stringify(batch),
    });
    const error = await errorOf(response);
    expect(error).toMatchObject({ status: 400, code: -32600 });
    expect(error.message).toBe(
      `Invalid Request: protocol version ${MODERN} carries one JSON-RPC message per POST, and this body is an array of 2 (a batch); send each message in its own POST (batches exist only in 2025-03-26, in a session)`,
    );
    expect(server.calls).toEqual([]);
  });

  it("a legacy batch without a session still asks for initialize", async () => {
    const server = await serve({ tools });
    const response = await fetch(server.url, {
      method: "POST",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": "2025-03-26" },
      body: JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "tools/list" }]),
    });
    expect(await errorOf(response)).toMatchObject({ status: 400, code: -32000, message: expect.stringMatching(/Mcp-Session-Id header is required/) });
  });

  it("a value with only half of the Base64 sentinel is literal text", async () => {
    const server = await serve({ tools });
    const half = "=?base64?SGVsbG8=";
    expect((await postModern(server.url, call({ region: half }), { "mcp-param-region": half })).status).toBe(200);
  });

  it("errors keep their status in SSE mode (responseMode: sse)", async () => {
    const server = await serve({ tools, responseMode: "sse" });
    const response = await postModern(server.url, modernRequest("ping"));
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/json");
  });
});

describe("faults over HTTP in 2026-07-28", () => {
  it("a stream cut ends the response stream without the answer (no resumption in 2026-07-28)", async () => {
    const server = await serve({ tools: { cut: { delayMs: 20, returns: "lost", stream: { closeAfterEvents: 0 } } } });
    const response = await postModern(server.url, modernRequest("tools/call", { name: "cut", arguments: {} }));
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(await response.text()).toBe("");
    await until(() => server.calls[0]?.outcome !== "pending", 2000, "the call to end");
    expect(server.calls[0]).toMatchObject({
      outcome: "disconnected",
      reason: expect.stringMatching(/closeAfterEvents closed the response stream before this answer, and the stream cannot be resumed/),
      protocolVersion: MODERN,
      sessionId: expect.stringMatching(/^request-\d+$/),
    });
  });

  it("observers hear a cut stream as cut (not closed for resumption) and its request as unanswered: metrics count a write failure", async () => {
    const server = await serve({ tools: { cut: { returns: "lost", stream: { closeAfterEvents: 0 } } }, metrics: true });
    const closes: string[] = [];
    const ends: unknown[] = [];
    server.on("stream:close", (event) => void closes.push(event.reason));
    server.on("request:end", (event) => void ends.push([event.outcome, event.noReplyCause]));
    const response = await postModern(server.url, modernRequest("tools/call", { name: "cut", arguments: {} }));
    expect(await response.text()).toBe("");
    await until(() => ends.length === 1, 2000, "the request to end");
    expect([closes, ends]).toEqual([["cut_by_step"], [["none", "stream_cut"]]]);
    expect(server.metrics().value("mcp_testkit_requests_total", { method: "tools/call", outcome: "write_failed" })).toBe(1);
  });

  it("a retry hint (stream.retryMs) writes no retry: field on a 2026-07-28 stream, which cannot be resumed", async () => {
    const server = await serve({ tools: { slow: async (call) => (call.progress(1, 2), { returns: "done", stream: { mode: "sse", retryMs: 20 } }) } });
    const response = await postModern(server.url, modernRequest("tools/call", { name: "slow", arguments: {} }, { progressToken: "p" }));
    const body = await response.text();
    expect(body).toContain('"done"');
    expect(body).not.toMatch(/^retry:/m);
  });

  it("a disconnect step drops the connection; raw bytes are written as they are", async () => {
    const server = await serve({ tools: { bye: [{ disconnect: true }, { raw: "{not json" }] } });
    await expect(postModern(server.url, modernRequest("tools/call", { name: "bye", arguments: {} }))).rejects.toThrow();
    expect(server.calls[0]).toMatchObject({ outcome: "disconnected", protocolVersion: MODERN });
    const raw = await postModern(server.url, modernRequest("tools/call", { name: "bye", arguments: {} }));
    expect(await raw.text()).toBe("{not json");
  });

  it("a hanging 2026-07-28 request ends when the mock closes, though its connection is no session", async () => {
    const server = await serve({ tools: { wait: { hang: true } } });
    const ends: string[] = [];
    server.on("request:end", (event) => void ends.push(`${event.method} ${event.outcome} ${event.noReplyCause ?? ""}`));
    const response = postModern(server.url, modernRequest("tools/call", { name: "wait", arguments: {} })).then(
      (answer) => answer.text(),
      (error: unknown) => error,
    );
    await until(() => server.calls[0]?.outcome === "pending", 2000, "the call to start");
    await server.close();
    expect(server.calls[0]).toMatchObject({ outcome: "cancelled", protocolVersion: MODERN });
    expect(ends).toEqual(["tools/call none session_closed"]);
    // The response ends (its stream closed, or the connection cut), so the client is not left waiting.
    await response;
  });

  it("a 2026-07-28 POST opens no session: the mock lists none and emits no session events", async () => {
    const server = await serve({ tools });
    const opened: string[] = [];
    server.on("session:open", (event) => void opened.push(event.sessionId));
    await postModern(server.url, modernRequest("tools/list"));
    expect(opened).toEqual([]);
  });
});
