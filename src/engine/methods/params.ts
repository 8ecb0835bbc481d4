/** Reading request params, with -32602 errors that say which field was wrong and what was expected. */
import { ErrorCode } from "../../protocol/errors.js";
import { isObject } from "../../protocol/jsonrpc.js";
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

/**
 * `tools/call` arguments as step functions and matchers see them: always an object. A client
 * that sends `null`, a string or an array gets the tool's answer as usual (the mock stays as
 * lenient as it is about schemas), steps read `call.arguments.city` safely, and the value as
 * sent is kept on the call record as `rawArguments`  for tests to assert on.
 */
export function toolArguments(value: unknown): Record<string, unknown> {
  return isObject(value) ? value : {};
}
