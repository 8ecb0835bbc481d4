/**
 * The one JSON-RPC error class: thrown by whoever answers a request (the mock's method handlers,
 * the driver's answers to server requests) to answer it with this `error` object.
 */
import type { JsonRpcErrorObject } from "./jsonrpc.js";

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  toObject(): JsonRpcErrorObject {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}
