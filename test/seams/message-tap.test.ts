/**
 * `server.on("message")`: one tap on every JSON-RPC message in and out of the mock, whatever the
 * wire: what the client sent, what the mock answered, and what the mock sent on its own (with the
 * request it travels with).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { describe, expect, it } from "vitest";
import { mockMcp, type MessageEvent, type MockMcpServer } from "../../src/index.js";
import { closedAfterEach } from "../support/closed-after-each.js";

const { servers, clients } = closedAfterEach();

/** What a message event says, in one short line: direction, then the method, or the id it answers. */
function line(event: MessageEvent): string {
  const message = event.message as Record<string, unknown> | undefined;
  if (message === undefined) return `${event.direction} raw ${event.raw}`;
  const what = typeof message.method === "string" ? String(message.method) : `answer to ${String(message.id)}`;
  return `${event.direction} ${what}${event.relatedRequestId !== undefined && typeof message.method === "string" ? ` (with request ${String(event.relatedRequestId)})` : ""}`;
}

const TOOLS = {
  slow_search: (call: { progress(progress: number, total?: number): void }) => {
    call.progress(1, 2);
    return { returns: "found" };
  },
};

const wires: Record<string, (server: MockMcpServer) => Promise<Transport>> = {
  memory: (server) => server.connectInMemory(),
  http: async (server) => new StreamableHTTPClientTransport(new URL(server.url!)),
};

describe.each(Object.keys(wires))("every message, over %s", (wire) => {
  it("shows the handshake, the call, the progress that travels with it and the answer, in order", async () => {
    const server = await mockMcp(wire === "memory" ? { transport: "memory", tools: TOOLS } : { tools: TOOLS });
    servers.add(server);
    const events: MessageEvent[] = [];
    server.on("message", (event) => events.push(event));
    const client = new Client({ name: "tap-test", version: "1.0.0" });
    clients.add(client);
    await client.connect(await wires[wire]!(server));
    await client.callTool({ name: "slow_search", arguments: {} }, undefined, { onprogress: () => undefined });

    expect(events.map(line)).toEqual(["in initialize", "out answer to 0", "in notifications/initialized", "in tools/call", "out notifications/progress (with request 1)", "out answer to 1"]);
    const answer = events.at(-1)!;
    expect(answer.message).toMatchObject({ id: 1, result: { content: [{ type: "text", text: "found" }] } });
    expect(new Set(events.map((event) => event.wire))).toEqual(new Set([wire]));
    expect(new Set(events.map((event) => event.sessionId)).size).toBe(1);
    expect(events.every((event) => typeof event.at === "number" && event.at > 0)).toBe(true);
  });
});

describe("what is not JSON-RPC", () => {
  it("shows text that did not parse as raw, and the -32700 it got", async () => {
    const server = await mockMcp({ transport: "memory" });
    servers.add(server);
    const events: MessageEvent[] = [];
    server.on("message", (event) => events.push(event));
    await server.handle("{not json");
    expect(events.map((event) => [event.direction, event.raw ?? (event.message as { error?: { code: number } }).error?.code])).toEqual([
      ["in", "{not json"],
      ["out", -32700],
    ]);
  });

  it("shows a raw step's bytes as they went", async () => {
    const server = await mockMcp({ transport: "memory", tools: { broken: { raw: "garbage\n" } } });
    servers.add(server);
    const events: MessageEvent[] = [];
    server.on("message", (event) => events.push(event));
    await server.handle('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"broken"}}');
    expect(events.map((event) => `${event.direction} ${event.raw ?? (event.message as { method?: string }).method}`)).toEqual(["in tools/call", "out garbage\n"]);
  });
});

const TOKEN = "s3cret-bearer-token-7f2c";

describe("the HTTP facts of a message", () => {
  it("over HTTP, each message carries its request's method, path and headers, credentials redacted", async () => {
    const server = await mockMcp({ tools: { echo: { returns: "hi" } } });
    servers.add(server);
    const events: MessageEvent[] = [];
    server.on("message", (event) => events.push(event));
    const transport = new StreamableHTTPClientTransport(new URL(server.url!), {
      requestInit: { headers: { Authorization: `Bearer ${TOKEN}`, "X-Api-Key": TOKEN, "X-Session-Token": TOKEN, "X-Test-Id": "tap > http", Cookie: `sid=${TOKEN}` } },
    });
    const client = new Client({ name: "tap-test", version: "1.0.0" });
    clients.add(client);
    await client.connect(transport);
    await client.callTool({ name: "echo", arguments: {} });

    const call = events.find((event) => event.direction === "in" && (event.message as { method?: string }).method === "tools/call")!;
    expect(call.http).toMatchObject({ method: "POST", path: "/mcp" });
    expect(call.http!.headers).toMatchObject({
      authorization: "[redacted]",
      "x-api-key": "[redacted]",
      "x-session-token": "[redacted]",
      cookie: "[redacted]",
      "x-test-id": "tap > http",
      "content-type": "application/json",
    });
    expect(call.testId).toBe("tap > http");
    // The answer goes on the same request: it carries that request's method and path, and the
    // status and headers of the response the wire chose for it.
    const answer = events.find((event) => event.direction === "out" && (event.message as { id?: unknown }).id === (call.message as { id: unknown }).id)!;
    expect(answer.http).toMatchObject({ method: "POST", path: "/mcp", status: 200, headers: { "content-type": "application/json" } });
    const initialized = events.find((event) => event.direction === "out" && (event.message as { id?: unknown }).id === 0)!;
    expect(initialized.http!.headers["mcp-session-id"]).toBe(call.sessionId);
    expect(events.every((event) => event.protocolVersion === "2025-11-25")).toBe(true);
    expect(JSON.stringify(events)).not.toContain(TOKEN);
  });

  it("in memory there are no HTTP facts, and the revision is still on every event", async () => {
    const server = await mockMcp({ transport: "memory", tools: { echo: { returns: "hi" } } });
    servers.add(server);
    const events: MessageEvent[] = [];
    server.on("message", (event) => events.push(event));
    const client = new Client({ name: "tap-test", version: "1.0.0" });
    clients.add(client);
    await client.connect(await server.connectInMemory());
    await client.callTool({ name: "echo", arguments: {} });
    expect(events.length).toBeGreaterThan(3);
    expect(events.some((event) => event.http !== undefined)).toBe(false);
    expect(events.every((event) => typeof event.protocolVersion === "string" && event.protocolVersion.length > 0)).toBe(true);
  });
});

describe("a listener that falls behind", () => {
  it("an async listener that never settles misses events past 1,000, counted, and the client is answered all the same", async () => {
    const server = await mockMcp({ transport: "memory" });
    servers.add(server);
    let heard = 0;
    server.on("message", () => {
      heard++;
      return new Promise<void>(() => undefined);
    });
    const answers: Array<string | null> = [];
    // 600 pings: 1,200 events, in and out.
    for (let id = 1; id <= 600; id++) answers.push(await server.handle(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`));
    expect(answers.every((answer) => answer !== null && JSON.parse(answer).result !== undefined)).toBe(true);
    expect(heard).toBe(1000);
    expect(server.droppedEvents).toBe(200);
  });
});
