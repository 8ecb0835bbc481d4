/**
 * The fixed vocabularies observers and metrics speak: how a request ended as its client saw it,
 * and why a stream or subscription closed. One classification, used for the mock (from its
 * events) and for any server seen from the client's side (the simulator), so both agree.
 */
import type { JsonRpcErrorObject } from "../protocol/jsonrpc.js";
import { ErrorCode } from "../protocol/errors.js";
import type { NoReplyCause, RequestOutcome } from "../engine/events.js";

/** How an admitted request ended, as the client saw it. */
export type McpRequestOutcome =
  /** A result (for `tools/call`, one that is not `isError`). */
  | "complete"
  /** A 2026-07-28 result with `resultType: "input_required"` (the client must answer and retry). */
  | "input_required"
  /** A JSON-RPC error with an application's own code (a `throws` step with a code of its choosing, e.g. -32000). */
  | "rejected"
  /** A tool result with `isError: true`. */
  | "application_error"
  /** A JSON-RPC error with a code the protocol defines (-32700, -32600, -32601, -32602, -32002, -32020…-32099), or bytes that are no response at all (a `raw` step). */
  | "protocol_error"
  /** A JSON-RPC error -32603. */
  | "internal_error"
  /** Nothing was sent: the client cancelled, or the server ended the session under the request. */
  | "cancelled"
  /** Nothing was sent in time: a deadline passed (the simulator's own wait, or a real server's). */
  | "deadline_exceeded"
  /** Nothing was sent: the client went away first. */
  | "client_disconnected"
  /** The answer could not be delivered: the connection was dropped (a `disconnect` step), a step cut a stream that cannot be resumed, or the write failed. */
  | "write_failed";

export const MCP_REQUEST_OUTCOMES: readonly McpRequestOutcome[] = [
  "complete",
  "input_required",
  "rejected",
  "application_error",
  "protocol_error",
  "internal_error",
  "cancelled",
  "deadline_exceeded",
  "client_disconnected",
  "write_failed",
];

/** Why a stream (an SSE answer) or a subscription (a standalone GET stream) closed. */
export type StreamTerminationReason =
  | "completed"
  | "client_disconnected"
  /** A step closed it early for the client to resume (`closeAfterEvents`). */
  | "closed_for_resumption"
  /** A step closed it early (`closeAfterEvents`) where it cannot be resumed (no event ids): anything after the cut is lost. */
  | "cut_by_step"
  | "request_cancelled"
  | "session_expired"
  | "session_closed"
  | "server_stopping"
  | "write_failed"
  | "deadline_exceeded"
  /** The simulator stopped capturing: its pending-item queue was full. */
  | "capture_item_limit"
  /** The simulator stopped capturing: the captured bytes reached the limit. */
  | "capture_byte_limit"
  /** The simulator read bytes that are no SSE JSON-RPC stream, or the target failed. */
  | "internal_error";

export const STREAM_TERMINATION_REASONS: readonly StreamTerminationReason[] = [
  "completed",
  "client_disconnected",
  "closed_for_resumption",
  "cut_by_step",
  "request_cancelled",
  "session_expired",
  "session_closed",
  "server_stopping",
  "write_failed",
  "deadline_exceeded",
  "capture_item_limit",
  "capture_byte_limit",
  "internal_error",
];

/** Error codes the protocol itself defines (anything else is an application's own, `rejected`). */
function isProtocolCode(code: number): boolean {
  return (
    (code <= -32600 && code >= -32700) || code === ErrorCode.InvalidParams || code === ErrorCode.ResourceNotFound || code === ErrorCode.UrlElicitationRequired || (code <= -32020 && code >= -32099)
  );
}

/** The outcome of a JSON-RPC error the client received. */
export function errorOutcome(error: JsonRpcErrorObject): McpRequestOutcome {
  if (error.code === ErrorCode.InternalError) return "internal_error";
  return isProtocolCode(error.code) ? "protocol_error" : "rejected";
}

/** The outcome of a result the client received (`isError`, `resultType` decide). */
export function resultOutcome(result: unknown): McpRequestOutcome {
  if (typeof result !== "object" || result === null) return "complete";
  const fields = result as { isError?: unknown; resultType?: unknown };
  if (fields.resultType === "input_required") return "input_required";
  return fields.isError === true ? "application_error" : "complete";
}

/** The outcome of a JSON-RPC response message (a parsed body or SSE event). */
export function responseOutcome(message: { error?: JsonRpcErrorObject; result?: unknown }): McpRequestOutcome {
  return message.error !== undefined ? errorOutcome(message.error) : resultOutcome(message.result);
}

const NO_REPLY_OUTCOMES: Record<NoReplyCause, McpRequestOutcome> = {
  cancelled: "cancelled",
  client_disconnected: "client_disconnected",
  session_closed: "cancelled",
  // The client got no answer because the server ended its stream: it was not delivered.
  stream_cut: "write_failed",
};

/** The client-visible outcome of the mock's `request:end`. */
export function mockRequestOutcome(end: { outcome: RequestOutcome; error?: JsonRpcErrorObject; result?: unknown; noReplyCause?: NoReplyCause }): McpRequestOutcome {
  switch (end.outcome) {
    case "result":
      return resultOutcome(end.result);
    case "error":
      return end.error === undefined ? "internal_error" : errorOutcome(end.error);
    case "drop":
      return "write_failed";
    case "raw":
      return "protocol_error";
    case "none":
      return end.noReplyCause === undefined ? "cancelled" : NO_REPLY_OUTCOMES[end.noReplyCause];
  }
}
