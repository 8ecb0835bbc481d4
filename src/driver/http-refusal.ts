/**
 * A POST the server refused over HTTP (a 4xx or 5xx): the SDK's HTTP transport carries the
 * status as its error's code and the body in its message. A 2026-07-28 server refuses with
 * HTTP 400 and a JSON-RPC error in the body (-32020, -32022…), which is what callers read here.
 */
import { isObject } from "../protocol/jsonrpc.js";
import { RequestFailedError } from "./errors.js";

export interface Refusal {
  code: number;
  message: string;
  data?: unknown;
  /** The HTTP status, when the refusal came as one. */
  status?: number;
}

/** The HTTP status of a refused POST, which the SDK's HTTP transport carries as its error's code. */
export function httpStatusOf(error: Error): number | undefined {
  const status = (error.cause as { code?: unknown } | undefined)?.code;
  return typeof status === "number" && status >= 400 && status < 600 ? status : undefined;
}

/** The JSON-RPC error a server answered with: a `RequestFailedError`'s, or the one in a refused POST's body. */
export function refusalOf(error: unknown): Refusal | undefined {
  if (error instanceof RequestFailedError && error.code !== undefined) return { code: error.code, message: error.serverMessage ?? "", data: error.data };
  if (!(error instanceof Error)) return undefined;
  const status = httpStatusOf(error);
  const text = error.cause instanceof Error ? error.cause.message : error.message;
  const body = /\{.*\}/s.exec(text)?.[0];
  if (status === undefined || body === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    const rpc = isObject(parsed) && isObject(parsed.error) ? parsed.error : undefined;
    return rpc && typeof rpc.code === "number" ? { code: rpc.code, message: String(rpc.message ?? ""), data: rpc.data, status } : undefined;
  } catch {
    return undefined;
  }
}
