/**
 * JSON-RPC 2.0 vocabulary: message shapes, ids and type guards.
 * These are plain structural types so that messages from any source (our engine, the SDK,
 * a raw socket) can be inspected without conversion.
 */

/** A JSON-RPC request id: a string or a number. */
export type JsonRpcId = string | number;

/** A JSON-RPC request: it has an `id` and expects a response. */
export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: JsonRpcId;
  method: string;
  params?: Record<string, unknown>;
}

/** A JSON-RPC notification: a method with no `id`, never answered. */
export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: Record<string, unknown>;
}

/** A successful JSON-RPC response: the `result` for the request with the same `id`. */
export interface JsonRpcResultResponse {
  jsonrpc: "2.0";
  id: JsonRpcId;
  result: Record<string, unknown>;
}

/** The `error` of a JSON-RPC error response (`code`, `message`, optional `data`); what a mock's `throws` step sends. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** A JSON-RPC error response. */
export interface JsonRpcErrorResponse {
  jsonrpc: "2.0";
  /** `null` only when the request's id could not be read (parse error, invalid request). */
  id: JsonRpcId | null;
  error: JsonRpcErrorObject;
}

/** Either kind of JSON-RPC response. */
export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;
/** Any JSON-RPC message: request, notification or response (e.g. a recorded message's `content`). */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** Whether `value` is a plain object (not null, not an array): the first check before reading a message's fields. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `base` with `params` when there are any: a request or an ask leaves out params it has none of, as JSON-RPC allows. */
export function withParams<T extends object, P>(base: T, params: P | undefined): T | (T & { params: P }) {
  return params === undefined ? base : { ...base, params };
}

/** Whether `message` is a JSON-RPC request (a `method` and an `id`). */
export function isRequest(message: unknown): message is JsonRpcRequest {
  return isObject(message) && typeof message.method === "string" && "id" in message && message.id !== undefined;
}

/** Whether `message` is a JSON-RPC notification (a `method`, no `id`). */
export function isNotification(message: unknown): message is JsonRpcNotification {
  return isObject(message) && typeof message.method === "string" && !("id" in message && message.id !== undefined);
}

/** Whether `message` is a JSON-RPC response (a `result` or an `error`, no `method`). */
export function isResponse(message: unknown): message is JsonRpcResponse {
  return isObject(message) && !("method" in message) && ("result" in message || "error" in message);
}

/** Whether `message` is a JSON-RPC error response. */
export function isErrorResponse(message: unknown): message is JsonRpcErrorResponse {
  return isResponse(message) && "error" in message;
}

/** Builds a result response for `id`, e.g. to answer a raw request in a test. */
export function resultResponse(id: JsonRpcId, result: Record<string, unknown>): JsonRpcResultResponse {
  return { jsonrpc: "2.0", id, result };
}

/** Builds an error response for `id` (`null` when the request's id could not be read). */
export function errorResponse(id: JsonRpcId | null, error: JsonRpcErrorObject): JsonRpcErrorResponse {
  return { jsonrpc: "2.0", id, error };
}
