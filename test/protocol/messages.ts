/** Message builders for the validator tests: valid baselines the tests then break one way at a time. */
import type { ValidateMessageOptions } from "../../src/protocol/index.js";

export const png = Buffer.from("tiny png").toString("base64");

export function request(method: string, params?: Record<string, unknown>, id: string | number = 1) {
  return { jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) };
}

export function notification(method: string, params?: Record<string, unknown>) {
  return { jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) };
}

export function response(result: unknown, id: string | number = 1) {
  return { jsonrpc: "2.0", id, result };
}

export const fromClient = (protocolVersion?: string): ValidateMessageOptions => ({ direction: "client-to-server", protocolVersion });
export const fromServer = (protocolVersion?: string): ValidateMessageOptions => ({ direction: "server-to-client", protocolVersion });
/** A response the server sends to the client's `requestMethod` request. */
export const serverAnswers = (requestMethod: string, protocolVersion?: string): ValidateMessageOptions => ({
  direction: "server-to-client",
  requestMethod,
  protocolVersion,
});
/** A response the client sends to the server's `requestMethod` request. */
export const clientAnswers = (requestMethod: string, protocolVersion?: string): ValidateMessageOptions => ({
  direction: "client-to-server",
  requestMethod,
  protocolVersion,
});

export const implementation = { name: "demo", version: "1.0.0" };
export const tool = { name: "search", description: "Search issues", inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] } };
export const task = { taskId: "t-1", status: "working", createdAt: "2025-11-25T10:00:00Z", lastUpdatedAt: "2025-11-25T10:00:01Z", ttl: 60000 };
