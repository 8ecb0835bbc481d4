/**
 * Scenario fakes served by a mock to real SDK clients: fixture files answer tools/call per test
 * id and context (sent as headers or query), before the tools' own scripts, with structured
 * errors, a journal and the control API on the mock's own port.
 */
import { request as httpRequest } from "node:http";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { FixtureLoadError, mockMcp, type MockMcpServer } from "../../src/index.js";
import { connect } from "../mock/support.js";
import { sdkClient, track, useCleanup } from "../wire/support/http.js";

useCleanup();
const FIXTURES = fileURLToPath(new URL("./fixtures", import.meta.url));
const lines: string[] = [];
const logger = (_level: string, line: string) => void lines.push(line);

async function serveFakes(options: Parameters<typeof mockMcp>[0] = {}): Promise<MockMcpServer & { url: string }> {
  const server = track(await mockMcp({ fakesOptions: { logger }, ...options }));
  return server as MockMcpServer & { url: string };
}

const withTestId = (testId: string) => ({ transportOptions: { requestInit: { headers: { "X-Test-Id": encodeURIComponent(testId) } } } });

describe("fixture files served over Streamable HTTP", () => {
  it("answer each call of the test with its own entry, in order, and list the fake tools", async () => {
    const server = await serveFakes({ fixtures: FIXTURES });
    const { client } = await sdkClient(server.url, withTestId("tickets › retry on timeout"));
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toEqual(["create_ticket"]);

    const first = await client.callTool({ name: "create_ticket", arguments: { title: "Refund" } });
    expect(first).toMatchObject({ isError: true, content: [{ type: "text", text: "upstream timeout" }] });
    const second = await client.callTool({ name: "create_ticket", arguments: { title: "Refund" } });
    expect(second.structuredContent).toEqual({ ticket: "T-1" });
    expect(server.calls.map((call) => [call.outcome, call.fake, call.identity?.testId])).toEqual([
      ["tool-error", "tickets/retry.json:first-try", "tickets › retry on timeout"],
      ["result", "tickets/retry.json:second-try", "tickets › retry on timeout"],
    ]);
    expect(() => server.assertFakesConsumed({ testId: "tickets › retry on timeout" })).not.toThrow();
  });

  it("assertFakesConsumed() lists every entry a test left unused, by id", async () => {
    const server = await serveFakes({ fixtures: FIXTURES });
    const { client } = await sdkClient(server.url, withTestId("tickets › retry on timeout"));
    await client.callTool({ name: "create_ticket", arguments: { title: "Refund" } });
    expect(() => server.assertFakesConsumed({ testId: "tickets › retry on timeout" })).toThrow("tickets/retry.json:second-try");
  });

  it("refuse a third call with MCP_FAKE_EXHAUSTED, logged, journaled and counted", async () => {
    const server = await serveFakes({ fixtures: FIXTURES });
    const { client } = await sdkClient(server.url, withTestId("tickets › retry on timeout"));
    for (let i = 0; i < 2; i++) await client.callTool({ name: "create_ticket", arguments: { title: "Refund" } });
    const error = await client.callTool({ name: "create_ticket", arguments: { title: "Refund" } }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: -31010, data: { mcpTestkit: { code: "MCP_FAKE_EXHAUSTED", tool: "create_ticket", testId: "tickets › retry on timeout", mount: "/mcp" } } });
    expect(lines.some((line) => line.startsWith("MCP-FAKE:") && line.includes("create_ticket"))).toBe(true);
    expect(server.fakes.failureCounts().MCP_FAKE_EXHAUSTED).toBe(1);
    const journal = server.fakes.journal.entries({ testId: "tickets › retry on timeout" });
    expect(journal.filter((entry) => entry.method === "tools/call").map((entry) => entry.response.mcpFake?.outcome)).toEqual(["answered", "answered", "exhausted"]);
    expect(journal.some((entry) => entry.method === "tools/list" || entry.method === "initialize")).toBe(true);
    expect(server.calls[2]).toMatchObject({ outcome: "protocol-error", fake: "MCP_FAKE_EXHAUSTED" });
  });

  it("leave calls without a test id to the tools' own scripts, and a mismatch names what was declared", async () => {
    const server = await serveFakes({ fixtures: FIXTURES, tools: { create_ticket: { returns: "scripted" } } });
    const plain = await sdkClient(server.url);
    expect((await plain.client.callTool({ name: "create_ticket", arguments: { title: "x" } })).content).toEqual([{ type: "text", text: "scripted" }]);

    const scoped = await sdkClient(`${server.url}?testId=${encodeURIComponent("tickets › retry on timeout")}`);
    const error = await scoped.client.callTool({ name: "create_ticket", arguments: { title: "Refnd" } }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: -32602, data: { mcpTestkit: { code: "MCP_FAKE_MISMATCH", received: { title: "Refnd" } } } });
    expect((error as Error).message).toContain("create_ticket");
  });

  it("urlFor({ testId }) gives a URL an agent in another process can use without headers", async () => {
    const server = await serveFakes({ fixtures: FIXTURES });
    const url = server.urlFor({ testId: "tickets › retry on timeout" });
    expect(url).toBe(`${server.url}?testId=tickets+%E2%80%BA+retry+on+timeout`);
    const { client } = await sdkClient(url);
    expect((await client.callTool({ name: "create_ticket", arguments: { title: "Refund" } })).isError).toBe(true);
    const memory = await mockMcp({ transport: "memory" });
    expect(() => memory.urlFor({ testId: "x" })).toThrow("urlFor() needs a mock served over HTTP");
    await memory.close();
  });

  it("serve each block's mount on the mock's port; a mount serves only its own block", async () => {
    const server = await serveFakes({ fixtures: FIXTURES });
    const origin = new URL(server.url).origin;
    const flights = await sdkClient(`${origin}/mcp/flights`, withTestId("travel › book trip"));
    const hotels = await sdkClient(`${origin}/mcp/hotels`, withTestId("travel › book trip"));
    expect((await flights.client.callTool({ name: "search_flights", arguments: { from: "SFO" } })).content).toEqual([{ type: "text", text: "UA 100 departs 09:00" }]);
    expect((await hotels.client.callTool({ name: "book_hotel", arguments: { city: "Paris" } })).content).toEqual([{ type: "text", text: "HOTEL-7" }]);
    await expect(flights.client.callTool({ name: "book_hotel", arguments: { city: "Paris" } })).rejects.toThrow("Unknown tool: book_hotel");
  });

  it("keep the test id an initialize sent for the session's later requests", async () => {
    const server = await serveFakes({ fixtures: FIXTURES });
    let first = true;
    const { client } = await sdkClient(server.url, {
      transportOptions: {
        // The test id travels on initialize only, as a client configured once per session would send it.
        fetch: (url, init) => {
          const headers = new Headers(init?.headers);
          if (first) headers.set("X-Test-Id", encodeURIComponent("tickets › retry on timeout"));
          first = false;
          return fetch(url, { ...init, headers });
        },
      },
    });
    const result = await client.callTool({ name: "create_ticket", arguments: { title: "Refund" } });
    expect(result.isError).toBe(true);
  });
});

describe("identity errors over HTTP", () => {
  // node:http sends an array value as that many headers, which fetch cannot (it joins them).
  function rawPost(url: string, headers: Record<string, string | string[]>): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const request = httpRequest(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } }, (response) => {
        let body = "";
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      });
      request.on("error", reject);
      request.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } }));
    });
  }

  it("a test id sent twice is 400 MCP_DUPLICATE_IDENTITY; a bad undeclared value is 400 MCP_INVALID_UNDECLARED", async () => {
    const server = await serveFakes();
    const twice = await rawPost(server.url, { "x-test-id": ["a", "b"] });
    expect(twice.status).toBe(400);
    expect(JSON.parse(twice.body)).toMatchObject({ code: "MCP_DUPLICATE_IDENTITY" });
    const bad = await rawPost(server.url, { "x-test-undeclared": "maybe" });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toEqual({ code: "MCP_INVALID_UNDECLARED", error: expect.stringContaining("expected allow or deny") });
  });
});

describe("closed world and the control API", () => {
  const deny = { scope: { testId: "closed" }, undeclaredTools: "deny" as const, tools: [{ name: "known", calls: [{ anyArgs: true as const, result: "ok" }] }] };

  it("a closed world refuses tools it did not declare, even the mock's own", async () => {
    const server = await serveFakes({ tools: { other: { returns: "scripted" } } });
    server.loadFakes(deny);
    const { client } = await sdkClient(server.url, withTestId("closed"));
    const error = await client.callTool({ name: "other" }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: -32602, data: { mcpTestkit: { code: "MCP_FAKE_NOT_DECLARED", declaredTools: ["known"] } } });
  });

  it("POST /__mcp-testkit/fixtures adds fakes at run time, and the journal and listing read them back", async () => {
    const server = await serveFakes();
    const origin = new URL(server.url).origin;
    const added = await fetch(`${origin}/__mcp-testkit/fixtures`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ mcpFakes: deny }) });
    expect(added.status).toBe(200);
    expect(await added.json()).toMatchObject({ mcpFakesAdded: 1 });

    const { client } = await sdkClient(server.url, withTestId("closed"));
    expect((await client.callTool({ name: "known" })).content).toEqual([{ type: "text", text: "ok" }]);
    const journal = await (await fetch(`${origin}/__aimock/journal?testId=closed`)).json();
    expect(JSON.stringify(journal)).toContain('"outcome":"answered"');
    const listing = await (await fetch(`${origin}/__mcp-testkit/fakes?testId=closed`)).json();
    expect(JSON.stringify(listing)).toContain("control-api#1");

    const invalid = await fetch(`${origin}/__mcp-testkit/fixtures`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ mcpFakes: { scope: "shared", undeclaredTools: "deny", tools: [] } }),
    });
    expect(invalid.status).toBe(400);
  });

  it("a bad fixture fails mockMcp() with a FixtureLoadError naming the problem", async () => {
    await expect(mockMcp({ transport: "memory", fixtures: { scope: "shared", undeclaredTool: "deny", tools: [] } as never })).rejects.toThrow(FixtureLoadError);
    await expect(mockMcp({ transport: "memory", fixtures: "./no/such/fixtures" })).rejects.toThrow('fixtures: "./no/such/fixtures" is neither a file nor a directory');
  });
});

describe("a tool faked only for other tests", () => {
  it("is an unknown tool to this request, and the error says which scope fakes it and what this request sent", async () => {
    const server = await serveFakes({ fixtures: { scope: { testId: "tickets › retries once" }, tools: [{ name: "create_ticket", calls: [{ anyArgs: true, result: "T-1" }] }] } });
    const { client: anonymous } = await sdkClient(server.url);
    await expect(anonymous.callTool({ name: "create_ticket", arguments: {} })).rejects.toThrow(
      'MCP error -32602: Unknown tool: create_ticket (a fake for it is scoped to testId "tickets › retries once"; this request has no test id or context (send X-Test-Id or ?testId=))',
    );
    const { client: other } = await sdkClient(server.url, withTestId("billing"));
    await expect(other.callTool({ name: "create_ticket", arguments: {} })).rejects.toThrow(
      '(a fake for it is scoped to testId "tickets › retries once"; this request has test id "billing" and context null)',
    );
    const { client: owner } = await sdkClient(server.url, withTestId("tickets › retries once"));
    expect((await owner.callTool({ name: "create_ticket", arguments: {} })).content).toEqual([{ type: "text", text: "T-1" }]);
  });
});

describe("fakes on the other wires", () => {
  it("a shared block answers an in-memory client, and reset() makes its entries usable again", async () => {
    const server = await mockMcp({ transport: "memory", fakesOptions: { logger }, fixtures: { scope: "shared", tools: [{ name: "weather", calls: [{ args: { city: "Oslo" }, result: "snow" }] }] } });
    try {
      const client = await connect(server);
      expect((await client.callTool({ name: "weather", arguments: { city: "Oslo" } })).content).toEqual([{ type: "text", text: "snow" }]);
      await expect(client.callTool({ name: "weather", arguments: { city: "Oslo" } })).rejects.toThrow(/MCP_FAKE_EXHAUSTED|exhausted|used/i);
      server.reset();
      expect((await client.callTool({ name: "weather", arguments: { city: "Oslo" } })).content).toEqual([{ type: "text", text: "snow" }]);
      await client.close();
    } finally {
      await server.close();
    }
  });
});

describe("many tests at once", () => {
  it("200 sessions with distinct test ids, in parallel, each get only their own entries", async () => {
    const sessions = 200;
    const blocks = Array.from({ length: sessions }, (_, i) => ({
      scope: { testId: `suite › test ${i}` },
      tools: [{ name: "whoami", calls: [{ anyArgs: true as const, result: `test ${i}` }] }],
    }));
    const server = await serveFakes({ fixtures: blocks });
    const answers = await Promise.all(
      Array.from({ length: sessions }, async (_, i) => {
        const { client } = await sdkClient(server.url, withTestId(`suite › test ${i}`));
        const result = await client.callTool({ name: "whoami", arguments: { n: i } });
        // A second call finds this test's only entry used: exhausted, never another test's entry.
        const again = await client.callTool({ name: "whoami", arguments: { n: i } }).catch((error: { data?: { mcpTestkit?: { code?: string } } }) => error.data?.mcpTestkit?.code);
        return [(result.content as Array<{ text: string }>)[0]!.text, again];
      }),
    );
    expect(answers).toEqual(Array.from({ length: sessions }, (_, i) => [`test ${i}`, "MCP_FAKE_EXHAUSTED"]));
  }, 60_000);
});
