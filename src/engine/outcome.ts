/**
 * Outcomes: what the engine decided should happen on the wire, as plain data. The engine knows
 * no wire; each wire (memory, stdio, Streamable HTTP, simulator) enacts outcomes its own way,
 * so every fault works on every wire.
 */
import type { JsonRpcErrorObject, JsonRpcId, JsonRpcResponse } from "../protocol/jsonrpc.js";
import { errorResponse } from "../protocol/jsonrpc.js";
import type { CallEnding, CallOutcome, ToolCall } from "./call-log.js";
import type { NoReplyCause } from "./events.js";

/** Send this response. */
export interface Reply {
  type: "reply";
  message: JsonRpcResponse;
  /**
   * The tool call this reply ends. It is recorded when the reply is serialized, not before: a
   * reply JSON cannot carry goes as a -32603 error, and the record shows that error.
   */
  ends?: EndingCall;
}

export interface EndingCall {
  call: ToolCall;
  outcome: CallOutcome;
  ending: CallEnding;
}

/** A reply as the engine hands it to a wire: serialized once, so every wire writes the same text. */
export interface SerializedReply {
  type: "reply";
  message: JsonRpcResponse;
  text: string;
}

/** What the engine hands a wire: an outcome whose reply, if any, is serialized already. */
export type WireOutcome = SerializedReply | Unanswered;

/** What a method handler decides. */
export type Outcome = Reply | Unanswered;

/** The outcomes with no JSON-RPC reply: the same for the engine's handlers and its wires. */
export type Unanswered =
  /** Send nothing (a notification, a cancelled or hung request); `cancelled` when the client cancelled it, `cause` when observers should hear why. */
  | { type: "none"; cancelled?: true; cause?: NoReplyCause }
  /** Drop the connection (and, over HTTP, end the session). */
  | { type: "drop" }
  /** Write these bytes where the reply would go, unchecked (to test a client's parser). */
  | { type: "raw"; text: string };

export const NO_REPLY: Unanswered = Object.freeze({ type: "none" });
/** No reply because the request was cancelled: a wire that streams ends the request's stream as cancelled. */
export const CANCELLED: Unanswered = Object.freeze({ type: "none", cancelled: true });
export const DROP: Unanswered = Object.freeze({ type: "drop" });
/** No reply because the step cut a response stream that cannot be resumed before its answer. */
export const STREAM_CUT: Unanswered = Object.freeze({ type: "none", cause: "stream_cut" });
/** Why a call ends with STREAM_CUT (or under a stream a step cut), in its record. */
export const STREAM_CUT_REASON = "a step's stream.closeAfterEvents closed the response stream before this answer, and the stream cannot be resumed (its events carry no ids), so no answer was sent";

export function replyWith(id: JsonRpcId, result: unknown): Outcome {
  // `result` is deliberately unchecked: a raw step may send anything, even something malformed.
  return { type: "reply", message: { jsonrpc: "2.0", id, result } as JsonRpcResponse };
}

export function replyError(id: JsonRpcId | null, error: JsonRpcErrorObject): Outcome {
  return { type: "reply", message: errorResponse(id, error) };
}

/** A reply that ends a tool call's record with `ending` (recorded once the reply is serialized). */
export function replyEnding(message: JsonRpcResponse, call: ToolCall, outcome: CallOutcome, ending: CallEnding): Outcome {
  return { type: "reply", message, ends: { call, outcome, ending } };
}

export { RpcError } from "../protocol/rpc-error.js";

/** Options that travel with a server-initiated message, so a wire can pick its stream. */
export interface SendOptions {
  /** The client request this message belongs to (e.g. progress for a tool call). */
  relatedRequestId?: JsonRpcId;
}

/**
 * How a wire that streams (Streamable HTTP) should carry one request's answer. Wires without
 * streams ignore it.
 */
export interface StreamHints {
  /** Answer as one JSON body or as an SSE stream (default: the server's `responseMode`). */
  mode?: "json" | "sse";
  /** Close the SSE stream after this many message events, so the client must resume with `Last-Event-ID`. */
  closeAfterEvents?: number;
  /** The `retry:` (ms) sent on the stream, telling the client when to reconnect. */
  retryMs?: number;
}

/** The client side of a session, as the engine sees it: where server-initiated messages go. */
export interface Peer {
  /** A server-initiated message, serialized once by the connection: every wire writes this text. */
  send(text: string, options?: SendOptions): void;
  /**
   * Called before a request is answered when its step asks for a particular stream treatment;
   * false when the answer cannot go any more (the hints cut a stream that cannot be resumed).
   */
  prepare?(requestId: JsonRpcId, hints: StreamHints): boolean;
}
