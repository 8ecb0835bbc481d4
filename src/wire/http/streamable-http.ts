/**
 * The Streamable HTTP endpoint, both eras on one path. Legacy (2025-11-25 and before): sessions,
 * POST / GET / DELETE, header rules, JSON or SSE answers, the standalone GET stream, resumption
 * with `Last-Event-ID`. 2026-07-28 (a request naming its version in `_meta` or the
 * `MCP-Protocol-Version` header): POST only, no session, the Mcp-Method / Mcp-Name / Mcp-Param-*
 * header rules, each request answered alone. (DNS-rebinding protection, the body limit and the
 * JSON media type stand in front of it, at the router, as they do in front of every route:
 * `mcpRouteOptions` is what it is mounted with, and it reads its body through the router's gate.) Every rule answers with the status the spec names, and a JSON-RPC error body saying what was wrong.
 */
import { randomBytes } from "node:crypto";
import { parseMessageText } from "../../protocol/message-text.js";
import type { Engine } from "../../engine/engine.js";
import { ErrorCode } from "../../protocol/errors.js";
import { isRequest, type JsonRpcRequest } from "../../protocol/jsonrpc.js";
import { readEnvelope, type Envelope } from "../../protocol/read-envelope.js";
import { DEFAULT_HTTP_PROTOCOL_VERSION, revisionsWith, versionHas, versionsWith } from "../../protocol/versions.js";
import { idKey } from "../../engine/connection.js";
import { NO_IDENTITY, requestContext, servesPerRequest, type RequestFacts, type RequestIdentity } from "../../engine/request-context.js";
import { declaredVersion } from "../../protocol/request-meta.js";
import type { FakeIdentity } from "../../fakes/types.js";
import { isObject } from "../../protocol/jsonrpc.js";
import { readRequestIdentity, storedIdentity } from "./identity.js";
import { headerProblem, unknownMirroredHeaders } from "./modern-headers.js";
import { LISTEN_METHOD } from "../../engine/methods/subscriptions.js";
import { StatelessRequest } from "./stateless-request.js";
import type { BodyReader } from "./body-gate.js";
import type { HttpExchange } from "./exchange.js";
import type { RouteOptions } from "./router.js";
import { parseEventId } from "./event-stream.js";
import { HttpSession } from "./http-session.js";
import { JSON_HEADERS, PostAnswer, SINGLE_REQUEST, SSE_HEADERS } from "./post-answer.js";

export interface StreamableHttpOptions {
  /** How requests are answered: one JSON body, or an SSE stream (steps may override). Default "json";
   * a JSON answer still turns into SSE when the server sends anything before the reply. */
  responseMode?: "json" | "sse";
  /** Serve the standalone GET stream (default true); false answers GET with 405. */
  getStream?: boolean;
  /** Largest accepted POST body (default 4 MiB); larger gets 413 (from the router, see `mcpRouteOptions`). */
  maxBodyBytes?: number;
}

/** What an endpoint needs to know of where it is mounted. */
export interface EndpointPlacement {
  /** The path it is served at (requests' `mount`, for fakes). */
  readonly mount?: string;
}

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** How an MCP endpoint is mounted: JSON bodies up to `maxBodyBytes`, refused (413, 415) with a JSON-RPC error by the router. */
export function mcpRouteOptions(options: StreamableHttpOptions): RouteOptions {
  return { body: { maxBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, contentTypes: ["application/json"] }, bodyRefusal: "json-rpc" };
}

function errorBody(code: number, message: string): string {
  return JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } });
}

/** A well-formed initialize (a malformed one opens no session: it is answered 400 or as a batch member). */
function isInitialize(message: unknown): message is JsonRpcRequest {
  return isRequest(message) && message.method === "initialize" && readEnvelope(message).kind === "request";
}

/** The key a batch member is answered under: its id's, or (an invalid member, which has no usable id) its place. */
function memberKey(message: unknown, index: number, envelope: Envelope): string {
  return envelope.kind === "invalid" ? `invalid:${index}` : idKey((message as JsonRpcRequest).id);
}

export class StreamableHttpEndpoint {
  readonly sessions = new Map<string, HttpSession>();
  /** 2026-07-28 requests being answered (each alone, no session). */
  private readonly stateless = new Set<StatelessRequest>();
  private readonly forgetStateless = (request: StatelessRequest): void => {
    this.stateless.delete(request);
  };
  private closed = false;
  private readonly forgetSession = (session: HttpSession): void => {
    this.sessions.delete(session.id);
  };

  /** The request facts of a request that sends no identity (shared, so the common POST allocates none). */
  private readonly plainFacts: RequestFacts;

  constructor(
    private readonly engine: Engine,
    private readonly options: StreamableHttpOptions = {},
    placement: EndpointPlacement = {},
  ) {
    this.plainFacts = { mount: placement.mount };
  }

  /** Answers one HTTP request, reading its body through the router's gate; every failure is answered with its status, nothing is thrown. */
  handle(exchange: HttpExchange, body: BodyReader): void {
    if (this.closed) return this.reject(exchange, 503, -32000, "Service Unavailable: the mock server is closed");
    switch (exchange.method) {
      case "POST":
        return this.post(exchange, body);
      case "GET":
        return this.get(exchange);
      case "DELETE":
        return this.delete(exchange);
      default:
        if (this.refusesModern(exchange)) return;
        exchange.respond(405, { ...JSON_HEADERS, allow: "GET, POST, DELETE" }, errorBody(-32000, `Method Not Allowed: ${exchange.method}`));
    }
  }

  /** Ends a session as if it expired: its next request gets 404. Without an id, every session. */
  expireSession(sessionId?: string): number {
    const targets = sessionId === undefined ? [...this.sessions.values()] : [this.sessions.get(sessionId)].filter((s) => s !== undefined);
    for (const session of targets) session.end("cancelled", "the session expired (expireSession)");
    return targets.length;
  }

  close(): void {
    this.closed = true;
    for (const session of [...this.sessions.values()]) session.end("cancelled", "the mock server closed", "server_stopping");
    for (const request of [...this.stateless]) request.abandon();
  }

  /** The `inputSchema` of a tool the mock has (for the `Mcp-Param-*` header rules); one function for every request. */
  private readonly inputSchemaOf = (tool: string): unknown => this.engine.catalog.tools.get(tool)?.listing.inputSchema;

  /** Whether a message is served in the 2026-07-28 way: its `_meta` or its version header says so. */
  private speaksPerRequest(exchange: HttpExchange, message: Record<string, unknown>): boolean {
    return declaredVersion(message.params) !== undefined || servesPerRequest(exchange.header("mcp-protocol-version"), this.engine.protocolVersions);
  }

  /** A 2026-07-28 POST: one request or notification, its headers checked against its body, answered alone. */
  private statelessPost(exchange: HttpExchange, message: Record<string, unknown>): void {
    // The envelope first, as on the legacy path: only a valid notification may get 202.
    const envelope = readEnvelope(message);
    if (envelope.kind === "invalid") return this.refuseInvalid(exchange, envelope);
    if (envelope.kind === "response") {
      return this.reject(
        exchange,
        400,
        ErrorCode.InvalidRequest,
        `Invalid Request: in ${revisionsWith("mrtr")} a POST carries one request or notification (clients send no responses: input goes in the retry's inputResponses)`,
      );
    }
    const facts = this.factsFor(exchange, undefined);
    if (!facts) return;
    if (envelope.kind === "notification") {
      // Notifications (none is defined for HTTP in 2026-07-28) are recorded and accepted.
      const connection = this.engine.openConnection(undefined, "http", undefined, { session: false });
      void Promise.resolve(this.engine.receive(connection, message, requestContext(connection, exchange, facts))).then(() => {
        this.engine.closeConnection(connection, "cancelled", "the notification was handled");
        exchange.respond(202, {});
      });
      return;
    }
    // A request envelope: its id is a string or a number.
    const id = (message as unknown as JsonRpcRequest).id;
    const problem = headerProblem(exchange, message, this.inputSchemaOf);
    if (problem) {
      exchange.respond(400, JSON_HEADERS, JSON.stringify({ jsonrpc: "2.0", id, error: problem }));
      this.tellRejected(400, problem.code, exchange.path);
      return;
    }
    if (this.engine.events.has("http:unknownMirroredHeader")) this.tellUnknownMirrored(exchange, message, this.inputSchemaOf);
    const request = new StatelessRequest(this.engine, this.options.responseMode === "sse", this.forgetStateless, message.method !== LISTEN_METHOD);
    const answer = new PostAnswer(exchange, request, [idKey(id)], SINGLE_REQUEST);
    const outcome = this.engine.receive(request.engineConnection, message, requestContext(request.engineConnection, exchange, facts));
    // Only a request still being answered has a response for close() to end.
    if (outcome instanceof Promise) this.stateless.add(request);
    answer.take(outcome);
  }

  /** A message whose envelope is not JSON-RPC: 400 -32600 with its id when it has a usable one (the spec's MUST: an HTTP error status, never 200 or 202). */
  private refuseInvalid(exchange: HttpExchange, envelope: Extract<Envelope, { kind: "invalid" }>): void {
    exchange.respond(400, JSON_HEADERS, JSON.stringify({ jsonrpc: "2.0", id: envelope.id, error: { code: ErrorCode.InvalidRequest, message: envelope.problem } }));
    this.tellRejected(400, ErrorCode.InvalidRequest, exchange.path);
  }

  private reject(exchange: HttpExchange, status: number, code: number, message: string): void {
    exchange.respond(status, JSON_HEADERS, errorBody(code, message));
    this.tellRejected(status, code, exchange.path);
  }

  private tellRejected(status: number, code: number, path: string): void {
    const events = this.engine.events;
    if (events.has("http:rejected")) events.emit("http:rejected", { status, code, path });
  }

  /** Tells listeners of each `Mcp-Param-*` header a `tools/call` sent for a parameter its (known) tool does not mirror. */
  private tellUnknownMirrored(exchange: HttpExchange, message: Record<string, unknown>, schemaOf: (tool: string) => unknown): void {
    const name = (message.params as Record<string, unknown> | undefined)?.name;
    if (message.method !== "tools/call" || typeof name !== "string" || !this.engine.catalog.tools.has(name)) return;
    for (const header of unknownMirroredHeaders(exchange.distinctHeaders, schemaOf(name))) {
      this.engine.events.emit("http:unknownMirroredHeader", { method: message.method, header, wire: "http" });
    }
  }

  /** The session a request names, or why it cannot have one (already answered). */
  private sessionFor(exchange: HttpExchange): HttpSession | undefined {
    const id = exchange.header("mcp-session-id");
    if (id === undefined) {
      this.reject(exchange, 400, -32000, "Bad Request: Mcp-Session-Id header is required (send initialize first to get one)");
      return undefined;
    }
    const session = this.sessions.get(id);
    if (!session) {
      this.reject(exchange, 404, -32001, "Session not found: it ended or never existed; initialize a new session");
      return undefined;
    }
    return session;
  }

  /** The version a request speaks by its header, or why it is unacceptable (already answered). */
  private headerVersion(exchange: HttpExchange): string | undefined {
    const version = exchange.header("mcp-protocol-version");
    if (version === undefined) return DEFAULT_HTTP_PROTOCOL_VERSION;
    if (!this.engine.protocolVersions.includes(version)) {
      // A session speaks the versions of initialize; 2026-07-28 requests never come this way.
      const sessionVersions = this.engine.protocolVersions.filter((v) => !versionHas(v, "perRequestMeta"));
      this.reject(exchange, 400, -32000, `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(version)} (supported: ${sessionVersions.join(", ")})`);
      return undefined;
    }
    return version;
  }

  /** The session of a request after `initialize`, once its version header passed (else answered already). */
  private openedSession(exchange: HttpExchange): HttpSession | undefined {
    return this.headerVersion(exchange) === undefined ? undefined : this.sessionFor(exchange);
  }

  private post(exchange: HttpExchange, body: BodyReader): void {
    const accept = exchange.header("accept") ?? "";
    if (!accept.includes("application/json") || !accept.includes("text/event-stream")) {
      return this.reject(exchange, 406, -32000, "Not Acceptable: the Accept header must list both application/json and text/event-stream");
    }
    // The media type (415) and the size (413) are the router's checks.
    body.read(exchange, (text) => this.postBody(exchange, text));
  }

  private postBody(exchange: HttpExchange, body: string): void {
    const read = parseMessageText(body);
    if ("error" in read) return this.reject(exchange, 400, read.error.code, read.error.message);
    const parsed = read.value;
    // A request that names its version per request (2026-07-28) takes the stateless path.
    if (isObject(parsed) && this.speaksPerRequest(exchange, parsed)) return this.statelessPost(exchange, parsed);
    if (Array.isArray(parsed)) {
      // Refused before any session or version is asked for: no header makes `[]` a request.
      if (parsed.length === 0) return this.refuseEmptyBatch(exchange);
      const perRequest = this.perRequestBatchVersion(exchange, parsed);
      if (perRequest !== undefined) return this.refuseBatch(exchange, perRequest, parsed.length);
      return this.postMessages(exchange, parsed, true);
    }
    const envelope = readEnvelope(parsed);
    // Input the server cannot accept gets an HTTP error status (the spec's MUST), never 200.
    if (envelope.kind === "invalid") return this.refuseInvalid(exchange, envelope);
    // The common case, one request other than initialize, goes straight to its answer; `postMessages` would take the same steps for it.
    if (envelope.kind === "request" && !isInitialize(parsed)) {
      const session = this.openedSession(exchange);
      if (!session) return;
      const facts = this.factsFor(exchange, session.identity);
      if (!facts) return;
      const answer = new PostAnswer(exchange, session, [idKey((parsed as JsonRpcRequest).id)], SINGLE_REQUEST);
      answer.take(this.engine.receive(session.engineConnection, parsed, requestContext(session.engineConnection, exchange, facts)));
      return;
    }
    this.postMessages(exchange, [parsed], false);
  }

  /** The per-request version a batch is sent in (its header's, or one its members' `_meta` names), or undefined for a legacy batch. */
  private perRequestBatchVersion(exchange: HttpExchange, messages: unknown[]): string | undefined {
    const header = exchange.header("mcp-protocol-version");
    if (servesPerRequest(header, this.engine.protocolVersions)) return header;
    for (const message of messages) {
      const declared = isObject(message) ? declaredVersion(message.params) : undefined;
      if (declared !== undefined) return typeof declared === "string" ? declared : JSON.stringify(declared);
    }
    return undefined;
  }

  /** A batch sent the per-request way: those revisions carry one message per POST (a session-less batch has nothing to answer it). */
  private refuseBatch(exchange: HttpExchange, version: string, size: number): void {
    this.reject(
      exchange,
      400,
      ErrorCode.InvalidRequest,
      `Invalid Request: protocol version ${version} carries one JSON-RPC message per POST, and this body is an array of ${size} (a batch); send each message in its own POST (batches exist only in ${versionsWith("jsonRpcBatches").join(", ")}, in a session)`,
    );
  }

  /** `[]`: JSON-RPC 2.0 answers an empty batch with one Invalid Request error, id null. */
  private refuseEmptyBatch(exchange: HttpExchange): void {
    const batches = versionsWith("jsonRpcBatches").join(", ");
    this.reject(
      exchange,
      400,
      ErrorCode.InvalidRequest,
      `Invalid Request: the body is an empty array (a batch of no messages), which JSON-RPC 2.0 refuses; send one JSON-RPC message object, or, in a ${batches} session, a batch of one or more`,
    );
  }

  /** The request facts (identity, mount) of a POST, or undefined when its identity earned a 400 (answered). */
  private factsFor(exchange: HttpExchange, stored: RequestIdentity | undefined, onSent?: (sent: FakeIdentity) => void): RequestFacts | undefined {
    const reading = readRequestIdentity(exchange, stored);
    if (reading.kind === "http-error") {
      exchange.respond(reading.status, JSON_HEADERS, reading.body);
      return undefined;
    }
    onSent?.(reading.sent);
    return reading.identity === NO_IDENTITY ? this.plainFacts : { mount: this.plainFacts.mount, identity: reading.identity };
  }

  /** Any POST body: a batch, `initialize`, notifications and responses, or a request. */
  private postMessages(exchange: HttpExchange, messages: unknown[], batch: boolean): void {
    const initialize = messages.find(isInitialize);

    let session: HttpSession;
    let facts: RequestFacts | undefined;
    if (initialize !== undefined) {
      if (messages.length > 1) return this.reject(exchange, 400, ErrorCode.InvalidRequest, "Invalid Request: initialize must be sent alone, not in a batch");
      // The identity an initialize sends is the session's from then on (a later request may override a field).
      let sent: FakeIdentity = {};
      facts = this.factsFor(exchange, undefined, (fields) => (sent = fields));
      if (!facts) return;
      session = this.openSession();
      session.identity = storedIdentity(undefined, sent);
    } else {
      const version = this.headerVersion(exchange);
      if (version === undefined) return;
      const found = this.sessionFor(exchange);
      if (!found) return;
      session = found;
      // Both the version the request claims and the one the session negotiated must allow batches.
      const refusing = batch ? [version, session.engineConnection.negotiated.protocolVersion].find((v) => !versionHas(v, "jsonRpcBatches")) : undefined;
      if (refusing !== undefined) {
        return this.reject(
          exchange,
          400,
          ErrorCode.InvalidRequest,
          `Invalid Request: JSON-RPC batches are not allowed in protocol version ${refusing} (only ${versionsWith("jsonRpcBatches").join(", ")})`,
        );
      }
      facts = this.factsFor(exchange, session.identity);
      if (!facts) return;
    }

    const envelopes = messages.map(readEnvelope);
    if (!envelopes.some((envelope) => envelope.kind === "request")) return this.acknowledge(exchange, session, messages, batch, facts);
    // Requests and invalid members each get an entry (JSON-RPC answers `[ping, 5]` with two); notifications and responses none.
    const answered = (envelope: Envelope) => envelope.kind === "request" || envelope.kind === "invalid";
    const keys = messages.flatMap((message, i) => (answered(envelopes[i]!) ? [memberKey(message, i, envelopes[i]!)] : []));
    const answer = new PostAnswer(exchange, session, keys, { batch, opensSession: initialize !== undefined });
    const connection = session.engineConnection;
    let member = 0;
    messages.forEach((message, i) => {
      const outcome = this.engine.receive(connection, message, requestContext(connection, exchange, facts));
      if (answered(envelopes[i]!)) answer.take(outcome, keys[member++]);
    });
  }

  /** Notifications and responses only: accepted with 202, or a JSON-RPC error for a malformed one. */
  private acknowledge(exchange: HttpExchange, session: HttpSession, messages: unknown[], batch: boolean, facts: RequestFacts): void {
    const connection = session.engineConnection;
    void Promise.all(messages.map((message) => this.engine.receive(connection, message, requestContext(connection, exchange, facts)))).then((outcomes) => {
      const errors = outcomes.flatMap((outcome) => (outcome.type === "reply" ? [outcome.text] : []));
      if (errors.length === 0) exchange.respond(202, {});
      else exchange.respond(400, JSON_HEADERS, batch ? `[${errors.join(",")}]` : errors[0]);
    });
  }

  private openSession(): HttpSession {
    // 128 random bits, hex: visible ASCII as the spec requires, and unguessable.
    const id = randomBytes(16).toString("hex");
    const session = new HttpSession(id, this.engine, { preferSse: this.options.responseMode === "sse", onEnd: this.forgetSession });
    this.sessions.set(id, session);
    return session;
  }

  /** 2026-07-28 has no GET stream and no DELETE (no sessions): 405, as the spec says. */
  private refusesModern(exchange: HttpExchange): boolean {
    if (!servesPerRequest(exchange.header("mcp-protocol-version"), this.engine.protocolVersions)) return false;
    exchange.respond(
      405,
      { ...JSON_HEADERS, allow: "POST" },
      errorBody(
        -32000,
        `Method Not Allowed: ${exchange.method} is not part of protocol version ${exchange.header("mcp-protocol-version")} (POST each request; subscriptions/listen replaces the GET stream)`,
      ),
    );
    return true;
  }

  private get(exchange: HttpExchange): void {
    if (this.refusesModern(exchange)) return;
    const accept = exchange.header("accept") ?? "";
    if (!accept.includes("text/event-stream")) return this.reject(exchange, 406, -32000, "Not Acceptable: a GET must accept text/event-stream");
    if (this.options.getStream === false) {
      exchange.respond(405, { ...JSON_HEADERS, allow: "POST, DELETE" }, errorBody(-32000, "Method Not Allowed: this server offers no GET stream"));
      return;
    }
    const session = this.openedSession(exchange);
    if (!session) return;
    const lastEventId = exchange.header("last-event-id");
    if (lastEventId !== undefined) {
      const position = parseEventId(lastEventId);
      const stream = position && session.streams.get(position.streamId);
      if (!position || !stream) return this.reject(exchange, 400, -32000, `Bad Request: unknown Last-Event-ID ${JSON.stringify(lastEventId)}`);
      if (stream.attached) return this.reject(exchange, 409, -32000, "Conflict: that stream is already connected");
      stream.attach(exchange.openStream(200, SSE_HEADERS), position.seq);
      return;
    }
    if (session.standalone.attached) return this.reject(exchange, 409, -32000, "Conflict: this session already has a GET stream open");
    session.standalone.attach(exchange.openStream(200, SSE_HEADERS));
  }

  private delete(exchange: HttpExchange): void {
    if (this.refusesModern(exchange)) return;
    const session = this.openedSession(exchange);
    if (!session) return;
    session.end("cancelled", "the client ended the session (DELETE)");
    exchange.respond(200, JSON_HEADERS, "{}");
  }
}
