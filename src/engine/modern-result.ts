/**
 * What every result of a 2026-07-28 request carries besides its payload: `resultType`
 * ("complete" unless a step said "input_required"), the server's identity in
 * `_meta["io.modelcontextprotocol/serverInfo"]`, and caching hints on cacheable results.
 * Done once here, on the outcome, so no method handler repeats it.
 */
import type { JsonRpcResponse } from "../protocol/jsonrpc.js";
import { META } from "../protocol/meta-keys.js";
import { isCacheableMethod } from "../protocol/methods.js";
import { cacheHintsFor, type CacheOptions } from "./cache-hints.js";
import type { Outcome } from "./outcome.js";

type Json = Record<string, unknown>;

export interface ModernStamp {
  readonly method: string;
  /** `{ "io.modelcontextprotocol/serverInfo": … }`, made once per mock (see `serverMeta`). */
  readonly serverMeta: Json;
  readonly cache?: CacheOptions;
}

/** The `_meta` most modern results carry: made once, shared (results are serialized, never changed). */
export function serverMeta(serverInfo: Json): Json {
  return Object.freeze({ [META.serverInfo]: serverInfo });
}

export function stampModernOutcome(outcome: Outcome, stamp: ModernStamp): Outcome {
  if (outcome.type !== "reply" || !("result" in outcome.message)) return outcome;
  const result = outcome.message.result as unknown;
  // A raw `result` step may send a non-object on purpose: it stays as it is.
  if (typeof result !== "object" || result === null || Array.isArray(result)) return outcome;
  // Built without object spreads: spreading an object and overriding one of its keys costs
  // V8 about a microsecond, on every 2026-07-28 result.
  // The call it ends keeps the unstamped result: its record is the same in both eras.
  return { type: "reply", message: { jsonrpc: "2.0", id: outcome.message.id, result: stampResult(result as Json, stamp) } as JsonRpcResponse, ends: outcome.ends };
}

function stampResult(result: Json, stamp: ModernStamp): Json {
  const stamped: Json = {};
  for (const key in result) stamped[key] = result[key];
  if (stamped.resultType === undefined) stamped.resultType = "complete";
  const meta = typeof result._meta === "object" && result._meta !== null ? (result._meta as Json) : undefined;
  if (meta === undefined) stamped._meta = stamp.serverMeta;
  else if (meta[META.serverInfo] === undefined) stamped._meta = Object.assign({}, meta, stamp.serverMeta);
  if (stamped.resultType === "complete" && isCacheableMethod(stamp.method)) {
    const hints = cacheHintsFor(stamp.cache, stamp.method);
    if (stamped.ttlMs === undefined) stamped.ttlMs = hints.ttlMs;
    if (stamped.cacheScope === undefined) stamped.cacheScope = hints.cacheScope;
  }
  return stamped;
}
