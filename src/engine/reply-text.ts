/**
 * The one place a reply becomes JSON text. Every wire (memory, stdio, Streamable HTTP in JSON and
 * SSE mode, `handle()`) writes the text made here and serializes no reply itself, so an answer
 * JSON cannot carry (a BigInt, a cycle) is the same -32603 on every wire, and the record of the
 * call that gave it says so. It runs once per reply, on the hot path: one `JSON.stringify`.
 */
import { ErrorCode } from "../protocol/errors.js";
import { errorResponse, type JsonRpcErrorObject, type JsonRpcRequest } from "../protocol/jsonrpc.js";
import { errorText } from "../util/text.js";
import type { CallLog } from "./call-log.js";
import type { Outcome, WireOutcome } from "./outcome.js";

/**
 * `outcome` with its reply serialized; a reply that cannot be becomes -32603 naming what failed.
 * The tool call a reply ends is recorded now, with what was sent. `caught` (observers' list of
 * errors) gets the serialization error.
 */
export function serializeOutcome(outcome: Outcome, request: JsonRpcRequest, calls: CallLog, caught?: unknown[]): WireOutcome {
  if (outcome.type !== "reply") return outcome;
  const ends = outcome.ends;
  let text: string;
  try {
    text = JSON.stringify(outcome.message);
  } catch (thrown) {
    caught?.push(thrown);
    const error = unserializable(answerSubject(request), thrown);
    if (ends !== undefined) calls.end(ends.call, "protocol-error", { error });
    const message = errorResponse(request.id, error);
    return { type: "reply", message, text: JSON.stringify(message) };
  }
  if (ends !== undefined) calls.end(ends.call, ends.outcome, ends.ending);
  return { type: "reply", message: outcome.message, text };
}

/** The -32603 a client gets for an answer JSON cannot carry; `what` is the request it answers (`tools/call "search"`). */
export function unserializable(what: string, thrown: unknown): JsonRpcErrorObject {
  // V8's message for a cycle spans lines (the path of the cycle): one line reads better in a client's error.
  const reason = errorText(thrown).replace(/\s*\n\s*/g, " ");
  return {
    code: ErrorCode.InternalError,
    message: `Internal error: the answer to ${what} cannot be serialized: ${reason}. JSON carries no BigInt and no cycle: send a BigInt as a number or a string, and break the cycle`,
  };
}

/** What a request asks for, as the error names it: `prompts/get "greet"`, `resources/read "notes://today"`, or the method alone. */
export function answerSubject(request: Pick<JsonRpcRequest, "method" | "params">): string {
  const params = request.params;
  const named = params === undefined ? undefined : typeof params.name === "string" ? params.name : typeof params.uri === "string" ? params.uri : undefined;
  return named === undefined ? request.method : `${request.method} ${JSON.stringify(named)}`;
}
