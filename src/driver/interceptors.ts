/**
 * Outgoing-request interceptors: the parts that take a hand in every request the session writes.
 * The era adds its `_meta` (the version, client info and capabilities of 2026-07-28), trace
 * context adds `traceparent`, a call with `onProgress` gets its progress token, the observers
 * hear each request go out and end, and the HTTP wire of 2026-07-28 makes the request's headers
 * and closes its stream to cancel it. The session knows none of them by name.
 */
import type { McpRequestOutcome } from "../observe/outcomes.js";
import type { JsonRpcId } from "../protocol/jsonrpc.js";
import type { JsonObject, RequestSpec } from "./request-types.js";

/** What an interceptor sees of a request about to be written. */
export interface OutgoingRequest {
  readonly id: number;
  readonly method: string;
  readonly spec: RequestSpec;
}

export interface RequestInterceptor {
  /** Fields for the request's `_meta`; the caller's own `_meta` wins over them, unless `metaWins`. */
  meta?(request: OutgoingRequest): JsonObject | undefined;
  /** This interceptor's `_meta` fields win over the caller's own (a progress token names the request's own id). */
  readonly metaWins?: boolean;
  /** The request as it is written (its params with `_meta`), just before it goes out. */
  sent?(id: JsonRpcId, method: string, params: JsonObject | undefined): void;
  /**
   * Once, when the request ends: `end` is the response the session read, or, when there is none the
   * caller could use, the outcome the caller saw; `cause` is the error the caller got then.
   */
  ended?(id: JsonRpcId, end: JsonObject | McpRequestOutcome, cause?: unknown): void;
  /** Cancels a request the wire's own way; true when it did (then no `notifications/cancelled` is sent). */
  cancel?(id: JsonRpcId, reason: string): boolean;
}

/** A call with `onProgress` asks for progress under its own id. */
export const progressToken: RequestInterceptor = {
  metaWins: true,
  meta: (request) => (request.spec.onProgress === undefined ? undefined : { progressToken: request.id }),
};

/** An interceptor that adds what `fields` gives now (the era's `_meta`, the active trace context). */
export function metaFrom(fields: () => JsonObject | undefined): RequestInterceptor {
  return { meta: () => fields() };
}
