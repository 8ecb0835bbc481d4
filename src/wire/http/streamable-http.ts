/**
 * The Streamable HTTP endpoint (spec revision 2025-11-25): sessions, POST / GET / DELETE,
 * header rules, JSON or SSE answers, the standalone GET stream, resumption with
 * `Last-Event-ID`, a body limit and DNS-rebinding protection. Every rule answers with the
 * status the spec names, and a JSON-RPC error body saying what was wrong.
 */
import { randomBytes } from "node:crypto";
import type { Engine } from "../../engine/engine.js";
import { ErrorCode } from "../../protocol/errors.js";
import { isObject, isRequest } from "../../protocol/jsonrpc.js";
import { DEFAULT_HTTP_PROTOCOL_VERSION, versionHas } from "../../protocol/versions.js";
import { idKey } from "../../engine/session.js";
import type { HttpExchange } from "./exchange.js";
import { parseEventId } from "./event-stream.js";
import { HttpSession } from "./http-session.js";
import { isLoopbackHost, OriginGuard, type OriginGuardOptions } from "./origin-guard.js";
import { PostAnswer, SSE_HEADERS } from "./post-answer.js";

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

const JSON_HEADERS = { "content-type": "application/json" };

function errorBody(code: number, message: string): string {
  return JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } });
}

export class StreamableHttpEndpoint {
  readonly sessions = new Map<string, HttpSession>();
  private readonly guard?: OriginGuard;
  private readonly maxBodyBytes: number;
  private closed = false;

  constructor(
    private readonly engine: Engine,
    private readonly options: StreamableHttpOptions = {},
  ) {
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    if (options.dnsRebindingProtection ?? (options.host === undefined || isLoopbackHost(options.host))) this.guard = new OriginGuard(options);
  }

  async handle(exchange: HttpExchange): Promise<void> {
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
    for (const session of targets) this.endSession(session, "cancelled", "the session expired (expireSession)");
    return targets.length;
  }

  close(): void {
    this.closed = true;
    for (const session of [...this.sessions.values()]) this.endSession(session, "cancelled", "the mock server closed");
  }

  private reject(exchange: HttpExchange, status: number, code: number, message: string): void {
    exchange.respond(status, JSON_HEADERS, errorBody(code, message));
  }

  private endSession(session: HttpSession, outcome: "cancelled" | "disconnected", reason: string): void {
    this.sessions.delete(session.id);
    this.engine.closeSession(session.engineSession, outcome, reason);
    session.endStreams();
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

  private async post(exchange: HttpExchange): Promise<void> {
    const accept = exchange.header("accept") ?? "";
    if (!accept.includes("application/json") || !accept.includes("text/event-stream")) {
      return this.reject(exchange, 406, -32000, "Not Acceptable: the Accept header must list both application/json and text/event-stream");
    }
    const contentType = exchange.header("content-type") ?? "";
    if (!contentType.toLowerCase().startsWith("application/json")) {
      return this.reject(exchange, 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
    }
    const body = await exchange.readBody(this.maxBodyBytes);
    if (!body.ok) {
      if (body.reason === "too-large") return this.reject(exchange, 413, -32000, `Payload Too Large: the body exceeds ${this.maxBodyBytes} bytes`);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.text);
    } catch (error) {
      return this.reject(exchange, 400, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`);
    }
    const batch = Array.isArray(parsed);
    const messages: unknown[] = batch ? (parsed as unknown[]) : [parsed];
    const initialize = messages.find((message) => isRequest(message) && message.method === "initialize");

    let session: HttpSession;
    const headers: Record<string, string> = {};
    if (initialize !== undefined) {
      if (messages.length > 1) return this.reject(exchange, 400, ErrorCode.InvalidRequest, "Invalid Request: initialize must be sent alone, not in a batch");
      session = this.openSession();
      headers["mcp-session-id"] = session.id;
    } else {
      const version = this.headerVersion(exchange);
      if (version === undefined) return;
      const found = this.sessionFor(exchange);
      if (!found) return;
      session = found;
      // Both the version the request claims and the one the session negotiated must allow batches.
      const refusing = [version, session.engineSession.protocolVersion].find((v) => !versionHas(v, "jsonRpcBatches"));
      if (batch && refusing !== undefined) {
        return this.reject(exchange, 400, ErrorCode.InvalidRequest, `Invalid Request: JSON-RPC batches are not allowed in protocol version ${refusing} (only 2025-03-26)`);
      }
    }
    if (batch && messages.length === 0) return this.reject(exchange, 400, ErrorCode.InvalidRequest, "Invalid Request: an empty batch");

    const requests = messages.filter((message) => isObject(message) && typeof message.method === "string" && message.id !== undefined);
    if (requests.length === 0) {
      // Notifications and responses: accepted with 202, or a JSON-RPC error for a malformed one.
      const outcomes = await Promise.all(messages.map((message) => this.engine.receive(session.engineSession, message)));
      const errors = outcomes.flatMap((outcome) => (outcome.type === "reply" ? [JSON.stringify(outcome.message)] : []));
      if (errors.length === 0) exchange.respond(202, headers);
      else exchange.respond(400, { ...headers, ...JSON_HEADERS }, batch ? `[${errors.join(",")}]` : errors[0]);
      return;
    }

    const keys = requests.map((request) => idKey((request as { id: string | number }).id));
    const answer = new PostAnswer({
      exchange,
      headers,
      expected: requests.length,
      batch,
      preferSse: this.options.responseMode === "sse",
      newStream: () => session.newStream(),
      onAbandoned: () => {
        for (const key of keys) this.engine.abortRequest(session.engineSession, key, "disconnected", "the client closed the HTTP connection before the answer");
      },
      onDrop: () => this.endSession(session, "disconnected", "the mock dropped the connection (disconnect step)"),
      onDone: () => {
        for (const key of keys) if (session.answers.get(key) === answer) session.answers.delete(key);
      },
    });
    for (const key of keys) session.answers.set(key, answer);
    for (const message of messages) {
      const isRequestMessage = requests.includes(message);
      void this.engine.receive(session.engineSession, message).then((outcome) => {
        const failedInitialize = initialize !== undefined && outcome.type === "reply" && "error" in outcome.message;
        // A failed initialize gets no session: its answer carries no Mcp-Session-Id.
        if (failedInitialize) delete headers["mcp-session-id"];
        if (isRequestMessage) answer.enact(outcome);
        if (failedInitialize) this.endSession(session, "disconnected", "initialize failed");
      });
    }
  }

  private openSession(): HttpSession {
    // 128 random bits, hex: visible ASCII as the spec requires, and unguessable.
    const id = randomBytes(16).toString("hex");
    const session: HttpSession = new HttpSession(id, this.engine, () => versionHas(session.engineSession.protocolVersion, "ssePriming"));
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
    if (this.headerVersion(exchange) === undefined) return;
    const session = this.sessionFor(exchange);
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
    if (this.headerVersion(exchange) === undefined) return;
    const session = this.sessionFor(exchange);
    if (!session) return;
    this.endSession(session, "cancelled", "the client ended the session (DELETE)");
    exchange.respond(200, JSON_HEADERS, "{}");
  }
}
