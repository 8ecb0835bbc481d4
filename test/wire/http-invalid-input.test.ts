/**
 * Input the server cannot accept, over Streamable HTTP: a POST whose body looks like a request
 * (a `method` and an `id`) but is not a valid one gets HTTP 400 with the JSON-RPC error, as
 * every other invalid body does (the spec's MUST), and opens no session. In a 2025-03-26 batch,
 * each invalid member gets its own error entry beside the answers of the valid ones.
 */
import { describe, expect, it } from "vitest";
import { jsonOrSse, post, rawSession, rpcRequest, serve, useCleanup } from "./support/http.js";

useCleanup();

const invalidRequests: Array<[string, Record<string, unknown>, unknown]> = [
  ['"jsonrpc": "1.0"', { jsonrpc: "1.0", id: 7, method: "ping" }, 7],
  ["no jsonrpc", { id: 7, method: "ping" }, 7],
  ['"id": true', { jsonrpc: "2.0", id: true, method: "ping" }, null],
  ['"id": {}', { jsonrpc: "2.0", id: {}, method: "ping" }, null],
  ['"id": null', { jsonrpc: "2.0", id: null, method: "ping" }, null],
  ['"params": []', { jsonrpc: "2.0", id: 7, method: "ping", params: [] }, 7],
  ['"method": 5', { jsonrpc: "2.0", id: 7, method: 5 }, 7],
];

describe("an invalid request body gets 400, not 200", () => {
  it.each(invalidRequests)("%s: 400 with a -32600 body that says what was wrong (inside a session)", async (_label, body, id) => {
    const server = await serve();
    const { sessionId } = await rawSession(server.url);
    const response = await post(server.url, body, { sessionId });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id, error: { code: -32600, message: expect.stringMatching(/^Invalid Request: /) } });
  });

  it("an initialize with a wrong envelope is 400 and opens no session", async () => {
    const server = await serve();
    const response = await post(
      server.url,
      { jsonrpc: "1.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "0" } } },
      { version: null },
    );
    expect(response.status).toBe(400);
    expect(response.headers.get("mcp-session-id")).toBeNull();
    expect(await response.json()).toMatchObject({ id: 1, error: { code: -32600, message: 'Invalid Request: "jsonrpc" must be "2.0"' } });
  });
});

describe("a 2025-03-26 batch with invalid members", () => {
  async function batchSession() {
    const server = await serve();
    const { sessionId } = await rawSession(server.url, "2025-03-26");
    return { server, sessionId };
  }

  it("[ping, 5]: 200 with the ping's result and an error entry for the 5", async () => {
    const { server, sessionId } = await batchSession();
    const ping = rpcRequest("ping");
    const response = await post(server.url, [ping, 5], { sessionId, version: "2025-03-26" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([
      { jsonrpc: "2.0", id: ping.id, result: {} },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: expected a JSON-RPC message object, got 5" } },
    ]);
  });

  it("every invalid member gets its entry, a notification none; ids are echoed where they can be read", async () => {
    const { server, sessionId } = await batchSession();
    const ping = rpcRequest("ping");
    const batch = [
      ping,
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "1.0", id: "old", method: "ping" },
      { jsonrpc: "2.0", id: true, method: "ping" },
      { jsonrpc: "2.0", method: "ping", params: [] },
    ];
    const response = await post(server.url, batch, { sessionId, version: "2025-03-26" });
    expect(response.status).toBe(200);
    const entries = (await response.json()) as Array<{ id: unknown; result?: unknown; error?: { code: number } }>;
    expect(entries.map((entry) => [entry.id, entry.error?.code ?? "result"])).toEqual([
      [ping.id, "result"],
      ["old", -32600],
      [null, -32600],
      [null, -32600],
    ]);
  });

  it("a batch of invalid members only is 400 with an entry each", async () => {
    const { server, sessionId } = await batchSession();
    const response = await post(server.url, [5, "x"], { sessionId, version: "2025-03-26" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as unknown[]).length).toBe(2);
  });
});

describe("an empty array, a batch of no messages", () => {
  const refusal = {
    jsonrpc: "2.0",
    id: null,
    error: {
      code: -32600,
      message:
        "Invalid Request: the body is an empty array (a batch of no messages), which JSON-RPC 2.0 refuses; send one JSON-RPC message object, or, in a 2025-03-26 session, a batch of one or more",
    },
  };

  it("is 400 with one -32600 error, id null, that says what to send: with no session, whatever version the header names", async () => {
    const server = await serve();
    for (const version of [null, "2025-03-26", "2025-11-25", "2026-07-28"]) {
      const response = await post(server.url, [], { version });
      expect(response.status, String(version)).toBe(400);
      expect(response.headers.get("mcp-session-id")).toBeNull();
      expect(await response.json(), String(version)).toEqual(refusal);
    }
  });

  it("is the same in a session, which carries on", async () => {
    const server = await serve();
    const { sessionId } = await rawSession(server.url, "2025-03-26");
    const response = await post(server.url, [], { sessionId, version: "2025-03-26" });
    expect([response.status, await response.json()]).toEqual([400, refusal]);
    expect(await jsonOrSse(await post(server.url, [rpcRequest("ping")], { sessionId, version: "2025-03-26" }))).toMatchObject([{ result: {} }]);
  });
});

describe("an integer id beyond 2^53, which a JSON number cannot carry exactly", () => {
  const bigIdPing = '{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}';
  const refusal = {
    jsonrpc: "2.0",
    id: null,
    error: {
      code: -32600,
      message:
        "Invalid Request: the id 9007199254740993 is an integer beyond 2^53 that cannot be echoed exactly (read as a JSON number it becomes 9007199254740992, which the client never sent); use a smaller number or a string id",
    },
  };

  it("is 400 with -32600 naming the id as sent, with id null (an answer with the rounded id would match nothing)", async () => {
    const server = await serve();
    const { sessionId } = await rawSession(server.url);
    const response = await post(server.url, bigIdPing, { sessionId });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(refusal);
    // In a batch too, and the session carries on; an id that fits, a string id, 2^53 itself (exact) and a big id whose
    // text JSON writes back unchanged (158417092700238430 is a double's shortest form) are served.
    const batchSession = await rawSession(server.url, "2025-03-26");
    const batch = await post(server.url, `[{"jsonrpc":"2.0","id":1,"method":"ping"},${bigIdPing}]`, { sessionId: batchSession.sessionId, version: "2025-03-26" });
    expect([batch.status, await batch.json()]).toEqual([400, refusal]);
    for (const [sent, echoed] of [
      ["9007199254740991", 9007199254740991],
      ['"9007199254740993"', "9007199254740993"],
      ["9007199254740992", 9007199254740992],
      ["-158417092700238430", -158417092700238430],
    ] as const) {
      const answer = await post(server.url, `{"jsonrpc":"2.0","id":${sent},"method":"ping"}`, { sessionId });
      expect(await jsonOrSse(answer)).toEqual({ jsonrpc: "2.0", id: echoed, result: {} });
    }
  });

  it("a big number elsewhere in the message (a tool's argument) is no id: the call is served", async () => {
    const server = await serve({ tools: { echo: { returns: "ok" } } });
    const { sessionId } = await rawSession(server.url);
    const response = await post(server.url, '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"id":9007199254740993}}}', { sessionId });
    expect((await jsonOrSse(response)).result).toMatchObject({ content: [{ type: "text", text: "ok" }] });
  });
});

describe("a message nested deeper than any MCP message", () => {
  /** A tools/call whose arguments nest `depth` arrays: JSON.parse takes it, JSON.stringify of it would not. */
  const deepCall = (depth: number) => `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{"x":${"[".repeat(depth)}${"]".repeat(depth)}}}}`;

  it("is 400 with -32600 over HTTP; the journal, the records and the session stay readable", async () => {
    // Each fixture entry answers one call: one for each message served below.
    const calls = Array.from({ length: 2 }, () => ({ anyArgs: true as const, result: "ok" }));
    const server = await serve({ fixtures: { scope: "shared", tools: [{ name: "echo", calls }] } });
    const { sessionId } = await rawSession(server.url);
    const response = await post(server.url, deepCall(20_000), { sessionId });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "Invalid Request: the message nests arrays and objects more than 512 levels deep; no MCP message does, so it is refused" },
    });
    // Brackets inside strings are text, not nesting; a message at the bound is served.
    const inString = await post(server.url, rpcRequest("tools/call", { name: "echo", arguments: { x: "[".repeat(20_000) } }), { sessionId });
    expect((await jsonOrSse(inString)).result).toMatchObject({ content: [{ type: "text", text: "ok" }] });
    const atBound = await post(server.url, deepCall(508), { sessionId });
    expect((await jsonOrSse(atBound)).result).toMatchObject({ content: [{ type: "text", text: "ok" }] });
    expect(() => JSON.stringify(server.messages)).not.toThrow();
    const journal = await fetch(new URL("/__mcp-testkit/journal", server.url));
    expect(journal.status).toBe(200);
    // initialize and the two calls served; the refused message reached no fake.
    expect(((await journal.json()) as Array<{ method: string }>).map((entry) => entry.method)).toEqual(["initialize", "tools/call", "tools/call"]);
  });

  it("is refused by the control API with a problem naming the bound", async () => {
    const server = await serve();
    const body = `{"mcpFakes":${"[".repeat(5_000)}${"]".repeat(5_000)}}`;
    const response = await fetch(new URL("/__mcp-testkit/fixtures", server.url), { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "MCP_CONTROL_TOO_DEEP", error: expect.stringContaining("more than 512 levels deep") });
  });
});
