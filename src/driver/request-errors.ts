/**
 * The errors a request ends with when no answer can be used, and the words they share: a JSON-RPC
 * error answer, an abort (before or after the request went out), a failed send, a schema problem
 * list. One module makes them, so the session and the eras say a thing the same way.
 */
import { revisionsWith } from "../protocol/versions.js";
import { ErrorCode } from "../protocol/errors.js";
import { isObject, type JsonRpcErrorObject, type JsonRpcId } from "../protocol/jsonrpc.js";
import { RpcError } from "../protocol/rpc-error.js";
import type { MessageProblem } from "../inspect/types.js";
import { ConnectionClosedError, McpDriverError, ProtocolError, RequestFailedError, RequestTimeoutError, type ProcessContext, type SendFailure } from "./errors.js";
import type { FailedRequest, JsonObject } from "./request-types.js";
import { describeCause } from "../util/error-causes.js";
import { clipCounted, errorText } from "../util/text.js";

/** How a request given up was cancelled at the server. */
export type CancelledHow = "stream-closed" | "notified";

export function defaultErrorFor(error: JsonRpcErrorObject, { method, label }: FailedRequest): McpDriverError {
  return new RequestFailedError(`The server answered ${label} with JSON-RPC error ${describeErrorObject(error)}`, {
    method,
    code: error.code,
    serverMessage: error.message,
    data: error.data,
  });
}

/** `-32601 (MethodNotFound): "Unknown method"`, with the data when there is some. */
export function describeErrorObject(error: JsonRpcErrorObject): string {
  const name = codeNames.get(error.code);
  const data = error.data === undefined ? "" : ` (data: ${clipCounted(safeJson(error.data), 300)})`;
  return `${String(error.code)}${name ? ` (${name})` : ""}: ${JSON.stringify(error.message)}${data}`;
}

const codeNames = new Map<number, string>(Object.entries(ErrorCode).map(([name, code]) => [code, name]));

/** The JSON-RPC error a server request is answered with when its handler threw. */
export function toJsonRpcError(error: unknown): JsonRpcErrorObject {
  if (error instanceof RpcError) return error.toObject();
  const code = isObject(error) && Number.isInteger(error.code) ? (error.code as number) : ErrorCode.InternalError;
  const message = errorText(error);
  return { code, message };
}

/** How a request given up was cancelled at the server, in words. */
export function cancelledHow(how: CancelledHow): string {
  return how === "stream-closed" ? `closed its response stream (how ${revisionsWith("perRequestMeta")} cancels over HTTP)` : "sent notifications/cancelled";
}

/** The signal had aborted before the request was written: nothing went to the server. */
export function abortedBeforeSending(label: string, method: string, reason: unknown, process: ProcessContext | undefined): McpDriverError {
  return new McpDriverError(`${label} was aborted (${describeCause(reason)}) before it was sent; nothing was sent to the server.`, { method, cause: reason, process });
}

/** The signal aborted while the request waited for its answer. */
export function abortedInFlight(request: { label: string; id: JsonRpcId; method: string }, reason: unknown, how: CancelledHow, process: ProcessContext | undefined): McpDriverError {
  return new McpDriverError(`${request.label} (id ${request.id}) was aborted (${describeCause(reason)}); ${cancelledHow(how)}.`, {
    method: request.method,
    id: request.id,
    cause: reason,
    process,
  });
}

export function formatProblems(problems: readonly MessageProblem[]): string {
  return problems.map((problem) => `  - ${problem.path}: ${problem.message} [${problem.rule}]`).join("\n");
}

/**
 * What a failed send means. Over HTTP the transport's send is the whole round trip, so a refusal
 * (an HTTP status) or a connection cut before the answer came is no failure to send.
 */
export function describeSendFailure(
  label: string,
  id: number,
  error: unknown,
  seen: { refusedAt?: string | undefined; foreignContentType?: string | undefined } = {},
): { failure: SendFailure; text: string; url?: string } {
  const { refusedAt, foreignContentType: contentType } = seen;
  // Nothing listening is said first, in plain words: the method's name means little to a user at a wrong port.
  if (refusedAt !== undefined) {
    return {
      failure: "nothingListening",
      url: refusedAt,
      text: `Nothing answered at ${refusedAt} (connection refused), so ${label} (id ${id}) was not sent. Is the server running, on this port? Detail`,
    };
  }
  const status = (error as { code?: unknown } | undefined)?.code;
  if (typeof status === "number" && status >= 400 && status < 600) return { failure: "refused", text: `The server refused ${label} (id ${id}) with HTTP ${status}` };
  if (closedMidRequest(error)) return { failure: "closedMidRequest", text: `The server closed the connection before answering ${label} (id ${id})` };
  // An answer that was neither JSON nor an event stream (a web page, most often: the wrong path), as the driver's fetch saw it.
  if (contentType !== undefined)
    return { failure: "notMcpEndpoint", text: `The server answered ${label} (id ${id}) with ${contentType}, not JSON or an event stream: is the URL the MCP endpoint (its path is often /mcp)?` };
  return { failure: "notSent", text: `Could not send ${label} (id ${id})` };
}

/** undici's "other side closed" (`UND_ERR_SOCKET`) under fetch's "fetch failed": the request went out, the answer never came. */
function closedMidRequest(error: unknown): boolean {
  let cause: unknown = error;
  for (let depth = 0; cause instanceof Error && depth < 5; depth++) {
    if ((cause as { code?: unknown }).code === "UND_ERR_SOCKET") return true;
    cause = cause.cause;
  }
  return false;
}

export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The server sent something that breaks JSON-RPC (`what` says what, in words). */
export function invalidMessageError(what: string, message: unknown, problems: readonly MessageProblem[], process: ProcessContext | undefined): ProtocolError {
  const details = problems.length > 0 ? `:\n${formatProblems(problems)}` : "";
  return new ProtocolError(`The server sent ${what}${details}\n  message: ${clipCounted(safeJson(message), 500)}`, { problems, process });
}

/** A response that matches no request in flight (`inFlight`: those that were, in words). */
export function unmatchedResponseError(message: JsonObject, problems: readonly MessageProblem[], inFlight: string, process: ProcessContext | undefined): ProtocolError {
  const id = message.id;
  if (id === null && "error" in message && !("result" in message)) {
    const error = isObject(message.error) ? message.error : {};
    return new ProtocolError(
      `The server answered with an error that has a null id (it could not read a request we sent): ` + `${String(error.code)} ${JSON.stringify(error.message)}. Requests in flight: ${inFlight}.`,
      { problems, process },
    );
  }
  return new ProtocolError(
    `The server sent a response with id ${JSON.stringify(id)}${typeof id === "string" ? " (a string)" : ""}, which matches no request in flight. ` +
      `Requests in flight: ${inFlight}. A response must carry the id of its request, unchanged.`,
    { problems, process },
  );
}

/** What a request that timed out is told (`how` it was cancelled, unless it never is). */
export function timeoutError(
  request: { label: string; id: JsonRpcId; method: string; timeoutMs: number; cancellable: boolean; timeoutNote: string | undefined },
  how: CancelledHow,
  process: ProcessContext | undefined,
): RequestTimeoutError {
  const cancelled = request.cancellable;
  const what = cancelled ? `; ${cancelledHow(how)}` : ` (${request.method} is never cancelled)`;
  return new RequestTimeoutError(
    [`${request.label} (id ${request.id}) got no response within ${request.timeoutMs} ms${what}${request.timeoutNote ?? ""}.`, { kind: "raiseTimeout", timeoutMs: request.timeoutMs }],
    { method: request.method, id: request.id, timeoutMs: request.timeoutMs, cancelled, process },
  );
}

/** 2026-07-28 over HTTP: the request's own response stream ended without its answer (there is no resumption). */
export function answerLostError(request: { label: string; id: JsonRpcId; method: string }, why: string, process: ProcessContext | undefined): ConnectionClosedError {
  return new ConnectionClosedError(
    `${request.label} (id ${request.id}) got no answer: ${why} before the response came. In ${revisionsWith("perRequestMeta")} a lost request is not resumed; send it again (a new request).`,
    { method: request.method, id: request.id, process },
  );
}

/** The error of a request that could not be sent, saying (as `sendFailure`) how it failed. */
export function sendFailureError(
  described: { failure: SendFailure; text: string; url?: string },
  details: { method: string; id: number; cause: unknown; process: ProcessContext | undefined },
): ConnectionClosedError {
  return new ConnectionClosedError(`${described.text}: ${describeCause(details.cause)}`, { ...details, sendFailure: described.failure, url: described.url });
}
