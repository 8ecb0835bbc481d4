/** Reading request params, with -32602 errors that say which field was wrong and what was expected. */
import { ErrorCode } from "../../protocol/errors.js";
import { RpcError } from "../outcome.js";

export function requireString(params: Record<string, unknown>, field: string, method: string): string {
  const value = params[field];
  if (typeof value !== "string") {
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params for ${method}: "${field}" must be a string, got ${value === undefined ? "nothing" : JSON.stringify(value)}`);
  }
  return value;
}

export function optionalObject(params: Record<string, unknown>, field: string, method: string): Record<string, unknown> | undefined {
  const value = params[field];
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params for ${method}: "${field}" must be an object, got ${JSON.stringify(value)}`);
  }
  return value as Record<string, unknown>;
}
