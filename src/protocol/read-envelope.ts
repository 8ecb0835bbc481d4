/**
 * What a received JSON-RPC value is, by its envelope alone: a request, a notification, a
 * response, or an invalid message with the id to answer it with and what was wrong. The engine
 * and the HTTP wire both ask here, so a message the engine would refuse with -32600 is the same
 * message the wire answers with HTTP 400.
 */
import { isObject, isResponse, type JsonRpcId } from "./jsonrpc.js";
import { typeLabel } from "../util/text.js";

export type Envelope = { kind: "request" | "notification" | "response" } | { kind: "invalid" /** The request's id when it can be read, else null. */; id: JsonRpcId | null; problem: string };

// Shared: the wire and the engine read every message's envelope, and the valid kinds carry nothing else.
const REQUEST: Envelope = Object.freeze({ kind: "request" });
const NOTIFICATION: Envelope = Object.freeze({ kind: "notification" });
const RESPONSE: Envelope = Object.freeze({ kind: "response" });

export function readEnvelope(message: unknown): Envelope {
  if (!isObject(message)) {
    const got = Array.isArray(message) ? "an array (batches are not accepted here)" : JSON.stringify(message);
    return { kind: "invalid", id: null, problem: `Invalid Request: expected a JSON-RPC message object, got ${got}` };
  }
  const id = readableId(message.id);
  if (message.jsonrpc !== "2.0") return { kind: "invalid", id, problem: 'Invalid Request: "jsonrpc" must be "2.0"' };
  if (!("method" in message)) {
    if (isResponse(message)) return RESPONSE;
    return { kind: "invalid", id, problem: 'Invalid Request: a message needs a "method" (or, as a response, an "id" with "result" or "error")' };
  }
  if (typeof message.method !== "string") return { kind: "invalid", id, problem: 'Invalid Request: "method" must be a string' };
  if (message.params !== undefined && !isObject(message.params)) return { kind: "invalid", id, problem: 'Invalid Request: "params" must be an object' };
  if (!("id" in message) || message.id === undefined) return NOTIFICATION;
  if (id === null) {
    const problem = message.id === null ? '"id" must be a string or a number (MCP does not allow null)' : `"id" must be a string or a number, got ${typeLabel(message.id)}`;
    return { kind: "invalid", id: null, problem: `Invalid Request: ${problem}` };
  }
  return REQUEST;
}

/** An id that can be echoed back: a string or a finite number. */
export function readableId(id: unknown): JsonRpcId | null {
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
}
