/**
 * Shared parts for the Streamable HTTP wire tests: a tracker that closes every SDK client and
 * mock a test made, an official SDK client over `StreamableHTTPClientTransport`, and raw
 * `fetch` helpers (POST with the right headers, a raw initialize, SSE parsing with
 * `eventsource-parser`, the parser the SDK client itself uses).
 */
import { request as httpRequest } from "node:http";
import { afterEach } from "vitest";
import { Client, type ClientOptions } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, type StreamableHTTPClientTransportOptions } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { mockMcp, type MockMcpOptions, type MockMcpServer } from "../../../src/index.js";

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What every conforming client POST sends as `Accept`. */
export const ACCEPT_BOTH = "application/json, text/event-stream";

const openClients = new Set<Client>();
const openServers = new Set<MockMcpServer>();
const cleanups = new Set<() => unknown>();

/** Registers the after-each cleanup in the calling test file. */
export function useCleanup(): void {
  afterEach(async () => {
    for (const client of openClients) await client.close().catch(() => undefined);
    for (const server of openServers) await server.close();
    for (const cleanup of cleanups) await cleanup();
    openClients.clear();
    openServers.clear();
    cleanups.clear();
  });
}

/** Runs `cleanup` after the test (e.g. closing a node:http server of its own). */
export function onCleanup(cleanup: () => unknown): void {
  cleanups.add(cleanup);
}

/** A mock served over Streamable HTTP (default transport), closed after the test. */
export async function serve(options: MockMcpOptions = {}): Promise<MockMcpServer & { url: string }> {
  const server = await mockMcp(options);
  openServers.add(server);
  if (options.transport === undefined || options.transport === "http") {
    if (typeof server.url !== "string") throw new Error("the mock has no url");
  }
  return server as MockMcpServer & { url: string };
}

/** Tracks a mock made some other way, so it is closed after the test. */
export function track<T extends MockMcpServer>(server: T): T {
  openServers.add(server);
  return server;
}

export interface SdkClientOptions {
  clientOptions?: ClientOptions;
  transportOptions?: StreamableHTTPClientTransportOptions;
  /** Records the content type (and status) of every response the transport gets. */
  seen?: Array<{ method: string; status: number; contentType: string | null }>;
}

/** The official SDK client over Streamable HTTP, connected (initialized); closed after the test. */
export async function sdkClient(url: string, options: SdkClientOptions = {}): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const seen = options.seen;
  const transportOptions: StreamableHTTPClientTransportOptions = {
    // Quick reconnection so a test never waits the SDK's default second.
    reconnectionOptions: { initialReconnectionDelay: 20, maxReconnectionDelay: 100, reconnectionDelayGrowFactor: 1.5, maxRetries: 2 },
    ...options.transportOptions,
  };
  if (seen) {
    const inner = transportOptions.fetch ?? fetch;
    transportOptions.fetch = async (input, init) => {
      const response = await inner(input, init);
      seen.push({ method: init?.method ?? "GET", status: response.status, contentType: response.headers.get("content-type") });
      return response;
    };
  }
  const transport = new StreamableHTTPClientTransport(new URL(url), transportOptions);
  const client = new Client({ name: "http-test-client", version: "1.0.0" }, options.clientOptions);
  openClients.add(client);
  await client.connect(transport);
  return { client, transport };
}

/** Tracks an SDK client made some other way, so it is closed after the test. */
export function trackClient(client: Client): Client {
  openClients.add(client);
  return client;
}

export interface PostOptions {
  sessionId?: string;
  /** `MCP-Protocol-Version` header; `null` leaves it out. Default "2025-11-25". */
  version?: string | null;
  /** Overrides or extra headers (a `null` value removes a default header). */
  headers?: Record<string, string | null>;
  method?: string;
  signal?: AbortSignal;
}

/** Builds the headers a well-behaved client sends, with overrides. */
export function headersFor(options: PostOptions = {}): Headers {
  const headers = new Headers({ accept: ACCEPT_BOTH, "content-type": "application/json" });
  if (options.sessionId !== undefined) headers.set("mcp-session-id", options.sessionId);
  const version = options.version === undefined ? "2025-11-25" : options.version;
  if (version !== null) headers.set("mcp-protocol-version", version);
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  return headers;
}

/** A raw POST to the endpoint: `body` is sent as-is when a string, else as JSON. */
export function post(url: string, body: unknown, options: PostOptions = {}): Promise<Response> {
  return fetch(url, {
    method: options.method ?? "POST",
    headers: headersFor(options),
    body: typeof body === "string" ? body : JSON.stringify(body),
    signal: options.signal,
  });
}

/** A raw GET (the standalone SSE stream, or a resumption with `lastEventId`). */
export function get(url: string, options: PostOptions & { lastEventId?: string } = {}): Promise<Response> {
  const headers = headersFor({ ...options, headers: { accept: "text/event-stream", "content-type": null, ...options.headers } });
  if (options.lastEventId !== undefined) headers.set("last-event-id", options.lastEventId);
  return fetch(url, { method: "GET", headers, signal: options.signal });
}

let nextId = 1;

/** A JSON-RPC request object with a fresh id. */
export function rpcRequest(method: string, params?: Record<string, unknown>): { jsonrpc: "2.0"; id: number; method: string; params?: Record<string, unknown> } {
  const message: { jsonrpc: "2.0"; id: number; method: string; params?: Record<string, unknown> } = { jsonrpc: "2.0", id: nextId++, method };
  if (params !== undefined) message.params = params;
  return message;
}

export function initializeRequest(protocolVersion = "2025-11-25", capabilities: Record<string, unknown> = {}) {
  return rpcRequest("initialize", { protocolVersion, capabilities, clientInfo: { name: "raw-fetch", version: "0" } });
}

/**
 * A raw initialize (plus `notifications/initialized`) at `protocolVersion`; resolves with the
 * session id the mock minted and the initialize result.
 */
export async function rawSession(url: string, protocolVersion = "2025-11-25", capabilities: Record<string, unknown> = {}): Promise<{ sessionId: string; result: Record<string, any> }> {
  const response = await post(url, initializeRequest(protocolVersion, capabilities), { version: null });
  if (response.status !== 200) throw new Error(`initialize answered ${response.status}: ${await response.text()}`);
  const sessionId = response.headers.get("mcp-session-id");
  if (!sessionId) throw new Error("initialize answered without Mcp-Session-Id");
  const body = await jsonOrSse(response);
  const negotiated = (body.result as { protocolVersion: string }).protocolVersion;
  const initialized = await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, { sessionId, version: negotiated });
  if (initialized.status !== 202) throw new Error(`notifications/initialized answered ${initialized.status}`);
  return { sessionId, result: body.result };
}

/** The JSON-RPC reply of a response, JSON or SSE (the last message event). */
export async function jsonOrSse(response: Response): Promise<Record<string, any>> {
  const type = response.headers.get("content-type") ?? "";
  if (type.startsWith("application/json")) return (await response.json()) as Record<string, any>;
  const events = await readSse(response);
  const messages = events.filter((event) => event.data !== "");
  if (messages.length === 0) throw new Error("an SSE answer without a message event");
  return JSON.parse(messages[messages.length - 1]!.data) as Record<string, any>;
}

export interface SseEvent extends EventSourceMessage {
  /** The `retry:` value in force when this event was dispatched, if any. */
  retry?: number;
}

/** Reads a whole SSE body (until the server ends it) into events. */
export async function readSse(response: Response): Promise<SseEvent[]> {
  const reader = sseReader(response);
  const events: SseEvent[] = [];
  for (;;) {
    const event = await reader.next();
    if (event === undefined) return events;
    events.push(event);
  }
}

export interface SseReader {
  /** The next event, or undefined once the stream ended. Rejects after `timeoutMs` (default 2 s). */
  next(timeoutMs?: number): Promise<SseEvent | undefined>;
  /** Every `retry:` value seen so far. */
  readonly retries: number[];
  /** Stops reading and releases the connection. */
  cancel(): Promise<void>;
}

/** Reads an SSE body event by event, as it arrives. */
export function sseReader(response: Response): SseReader {
  if (!response.body) throw new Error("a response without a body");
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const queue: SseEvent[] = [];
  const retries: number[] = [];
  let ended = false;
  const parser = createParser({
    onEvent: (event) => queue.push(retries.length > 0 ? { ...event, retry: retries[retries.length - 1] } : { ...event }),
    onRetry: (ms) => retries.push(ms),
  });
  return {
    retries,
    async next(timeoutMs = 2000) {
      const deadline = Date.now() + timeoutMs;
      while (queue.length === 0 && !ended) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no SSE event within ${timeoutMs} ms`);
        let timer: NodeJS.Timeout | undefined;
        const chunk = await Promise.race([reader.read(), new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), left)))]).finally(() => clearTimeout(timer));
        if (chunk === "timeout") throw new Error(`no SSE event within ${timeoutMs} ms`);
        if (chunk.done) ended = true;
        else parser.feed(chunk.value);
      }
      return queue.shift();
    },
    async cancel() {
      ended = true;
      await reader.cancel().catch(() => undefined);
    },
  };
}

/** Waits until `predicate` holds (polling), or fails after `timeoutMs`. */
export async function until(predicate: () => boolean, timeoutMs = 2000, what = "the condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await delay(5);
  }
}

/** The text of the first content block of a tool result. */
export const text = (result: object) => (result as { content: { text: string }[] }).content[0]!.text;

/**
 * A request through `node:http` (fetch will not send a `Host` header of our choosing), on a
 * fresh connection that is closed afterwards.
 */
export function nodeRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: options.method ?? "POST", headers: options.headers, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(options.body);
  });
}
