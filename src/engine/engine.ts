/**
 * The mock's brain: a JSON-RPC message plus its request context in, an outcome out. It knows no wire;
 * the wires in `src/wire/` enact its outcomes. Nothing a client sends can make it throw:
 * every bad input becomes a JSON-RPC error reply.
 */
import type { PromptGetSource, PromptListSource, ResourceListSource, ResourceReadSource } from "./request-sources.js";
import { randomUUID } from "node:crypto";
import { ErrorCode } from "../protocol/errors.js";
import { errorResponse, isObject, type JsonRpcMessage, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse } from "../protocol/jsonrpc.js";
import { META } from "../protocol/meta-keys.js";
import { featuresOfMethod } from "../protocol/methods.js";
import { readEnvelope } from "../protocol/read-envelope.js";
import { parseMessageText } from "../protocol/message-text.js";
import { FEATURES, KNOWN_PROTOCOL_VERSIONS, versionHas, type Feature } from "../protocol/versions.js";
import { McpTestkitError } from "../errors.js";
import { RingBuffer } from "../util/ring-buffer.js";
import { errorText, typeLabel } from "../util/text.js";
import { timerMsProblem } from "../util/timer-ms.js";
import { Catalog, type CatalogOptions } from "./catalog.js";
import { CallLog, DEFAULT_RECORD_LIMIT } from "./call-log.js";
import { EventHub, listenerThrewLine, type NoReplyCause } from "./events.js";
import { containedLog, logToStderr, type LogSink } from "../util/log.js";
import { ObservedRequests, RequestWatch } from "./observed-requests.js";
import type { EngineState, HandlerInput, RequestHandler } from "./methods/handler-input.js";
import { endSubscriptionsOf, notifySubscribers, tagged, type Subscription } from "./methods/subscriptions.js";
import { checkCacheOptions, type CacheOptions } from "./cache-hints.js";
import { serverMeta, stampModernOutcome } from "./modern-result.js";
import { RequestStateKeeper } from "./mrtr/request-state.js";
import { abortInFlight } from "./methods/tools.js";
import { builtinFeatures } from "./features/builtin.js";
import { MethodTable } from "./features/method-table.js";
import type { EngineFeature, StepKindSpec } from "./features/feature.js";
import { bindUserFeature, type McpFeature } from "./features/user-features.js";
import { checkMethodName, checkUnhandledMethodPolicy, runUserHandlers, unhandledMethod, withoutRetryFields, type McpMethodHandler, type UnhandledMethodPolicy } from "./features/user-handlers.js";
import { NO_REPLY, replyError, RpcError, type Outcome, type Peer, type WireOutcome } from "./outcome.js";
import { serializeOutcome } from "./reply-text.js";
import type { JsonRpcErrorObject, JsonRpcId } from "../protocol/jsonrpc.js";
import { Connection } from "./connection.js";
import { tapFacts } from "./message-tap.js";
import { redactedHeaders } from "../protocol/http-facts.js";
import { resolveRequestVersion, type RequestContext, type TransportFacts } from "./request-context.js";
import { checkUnknownToolPolicy, scriptSource, unknownToolSource, type ToolListSource, type ToolStepSource, type UnknownToolHint, type UnknownToolPolicy } from "./step-sources.js";

export interface EngineOptions extends CatalogOptions {
  /** Name and version sent on `initialize`. */
  serverInfo?: { name: string; version: string; [key: string]: unknown };
  instructions?: string;
  /** Replaces the advertised capabilities (default: everything the mock can do, with `listChanged`). */
  capabilities?: Record<string, unknown>;
  /**
   * Versions the mock serves (default: all mcp-testkit knows): the legacy ones through
   * `initialize`, 2026-07-28 per request. Leave 2026-07-28 out for a legacy-only server.
   */
  protocolVersions?: readonly string[];
  /**
   * How long a call that answered `input_required` (MRTR, 2026-07-28) waits for the client's
   * retry, in whole ms (default 5 minutes). At most 2147483647 (about 24.8 days, the longest a
   * timer holds): a longer wait is refused, not shortened.
   */
  inputTimeoutMs?: number;
  /** Caching hints (`ttlMs`, `cacheScope`) on 2026-07-28 list, read and discover results (default: 0, "private"). */
  cache?: CacheOptions;
  /** Items per page of every list method (default 100). */
  pageSize?: number;
  /** How many tool calls and messages the record keeps, the newest kept (default 1,000 each; `Infinity` keeps everything). */
  recordLimit?: number;
  /**
   * A call to a tool the mock does not have: `"error"` (default, -32602 naming the tools),
   * `"warn"` (the same plus a line on the mock's log) or a step function `(call) => step` that answers it.
   */
  onUnknownTool?: UnknownToolPolicy;
  /**
   * The mock's log: where its lines for people go (the `"warn"` policy's line, a listener that
   * threw, fakes' `MCP-FAKE:` lines when `fakesOptions.log` asks, observer diagnostics). Default: stderr. A logger that throws
   * changes nothing a client gets; its line then goes to stderr.
   */
  logger?: LogSink;
  /**
   * Features of your own, served beside the built-in ones: their methods, the client
   * notifications they act on and the capabilities they add (see `defineFeature`).
   */
  // Any state type: each feature's handlers are typed against its own.
  features?: ReadonlyArray<McpFeature<any>>;
  /**
   * A request for a method nobody serves (no feature, no `use()` handler): `"error"` (default,
   * -32601), `"warn"` (the same plus a line on the mock's log naming the closest method) or a
   * handler `(request) => result` that answers it.
   */
  onUnhandledMethod?: UnhandledMethodPolicy;
}

export const DEFAULT_SERVER_INFO = { name: "mcp-testkit", version: "0.1.0" };
export const DEFAULT_PAGE_SIZE = 100;

/** A message as received, with the connection (session) it came from. */
export interface ReceivedMessage {
  message: JsonRpcMessage;
  sessionId: string;
  receivedAt: number;
}

export class Engine implements EngineState {
  readonly catalog: Catalog;
  readonly calls: CallLog;
  /** The mock's log (the `logger` option, contained). */
  readonly log: LogSink;
  readonly events: EventHub;
  readonly received: RingBuffer<ReceivedMessage>;
  /** The sessions (every connection that can initialize): broadcasts and close() reach these; a 2026-07-28 request's own connection is ended by the endpoint that opened it. */
  readonly sessions = new Set<Connection>();
  /** Asked in order for each tool call's step: the tool's script, then the unknown-tool policy. */
  readonly toolSources: ToolStepSource[];
  readonly toolListSources: ToolListSource[] = [];
  /** Asked when no source has a tool: why it may exist elsewhere (the fakes: a block scoped to another test). */
  readonly unknownToolHints: UnknownToolHint[] = [];
  /** Asked before the catalog answers a read or a prompt (empty unless fakes are plugged in). */
  readonly resourceReadSources: ResourceReadSource[] = [];
  readonly promptGetSources: PromptGetSource[] = [];
  readonly resourceListSources: ResourceListSource[] = [];
  readonly promptListSources: PromptListSource[] = [];
  readonly pageSize: number;
  readonly serverInfo: Record<string, unknown>;
  readonly instructions?: string;
  readonly capabilities?: Record<string, unknown>;
  readonly protocolVersions: readonly string[];
  readonly cache?: CacheOptions;
  private serverMetaObject?: Record<string, unknown>;
  /** Open `subscriptions/listen` requests (2026-07-28), on any connection. */
  readonly subscriptions = new Set<Subscription>();
  /** Signs and checks MRTR `requestState` with a key of this mock's own. */
  readonly requestStates: RequestStateKeeper;
  readonly stepKinds = new Map<string, StepKindSpec>();
  /** Requests with a `request:start` still waiting for their `request:end`. */
  private readonly observed = new ObservedRequests();
  /** Which handler serves each method and notification, built from the built-in and the user's features. */
  private readonly table: MethodTable;
  /** Every feature, built-in and the user's: told when to forget (reset) and when a connection ends. */
  private readonly features: readonly EngineFeature[];
  /** The features that keep something per connection (most keep nothing, and closing stays a no-op for them). */
  private readonly perConnection: readonly EngineFeature[];
  /** `use()` handlers by method, the newest first; asked before the method's own handler. */
  private readonly overrides = new Map<string, McpMethodHandler[]>();
  private readonly onUnhandledMethod: UnhandledMethodPolicy;

  constructor(options: EngineOptions = {}) {
    checkOptions(options);
    const log = containedLog(options.logger ?? logToStderr);
    this.log = log;
    this.events = new EventHub((event, error) => log("warn", listenerThrewLine(event, error)));
    this.catalog = new Catalog(options);
    this.catalog.checkToolViews();
    const limit = options.recordLimit ?? DEFAULT_RECORD_LIMIT;
    this.calls = new CallLog(limit, this.events);
    this.received = new RingBuffer(limit);
    this.pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    this.serverInfo = options.serverInfo ?? DEFAULT_SERVER_INFO;
    this.instructions = options.instructions;
    this.capabilities = options.capabilities;
    this.protocolVersions = options.protocolVersions ?? KNOWN_PROTOCOL_VERSIONS;
    checkCacheOptions(options.cache);
    this.requestStates = new RequestStateKeeper(options.inputTimeoutMs);
    this.cache = options.cache;
    checkUnknownToolPolicy(options.onUnknownTool);
    checkUnhandledMethodPolicy(options.onUnhandledMethod);
    this.onUnhandledMethod = options.onUnhandledMethod ?? "error";
    this.features = [...builtinFeatures(), ...checkFeatureList(options.features).map(bindUserFeature)];
    this.perConnection = this.features.filter((feature) => feature.connectionClosed !== undefined);
    this.table = new MethodTable(this.features);
    for (const feature of this.features) for (const kind of feature.stepKinds ?? []) this.stepKinds.set(kind.key, kind);
    this.toolSources = [scriptSource(this.catalog), unknownToolSource(this.catalog, options.onUnknownTool, (line) => log("warn", line), this.unknownToolHints)];
  }

  /** The capabilities declared at `version`: every feature's. */
  capabilitiesFor(version: string): Record<string, unknown> {
    return this.table.capabilitiesFor(version, this.catalog);
  }

  /**
   * Puts `handler` in front of whatever serves `method` (a built-in method, a feature's, or one
   * nobody serves); the newest `use()` is asked first, and a handler that answers `undefined`
   * passes the request on. Returns a function that takes this handler away.
   */
  use(method: string, handler: McpMethodHandler): () => void {
    checkMethodName(method, "use()");
    if (typeof handler !== "function") throw new McpTestkitError(`use("${method}", handler) takes a function (request) => result, got ${typeLabel(handler)}.`);
    this.overrides.set(method, [handler, ...(this.overrides.get(method) ?? [])]);
    return () => {
      const left = (this.overrides.get(method) ?? []).filter((taken) => taken !== handler);
      if (left.length === 0) this.overrides.delete(method);
      else this.overrides.set(method, left);
    };
  }

  /** Takes every `use()` handler away: each method is served as at the start. */
  resetHandlers(): void {
    this.overrides.clear();
  }

  /** A client connected on `wire`; `peer` is where server-initiated messages go (none: it cannot hear them). */
  openConnection(peer: Peer | undefined, wire: TransportFacts["wire"], id: string = randomUUID(), options: { session?: boolean } = {}): Connection {
    const connection = new Connection(id, peer, wire, options.session ?? true, this.events);
    // A 2026-07-28 request's own connection never initializes, so no broadcast is for it, and it
    // is no session to count; the endpoint that opened it ends it (also when the mock closes).
    if (connection.session) {
      this.sessions.add(connection);
      this.events.emit("session:open", { sessionId: id, wire });
    }
    return connection;
  }

  /**
   * Ends a connection: its in-flight calls end with `outcome` (`disconnected` when the client went
   * away, `cancelled` when the server closed), and it gets no more notifications.
   */
  closeConnection(connection: Connection, outcome: "cancelled" | "disconnected", reason: string): void {
    if (connection.closed) return;
    // A listen on it ends saying why: its client left, or the mock ended the connection (it is stopping: listens are 2026-07-28's, with no sessions to close).
    if (this.subscriptions.size > 0) endSubscriptionsOf(this.subscriptions, connection, outcome === "disconnected" ? "client_disconnected" : "server_stopping");
    for (const key of connection.inFlightKeys()) abortInFlight(this.calls, connection, key, outcome, reason);
    this.observed.abandonAll(connection, outcome === "disconnected" ? "client_disconnected" : "session_closed");
    connection.close();
    this.sessions.delete(connection);
    for (const feature of this.perConnection) feature.connectionClosed!(connection);
    if (connection.session) this.events.emit("session:close", { sessionId: connection.id, wire: connection.wire, outcome, reason });
  }

  /**
   * Ends one in-flight request of a connection (its call gets `outcome`), e.g. when its HTTP
   * request went away; `cause` tells observers why, when it is not the client's doing.
   */
  abortRequest(connection: Connection, requestKey: string, outcome: "cancelled" | "disconnected", reason: string, cause?: NoReplyCause): void {
    abortInFlight(this.calls, connection, requestKey, outcome, reason);
    this.observed.abandon(connection, requestKey, cause ?? (outcome === "disconnected" ? "client_disconnected" : "cancelled"));
  }

  /** Parses a JSON-RPC text and handles it; not JSON → -32700, nested too deep → -32600. Outcome or promise, as `receive`. */
  receiveText(connection: Connection, text: string, context: RequestContext): WireOutcome | Promise<WireOutcome> {
    const read = parseMessageText(text);
    if ("value" in read) return this.receive(connection, read.value, context);
    const refusal = this.refuse(connection, context, null, read.error);
    if (!this.events.has("message")) return refusal;
    this.tapIn(connection, context, { raw: text });
    return this.tapOut(connection, context, refusal);
  }

  /**
   * Handles one message. The outcome comes back as it is when the handler answers at once (the
   * common case: no promise, no microtask hop per message) and as a promise when it waits
   * (a delay, a hang, a step function); `await` takes both. Never throws: a bug of ours comes
   * back as a rejected promise, as it always did. A reply comes serialized: wires write its text.
   */
  receive(connection: Connection, message: unknown, context: RequestContext): WireOutcome | Promise<WireOutcome> {
    try {
      if (!this.events.has("message")) return this.dispatch(connection, message, context);
      this.tapIn(connection, context, { message: message as JsonRpcMessage });
      const outcome = this.dispatch(connection, message, context);
      return outcome instanceof Promise ? outcome.then((settled) => this.tapOut(connection, context, settled, message)) : this.tapOut(connection, context, outcome, message);
    } catch (bug) {
      return Promise.reject(bug);
    }
  }

  /** Tells `message` listeners what a client sent. */
  private tapIn(connection: Connection, context: RequestContext, sent: { message?: JsonRpcMessage; raw?: string }): void {
    this.events.emit("message", { direction: "in", ...sent, ...tapFacts(connection, context), at: context.receivedAt });
  }

  /** Tells `message` listeners what the mock answers (a reply, or a raw step's bytes), and passes the outcome on. */
  private tapOut(connection: Connection, context: RequestContext, outcome: WireOutcome, request?: unknown): WireOutcome {
    if (outcome.type !== "reply" && outcome.type !== "raw") return outcome;
    const answered = outcome.type === "reply" ? outcome.message.id : isObject(request) ? request.id : undefined;
    const relatedRequestId = typeof answered === "string" || typeof answered === "number" ? answered : undefined;
    const sent = outcome.type === "reply" ? { message: outcome.message as JsonRpcMessage, relatedRequestId } : { raw: outcome.text, relatedRequestId };
    const transport = context.transport;
    if (transport.afterHead === undefined) {
      this.events.emit("message", { direction: "out", ...sent, ...tapFacts(connection, context), at: Date.now() });
      return outcome;
    }
    // Over HTTP the answer is told once the wire has chosen its response's status and headers.
    transport.afterHead((status, headers) => {
      const http = { method: transport.method, path: transport.path, status, headers: redactedHeaders(headers) };
      this.events.emit("message", { direction: "out", ...sent, ...tapFacts(connection, context, http), at: Date.now() });
    });
    return outcome;
  }

  private dispatch(connection: Connection, message: unknown, context: RequestContext): WireOutcome | Promise<WireOutcome> {
    const envelope = readEnvelope(message);
    if (isObject(message)) this.received.push({ message: message as unknown as JsonRpcMessage, sessionId: connection.id, receivedAt: context.receivedAt });
    switch (envelope.kind) {
      case "invalid":
        return this.refuse(connection, context, envelope.id, { code: ErrorCode.InvalidRequest, message: envelope.problem });
      case "response": {
        // JSON-RPC never answers a response, even a malformed one: two peers would bounce errors forever.
        const response = message as unknown as JsonRpcResponse;
        if (response.id !== undefined && response.id !== null) connection.settle(response);
        return NO_REPLY;
      }
      case "notification": {
        const notification = message as unknown as JsonRpcNotification;
        this.notification(connection, notification.method, notification.params ?? {});
        return NO_REPLY;
      }
      case "request": {
        const request = message as unknown as JsonRpcRequest;
        const resolved = resolveRequestVersion(context, request.params, this.protocolVersions);
        if (!("protocolVersion" in resolved)) return this.refuse(connection, context, request.id, resolved);
        context = resolved;
        if (!this.events.has("request:start") && !this.events.has("request:end")) return this.request(connection, request, context);
        return this.observedRequest(connection, request, context);
      }
    }
  }

  /** A message refused before it became a request: answered with `error`, and told to `message:rejected` listeners. */
  private refuse(connection: Connection, context: RequestContext, id: JsonRpcId | null, error: JsonRpcErrorObject): WireOutcome {
    if (this.events.has("message:rejected")) this.events.emit("message:rejected", { code: error.code, sessionId: connection.id, wire: context.transport.wire });
    const message = errorResponse(id, error);
    return { type: "reply", message, text: JSON.stringify(message) };
  }

  /** A request's outcome, its reply serialized (the one place replies are: see reply-text.ts). */
  private request(connection: Connection, request: JsonRpcRequest, context: RequestContext): WireOutcome | Promise<WireOutcome> {
    const answer = this.answer(connection, request, context);
    if (answer instanceof Promise) return answer.then((outcome) => serializeOutcome(outcome, request, this.calls, context.caught));
    return serializeOutcome(answer, request, this.calls, context.caught);
  }

  private answer(connection: Connection, request: JsonRpcRequest, context: RequestContext): Outcome | Promise<Outcome> {
    const entry = this.table.methods.get(request.method);
    const overrides = this.overrides.size === 0 ? undefined : this.overrides.get(request.method);
    let handler: RequestHandler;
    if (overrides !== undefined) handler = (input) => this.overridden(input, overrides, entry?.handler);
    else if (entry !== undefined) handler = entry.handler;
    else if (this.onUnhandledMethod === "error") return replyError(request.id, { code: ErrorCode.MethodNotFound, message: `Method not found: ${request.method}` });
    else handler = (input) => this.unhandled(input);
    const version = context.protocolVersion;
    // Methods only some revisions have: asked in another, they are not found (as a server of that revision answers).
    const features = entry?.requires ?? featuresOfMethod(request.method);
    // Indexed, not for-of: this runs for every request, and most methods need no feature.
    for (let i = 0; i < features.length; i++) {
      if (!versionHas(version, features[i]!)) return replyError(request.id, notInVersion(request.method, features[i]!, version));
    }
    let answer: Outcome | Promise<Outcome>;
    try {
      answer = handler({ state: this, connection, request, params: request.params ?? {}, context });
    } catch (thrown) {
      answer = handlerError(request, thrown, context);
    }
    if (answer instanceof Promise) answer = answer.catch((thrown: unknown) => handlerError(request, thrown, context));
    if (!versionHas(version, "resultType")) return answer;
    const stamp = { method: request.method, serverMeta: (this.serverMetaObject ??= serverMeta(this.serverInfo)), cache: this.cache };
    return answer instanceof Promise ? answer.then((outcome) => stampModernOutcome(outcome, stamp)) : stampModernOutcome(answer, stamp);
  }

  /** A method with `use()` handlers: they are asked first, then the method's own handler, then the unhandled policy. */
  private async overridden(input: HandlerInput, overrides: readonly McpMethodHandler[], own: RequestHandler | undefined): Promise<Outcome> {
    const passed = { ownRetry: false };
    const answer = await runUserHandlers(input, overrides, input.params, passed);
    if (answer !== undefined) return answer;
    const next = passed.ownRetry ? withoutRetryFields(input) : input;
    return own !== undefined ? own(next) : this.unhandled(next);
  }

  private unhandled(input: HandlerInput): Promise<Outcome> {
    const served = [...this.table.methodNames, ...this.overrides.keys()];
    return unhandledMethod(input, this.onUnhandledMethod, served, (line) => this.log("warn", line));
  }

  /**
   * `request` with `request:start` and `request:end` around it (only when someone listens). The
   * end comes exactly once: with the outcome, or earlier, when the client cancels or leaves.
   */
  private observedRequest(connection: Connection, request: JsonRpcRequest, context: RequestContext): WireOutcome | Promise<WireOutcome> {
    const watch = new RequestWatch(this.events, this.observed, connection, request, context);
    // Spelled out, not spread: this runs for every request while anyone observes.
    const observed: RequestContext = {
      protocolVersion: context.protocolVersion,
      identity: context.identity,
      transport: context.transport,
      receivedAt: context.receivedAt,
      mount: context.mount,
      client: context.client,
      caught: watch.caught,
    };
    const answer = this.request(connection, request, observed);
    if (!(answer instanceof Promise)) return watch.end(answer);
    this.observed.add(connection, watch.key, watch);
    return answer.then((outcome) => watch.end(outcome));
  }

  private notification(connection: Connection, method: string, params: Record<string, unknown>): void {
    // Others (progress, roots/list_changed, ...) are recorded and need no action.
    const handle = this.table.notifications.get(method);
    if (handle === undefined) return;
    try {
      handle({ state: this, connection, method, params });
    } catch (error) {
      // A notification gets no answer, so a handler's throw can only be told on the mock's log.
      this.log("warn", `mcp-testkit: the handler for ${method} threw: ${errorText(error)}`);
    }
  }

  /**
   * Sends a notification to every connection that initialized (and that `accepts`, if given),
   * and a list_changed one also on every `subscriptions/listen` that opted in to it.
   */
  broadcast(method: string, params?: Record<string, unknown>, accepts?: (connection: Connection) => boolean): void {
    const message: JsonRpcMessage = params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
    for (const connection of this.sessions) {
      if (connection.negotiated.initializeReceived && (accepts === undefined || accepts(connection))) connection.send(message);
    }
    if (this.subscriptions.size > 0) notifySubscribers(this.subscriptions, method, params);
  }

  /**
   * Tells every session subscribed to `uri` (and every `subscriptions/listen` naming it) that it
   * changed; for a template, every subscribed URI it matches. `params` (a step's) go along, each
   * with the subscribed URI.
   */
  notifyResourceUpdated(uri: string, params?: Record<string, unknown>): void {
    const template = this.catalog.templates.get(uri)?.template;
    const matches = (subscribed: string) => subscribed === uri || (template?.match(subscribed) && !this.catalog.resources.has(subscribed));
    for (const connection of this.sessions) {
      for (const subscribed of connection.negotiated.subscriptions) {
        if (matches(subscribed)) connection.send({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { ...params, uri: subscribed } });
      }
    }
    for (const subscription of this.subscriptions) {
      for (const subscribed of subscription.filter.resourceSubscriptions ?? []) {
        if (matches(subscribed)) subscription.connection.send(tagged("notifications/resources/updated", { ...params, uri: subscribed }, subscription.id), { relatedRequestId: subscription.id });
      }
    }
  }

  /** Ends every open `subscriptions/listen` from the server side (each gets its closing result); how many ended. */
  endSubscriptions(reason: "completed" | "server_stopping" = "completed"): number {
    const open = [...this.subscriptions];
    for (const subscription of open) subscription.end(reason);
    return open.length;
  }

  /** Clears the record and restarts every script. */
  reset(): void {
    for (const feature of this.features) feature.reset?.();
    this.requestStates.clear();
    this.calls.clear();
    this.received.clear();
    this.catalog.restartScripts();
  }

  close(reason = "the mock server closed"): void {
    for (const feature of this.features) feature.close?.();
    this.endSubscriptions("server_stopping");
    this.requestStates.clear();
    for (const connection of [...this.sessions]) this.closeConnection(connection, "cancelled", reason);
  }
}

/** Refuses options that would misbehave later (a page size of 0 makes clients page forever). */
function checkOptions(options: EngineOptions): void {
  const { pageSize, recordLimit, protocolVersions } = options;
  if (options.logger !== undefined && typeof options.logger !== "function") {
    throw new McpTestkitError(`"logger" must be a function (level, line) => void, got ${typeLabel(options.logger)}.`);
  }
  const inputTimeoutProblem = options.inputTimeoutMs === undefined ? undefined : timerMsProblem("inputTimeoutMs", options.inputTimeoutMs, { min: 1, whole: true });
  if (inputTimeoutProblem !== undefined) throw new McpTestkitError(`${inputTimeoutProblem}.`);
  if (pageSize !== undefined && !(Number.isInteger(pageSize) && pageSize >= 1)) {
    throw new McpTestkitError(`"pageSize" must be a whole number of items, 1 or more, got ${typeLabel(pageSize)}.`);
  }
  if (recordLimit !== undefined && !((Number.isInteger(recordLimit) || recordLimit === Infinity) && recordLimit >= 0)) {
    throw new McpTestkitError(`"recordLimit" must be a whole number, 0 or more, or Infinity for no cap, got ${typeLabel(recordLimit)}.`);
  }
  if (protocolVersions !== undefined && (!Array.isArray(protocolVersions) || protocolVersions.length === 0 || !protocolVersions.every((v) => typeof v === "string"))) {
    throw new McpTestkitError(`"protocolVersions" must be a non-empty list of version strings, got ${typeLabel(protocolVersions)}.`);
  }
}

function checkFeatureList(features: unknown): ReadonlyArray<McpFeature<unknown>> {
  if (features === undefined) return [];
  if (!Array.isArray(features)) throw new McpTestkitError(`"features" must be a list of features (defineFeature({ name, methods })), got ${typeLabel(features)}.`);
  return features as ReadonlyArray<McpFeature<unknown>>;
}

/** -32601 for a method the request's revision does not have, saying which revisions do. */
function notInVersion(method: string, feature: Feature, version: string): { code: number; message: string } {
  const span: { since: string; until?: string } = FEATURES[feature];
  const where = span.until !== undefined ? `it was removed in ${span.until}` : `it came with ${span.since}; a request speaks ${span.since} by naming it in params._meta["${META.protocolVersion}"]`;
  return { code: ErrorCode.MethodNotFound, message: `Method not found: ${method} is not part of protocol version ${version} (${where})` };
}

/** What a handler's throw (or rejection) answers: its own JSON-RPC error, or -32603. */
function handlerError(request: JsonRpcRequest, thrown: unknown, context: RequestContext): Outcome {
  context.caught?.push(thrown);
  if (thrown instanceof RpcError) return replyError(request.id, thrown.toObject());
  return replyError(request.id, { code: ErrorCode.InternalError, message: `Internal error: ${errorText(thrown)}` });
}
