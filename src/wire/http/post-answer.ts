/**
 * The answer to one POST that carried requests: one JSON body, or an SSE stream when the
 * server or a step asks for one, or as soon as the server has something to say before the
 * reply (progress, a log message, a sampling request). Each outcome the engine gives for the
 * POST's requests is enacted here.
 */
import type { Outcome, StreamHints } from "../../engine/outcome.js";
import type { HttpExchange } from "./exchange.js";
import type { EventStream } from "./event-stream.js";

export const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" };

export interface PostAnswerOptions {
  exchange: HttpExchange;
  /** Headers every response to this POST carries (e.g. `mcp-session-id`). */
  headers: Record<string, string>;
  /** How many requests the POST carried; the answer completes when each has an outcome. */
  expected: number;
  /** A batch is answered with a JSON array. */
  batch: boolean;
  /** The server answers requests as SSE unless a step asks for JSON. */
  preferSse: boolean;
  newStream: () => EventStream;
  /** The client dropped the connection of a JSON answer (nothing can deliver it now). */
  onAbandoned: () => void;
  /** A drop outcome: the connection goes and so does the session. */
  onDrop: () => void;
  onDone: () => void;
}

export class PostAnswer {
  private stream?: EventStream;
  private readonly replies: string[] = [];
  private pending: number;
  private done = false;
  private hints?: StreamHints;

  constructor(private readonly options: PostAnswerOptions) {
    this.pending = options.expected;
    options.exchange.onAbort(() => {
      if (!this.stream && !this.done) {
        this.done = true;
        options.onAbandoned();
        options.onDone();
      }
    });
  }

  /** A server message related to one of this POST's requests; false when it cannot go here. */
  sendRelated(text: string): boolean {
    if (this.done) return false;
    this.startStream().push(text);
    return true;
  }

  applyHints(hints: StreamHints): void {
    this.hints = { ...this.hints, ...hints };
    const wantsStream = hints.mode === "sse" || hints.closeAfterEvents !== undefined || hints.retryMs !== undefined;
    if (!wantsStream) return;
    const fresh = !this.stream;
    const stream = this.startStream();
    if (!fresh && hints.retryMs !== undefined) stream.setRetry(hints.retryMs);
    if (hints.closeAfterEvents !== undefined) stream.closeAfter(hints.closeAfterEvents);
  }

  /** One request's outcome. */
  enact(outcome: Outcome): void {
    if (this.done) return;
    switch (outcome.type) {
      case "drop":
        this.done = true;
        this.options.exchange.destroy();
        this.options.onDrop();
        this.options.onDone();
        return;
      case "raw":
        if (this.stream) {
          this.stream.writeRaw(outcome.text);
          this.stream.finish();
        } else this.options.exchange.respond(200, { ...this.options.headers, "content-type": "application/json" }, outcome.text);
        this.done = true;
        this.options.onDone();
        return;
      case "reply": {
        const text = JSON.stringify(outcome.message);
        if (!this.stream && this.options.preferSse && this.hints?.mode !== "json") this.startStream();
        if (this.stream) this.stream.push(text);
        else this.replies.push(text);
        break;
      }
      case "none":
        break;
    }
    if (--this.pending > 0) return;
    this.done = true;
    this.finish();
    this.options.onDone();
  }

  /** The session ended under this POST (server closed, DELETE, expiry): end its response. */
  abandon(): void {
    if (this.done) return;
    this.done = true;
    if (this.stream) this.stream.finish();
    // No answer will come, and a request must not get 202 (the client would wait forever): drop it.
    else this.options.exchange.destroy();
  }

  private finish(): void {
    if (this.stream) {
      this.stream.finish();
      return;
    }
    const { exchange, headers, batch } = this.options;
    if (this.replies.length === 0) exchange.respond(202, headers);
    else exchange.respond(200, { ...headers, "content-type": "application/json" }, batch ? `[${this.replies.join(",")}]` : this.replies[0]);
  }

  private startStream(): EventStream {
    if (this.stream) return this.stream;
    const stream = this.options.newStream();
    if (this.hints?.retryMs !== undefined) stream.retryMs = this.hints.retryMs;
    this.stream = stream;
    const sink = this.options.exchange.openStream(200, { ...SSE_HEADERS, ...this.options.headers });
    for (const text of this.replies.splice(0)) stream.push(text);
    stream.attach(sink, 0);
    return stream;
  }
}
