/**
 * `mockMcp()`: a scripted mock MCP server for testing agents and clients. It puts the engine
 * (scripts, record, assertions) behind one object and serves it on the chosen wire.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { Engine, type EngineOptions } from "../engine/engine.js";
import { assertCalled, assertCalledInOrder, assertNotCalled, type CalledOptions } from "../engine/assertions.js";
import type { ToolCall } from "../engine/call-log.js";
import type { PromptSpec, ResourceSpec, ToolSpec } from "../engine/catalog.js";
import type { Session } from "../engine/session.js";
import { waitForCalls, type WaitForCallsOptions } from "../engine/wait-for-calls.js";
import { McpTestkitError } from "../errors.js";
import { checkMockOptions } from "./option-checks.js";
import type { JsonRpcMessage } from "../protocol/jsonrpc.js";
import type { LoggingLevel } from "../protocol/methods.js";
import { passesLevel } from "../engine/call-context.js";
import { MemoryTransport } from "../wire/memory.js";
import type { IncomingMessage, ServerResponse } from "node:http";
import { FetchExchange } from "../wire/http/fetch-exchange.js";
import { listen } from "../wire/http/listen.js";
import { NodeExchange } from "../wire/http/node-exchange.js";
import { StreamableHttpEndpoint, type StreamableHttpOptions } from "../wire/http/streamable-http.js";

/**
 * A wire the mock is served on besides memory. It starts with the engine and stops with the
 * mock; `url` is where clients reach it, if it has an address.
 */
export interface ServedWire {
  readonly url?: string;
  close(): Promise<void>;
}

export type WireStarter = (engine: Engine, options: MockMcpOptions, http: () => StreamableHttpEndpoint) => Promise<ServedWire>;

/** Serves the mock's Streamable HTTP endpoint on its own port, at `path`. */
const startHttpWire: WireStarter = async (_engine, options, http) => {
  const path = options.path ?? "/mcp";
  if (!path.startsWith("/")) throw new McpTestkitError(`"path" must start with "/", got ${JSON.stringify(path)}.`);
  const listening = await listen(new Map([[path, http()]]), { port: options.port, host: options.host });
  return { url: `${listening.origin}${path}`, close: () => listening.close() };
};

/** The wires `transport` can name. Memory needs none: `connectInMemory()` and `handle()` always work. */
const WIRES: Record<string, WireStarter | undefined> = {
  http: startHttpWire,
  stdio: (engine, options, http) => import("../wire/stdio.js").then((wire) => wire.startStdioWire(engine, options, http)),
};

export type MockTransportKind = "http" | "memory" | "stdio";

export interface MockMcpOptions extends EngineOptions, StreamableHttpOptions {
  /**
   * Where the mock is served: `"http"` (default) listens on a Streamable HTTP URL (`server.url`);
   * `"stdio"` on this process's stdin/stdout; `"memory"` only through `connectInMemory()`,
   * `handle()`, `handler` and `fetch`.
   */
  transport?: MockTransportKind;
  /** HTTP: the port to listen on (default: a free one). */
  port?: number;
  /** HTTP: the host to listen on (default 127.0.0.1). */
  host?: string;
  /** HTTP: the path of the MCP endpoint (default "/mcp"). */
  path?: string;
  /** mcp-stub's spelling of `transport: "memory"`: `http: false`. */
  http?: false;
}

/** Events a mock emits, for live output (the CLI prints each call) and observers. */
export interface MockEvents {
  /** A tool call arrived (its outcome is still `pending`). */
  "call:start": ToolCall;
  /** A tool call ended: answered, failed, cancelled or disconnected. */
  "call:end": ToolCall;
}

export interface RecordStats {
  /** Calls dropped from the front of the record because of `recordLimit`. */
  droppedCalls: number;
  droppedMessages: number;
}

/** `Url` is `string` for a mock served over HTTP and `undefined` for memory or stdio (see `mockMcp()`'s overloads). */
export class MockMcpServer<Url extends string | undefined = string | undefined> implements AsyncDisposable {
  private readonly engine: Engine;
  private readonly connections = new Set<MemoryTransport>();
  private directSession?: Session;
  private wire?: ServedWire;
  private endpoint?: StreamableHttpEndpoint;
  private closed = false;

  /** @internal use `mockMcp()` */
  constructor(private readonly options: MockMcpOptions) {
    this.engine = new Engine(options);
  }

  /** @internal */
  async serveOn(start: WireStarter): Promise<void> {
    this.wire = await start(this.engine, this.options, () => this.http);
  }

  /** The Streamable HTTP endpoint, made on first use (a memory-only mock may never need it). */
  private get http(): StreamableHttpEndpoint {
    if (!this.endpoint) {
      this.endpoint = new StreamableHttpEndpoint(this.engine, this.options);
      // First used after close(): it answers 503 like an endpoint that was open at close.
      if (this.closed) this.endpoint.close();
    }
    return this.endpoint;
  }

  /**
   * The mock as a node:http / Express handler `(req, res)`, to mount it inside your own server
   * (`app.use("/mcp", server.handler)`). Pass a body your framework parsed already as the third argument.
   */
  readonly handler = (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): void => {
    void this.http.handle(new NodeExchange(req, res, parsedBody));
  };

  /** The mock as a web-standard handler, `Request` in, `Response` out, for fetch-style hosts. */
  readonly fetch = async (request: Request): Promise<Response> => {
    const exchange = new FetchExchange(request);
    void this.http.handle(exchange);
    return exchange.response;
  };

  /**
   * Ends HTTP sessions as if they expired, so the client's next request gets 404 and it must
   * initialize again. Without an id, every session. Returns how many ended.
   */
  expireSession(sessionId?: string): number {
    return this.endpoint?.expireSession(sessionId) ?? 0;
  }

  /** The Streamable HTTP endpoint; undefined for a mock served in memory only. */
  get url(): Url {
    return this.wire?.url as Url;
  }

  /** Every tool call, in order (the newest `recordLimit` of them). */
  get calls(): ToolCall[] {
    return this.engine.calls.all();
  }

  callsTo(tool: string): ToolCall[] {
    return this.engine.calls.forTool(tool);
  }

  /** Every JSON-RPC message received: requests, notifications and answers to server requests. */
  get messages(): JsonRpcMessage[] {
    return this.engine.received.all().map((entry) => entry.message);
  }

  get recordStats(): RecordStats {
    return { droppedCalls: this.engine.calls.dropped, droppedMessages: this.engine.received.dropped };
  }

  /**
   * Listens to an event; returns a function that stops listening. Listeners run synchronously
   * while the mock handles the call, so keep them quick; an exception in one is not the mock's.
   */
  on<E extends keyof MockEvents>(event: E, listener: (payload: MockEvents[E]) => void): () => void {
    const guarded = (call: ToolCall) => {
      try {
        listener(call);
      } catch {
        // A failing listener must not change what the client under test receives.
      }
    };
    if (event === "call:start") return this.engine.calls.subscribe(guarded);
    if (event === "call:end") return this.engine.calls.subscribeEnd(guarded);
    throw new McpTestkitError(`Unknown event "${String(event)}"; events are "call:start" and "call:end".`);
  }

  /** Throws unless the tool was called (that many times, with those arguments); returns the matching calls. */
  assertCalled(tool: string, options?: CalledOptions): ToolCall[] {
    return assertCalled(this.engine.calls.all(), tool, options);
  }

  assertNotCalled(tool: string): void {
    assertNotCalled(this.engine.calls.all(), tool);
  }

  /** Throws unless the tools were called in this order; other calls may come in between. */
  assertCalledInOrder(...tools: string[]): void {
    assertCalledInOrder(this.engine.calls.all(), tools);
  }

  /** Resolves once `count` calls (of `tool`) have started, or with `ended: true` have ended. */
  waitForCalls(count: number, options?: WaitForCallsOptions): Promise<ToolCall[]> {
    return waitForCalls(this.engine.calls, count, options);
  }

  /** A transport for an SDK `Client` in the same process; each one is its own session. */
  async connectInMemory(): Promise<Transport & { readonly mockSessionId: string }> {
    this.assertOpen("connectInMemory");
    const transport = new MemoryTransport(this.engine, (closed) => this.connections.delete(closed));
    this.connections.add(transport);
    return transport;
  }

  /**
   * One JSON-RPC message as text in, the reply as text out (`null` for a notification or a
   * request that gets no reply). All `handle()` calls share one session.
   */
  async handle(json: string): Promise<string | null> {
    this.assertOpen("handle");
    this.directSession ??= this.engine.openSession(undefined, "direct");
    const outcome = await this.engine.receiveText(this.directSession, json);
    if (outcome.type === "raw") return outcome.text;
    if (outcome.type !== "reply") return null;
    try {
      return JSON.stringify(outcome.message);
    } catch (error) {
      // A handler's answer JSON cannot carry (a BigInt, a cycle): the caller still gets JSON-RPC.
      const id = "id" in outcome.message ? outcome.message.id : null;
      return JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32603, message: `Internal error: the answer cannot be serialized: ${(error as Error).message}` } });
    }
  }

  /** Adds or replaces a tool (a replaced tool restarts its script) and tells clients the list changed. */
  async setTool(name: string, spec: ToolSpec): Promise<void> {
    this.engine.catalog.setTool(name, spec);
    this.engine.broadcast("notifications/tools/list_changed");
  }

  /** Removes a tool and tells clients; false when there was no such tool. */
  async removeTool(name: string): Promise<boolean> {
    const removed = this.engine.catalog.tools.delete(name);
    if (removed) this.engine.broadcast("notifications/tools/list_changed");
    return removed;
  }

  /**
   * Adds or replaces a resource (or a template, for a URI with `{var}`). A new one makes
   * `notifications/resources/list_changed`; a replaced one makes
   * `notifications/resources/updated` for the clients subscribed to it.
   */
  async setResource(uri: string, spec: ResourceSpec): Promise<void> {
    const isNew = this.engine.catalog.setResource(uri, spec);
    if (isNew) this.engine.broadcast("notifications/resources/list_changed");
    else this.engine.notifyResourceUpdated(uri);
  }

  async removeResource(uri: string): Promise<boolean> {
    const removed = this.engine.catalog.removeResource(uri);
    if (removed) this.engine.broadcast("notifications/resources/list_changed");
    return removed;
  }

  async setPrompt(name: string, spec: PromptSpec): Promise<void> {
    this.engine.catalog.setPrompt(name, spec);
    this.engine.broadcast("notifications/prompts/list_changed");
  }

  async removePrompt(name: string): Promise<boolean> {
    const removed = this.engine.catalog.prompts.delete(name);
    if (removed) this.engine.broadcast("notifications/prompts/list_changed");
    return removed;
  }

  /**
   * Sends a log message (`notifications/message`) to every connected client whose
   * `logging/setLevel` lets it through; over HTTP it travels on the GET stream.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    const params: Record<string, unknown> = { level, data };
    if (logger !== undefined) params.logger = logger;
    this.engine.broadcast("notifications/message", params, (session) => passesLevel(level, session.logLevel));
  }

  /** Sends any notification to every connected client (over HTTP, on the GET stream). */
  notify(method: string, params?: Record<string, unknown>): void {
    this.engine.broadcast(method, params);
  }

  /** Clears the record and restarts every script (tools, resources and prompts stay as they are). */
  reset(): void {
    this.engine.reset();
  }

  /** Closes every connection (pending calls end as `cancelled`) and stops the server. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const connection of [...this.connections]) connection.closeFromServer("the mock server closed");
    this.endpoint?.close();
    this.engine.close();
    await this.wire?.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private assertOpen(what: string): void {
    if (this.closed) throw new McpTestkitError(`${what}() was called after close(); create a new mock with mockMcp().`);
  }
}

/** Options whose wire has no URL: memory (`transport: "memory"` or `http: false`) or stdio. */
export type UrlLessMockOptions = MockMcpOptions & ({ transport: "memory" | "stdio" } | { http: false });

// The overloads type `server.url` by the wire: HTTP (the default) has one, memory and stdio have none.
export async function mockMcp(options: UrlLessMockOptions): Promise<MockMcpServer<undefined>>;
export async function mockMcp(options?: MockMcpOptions & { transport?: "http"; http?: undefined }): Promise<MockMcpServer<string>>;
export async function mockMcp(options?: MockMcpOptions): Promise<MockMcpServer>;
export async function mockMcp(options: MockMcpOptions = {}): Promise<MockMcpServer> {
  checkMockOptions(options);
  const transport = options.http === false ? "memory" : (options.transport ?? "http");
  const server = new MockMcpServer(options);
  if (transport === "memory") return server;
  const start = WIRES[transport];
  if (!start) {
    const known = ["memory", ...Object.keys(WIRES)].map((kind) => `"${kind}"`).join(", ");
    throw new McpTestkitError(`Unknown transport ${JSON.stringify(transport)}; use one of ${known}.`);
  }
  await server.serveOn(start);
  return server;
}
