/**
 * The answer to one POST that carried requests: one JSON body, or an SSE stream when the
 * server or a step asks for one, or as soon as the server has something to say before the
 * reply (progress, a log message, a sampling request). Each outcome the engine gives for the
 * POST's requests is enacted here.
 */
import type { StreamHints, WireOutcome } from "../../engine/outcome.js";
import type { JsonRpcResponse } from "../../protocol/jsonrpc.js";
import type { HttpExchange } from "./exchange.js";
import type { EventStream } from "./event-stream.js";

/**
 * What a POST's answer belongs to: a legacy session (`HttpSession`) or, in 2026-07-28, the
 * request alone (`StatelessRequest`), which has no session and whose stream closing cancels it.
 */
export interface AnswerHost {
  readonly id: string;
  readonly preferSse: boolean;
  /** 2026-07-28: the client closing the response stream cancels the request (legacy: it may resume). */
  readonly cancelOnClose: boolean;
  /** The HTTP status of a JSON answer (2026-07-28 maps some errors to 400 and 404); undefined: 200. */
  readonly statusOf?: (reply: JsonRpcResponse) => number;
  /** Extra headers of an SSE answer. */
  readonly sseHeaders?: Readonly<Record<string, string>>;
  openAnswer(answer: PostAnswer): void;
  keepAnswer(keys: readonly string[], answer: PostAnswer): void;
  forgetAnswer(keys: readonly string[], answer: PostAnswer): void;
  newStream(): EventStream;
  /** The requests with these keys end unanswered: the client left, or a step cut a stream that cannot be resumed. */
  abandonRequests(keys: readonly string[], why: Abandonment): void;
  end(outcome: "cancelled" | "disconnected", reason: string): void;
}

/** Why a POST's requests end unanswered: the client left it, or a step cut its stream for good. */
export type Abandonment = "client_left" | "stream_cut";

export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({ "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
export const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ "content-type": "application/json" });

export interface PostShape {
  /** A batch is answered with a JSON array. */
  batch: boolean;
  /** The POST is the `initialize` that opened its session: answers carry `Mcp-Session-Id`, unless it fails. */
  opensSession: boolean;
}

/** The common POST: one request on an open session. */
export const SINGLE_REQUEST: PostShape = Object.freeze({ batch: false, opensSession: false });

export class PostAnswer {
  private stream?: EventStream;
  private replies?: string[];
  private pending: number;
  /** How many of the POST's requests were cancelled (no answer): when all were, the stream closes as `request_cancelled`. */
  private cancelled = 0;
  private done = false;
  private waits = false;
  private hints?: StreamHints;
  /** How many outcomes were enacted, and in a batch which keys (a cut stream ends the others). */
  private enacted = 0;
  private settledKeys?: Set<string>;
  /** Headers every response to this POST carries (`mcp-session-id` on a successful initialize). */
  private headers?: Readonly<Record<string, string>>;
  private status = 200;

  constructor(
    private readonly exchange: HttpExchange,
    private readonly session: AnswerHost,
    /** The id keys of the POST's requests; the answer completes when each has an outcome. */
    private readonly keys: readonly string[],
    private readonly shape: PostShape,
  ) {
    this.pending = keys.length;
    if (shape.opensSession) this.headers = { "mcp-session-id": session.id };
    session.openAnswer(this);
  }

  /** Whether the request with this id key came in this POST. */
  carries(key: string): boolean {
    return this.keys.includes(key);
  }

  /** One request's outcome as `engine.receive` gave it (`key`: which, in a batch): enacted now, or when the promise settles. */
  take(outcome: WireOutcome | Promise<WireOutcome>, key?: string): void {
    if (!(outcome instanceof Promise)) return this.enact(outcome, key);
    this.wait();
    // A batch member that came after a cut of this stream can never be answered either.
    if (this.stream?.cutShort && key !== undefined) this.session.abandonRequests([key], "stream_cut");
    void outcome.then((settled) => this.enact(settled, key));
  }

  /** A server message related to one of this POST's requests; false when it cannot go here. */
  sendRelated(text: string): boolean {
    if (this.done) return false;
    this.startStream().push(text);
    return true;
  }

  /** A step's stream treatment; false when it cut a stream that cannot be resumed (the answer cannot go). */
  applyHints(hints: StreamHints): boolean {
    this.hints = { ...this.hints, ...hints };
    const wantsStream = hints.mode === "sse" || hints.closeAfterEvents !== undefined || hints.retryMs !== undefined;
    if (!wantsStream) return true;
    const fresh = !this.stream;
    const stream = this.startStream();
    if (!fresh && hints.retryMs !== undefined) stream.setRetry(hints.retryMs);
    if (hints.closeAfterEvents !== undefined) stream.closeAfter(hints.closeAfterEvents);
    return !stream.cutShort;
  }

  /** The session ended under this POST (server closed, DELETE, expiry): end its response. */
  abandon(): void {
    if (this.done) return;
    this.done = true;
    if (this.stream) this.stream.finish();
    // No answer will come, and a request must not get 202 (the client would wait forever): drop it.
    else this.exchange.destroy();
  }

  /** One request's outcome. */
  private enact(outcome: WireOutcome, key?: string): void {
    if (this.done) return;
    this.enacted++;
    if (key !== undefined && this.keys.length > 1) (this.settledKeys ??= new Set()).add(key);
    switch (outcome.type) {
      case "drop":
        this.complete();
        this.exchange.destroy();
        this.session.end("disconnected", "the mock dropped the connection (disconnect step)");
        return;
      case "raw":
        // In a batch (2025-03-26) the bytes stand in for that one member's answer; the others still go.
        if (this.shape.batch) {
          if (!this.stream) return this.reply(outcome.text);
          this.stream.writeRaw(outcome.text);
          return this.settleOne();
        }
        if (this.stream) {
          this.stream.writeRaw(outcome.text);
          this.stream.finish();
        } else this.exchange.respond(200, this.jsonHeaders(), outcome.text);
        this.complete();
        return;
      case "reply": {
        if (this.session.statusOf !== undefined && !this.stream) this.status = this.session.statusOf(outcome.message);
        const failedInitialize = this.shape.opensSession && "error" in outcome.message;
        // A failed initialize gets no session: its answer carries no Mcp-Session-Id.
        if (failedInitialize) this.headers = undefined;
        this.reply(outcome.text);
        if (failedInitialize) this.session.end("disconnected", "initialize failed");
        return;
      }
      case "none":
        if (outcome.cancelled) this.cancelled++;
        this.settleOne();
        return;
    }
  }

  private reply(text: string): void {
    // An error with its own HTTP status (2026-07-28: 400, 404) goes as JSON, so the status shows.
    if (!this.stream && this.session.preferSse && this.hints?.mode !== "json" && this.status === 200) this.startStream();
    if (this.stream) this.stream.push(text);
    else (this.replies ??= []).push(text);
    this.settleOne();
  }

  /** One more request has its outcome; with the last one the response goes out. */
  private settleOne(): void {
    if (--this.pending > 0) return;
    this.complete();
    const reason = this.cancelled === this.keys.length ? "request_cancelled" : "completed";
    if (this.stream) {
      this.stream.finish(reason);
      return;
    }
    const replies = this.replies;
    // Every request of the POST was cancelled: nothing answers them, but a request's POST never
    // gets 202 (the spec: a stream or JSON), so it gets an event stream that ends at once.
    if (replies === undefined) this.startStream().finish(reason);
    else this.exchange.respond(this.status, this.jsonHeaders(), this.shape.batch ? `[${replies.join(",")}]` : replies[0]);
  }

  /** Nothing more goes on this POST: server messages about its requests go on the GET stream. */
  private complete(): void {
    this.done = true;
    this.session.forgetAnswer(this.keys, this);
  }

  private jsonHeaders(): Readonly<Record<string, string>> {
    return this.headers === undefined ? JSON_HEADERS : { ...this.headers, ...JSON_HEADERS };
  }

  /** A request of this POST waits: it stays findable, and (only now) the client leaving first matters. */
  private wait(): void {
    if (this.waits) return;
    this.waits = true;
    this.session.keepAnswer(this.keys, this);
    this.exchange.onAbort(() => {
      // A legacy stream outlives its connection (the client may resume); a JSON answer cannot be
      // delivered any more, and in 2026-07-28 a closed stream is the request's cancellation.
      if (this.done || (this.stream && !this.session.cancelOnClose)) return;
      // Abandoned first, so the requests end saying the client left (not that they were answered).
      this.session.abandonRequests(this.keys, "client_left");
      this.complete();
    });
  }

  /**
   * A step cut this POST's stream and it cannot be resumed: the requests still unanswered never
   * can be (an event of another request in a batch may have been the cut). They end now; their
   * outcomes, when they come, settle the POST as usual.
   */
  private cutUnder(): void {
    if (this.done) return;
    // An answer that was itself the cut (the last event allowed) went: its request is not open.
    const open = this.keys.length === 1 ? (this.enacted === 0 ? this.keys : []) : this.keys.filter((key) => !this.settledKeys?.has(key));
    if (open.length > 0) this.session.abandonRequests(open, "stream_cut");
  }

  private startStream(): EventStream {
    if (this.stream) return this.stream;
    const stream = this.session.newStream();
    if (this.hints?.retryMs !== undefined) stream.retryMs = this.hints.retryMs;
    stream.onCut = () => this.cutUnder();
    this.stream = stream;
    const base = this.session.sseHeaders ?? SSE_HEADERS;
    const sink = this.exchange.openStream(200, this.headers === undefined ? base : { ...base, ...this.headers });
    if (this.replies) for (const text of this.replies.splice(0)) stream.push(text);
    stream.attach(sink, 0);
    return stream;
  }
}
