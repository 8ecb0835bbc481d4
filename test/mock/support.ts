/**
 * Shared parts for the mock tests: a tracker that closes every client and mock a test made,
 * an SDK client connected in memory, and raw JSON-RPC through `server.handle()`.
 */
import { afterEach } from "vitest";
import { Client, type ClientOptions } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { mockMcp, type MockMcpOptions, type MockMcpServer } from "../../src/index.js";

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const openClients = new Set<Client>();
const openServers = new Set<MockMcpServer>();

/** Registers the after-each cleanup in the calling test file. */
export function useCleanup(): void {
  afterEach(async () => {
    for (const client of openClients) await client.close().catch(() => undefined);
    for (const server of openServers) await server.close();
    openClients.clear();
    openServers.clear();
  });
}

/** A mock served in memory, closed after the test. */
export async function mock(options: MockMcpOptions = {}): Promise<MockMcpServer> {
  const server = await mockMcp({ transport: "memory", ...options });
  openServers.add(server);
  return server;
}

export interface ConnectOptions {
  clientOptions?: ClientOptions;
  /** Rewrites the `protocolVersion` the SDK client asks for in `initialize` (the SDK always asks for its latest). */
  protocolVersion?: string;
  /** Called with the transport before the client connects (e.g. to watch its messages). */
  wrap?: (transport: Transport) => Transport;
}

/** An official SDK client, connected to the mock in memory and initialized; closed after the test. */
export async function connect(server: MockMcpServer, options: ConnectOptions = {}): Promise<Client> {
  const client = new Client({ name: "mock-test-client", version: "1.0.0" }, options.clientOptions);
  let transport: Transport = await server.connectInMemory();
  if (options.protocolVersion !== undefined) transport = askForVersion(transport, options.protocolVersion);
  if (options.wrap) transport = options.wrap(transport);
  openClients.add(client);
  await client.connect(transport);
  return client;
}

/** Same as `connect`, also returning the mock's session id of that connection. */
export async function connectWithSession(server: MockMcpServer, options: ConnectOptions = {}): Promise<{ client: Client; sessionId: string }> {
  let sessionId = "";
  const client = await connect(server, {
    ...options,
    wrap: (transport) => {
      sessionId = (transport as Transport & { mockSessionId?: string }).mockSessionId ?? sessionId;
      return options.wrap ? options.wrap(transport) : transport;
    },
  });
  return { client, sessionId };
}

/** A transport that rewrites the requested protocol version of `initialize` on its way out. */
function askForVersion(inner: Transport, version: string): Transport {
  return relay(inner, {
    outgoing: (message) =>
      "method" in message && message.method === "initialize" && message.params ? ({ ...message, params: { ...message.params, protocolVersion: version } } as JSONRPCMessage) : message,
  });
}

/**
 * A transport in front of `inner` that lets a test see (or rewrite) each message: `outgoing`
 * before the client's message reaches the mock, `incoming` before the mock's message reaches the client.
 */
export function relay(inner: Transport, hooks: { outgoing?: (message: JSONRPCMessage) => JSONRPCMessage; incoming?: (message: JSONRPCMessage) => void }): Transport {
  const outer: Transport & { mockSessionId?: string } = {
    mockSessionId: (inner as Transport & { mockSessionId?: string }).mockSessionId,
    start: () => inner.start(),
    close: () => inner.close(),
    send: (message, options) => inner.send(hooks.outgoing ? hooks.outgoing(message) : message, options),
  };
  inner.onmessage = (message, extra) => {
    hooks.incoming?.(message);
    outer.onmessage?.(message, extra);
  };
  inner.onclose = () => outer.onclose?.();
  inner.onerror = (error) => outer.onerror?.(error);
  return outer;
}

/** Sends one JSON-RPC message through `server.handle()` and parses the reply (`null` for none). */
export async function rpc(server: MockMcpServer, message: Record<string, unknown>): Promise<Record<string, any> | null> {
  const reply = await server.handle(JSON.stringify(message));
  return reply === null ? null : (JSON.parse(reply) as Record<string, any>);
}

let nextId = 1;

/** A request through `server.handle()`; resolves with the parsed reply. */
export async function request(server: MockMcpServer, method: string, params?: Record<string, unknown>): Promise<Record<string, any>> {
  const message: Record<string, unknown> = { jsonrpc: "2.0", id: nextId++, method };
  if (params !== undefined) message.params = params;
  const reply = await rpc(server, message);
  if (reply === null) throw new Error(`no reply to ${method}`);
  return reply;
}

/** Initializes the `handle()` session with `protocolVersion`; resolves with the initialize result. */
export async function initializeDirect(server: MockMcpServer, protocolVersion = "2025-11-25", capabilities: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const reply = await request(server, "initialize", { protocolVersion, capabilities, clientInfo: { name: "raw", version: "0" } });
  await rpc(server, { jsonrpc: "2.0", method: "notifications/initialized" });
  return reply.result;
}
