/**
 * `driver.traffic.on("message", listener)`: every JSON-RPC message the driver sends or receives,
 * as it goes, with the session, the revision, a timestamp and, over HTTP, the request's or the
 * response's facts (status, headers with credentials redacted). The same shape as a mock's
 * `message` event, seen from the client. Nothing is built while nobody listens.
 *
 * Over HTTP the messages sent are told from the `fetch` that carries them (so the headers are
 * the ones that went, per-request ones included), and a response's status and headers are kept
 * by the id of the request it answers until the answer is told.
 */
import { EventHub } from "../engine/events.js";
import { redactedHeaders, type HttpFacts } from "../protocol/http-facts.js";
import { isObject, type JsonRpcId, type JsonRpcMessage } from "../protocol/jsonrpc.js";
import type { MessageProblem } from "../inspect/types.js";

export interface DriverMessageEvent {
  /** `out`: the driver sent it; `in`: the server sent it. */
  readonly direction: "in" | "out";
  readonly message: JsonRpcMessage;
  readonly wire: "stdio" | "http" | "attached";
  /** The server's session id (legacy Streamable HTTP), once it gave one. */
  readonly sessionId?: string;
  /** The revision spoken: the negotiated one, once known. */
  readonly protocolVersion?: string;
  /** The test id the driver sends (its `X-Test-Id` header), if any. */
  readonly testId?: string;
  /** `Date.now()` when the driver sent or received it. */
  readonly at: number;
  /**
   * Over HTTP: for a message sent, the POST's method, path and headers; for an answer, the status
   * and headers of the response it came on. Credentials are "[redacted]".
   */
  readonly http?: HttpFacts;
  /** What the validator found wrong in a message the server sent (against the negotiated revision). */
  readonly problems?: readonly MessageProblem[];
}

export interface DriverEvents {
  message: DriverMessageEvent;
}

/** Responses' facts kept for answers not told yet; past this many the oldest go (an answer that never came). */
const KEPT_RESPONSES = 1000;

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

export class MessageTap {
  readonly events = new EventHub<DriverEvents>();
  private readonly answeredBy = new Map<JsonRpcId, HttpFacts>();
  private sessionId: () => string | undefined = () => undefined;
  private protocolVersion: () => string | undefined = () => undefined;

  constructor(
    readonly wire: DriverMessageEvent["wire"],
    private readonly testId?: string,
  ) {}

  /** Where the session and the revision are read when an event is built. */
  bind(facts: { sessionId: () => string | undefined; protocolVersion: () => string | undefined }): void {
    this.sessionId = facts.sessionId;
    this.protocolVersion = facts.protocolVersion;
  }

  /** A message the session sent; over HTTP the fetch tells it instead (with the headers that went). */
  sent(message: unknown): void {
    if (this.wire === "http" || !this.events.has("message")) return;
    this.emit("out", message as JsonRpcMessage, undefined);
  }

  /** A message the session received; an answer over HTTP gets the facts of its response. */
  received(message: unknown, problems?: readonly MessageProblem[]): void {
    if (!this.events.has("message")) return;
    let http: HttpFacts | undefined;
    if (isObject(message) && "id" in message && !("method" in message)) {
      const id = message.id as JsonRpcId;
      http = this.answeredBy.get(id);
      this.answeredBy.delete(id);
    }
    this.emit("in", message as JsonRpcMessage, http, problems);
  }

  /** `fetch`, watched: each POST's messages are told as sent, and each response kept for the answers it carries. */
  watch(base: Fetch): Fetch {
    return async (url, init) => {
      if (!this.events.has("message") || init?.method !== "POST" || typeof init.body !== "string") return await base(url, init);
      const messages = messagesIn(init.body);
      const request = { method: "POST", path: new URL(url).pathname };
      const headers = redactedHeaders(new Headers(init.headers));
      for (const message of messages) this.emit("out", message, { ...request, headers });
      const response = await base(url, init);
      for (const message of messages) {
        if (message.id === undefined || message.method === undefined) continue;
        if (this.answeredBy.size >= KEPT_RESPONSES) this.answeredBy.delete(this.answeredBy.keys().next().value!);
        this.answeredBy.set(message.id, { ...request, status: response.status, headers: redactedHeaders(response.headers) });
      }
      return response;
    };
  }

  private emit(direction: "in" | "out", message: JsonRpcMessage, http: HttpFacts | undefined, problems?: readonly MessageProblem[]): void {
    const sessionId = this.sessionId();
    const protocolVersion = this.protocolVersion();
    this.events.emit("message", {
      direction,
      message,
      wire: this.wire,
      ...(sessionId !== undefined && { sessionId }),
      ...(protocolVersion !== undefined && { protocolVersion }),
      ...(this.testId !== undefined && { testId: this.testId }),
      at: Date.now(),
      ...(http !== undefined && { http }),
      ...(problems !== undefined && problems.length > 0 && { problems }),
    });
  }
}

/** The JSON-RPC messages a POST body carries (one, or a batch); none when it is not JSON. */
type PostedMessage = JsonRpcMessage & { id?: JsonRpcId; method?: string };

function messagesIn(body: string): PostedMessage[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  return (Array.isArray(parsed) ? parsed : [parsed]).filter(isObject) as unknown as PostedMessage[];
}
