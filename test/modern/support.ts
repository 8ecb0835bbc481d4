/**
 * Shared parts of the 2026-07-28 tests: the official SDK v2 client (`@modelcontextprotocol/client`
 * 2.4.0) pinned to 2026-07-28 or in auto mode, closed after each test, and raw modern requests
 * (`_meta` and the Mcp-* headers) for the header rules.
 */
import { afterEach } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

export const MODERN = "2026-07-28";

export type Negotiation = { pin: string } | "auto";

const openClients = new Set<Client>();

/** Registers the after-each cleanup of SDK v2 clients in the calling test file. */
export function useV2Cleanup(): void {
  afterEach(async () => {
    for (const client of openClients) await client.close().catch(() => undefined);
    openClients.clear();
  });
}

export interface V2Options {
  negotiation?: Negotiation;
  capabilities?: Record<string, unknown>;
  /** The fetch the transport uses (default: the global one); a mock's `server.fetch` serves it in-process. */
  fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
}

/** An SDK v2 client, not yet connected, closed after the test. */
export function v2Client(options: V2Options = {}): Client {
  const mode = options.negotiation ?? { pin: MODERN };
  const client = new Client({ name: "v2-test-client", version: "2.4.0" }, { capabilities: options.capabilities ?? {}, versionNegotiation: { mode } } as never);
  openClients.add(client);
  return client;
}

/** An SDK v2 client connected to `url` over Streamable HTTP. */
export async function v2Http(url: string, options: V2Options = {}): Promise<Client> {
  const client = v2Client(options);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), options.fetch ? { fetch: options.fetch as never } : {}));
  return client;
}

/** `_meta` of a 2026-07-28 request. */
export function modernMeta(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {}, ...extra };
}

let nextId = 1;

/** A 2026-07-28 request: `_meta` merged into its params. */
export function modernRequest(method: string, params: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) {
  return { jsonrpc: "2.0" as const, id: nextId++, method, params: { ...params, _meta: modernMeta(meta) } };
}

/** The headers a conforming 2026-07-28 client sends for `request` (override or drop any with `headers`). */
export function modernHeaders(request: { method: string; params?: Record<string, unknown> }, headers: Record<string, string | null> = {}): Headers {
  const all = new Headers({ accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": MODERN, "mcp-method": request.method });
  const name = request.params?.name ?? request.params?.uri;
  if (["tools/call", "prompts/get", "resources/read"].includes(request.method) && typeof name === "string") all.set("mcp-name", name);
  for (const [key, value] of Object.entries(headers)) {
    if (value === null) all.delete(key);
    else all.set(key, value);
  }
  return all;
}

/** POSTs a modern request with conforming headers (or overrides). */
export function postModern(url: string, request: { method: string; params?: Record<string, unknown> }, headers: Record<string, string | null> = {}, signal?: AbortSignal): Promise<Response> {
  return fetch(url, { method: "POST", headers: modernHeaders(request, headers), body: JSON.stringify(request), signal });
}
