/**
 * One 2026-07-28 POST: a request served alone, with no session. It gets an engine connection of
 * its own for as long as it is answered, so its progress and log messages (and a listen's
 * notifications) go on its own response stream and nowhere else; the client closing that stream
 * cancels it; no event ids, no resumption, no `Mcp-Session-Id`.
 */
import { revisionsWith } from "../../protocol/versions.js";
import type { Engine } from "../../engine/engine.js";
import { ErrorCode } from "../../protocol/errors.js";
import type { JsonRpcId, JsonRpcResponse } from "../../protocol/jsonrpc.js";
import { STREAM_CUT_REASON, type Peer, type StreamHints } from "../../engine/outcome.js";
import type { Connection as EngineConnection } from "../../engine/connection.js";
import type { StreamCloseReason } from "../../engine/events.js";
import { EventStream, type StreamObserver } from "./event-stream.js";
import type { Abandonment, AnswerHost, PostAnswer } from "./post-answer.js";
import { SSE_HEADERS } from "./post-answer.js";

/** SSE through proxies unbuffered, as 2026-07-28 advises for every stream. */
const MODERN_SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({ ...SSE_HEADERS, "x-accel-buffering": "no" });

/** The HTTP status 2026-07-28 gives a JSON-RPC error: 404 for an unknown method, 400 for its own codes. */
const STATUS_OF_CODE = new Map<number, number>([
  [ErrorCode.MethodNotFound, 404],
  [ErrorCode.HeaderMismatch, 400],
  [ErrorCode.MissingRequiredClientCapability, 400],
  [ErrorCode.UnsupportedProtocolVersion, 400],
]);

export function modernStatusOf(reply: JsonRpcResponse): number {
  return "error" in reply ? (STATUS_OF_CODE.get(reply.error.code) ?? 200) : 200;
}

let nextRequestNumber = 0;

const NOT_A_SESSION = Object.freeze({ session: false });

export class StatelessRequest implements AnswerHost, Peer {
  readonly id: string;
  readonly cancelOnClose = true;
  readonly statusOf = modernStatusOf;
  readonly sseHeaders = MODERN_SSE_HEADERS;
  readonly engineConnection: EngineConnection;
  private answer?: PostAnswer;
  private ended = false;
  private stopping = false;

  constructor(
    private readonly engine: Engine,
    readonly preferSse: boolean,
    private readonly onEnd: (request: StatelessRequest) => void,
    /** Whether its SSE answer is a request stream to observers (a listen is a subscription instead, told by the engine). */
    private readonly observesStream = true,
  ) {
    this.id = `request-${nextRequestNumber++}`;
    // Not a session: it opens and closes with no session events. It is its connection's peer.
    this.engineConnection = engine.openConnection(this, "http", this.id, NOT_A_SESSION);
  }

  /** What the server sends about the request goes on its own response (a stream from then on). */
  send(text: string): void {
    this.answer?.sendRelated(text);
  }

  prepare(_requestId: JsonRpcId, hints: StreamHints): boolean {
    return this.answer?.applyHints(hints) ?? true;
  }

  openAnswer(answer: PostAnswer): void {
    this.answer = answer;
  }

  keepAnswer(): void {}

  /** Answered: the request's connection goes (a call parked for an MRTR retry left it already). */
  forgetAnswer(): void {
    this.answer = undefined;
    this.end("cancelled", "the request was answered");
  }

  newStream(): EventStream {
    const events = this.engine.events;
    const observed = this.observesStream && (events.has("stream:open") || events.has("stream:close"));
    return new EventStream(this.id, false, undefined, undefined, observed ? this.streamObserver() : undefined);
  }

  /** Tells `stream:open` / `stream:close` listeners of its SSE answer: no session, and a client closing it cancelled the request. */
  private streamObserver(): StreamObserver {
    const events = this.engine.events;
    return {
      opened: (stream) => {
        if (events.has("stream:open")) events.emit("stream:open", { sessionId: "", streamId: stream.id, kind: "request" });
      },
      closed: (stream, reason) => {
        if (events.has("stream:close")) events.emit("stream:close", { sessionId: "", streamId: stream.id, kind: "request", reason: this.closeReason(reason) });
      },
      watchesClose: () => events.has("stream:close"),
    };
  }

  private closeReason(reason: StreamCloseReason): StreamCloseReason {
    if (reason === "client_disconnected") return "request_cancelled";
    return this.stopping && reason === "completed" ? "server_stopping" : reason;
  }

  abandonRequests(keys: readonly string[], why: Abandonment): void {
    if (why === "stream_cut") {
      for (const key of keys) this.engine.abortRequest(this.engineConnection, key, "disconnected", STREAM_CUT_REASON, "stream_cut");
      return this.end("disconnected", STREAM_CUT_REASON);
    }
    for (const key of keys) this.engine.abortRequest(this.engineConnection, key, "cancelled", `the client closed the response stream, which cancels the request (${revisionsWith("perRequestMeta")})`);
    this.end("cancelled", "the client closed the response stream");
  }

  end(outcome: "cancelled" | "disconnected", reason: string): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnd(this);
    this.engine.closeConnection(this.engineConnection, outcome, reason);
  }

  /** The server closes: an unanswered request's response ends. */
  abandon(): void {
    this.stopping = true;
    const answer = this.answer;
    this.answer = undefined;
    answer?.abandon();
    this.end("cancelled", "the mock server closed");
  }
}
