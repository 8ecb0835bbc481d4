/**
 * Shared parts for the simulator tests: requests built exactly as a client would (headers and
 * body), an MCP server built with the official SDK behind its web-standard Streamable HTTP
 * transport, and cleanup of everything a test made.
 */
import { afterEach } from "vitest";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createMcpHandler, McpServer as McpServerV2, type McpHttpHandler } from "@modelcontextprotocol/server";
import { z } from "zod";
import { mockMcp, simulate, type MockMcpOptions, type MockMcpServer, type Simulator } from "../../src/index.js";

export const ORIGIN = "http://127.0.0.1:8082";
const cleanups: Array<() => unknown> = [];

export function useCleanup(): void {
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
}

export function onCleanup(cleanup: () => unknown): void {
  cleanups.push(cleanup);
}

/** A mock served in memory only (no port), closed after the test. */
export async function memoryMock(options: MockMcpOptions = {}): Promise<MockMcpServer> {
  const server = await mockMcp({ transport: "memory", ...options });
  onCleanup(() => server.close());
  return server;
}

/** A simulator closed after the test. */
export function simulator(...args: Parameters<typeof simulate>): Simulator {
  const sim = simulate(...args);
  onCleanup(() => sim.close());
  return sim;
}

/** A POST to `path` with the headers a 2025-11-25 client sends. */
export function mcpPost(body: unknown, headers: Record<string, string> = {}, path = "/mcp"): Request {
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export const INITIALIZE = {
  jsonrpc: "2.0",
  id: "init-1",
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "simulated-client", version: "1.0.0" } },
};

/** Opens a session through the simulator (initialize, then notifications/initialized); resolves with its id. */
export async function openSession(sim: Simulator): Promise<string> {
  const init = await sim.startRequest(mcpPost(INITIALIZE));
  const response = await init.awaitResponse(2000);
  const sessionId = response?.header("mcp-session-id");
  if (sessionId === undefined) throw new Error(`initialize answered ${response?.status} without Mcp-Session-Id`);
  await init.awaitCompletion(2000);
  const initialized = await sim.startRequest(mcpPost({ jsonrpc: "2.0", method: "notifications/initialized" }, { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" }));
  await initialized.awaitCompletion(2000);
  return sessionId;
}

/**
 * An MCP server as a user builds it with the official SDK (v1): `McpServer` with the tool
 * `catalog.search` (progress, then a result), behind `WebStandardStreamableHTTPServerTransport`.
 */
export async function sdkServer(options: { keepAliveMs?: number; delayMs?: number } = {}): Promise<{ fetch: (request: Request) => Promise<Response> }> {
  const server = new McpServer({ name: "catalog", version: "1.0.0" });
  server.registerTool("catalog.search", { description: "Searches the catalog", inputSchema: { query: z.string() } }, async ({ query }, extra) => {
    const token = extra._meta?.progressToken;
    if (token !== undefined) await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: 1, total: 2 } });
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    return { content: [{ type: "text", text: `3 results for ${query}` }] };
  });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => crypto.randomUUID(), keepAliveMs: options.keepAliveMs ?? 0 });
  await server.connect(transport);
  onCleanup(() => server.close());
  return { fetch: (request) => transport.handleRequest(request) };
}

/**
 * The same server as a user builds it with SDK v2 (`@modelcontextprotocol/server` 2.4.0):
 * `McpServer` with `catalog.search` from a per-request factory, behind `createMcpHandler(...)`,
 * whose `fetch` is the web-standard face (2026-07-28 requests, and 2025 ones statelessly).
 */
export function sdkV2Server(options: { keepAliveMs?: number } = {}): McpHttpHandler {
  const handler = createMcpHandler(
    () => {
      const server = new McpServerV2({ name: "catalog", version: "1.0.0" });
      server.registerTool("catalog.search", { description: "Searches the catalog", inputSchema: z.object({ query: z.string() }) }, async ({ query }, ctx) => {
        const token = ctx.mcpReq._meta?.progressToken;
        if (token !== undefined) await ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken: token, progress: 1, total: 2 } });
        return { content: [{ type: "text", text: `3 results for ${query}` }] };
      });
      return server;
    },
    { keepAliveMs: options.keepAliveMs ?? 0 },
  );
  onCleanup(() => handler.close());
  return handler;
}

/** `params._meta` of a 2026-07-28 request: its version, client capabilities and client info (plus `extra`). */
export function modernMeta(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "simulated-client", version: "1.0.0" },
    ...extra,
  };
}

/**
 * A 2026-07-28 POST as a client builds it: no session, `MCP-Protocol-Version`, `Mcp-Method` and
 * (for tools/call, prompts/get, resources/read) `Mcp-Name`, plus `headers`.
 */
export function modernPost(body: { method: string; params?: Record<string, unknown> }, headers: Record<string, string> = {}): Request {
  const name = body.params?.name ?? body.params?.uri;
  return mcpPost(body, {
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": body.method,
    ...(["tools/call", "prompts/get", "resources/read"].includes(body.method) && typeof name === "string" && { "mcp-name": name }),
    ...headers,
  });
}

/** Every stream item until the simulation completes (bounded: at most `limit` reads). */
export async function drain(simulation: import("../../src/index.js").Simulation, limit = 100) {
  const items = [];
  for (let reads = 0; reads < limit && (!simulation.isComplete || simulation.pendingItems > 0); reads++) {
    const item = await simulation.awaitStreamItem(100);
    if (item !== undefined) items.push(item);
  }
  return items;
}

export const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
