/**
 * The mock's brain: a JSON-RPC message plus its request context in, an outcome out. It knows no wire;
 * the wires in `src/wire/` enact its outcomes. Nothing a client sends can make it throw:
 * every bad input becomes a JSON-RPC error reply.
 */
import { randomUUID } from "node:crypto";
import { ErrorCode } from "../protocol/errors.js";
import { isObject, isResponse, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest } from "../protocol/jsonrpc.js";
import { SUPPORTED_PROTOCOL_VERSIONS } from "../protocol/versions.js";
import { McpTestkitError } from "../errors.js";
import { BoundedList } from "./bounded-list.js";
import { typeLabel } from "./steps.js";
import { Catalog, type CatalogOptions } from "./catalog.js";
import { CallLog, DEFAULT_RECORD_LIMIT } from "./call-log.js";
import { EventHub } from "./events.js";
import { ObservedRequests, RequestWatch } from "./observed-requests.js";
import type { EngineState, RequestHandler } from "./methods/handler-input.js";
import { complete } from "./methods/completion.js";
import { initialize, ping, setLevel } from "./methods/lifecycle.js";
import { getPrompt, listPrompts } from "./methods/prompts.js";
import { listResources, listResourceTemplates, readResource, subscribe, unsubscribe } from "./methods/resources.js";
import { abortInFlight, callTool, listTools } from "./methods/tools.js";
import { NO_REPLY, replyError, RpcError, type Outcome, type Peer } from "./outcome.js";
import type { JsonRpcErrorObject } from "../protocol/jsonrpc.js";
import { Connection, idKey } from "./connection.js";
import type { RequestContext, TransportFacts } from "./request-context.js";
import { checkUnknownToolPolicy, scriptSource, unknownToolSource, type ToolStepSource, type UnknownToolPolicy } from "./step-sources.js";

export interface EngineOptions extends CatalogOptions {
  /** Name and version sent on `initialize`. */
  serverInfo?: { name: string; version: string; [key: string]: unknown };
  instructions?: string;
  /** Replaces the advertised capabilities (default: everything the mock can do, with `listChanged`). */
  capabilities?: Record<string, unknown>;
  /** Versions the mock accepts in negotiation (default: all mcp-testkit knows). */
  protocolVersions?: readonly string[];
  /** Items per page of every list method (default 100). */
  pageSize?: number;
  /** How many tool calls and messages the record keeps, newest first kept (default 10,000 each). */
  recordLimit?: number;
  /**
   * A call to a tool the mock does not have: `"error"` (default, -32602 naming the tools),
   * `"warn"` (the same plus a line on stderr) or a step function `(call) => step` that answers it.
   */
  onUnknownTool?: UnknownToolPolicy;
}

export const DEFAULT_SERVER_INFO = { name: "mcp-testkit", version: "0.1.0" };
export const DEFAULT_PAGE_SIZE = 100;

const REQUEST_HANDLERS = new Map<string, RequestHandler>([
  ["initialize", initialize],
  ["ping", ping],
  ["logging/setLevel", setLevel],
  ["tools/list", listTools],
  ["tools/call", callTool],
  ["resources/list", listResources],
  ["resources/templates/list", listResourceTemplates],
  ["resources/read", readResource],
  ["resources/subscribe", subscribe],
  ["resources/unsubscribe", unsubscribe],
  ["prompts/list", listPrompts],
  ["prompts/get", getPrompt],
  ["completion/complete", complete],
]);

/** A message as received, with the connection (session) it came from. */
export interface ReceivedMessage {
  message: JsonRpcMessage;
  sessionId: string;
  receivedAt: number;
}

export class Engine implements EngineState {
  readonly catalog: Catalog;
  readonly calls: CallLog;
  readonly events = new EventHub();
  readonly received: BoundedList<ReceivedMessage>;
  readonly connections = new Set<Connection>();
  /** Asked in order for each tool call's step: the tool's script, then the unknown-tool policy. */
  readonly toolSources: ToolStepSource[];
  readonly pageSize: number;
  readonly serverInfo: Record<string, unknown>;
  readonly instructions?: string;
  readonly capabilities?: Record<string, unknown>;
  readonly protocolVersions: readonly string[];
  /** Requests with a `request:start` still waiting for their `request:end`. */
  private readonly observed = new ObservedRequests();

  constructor(options: EngineOptions = {}) {
    checkOptions(options);
    this.catalog = new Catalog(options);
    const limit = options.recordLimit ?? DEFAULT_RECORD_LIMIT;
    this.calls = new CallLog(limit, this.events);
    this.received = new BoundedList(limit);
    this.pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    this.serverInfo = options.serverInfo ?? DEFAULT_SERVER_INFO;
    this.instructions = options.instructions;
    this.capabilities = options.capabilities;
    this.protocolVersions = options.protocolVersions ?? SUPPORTED_PROTOCOL_VERSIONS;
    checkUnknownToolPolicy(options.onUnknownTool);
    this.toolSources = [scriptSource(this.catalog), unknownToolSource(this.catalog, options.onUnknownTool)];
  }

  /** A client connected on `wire`; `peer` is where server-initiated messages go (none: it cannot hear them). */
  openConnection(peer: Peer | undefined, wire: TransportFacts["wire"], id: string = randomUUID()): Connection {
    const connection = new Connection(id, peer, wire, this.events);
    this.connections.add(connection);
    this.events.emit("session:open", { sessionId: id, wire });
    return connection;
  }

  /**
   * Ends a connection: its in-flight calls end with `outcome` (`disconnected` when the client went
   * away, `cancelled` when the server closed), and it gets no more notifications.
   */
  closeConnection(connection: Connection, outcome: "cancelled" | "disconnected", reason: string): void {
    if (connection.closed) return;
    for (const key of [...connection.inFlight.keys()]) abortInFlight(this.calls, connection, key, outcome, reason);
    this.observed.abandonAll(connection, outcome === "disconnected" ? "client_disconnected" : "session_closed");
    connection.close();
    this.connections.delete(connection);
    this.events.emit("session:close", { sessionId: connection.id, wire: connection.wire, outcome, reason });
  }

  /** Ends one in-flight request of a connection (its call gets `outcome`), e.g. when its HTTP request went away. */
  abortRequest(connection: Connection, requestKey: string, outcome: "cancelled" | "disconnected", reason: string): void {
    abortInFlight(this.calls, connection, requestKey, outcome, reason);
    this.observed.abandon(connection, requestKey, outcome === "disconnected" ? "client_disconnected" : "cancelled");
  }

  /** Parses a JSON-RPC text and handles it; not JSON → -32700. Outcome or promise, as `receive`. */
  receiveText(connection: Connection, text: string, context: RequestContext): Outcome | Promise<Outcome> {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (error) {
      return this.refuse(connection, context, null, { code: ErrorCode.ParseError, message: `Parse error: ${(error as Error).message}` });
    }
    return this.receive(connection, message, context);
  }

  /**
   * Handles one message. The outcome comes back as it is when the handler answers at once (the
   * common case: no promise, no microtask hop per message) and as a promise when it waits
   * (a delay, a hang, a step function); `await` takes both. Never throws: a bug of ours comes
   * back as a rejected promise, as it always did.
   */
  receive(connection: Connection, message: unknown, context: RequestContext): Outcome | Promise<Outcome> {
    try {
      return this.dispatch(connection, message, context);
    } catch (bug) {
      return Promise.reject(bug);
    }
  }

  private dispatch(connection: Connection, message: unknown, context: RequestContext): Outcome | Promise<Outcome> {
    if (!isObject(message)) {
      return this.refuse(connection, context, null, { code: ErrorCode.InvalidRequest, message: `Invalid Request: expected a JSON-RPC message object, got ${Array.isArray(message) ? "an array (batches are not accepted here)" : JSON.stringify(message)}` });
    }
    this.received.push({ message: message as unknown as JsonRpcMessage, sessionId: connection.id, receivedAt: context.receivedAt });
    const id = readableId(message.id);
    if (message.jsonrpc !== "2.0") return this.refuse(connection, context, id, { code: ErrorCode.InvalidRequest, message: 'Invalid Request: "jsonrpc" must be "2.0"' });

    if (!("method" in message)) {
      if (isResponse(message)) {
        // JSON-RPC never answers a response, even a malformed one: two peers would bounce errors forever.
        if (message.id !== undefined && message.id !== null) connection.settle(message);
        return NO_REPLY;
      }
      return this.refuse(connection, context, id, { code: ErrorCode.InvalidRequest, message: 'Invalid Request: a message needs a "method" (or, as a response, an "id" with "result" or "error")' });
    }
    if (typeof message.method !== "string") return this.refuse(connection, context, id, { code: ErrorCode.InvalidRequest, message: 'Invalid Request: "method" must be a string' });
    if (message.params !== undefined && !isObject(message.params)) {
      return this.refuse(connection, context, id, { code: ErrorCode.InvalidRequest, message: 'Invalid Request: "params" must be an object' });
    }

    if (!("id" in message) || message.id === undefined) {
      this.notification(connection, message.method, (message.params as Record<string, unknown>) ?? {});
      return NO_REPLY;
    }
    if (id === null) return this.refuse(connection, context, null, { code: ErrorCode.InvalidRequest, message: 'Invalid Request: "id" must be a string or a number (MCP does not allow null)' });
    const request = message as unknown as JsonRpcRequest;
    if (!this.events.has("request:start") && !this.events.has("request:end")) return this.request(connection, request, context);
    return this.observedRequest(connection, request, context);
  }

  /** A message refused before it became a request: answered with `error`, and told to `message:rejected` listeners. */
  private refuse(connection: Connection, context: RequestContext, id: JsonRpcId | null, error: JsonRpcErrorObject): Outcome {
    if (this.events.has("message:rejected")) this.events.emit("message:rejected", { code: error.code, sessionId: connection.id, wire: context.transport.wire });
    return replyError(id, error);
  }

  private request(connection: Connection, request: JsonRpcRequest, context: RequestContext): Outcome | Promise<Outcome> {
    const handler = REQUEST_HANDLERS.get(request.method);
    if (!handler) return replyError(request.id, { code: ErrorCode.MethodNotFound, message: `Method not found: ${request.method}` });
    let answer: Outcome | Promise<Outcome>;
    try {
      answer = handler({ state: this, connection, request, params: request.params ?? {}, context });
    } catch (thrown) {
      return handlerError(request, thrown, context);
    }
    return answer instanceof Promise ? answer.catch((thrown: unknown) => handlerError(request, thrown, context)) : answer;
  }

  /**
   * `request` with `request:start` and `request:end` around it (only when someone listens). The
   * end comes exactly once: with the outcome, or earlier, when the client cancels or leaves.
   */
  private observedRequest(connection: Connection, request: JsonRpcRequest, context: RequestContext): Outcome | Promise<Outcome> {
    const watch = new RequestWatch(this.events, this.observed, connection, request, context);
    // Spelled out, not spread: this runs for every request while anyone observes.
    const observed: RequestContext = {
      protocolVersion: context.protocolVersion,
      identity: context.identity,
      transport: context.transport,
      signal: context.signal,
      receivedAt: context.receivedAt,
      caught: watch.caught,
    };
    const answer = this.request(connection, request, observed);
    if (!(answer instanceof Promise)) return watch.end(answer);
    this.observed.add(connection, watch.key, watch);
    return answer.then((outcome) => watch.end(outcome));
  }

  private notification(connection: Connection, method: string, params: Record<string, unknown>): void {
    switch (method) {
      case "notifications/initialized":
        connection.negotiated.initialized = true;
        return;
      case "notifications/cancelled": {
        const requestId = readableId(params.requestId);
        if (requestId === null) return;
        const reason = typeof params.reason === "string" ? `cancelled by the client: ${params.reason}` : "cancelled by the client";
        abortInFlight(this.calls, connection, idKey(requestId), "cancelled", reason);
        this.observed.abandon(connection, idKey(requestId), "cancelled");
        return;
      }
      default:
        // Other notifications (progress, roots/list_changed, ...) are recorded and need no action.
        return;
    }
  }

  /** Sends a notification to every connection that initialized (and that `accepts`, if given). */
  broadcast(method: string, params?: Record<string, unknown>, accepts?: (connection: Connection) => boolean): void {
    const message: JsonRpcMessage = params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
    for (const connection of this.connections) {
      if (connection.negotiated.initializeReceived && (accepts === undefined || accepts(connection))) connection.send(message);
    }
  }

  /** Tells every session subscribed to `uri` that it changed; for a template, every subscribed URI it matches. */
  notifyResourceUpdated(uri: string): void {
    const template = this.catalog.templates.get(uri)?.template;
    for (const connection of this.connections) {
      for (const subscribed of connection.negotiated.subscriptions) {
        if (subscribed === uri || (template?.match(subscribed) && !this.catalog.resources.has(subscribed))) {
          connection.send({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: subscribed } });
        }
      }
    }
  }

  /** Clears the record and restarts every script. */
  reset(): void {
    this.calls.clear();
    this.received.clear();
    this.catalog.restartScripts();
  }

  close(reason = "the mock server closed"): void {
    for (const connection of [...this.connections]) this.closeConnection(connection, "cancelled", reason);
  }
}

/** Refuses options that would misbehave later (a page size of 0 makes clients page forever). */
function checkOptions(options: EngineOptions): void {
  const { pageSize, recordLimit, protocolVersions } = options;
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

/** What a handler's throw (or rejection) answers: its own JSON-RPC error, or -32603. */
function handlerError(request: JsonRpcRequest, thrown: unknown, context: RequestContext): Outcome {
  context.caught?.push(thrown);
  if (thrown instanceof RpcError) return replyError(request.id, thrown.toObject());
  return replyError(request.id, { code: ErrorCode.InternalError, message: `Internal error: ${thrown instanceof Error ? thrown.message : String(thrown)}` });
}

function readableId(id: unknown): JsonRpcId | null {
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
}
