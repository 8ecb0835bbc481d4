/**
 * The Streamable HTTP endpoint (spec revision 2025-11-25): sessions, POST / GET / DELETE,
 * header rules, JSON or SSE answers, the standalone GET stream, resumption with
 * `Last-Event-ID`, a body limit and DNS-rebinding protection. Every rule answers with the
 * status the spec names, and a JSON-RPC error body saying what was wrong.
 */
import { randomBytes } from "node:crypto";
import type { Engine } from "../../engine/engine.js";
import { ErrorCode } from "../../protocol/errors.js";
import { isRequest, type JsonRpcRequest } from "../../protocol/jsonrpc.js";
import { DEFAULT_HTTP_PROTOCOL_VERSION, versionHas } from "../../protocol/versions.js";
import { idKey } from "../../engine/connection.js";
import { requestContext } from "../../engine/request-context.js";
import { BODY_TOO_LARGE, type HttpExchange } from "./exchange.js";
import { parseEventId } from "./event-stream.js";
import { HttpSession } from "./http-session.js";
import { isLoopbackHost, OriginGuard, type OriginGuardOptions } from "./origin-guard.js";
import { JSON_HEADERS, PostAnswer, SINGLE_REQUEST, SSE_HEADERS } from "./post-answer.js";

export interface StreamableHttpOptions extends OriginGuardOptions {
  /** How requests are answered: one JSON body, or an SSE stream (steps may override). Default "json";
   * a JSON answer still turns into SSE when the server sends anything before the reply. */
  responseMode?: "json" | "sse";
  /** Serve the standalone GET stream (default true); false answers GET with 405. */
  getStream?: boolean;
  /** Largest accepted POST body (default 4 MiB); larger gets 413. */
  maxBodyBytes?: number;
  /** Check `Host` and `Origin` (403). Default: on, unless `host` is an address that is not loopback. */
  dnsRebindingProtection?: boolean;
  /** The host the mock listens on, if it listens (e.g. "0.0.0.0": reached by other names, so no Host check by default). */
  host?: string;
}

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

function errorBody(code: number, message: string): string {
  return JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } });
}

/** A lone request other than `initialize`: the POST a client sends for nearly every call. */
function isPlainRequest(message: unknown): message is JsonRpcRequest {
  return isRequest(message) && message.method !== "initialize";
}

function isInitialize(message: unknown): message is JsonRpcRequest {
  return isRequest(message) && message.method === "initialize";
}

function requestKey(request: JsonRpcRequest): string {
  return idKey(request.id);
}

export class StreamableHttpEndpoint {
  readonly sessions = new Map<string, HttpSession>();
  private readonly guard?: OriginGuard;
  private readonly maxBodyBytes: number;
  private closed = false;
  private readonly forgetSession = (session: HttpSession): void => {
    this.sessions.delete(session.id);
  };

  constructor(
    private readonly engine: Engine,
    private readonly options: StreamableHttpOptions = {},
  ) {
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    if (options.dnsRebindingProtection ?? (options.host === undefined || isLoopbackHost(options.host))) this.guard = new OriginGuard(options);
  }

  /** Answers one HTTP request; every failure is answered with its status, nothing is thrown. */
  handle(exchange: HttpExchange): void {
    if (this.closed) return this.reject(exchange, 503, -32000, "Service Unavailable: the mock server is closed");
    const refusal = this.guard?.check(exchange.header("host"), exchange.header("origin"));
    if (refusal) return this.reject(exchange, 403, -32000, `Forbidden: ${refusal}`);
    switch (exchange.method) {
      case "POST":
        return this.post(exchange);
      case "GET":
        return this.get(exchange);
      case "DELETE":
        return this.delete(exchange);
      default:
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
  }

  private reject(exchange: HttpExchange, status: number, code: number, message: string): void {
    exchange.respond(status, JSON_HEADERS, errorBody(code, message));
    const events = this.engine.events;
    if (events.has("http:rejected")) events.emit("http:rejected", { status, code, path: exchange.path });
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
      this.reject(exchange, 400, -32000, `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(version)} (supported: ${this.engine.protocolVersions.join(", ")})`);
      return undefined;
    }
    return version;
  }

  /** The session of a request after `initialize`, once its version header passed (else answered already). */
  private openedSession(exchange: HttpExchange): HttpSession | undefined {
    return this.headerVersion(exchange) === undefined ? undefined : this.sessionFor(exchange);
  }

  private post(exchange: HttpExchange): void {
    const accept = exchange.header("accept") ?? "";
    if (!accept.includes("application/json") || !accept.includes("text/event-stream")) {
      return this.reject(exchange, 406, -32000, "Not Acceptable: the Accept header must list both application/json and text/event-stream");
    }
    const contentType = exchange.header("content-type") ?? "";
    if (!contentType.toLowerCase().startsWith("application/json")) {
      return this.reject(exchange, 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
    }
    exchange.readBody(this.maxBodyBytes, (body) => this.postBody(exchange, body));
  }

  private postBody(exchange: HttpExchange, body: string | typeof BODY_TOO_LARGE): void {
    if (body === BODY_TOO_LARGE) return this.reject(exchange, 413, -32000, `Payload Too Large: the body exceeds ${this.maxBodyBytes} bytes`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch (error) {
      return this.reject(exchange, 400, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`);
    }
    // The common case goes straight to its answer; `postMessages` would take the same steps for it.
    if (isPlainRequest(parsed)) {
      const session = this.openedSession(exchange);
      if (!session) return;
      const answer = new PostAnswer(exchange, session, [requestKey(parsed)], SINGLE_REQUEST);
      answer.take(this.engine.receive(session.engineConnection, parsed, requestContext(session.engineConnection, exchange)));
      return;
    }
    this.postMessages(exchange, parsed);
  }

  /** Any POST body: a batch, `initialize`, notifications and responses, or a request. */
  private postMessages(exchange: HttpExchange, parsed: unknown): void {
    const batch = Array.isArray(parsed);
    const messages: unknown[] = batch ? (parsed as unknown[]) : [parsed];
    const initialize = messages.find(isInitialize);

    let session: HttpSession;
    if (initialize !== undefined) {
      if (messages.length > 1) return this.reject(exchange, 400, ErrorCode.InvalidRequest, "Invalid Request: initialize must be sent alone, not in a batch");
      session = this.openSession();
    } else {
      const version = this.headerVersion(exchange);
      if (version === undefined) return;
      const found = this.sessionFor(exchange);
      if (!found) return;
      session = found;
      // Both the version the request claims and the one the session negotiated must allow batches.
      const refusing = batch ? [version, session.engineConnection.negotiated.protocolVersion].find((v) => !versionHas(v, "jsonRpcBatches")) : undefined;
      if (refusing !== undefined) {
        return this.reject(exchange, 400, ErrorCode.InvalidRequest, `Invalid Request: JSON-RPC batches are not allowed in protocol version ${refusing} (only 2025-03-26)`);
      }
    }
    if (batch && messages.length === 0) return this.reject(exchange, 400, ErrorCode.InvalidRequest, "Invalid Request: an empty batch");

    const requests = messages.filter(isRequest);
    if (requests.length === 0) return this.acknowledge(exchange, session, messages, batch);
    const answer = new PostAnswer(exchange, session, requests.map(requestKey), { batch, opensSession: initialize !== undefined });
    for (const message of messages) {
      const outcome = this.engine.receive(session.engineConnection, message, requestContext(session.engineConnection, exchange));
      // Only requests are answered; what the engine says about the other messages of a batch is dropped.
      if (isRequest(message)) answer.take(outcome);
    }
  }

  /** Notifications and responses only: accepted with 202, or a JSON-RPC error for a malformed one. */
  private acknowledge(exchange: HttpExchange, session: HttpSession, messages: unknown[], batch: boolean): void {
    const connection = session.engineConnection;
    void Promise.all(messages.map((message) => this.engine.receive(connection, message, requestContext(connection, exchange)))).then((outcomes) => {
      const errors = outcomes.flatMap((outcome) => (outcome.type === "reply" ? [JSON.stringify(outcome.message)] : []));
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

  private get(exchange: HttpExchange): void {
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
    const session = this.openedSession(exchange);
    if (!session) return;
    session.end("cancelled", "the client ended the session (DELETE)");
    exchange.respond(200, JSON_HEADERS, "{}");
  }
}
