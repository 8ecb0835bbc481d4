/**
 * JSON-RPC 2.0 vocabulary: message shapes, ids and type guards.
 * These are plain structural types so that messages from any source (our engine, the SDK,
 * a raw socket) can be inspected without conversion.
 */

export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: JsonRpcId;
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcResultResponse {
  jsonrpc: "2.0";
  id: JsonRpcId;
  result: Record<string, unknown>;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcErrorResponse {
  jsonrpc: "2.0";
  /** `null` only when the request's id could not be read (parse error, invalid request). */
  id: JsonRpcId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isRequest(message: unknown): message is JsonRpcRequest {
  return isObject(message) && typeof message.method === "string" && "id" in message && message.id !== undefined;
}

export function isNotification(message: unknown): message is JsonRpcNotification {
  return isObject(message) && typeof message.method === "string" && !("id" in message && message.id !== undefined);
}

export function isResponse(message: unknown): message is JsonRpcResponse {
  return isObject(message) && !("method" in message) && ("result" in message || "error" in message);
}

export function isErrorResponse(message: unknown): message is JsonRpcErrorResponse {
  return isResponse(message) && "error" in message;
}

export function resultResponse(id: JsonRpcId, result: Record<string, unknown>): JsonRpcResultResponse {
  return { jsonrpc: "2.0", id, result };
}

export function errorResponse(id: JsonRpcId | null, error: JsonRpcErrorObject): JsonRpcErrorResponse {
  return { jsonrpc: "2.0", id, error };
}
