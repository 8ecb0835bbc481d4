/**
 * `mockMcp()`: a scripted mock MCP server for testing agents and clients. It puts the engine
 * (scripts, record, assertions) behind one object and serves it on the chosen wire.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { Engine } from "../engine/engine.js";
import type { McpMethodHandler } from "../engine/features/user-handlers.js";
import { assertCalled, assertCalledInOrder, assertNotCalled, type CalledOptions } from "../engine/assertions.js";
import { assertTask, type TaskExpectations } from "../engine/task-assertions.js";
import type { ToolCall } from "../engine/call-log.js";
import type { PromptSpec, ResourceSpec, ToolSpec } from "../engine/catalog.js";
import type { Connection } from "../engine/connection.js";
import { MOCK_EVENT_NAMES, type MockEvents } from "../engine/events.js";
import { requestContext, wireFacts } from "../engine/request-context.js";
import { waitForCalls, type WaitForCallsOptions } from "../engine/wait-for-calls.js";
import { McpTestkitError } from "../errors.js";
import { checkMockOptions } from "./option-checks.js";
import { withEveryProblem } from "./option-problems.js";
import type { JsonRpcMessage } from "../protocol/jsonrpc.js";
import type { LoggingLevel } from "../protocol/methods.js";
import { passesLevel } from "../engine/call-context.js";
import { memoryFacts, MemoryTransport, type MemoryIdentity } from "../wire/memory.js";
import type { IncomingMessage, ServerResponse } from "node:http";
import { FetchExchange } from "../wire/http/fetch-exchange.js";
import type { HttpExchange } from "../wire/http/exchange.js";
import { NodeExchange } from "../wire/http/node-exchange.js";
import { Router, type ExchangeHandler, type MountOptions, type RouteHandler } from "../wire/http/router.js";
import { mcpRouteOptions, StreamableHttpEndpoint } from "../wire/http/streamable-http.js";
import { CONTROL_MAX_BODY_BYTES, controlBodyRefusal } from "../fakes/control-api.js";
import { originGuardFor } from "../wire/http/origin-guard.js";
import type { ServedWire } from "../wire/served-wire.js";
import { mcpPath, WIRES, type WireStarter } from "./mock-wires.js";
import type { MockMcpOptions, MockTransportKind, RecordStats } from "./mock-options.js";

export type { MockMcpOptions, MockTransportKind, RecordStats, StdioMockOptions } from "./mock-options.js";
import { CONTROL_PREFIX, CONTROL_PREFIX_ALIAS, controlMethodsAt, type Fakes, type LoadResult } from "../fakes/index.js";
import type { McpFakeBlock } from "../fakes/types.js";
import { FakesBinding } from "./fakes-binding.js";
import type { ObserveOptions } from "../observe/delivery.js";
import type { McpObserver } from "../observe/observer.js";
import { observeEvents } from "../observe/observe-events.js";
import { MetricsCollector } from "../observe/metrics/collector.js";
import { METRICS_PATH, metricsHandler, metricsOffHandler, metricsText, type MetricsTextFormat } from "../observe/metrics/exposition.js";
import type { MetricsSnapshot } from "../observe/metrics/snapshot.js";
import { onAbort } from "../util/on-abort.js";
import { MockAuth, notProtected } from "../auth/mock-auth.js";
import { mountLiveTimeline } from "../view/live-timeline.js";
import { TRACE_PATH, TRACE_ROUTE, TRACE_SOURCE, traceMock, traceRoute } from "./mock-trace.js";
import { traceOptionsOf, type TraceLog } from "../trace/trace-log.js";

const DIRECT = wireFacts("direct");

/** `Url` is `string` for a mock served over HTTP and `undefined` for memory or stdio (see `mockMcp()`'s overloads). */
export class MockMcpServer<Url extends string | undefined = string | undefined> implements AsyncDisposable {
  private readonly engine: Engine;
  private readonly connections = new Set<MemoryTransport>();
  private directConnection?: Connection;
  private wire?: ServedWire;
  private endpoint?: StreamableHttpEndpoint;
  /** What the mock's port serves: the MCP endpoint at `path`, and whatever `mount()` adds. */
  private readonly router: Router;
  /** MCP endpoints at the other paths that fakes' blocks name (`mount`), sharing this engine. */
  private readonly fakeEndpoints = new Map<string, StreamableHttpEndpoint>();
  private fakesBinding?: FakesBinding;
  private closed = false;
  private readonly collector?: MetricsCollector;
  private transportKind: MockTransportKind = "memory";
  private readonly protection?: MockAuth;
  private tracing?: { log: TraceLog; stop: () => void };

  /** @internal use `mockMcp()` */
  constructor(private readonly options: MockMcpOptions) {
    this.engine = new Engine(options);
    const onRefused = (status: number, path: string) => this.engine.events.emit("http:rejected", { status, code: -32000, path });
    const edge = { guard: originGuardFor(options), onRefused };
    this.router = new Router(this.engine.log, edge);
    if (options.auth !== undefined) this.protection = new MockAuth(options.auth, this.router, mcpPath(options), edge, this.engine.log);
    this.router.mount(mcpPath(options), this.gated(this.mcpEndpoint), mcpRouteOptions(options));
    if (options.observers !== undefined && options.observers.length > 0) this.observe(options.observers, options.observe);
    if (options.metrics === true) {
      this.collector = new MetricsCollector();
      this.collector.attach(this.engine.events, this.endpointOf);
      this.router.mount(
        METRICS_PATH,
        metricsHandler(() => this.collector!.snapshot()),
      );
    } else this.router.mount(METRICS_PATH, metricsOffHandler, { unlisted: true });
    const control = (request: Request) => this.handleControl(request);
    const controlRoute = { prefix: true, unlisted: true, methodsAt: controlMethodsAt, body: { maxBytes: CONTROL_MAX_BODY_BYTES }, bodyRefusal: controlBodyRefusal };
    this.router.mount(CONTROL_PREFIX, control, controlRoute);
    this.router.mount(CONTROL_PREFIX_ALIAS, control, controlRoute);
    mountLiveTimeline(this.router, { events: this.engine.events, calls: () => this.calls, url: () => this.url });
    this.router.mount(TRACE_PATH, traceRoute(this), TRACE_ROUTE);
    if (options.fixtures !== undefined) this.binding.loadOption(options.fixtures);
  }

  /** The fakes, made on first use: a mock without fixtures pays nothing for them. */
  private get binding(): FakesBinding {
    this.fakesBinding ??= new FakesBinding(this.engine, mcpPath(this.options), (path) => this.serveFakeMount(path), this.options.fakesOptions);
    return this.fakesBinding;
  }

  /** The control API (`/__mcp-testkit/…`, alias `/__aimock/…`): fixtures, journal, fakes listing, reset. */
  private async handleControl(request: Request): Promise<Response> {
    const binding = this.binding;
    const response = await binding.fakes.handleControl(request);
    binding.announceMounts();
    return response;
  }

  /** Serves an MCP endpoint at a path a fake block names, unless something is mounted there. */
  private serveFakeMount(path: string): void {
    if (this.fakeEndpoints.has(path) || this.router.has(path)) return;
    const endpoint = new StreamableHttpEndpoint(this.engine, this.options, { mount: path });
    if (this.closed) endpoint.close();
    this.fakeEndpoints.set(path, endpoint);
    this.router.mount(path, this.gated(endpoint), mcpRouteOptions(this.options));
  }

  /**
   * The scenario fakes of this mock: `inspect()` lists blocks and used entries, `assertConsumed()`
   * checks a test used every entry, `journal` holds every request, `failureCounts()` counts fake
   * failures by code.
   */
  get fakes(): Fakes {
    return this.binding.fakes;
  }

  /**
   * Throws listing every unused fake entry (with its id) of the scoped blocks that apply to this
   * test id and/or context (nock's `isDone`); throws too when no scoped block applies (a typo in
   * the test id), saying why.
   */
  assertFakesConsumed(query: { testId?: string; context?: string; mount?: string }): void {
    this.binding.fakes.assertConsumed(query);
  }

  /** Adds `mcpFakes` blocks from code (entry ids `code#n:…`); throws a FixtureLoadError, adding nothing, on any problem. */
  loadFakes(blocks: McpFakeBlock | readonly McpFakeBlock[]): LoadResult {
    return this.binding.load(blocks);
  }

  private readonly gated = (endpoint: ExchangeHandler): ExchangeHandler => this.protection?.gate(endpoint) ?? endpoint;
  /** A protected mock's OAuth side (`mockMcp({ auth })`): issuer, sign-in record, assertions, faults, tokens. */
  get auth(): MockAuth {
    return this.protection ?? notProtected();
  }

  /** The endpoint label of a wire: the MCP path for HTTP, else the wire's name. */
  private readonly endpointOf = (wire: string): string => (wire === "http" ? mcpPath(this.options) : wire);

  /** @internal Starts the wire (none for memory), telling lifecycle observers. */
  async serveOn(transport: MockTransportKind, start?: WireStarter): Promise<void> {
    this.transportKind = transport;
    const events = this.engine.events;
    events.emit("server:willStart", { transport });
    try {
      if (start) this.wire = await start(this.engine, this.options, this.router);
      await this.protection?.start(transport === "http" ? this.wire?.url : undefined, this.options.host);
      const trace = traceOptionsOf(this.options.trace, "mockMcp() option");
      if (trace !== undefined) this.tracing = traceMock(events, trace, this.url ?? transport, (this.options as { [TRACE_SOURCE]?: "recorder" })[TRACE_SOURCE]);
    } catch (error) {
      await this.wire?.close().catch(() => undefined);
      events.emit("server:failedToStart", { transport, error });
      throw error;
    }
    events.emit("server:didStart", { transport, ...(this.url !== undefined && { url: this.url }) });
  }

  /**
   * Adds observers: server lifecycle, each admitted request's start and finish (exactly once,
   * with the client-visible outcome), streams and subscriptions. Returns a function that removes them.
   */
  observe(observers: McpObserver | readonly McpObserver[], options?: ObserveOptions): () => void {
    const list = Array.isArray(observers) ? (observers as readonly McpObserver[]) : [observers as McpObserver];
    const log = this.engine.log;
    return observeEvents(this.engine.events, list, this.endpointOf, { ...options, onDiagnostic: options?.onDiagnostic ?? ((diagnostic) => log("warn", `mcp-testkit: ${diagnostic.message}`)) });
  }

  /** The metrics now (`mockMcp({ metrics: true })`): every family with its bounded series. */
  metrics(): MetricsSnapshot {
    return this.metricsCollector().snapshot();
  }

  /** The metrics as Prometheus (default) or OpenMetrics text, as `/__mcp-testkit/metrics` serves them. */
  async metricsText(format: MetricsTextFormat = "prometheus"): Promise<string> {
    return (await metricsText(this.metricsCollector().snapshot(), format)).text;
  }

  private metricsCollector(): MetricsCollector {
    if (this.collector === undefined) throw new McpTestkitError("This mock collects no metrics; create it with mockMcp({ metrics: true }) to read server.metrics().");
    return this.collector;
  }

  /** The MCP endpoint at `path`, as the router calls it (the endpoint itself is made on first use). */
  private readonly mcpEndpoint: ExchangeHandler = { handle: (exchange, body) => this.http.handle(exchange, body) };

  /** The Streamable HTTP endpoint, made on first use (a memory-only mock may never need it). */
  private get http(): StreamableHttpEndpoint {
    if (!this.endpoint) {
      this.endpoint = new StreamableHttpEndpoint(this.engine, this.options, { mount: mcpPath(this.options) });
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
    this.route(new NodeExchange(req, res, parsedBody));
  };

  /**
   * The mock as a web-standard handler, `Request` in, `Response` out, for fetch-style hosts; it
   * also takes fetch's `(url, init)`, so a client transport's `fetch` option can be the mock itself.
   */
  readonly fetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    // Shaped like the global fetch, so a client transport can take it as its `fetch` (in-process tests).
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    const signal = request.signal;
    // As the global fetch does: a request aborted before it is sent is never served, and one
    // aborted while its response is awaited rejects with the signal's reason (the mock cancels it).
    if (signal.aborted) throw signal.reason;
    const exchange = new FetchExchange(request);
    this.route(exchange);
    return await new Promise<Response>((resolve, reject) => {
      const stopListening = onAbort(signal, reject);
      void exchange.response.then((response) => {
        stopListening();
        resolve(response);
      });
    });
  };

  /** @internal An exchange made off-network (the simulator), routed as `fetch` routes a request. */
  serveExchange(exchange: HttpExchange): void {
    this.route(exchange);
  }

  /**
   * The one way in for `handler`, `fetch` and the simulator: the router, so a mounted handler's
   * throw is answered as `listen()` answers it, and the same guard stands in front. Mounted inside
   * a framework, the path may be the framework's (Express strips its mount): anything not mounted
   * beside the MCP endpoint is the MCP endpoint.
   */
  private route(exchange: HttpExchange): void {
    this.router.handle(exchange, mcpPath(this.options));
  }

  /** @internal Every path the mock's port serves, unlisted ones too (prefix mounts end with `/*`). */
  get mountedPaths(): string[] {
    return this.router.allPaths;
  }

  /**
   * Serves another handler on the mock's port (and through `handler` / `fetch`) at `path`: a
   * web-standard `(request) => response` function, exact path or, with `{ prefix: true }`,
   * everything under it. Returns a function that unmounts it. The MCP endpoint's path is taken.
   */
  mount(path: string, handler: RouteHandler, options?: MountOptions): () => void {
    return this.router.mount(path, handler, options);
  }

  /**
   * Ends HTTP sessions as if they expired, so the client's next request gets 404 and it must
   * initialize again. Without an id, every session. Returns how many ended.
   */
  expireSession(sessionId?: string): number {
    let ended = this.endpoint?.expireSession(sessionId) ?? 0;
    for (const endpoint of this.fakeEndpoints.values()) ended += endpoint.expireSession(sessionId);
    return ended;
  }

  /** The Streamable HTTP endpoint; undefined for a mock served in memory only. */
  get url(): Url {
    return this.wire?.url as Url;
  }

  /**
   * The endpoint's URL with `?testId=` (and `&context=`): for an agent in another process that
   * cannot send headers, so its calls get this test's fakes. Throws for a mock with no URL.
   */
  urlFor(identity: { testId?: string; context?: string }): string {
    if (this.wire?.url === undefined) throw new McpTestkitError('urlFor() needs a mock served over HTTP (transport "http", the default); this one has no URL.');
    const url = new URL(this.wire.url);
    if (identity.testId !== undefined) url.searchParams.set("testId", identity.testId);
    if (identity.context !== undefined) url.searchParams.set("context", identity.context);
    return url.toString();
  }

  /** The trace (`mockMcp({ trace })`): every message in and out, grouped by call; undefined when off. */
  get trace(): TraceLog | undefined {
    return this.tracing?.log;
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
    return this.engine.received.toArray().map((entry) => entry.message);
  }

  get recordStats(): RecordStats {
    return { droppedCalls: this.engine.calls.dropped, droppedMessages: this.engine.received.dropped };
  }

  /** Events an async listener missed: one with 1,000 promises unsettled is skipped until it catches up. */
  get droppedEvents(): number {
    return this.engine.events.dropped;
  }

  /**
   * Listens to an event; returns a function that stops listening. Listeners run synchronously
   * while the mock handles the call: one must not block. An exception in one is not the mock's.
   */
  on<E extends keyof MockEvents>(event: E, listener: (payload: MockEvents[E]) => void): () => void {
    if (!MOCK_EVENT_NAMES.includes(event)) {
      throw new McpTestkitError(`Unknown event ${JSON.stringify(event)}; events are ${MOCK_EVENT_NAMES.map((name) => `"${name}"`).join(", ")}.`);
    }
    if (typeof listener !== "function") throw new McpTestkitError(`server.on(${JSON.stringify(event)}, listener): the listener must be a function.`);
    return this.engine.events.on(event, listener);
  }

  /** Throws unless the tool was called (that many times, with those arguments); returns the matching calls. */
  assertCalled(tool: string, options?: CalledOptions): ToolCall[] {
    return assertCalled(this.engine.calls, tool, options);
  }

  assertNotCalled(tool: string): void {
    assertNotCalled(this.engine.calls, tool);
  }

  /** Throws unless the latest call of `tool` answered with a task went as expected (`{ polls: 3, cancelled: false }`). */
  assertTask(tool: string, expected: TaskExpectations): ToolCall {
    return assertTask(this.engine.calls, tool, expected);
  }

  /** Throws unless the tools were called in this order; other calls may come in between. */
  assertCalledInOrder(...tools: string[]): void {
    assertCalledInOrder(this.engine.calls, tools);
  }

  /** Resolves once `count` calls (of `tool`) have started, or with `ended: true` have ended. */
  waitForCalls(count: number, options?: WaitForCallsOptions): Promise<ToolCall[]> {
    return waitForCalls(this.engine.calls, this.engine.events, count, options, () => this.engine.catalog.tools.keys());
  }

  /**
   * A transport for an SDK `Client` in the same process; each one is its own session. An
   * `identity` ({ testId, context, undeclared }) is what an HTTP client sends as X-Test-* headers:
   * scenario fakes scoped to it answer this client's requests.
   */
  async connectInMemory(identity?: MemoryIdentity): Promise<Transport & { readonly mockSessionId: string }> {
    this.assertOpen("connectInMemory");
    const facts = memoryFacts(identity);
    const transport = new MemoryTransport(this.engine, (closed) => this.connections.delete(closed), facts);
    this.connections.add(transport);
    return transport;
  }

  /**
   * One JSON-RPC message as text in, the reply as text out (`null` for a notification or a
   * request that gets no reply). All `handle()` calls share one session.
   */
  async handle(json: string): Promise<string | null> {
    this.assertOpen("handle");
    this.directConnection ??= this.engine.openConnection(undefined, "direct", "direct");
    const outcome = await this.engine.receiveText(this.directConnection, json, requestContext(this.directConnection, DIRECT));
    if (outcome.type === "raw") return outcome.text;
    return outcome.type === "reply" ? outcome.text : null;
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
   * `notifications/resources/list_changed`; either way the clients subscribed to it get
   * `notifications/resources/updated` (a URI a template served and that is now a resource of
   * its own reads differently too).
   */
  async setResource(uri: string, spec: ResourceSpec): Promise<void> {
    const isNew = this.engine.catalog.setResource(uri, spec);
    if (isNew) this.engine.broadcast("notifications/resources/list_changed");
    this.engine.notifyResourceUpdated(uri);
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
    this.engine.broadcast("notifications/message", params, (connection) => passesLevel(level, connection.negotiated.logLevel));
  }

  /** Sends any notification to every connected client (over HTTP, on the GET stream). */
  notify(method: string, params?: Record<string, unknown>): void {
    this.engine.broadcast(method, params);
  }

  /**
   * Ends every open `subscriptions/listen` (2026-07-28) from the server side, as a graceful
   * shutdown does: each gets its closing result. Returns how many ended.
   */
  endSubscriptions(): number {
    return this.engine.endSubscriptions();
  }

  /**
   * Puts `handler` in front of whatever serves `method`, any method (`tools/call`, `x/echo`…), on
   * every wire and in both eras. The newest handler is asked first; one that returns `undefined`
   * passes the request on. Returns a function that takes this handler away; `resetHandlers()`
   * takes them all.
   */
  use(method: string, handler: McpMethodHandler): () => void {
    return this.engine.use(method, handler);
  }

  /** Takes away every `use()` handler: each method is served as at the start. */
  resetHandlers(): void {
    this.engine.resetHandlers();
  }

  /** Clears the records (the sign-in's too), restarts every script, makes each feature's state anew (tools, resources, prompts, `use()` handlers and tokens stay). */
  reset(): void {
    this.engine.reset();
    this.fakesBinding?.fakes.reset();
    this.protection?.reset();
  }

  /** Closes every connection (pending calls end as `cancelled`) and stops the server. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const events = this.engine.events;
    const server = { transport: this.transportKind, ...(this.url !== undefined && { url: this.url }) };
    events.emit("server:willStop", server);
    for (const connection of [...this.connections]) connection.closeFromServer("the mock server closed");
    this.endpoint?.close();
    for (const endpoint of this.fakeEndpoints.values()) endpoint.close();
    this.engine.close();
    this.tracing?.stop();
    try {
      await this.protection?.close();
      await this.wire?.close();
    } catch (error) {
      events.emit("server:didStop", { ...server, outcome: "failed", error });
      throw error;
    }
    events.emit("server:didStop", { ...server, outcome: "completed" });
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
  const transport = options.http === false ? "memory" : (options.transport ?? "http");
  const start = transport === "memory" ? undefined : WIRES[transport];
  // Options with several problems say all of them, not one per run.
  const server = withEveryProblem(options as Record<string, unknown>, () => {
    checkMockOptions(options);
    if (transport !== "memory" && !start)
      throw new McpTestkitError(`Unknown transport ${JSON.stringify(transport)}; use one of ${["memory", ...Object.keys(WIRES)].map((kind) => `"${kind}"`).join(", ")}.`);
    return new MockMcpServer(options);
  });
  await server.serveOn(transport, start);
  return server;
}
