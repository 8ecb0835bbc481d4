/**
 * One Streamable HTTP session: the engine session behind an `Mcp-Session-Id`, its standalone
 * GET stream, the SSE streams of its POSTs (kept for resumption), and the POSTs still waiting
 * for answers, so server messages about a request go on that request's stream.
 */
import type { Engine } from "../../engine/engine.js";
import type { JsonRpcId, JsonRpcResponse } from "../../protocol/jsonrpc.js";
import { ErrorCode } from "../../protocol/errors.js";
import { STREAM_CUT_REASON, type SendOptions, type StreamHints } from "../../engine/outcome.js";
import { idKey, type Connection as EngineConnection } from "../../engine/connection.js";
import type { RequestIdentity } from "../../engine/request-context.js";
import { versionHas } from "../../protocol/versions.js";
import type { StreamCloseReason } from "../../engine/events.js";
import { EventStream, type StreamObserver } from "./event-stream.js";
import type { SocketConnection } from "./exchange.js";
import type { Abandonment, AnswerHost, PostAnswer } from "./post-answer.js";

/** Finished POST streams kept for `Last-Event-ID` resumption, per session. */
const MAX_KEPT_STREAMS = 100;
/**
 * A POST stream finished on a live connection needs no resumption once that connection is seen
 * to have stayed open: the client read it to the end. That is checked when 8 newer streams have
 * been delivered, time enough for a client that went away just as the end was written to show
 * as gone (its stream then stays, like any other interrupted one). Forgetting delivered streams
 * keeps a busy session's garbage young instead of holding its last 100 answers.
 */
const DELIVERED_STREAMS_KEPT = 8;

interface Delivery {
  stream: EventStream;
  /** The connection that carried the stream's end (only it is kept, not the request and response). */
  connection: SocketConnection;
}

export interface HttpSessionOptions {
  /** Answer requests as SSE streams unless a step asks for JSON (`responseMode: "sse"`). */
  preferSse: boolean;
  /** Called first when the session ends, so the endpoint stops routing requests to it. */
  onEnd: (session: HttpSession) => void;
}

export class HttpSession implements AnswerHost {
  /** A legacy stream may be resumed after its connection drops: that is no cancellation. */
  readonly cancelOnClose = false;
  /** 400 for a refused version (a modern-only mock's answer to `initialize`); every other legacy answer is 200. */
  readonly statusOf = legacyStatusOf;
  readonly engineConnection: EngineConnection;
  /** The identity (test id, context, undeclared) its `initialize` sent, for the requests that send none. */
  identity?: RequestIdentity;
  readonly standalone: EventStream;
  /** Every stream that can still be resumed, by id. */
  readonly streams = new Map<string, EventStream>();
  /**
   * The POST whose messages the engine is handling right now. Most answers are complete before
   * the engine returns, so a POST joins `waiting` only once one of its requests waits: no map
   * entry to add and remove per call.
   */
  private receiving?: PostAnswer;
  /** POSTs with a request whose answer waits (a delay, a hang, a step function), by request id key. */
  private readonly waiting = new Map<string, PostAnswer>();
  readonly preferSse: boolean;
  private nextStreamNumber = 0;
  /** The newest streams delivered whole, oldest first (see DELIVERED_STREAMS_KEPT). */
  private readonly deliveries: Delivery[] = [];
  ended = false;

  constructor(
    readonly id: string,
    private readonly engine: Engine,
    private readonly options: HttpSessionOptions,
  ) {
    this.preferSse = options.preferSse;
    this.engineConnection = engine.openConnection(
      {
        send: (text, options) => this.route(text, options),
        prepare: (requestId, hints) => this.prepare(requestId, hints),
      },
      "http",
      id,
    );
    // The GET stream always carries event ids (resumable since 2025-03-26); priming only where the version has it.
    this.standalone = new EventStream("g", true, () => this.resumable(), undefined, this.observer);
    this.streams.set("g", this.standalone);
  }

  /** Whether POST streams carry event ids and a priming event: 2025-11-25 and later. */
  resumable(): boolean {
    return versionHas(this.engineConnection.negotiated.protocolVersion, "ssePriming");
  }

  newStream(): EventStream {
    const stream = new EventStream(`p${this.nextStreamNumber++}`, this.resumable(), undefined, this.forgetLater, this.observer);
    if (stream.resumable) {
      this.streams.set(stream.id, stream);
      if (this.streams.size > MAX_KEPT_STREAMS + 1) {
        for (const [id, old] of this.streams) {
          if (id !== "g" && old.finished) {
            this.streams.delete(id);
            break;
          }
        }
      }
    }
    return stream;
  }

  /** A stream delivered whole: forgotten once DELIVERED_STREAMS_KEPT newer ones were delivered, if its connection is still open. */
  private readonly forgetLater = (stream: EventStream, connection: SocketConnection): void => {
    if (this.ended || !stream.resumable || this.deliveries.some((delivery) => delivery.stream === stream)) return;
    this.deliveries.push({ stream, connection });
    if (this.deliveries.length <= DELIVERED_STREAMS_KEPT) return;
    const oldest = this.deliveries.shift()!;
    if (!oldest.connection.destroyed && this.streams.get(oldest.stream.id) === oldest.stream) this.streams.delete(oldest.stream.id);
  };

  /** A POST's requests go to the engine: server messages about them go on its answer. */
  openAnswer(answer: PostAnswer): void {
    this.receiving = answer;
  }

  /** One of the POST's requests waits: its answer stays findable by its requests' keys until complete. */
  keepAnswer(keys: readonly string[], answer: PostAnswer): void {
    for (const key of keys) this.waiting.set(key, answer);
    if (this.receiving === answer) this.receiving = undefined;
  }

  /** The POST `answer` is complete: server messages about its requests go on the GET stream from now on. */
  forgetAnswer(keys: readonly string[], answer: PostAnswer): void {
    if (this.receiving === answer) this.receiving = undefined;
    else for (const key of keys) if (this.waiting.get(key) === answer) this.waiting.delete(key);
  }

  /** The unanswered POST that carried the request with this id key, if any. */
  private answerFor(key: string): PostAnswer | undefined {
    const receiving = this.receiving;
    return receiving?.carries(key) ? receiving : this.waiting.get(key);
  }

  /** The client dropped the connection of a JSON answer: its requests end as `disconnected` (nothing can deliver them now). */
  abandonRequests(keys: readonly string[], why: Abandonment): void {
    for (const key of keys) {
      if (why === "stream_cut") this.engine.abortRequest(this.engineConnection, key, "disconnected", STREAM_CUT_REASON, "stream_cut");
      else this.engine.abortRequest(this.engineConnection, key, "disconnected", "the client closed the HTTP connection before the answer");
    }
  }

  /**
   * Ends the session: its next request gets 404, its calls in flight end with `outcome`, its
   * connections close (`streamReason` tells stream observers why).
   */
  end(outcome: "cancelled" | "disconnected", reason: string, streamReason: StreamCloseReason = "session_closed"): void {
    this.options.onEnd(this);
    this.engine.closeConnection(this.engineConnection, outcome, reason);
    this.endStreams(streamReason);
  }

  /** Tells the mock's `stream:open` / `stream:close` listeners, when there are any. */
  private readonly observer: StreamObserver = {
    opened: (stream) => {
      const events = this.engine.events;
      if (events.has("stream:open")) events.emit("stream:open", { sessionId: this.id, streamId: stream.id, kind: stream.id === "g" ? "standalone" : "request" });
    },
    closed: (stream, reason) => {
      const events = this.engine.events;
      if (events.has("stream:close")) events.emit("stream:close", { sessionId: this.id, streamId: stream.id, kind: stream.id === "g" ? "standalone" : "request", reason });
    },
    watchesClose: () => this.engine.events.has("stream:close"),
  };

  /** Server messages about a request go on its POST's stream; the rest on the GET stream. */
  private route(text: string, options?: SendOptions): void {
    if (options?.relatedRequestId !== undefined) {
      const answer = this.answerFor(idKey(options.relatedRequestId));
      if (answer?.sendRelated(text)) return;
    }
    this.standalone.push(text);
  }

  private prepare(requestId: JsonRpcId, hints: StreamHints): boolean {
    return this.answerFor(idKey(requestId))?.applyHints(hints) ?? true;
  }

  /** Ends every connection of the session. */
  private endStreams(reason: StreamCloseReason): void {
    this.ended = true;
    const unanswered = new Set(this.waiting.values());
    if (this.receiving) unanswered.add(this.receiving);
    this.receiving = undefined;
    this.waiting.clear();
    for (const answer of unanswered) answer.abandon();
    for (const stream of this.streams.values()) stream.finish(reason);
  }
}

/** The HTTP status of a legacy session's JSON answer: 400 for -32022, as 2026-07-28 gives it; 200 otherwise. */
function legacyStatusOf(reply: JsonRpcResponse): number {
  return "error" in reply && reply.error.code === ErrorCode.UnsupportedProtocolVersion ? 400 : 200;
}
