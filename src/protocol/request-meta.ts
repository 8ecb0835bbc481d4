/**
 * Reading a request's `_meta` in protocol revision 2026-07-28, where a request names its own
 * version, client and capabilities (no `initialize`). One reader for the engine, the HTTP wire,
 * the simulator, the driver, the observers and the validator; the keys are in meta-keys.ts.
 */
import { isObject } from "./jsonrpc.js";
import { META } from "./meta-keys.js";

type Json = Record<string, unknown>;

/** The request's `params._meta`, when it is an object. */
export function requestMeta(params: unknown): Json | undefined {
  if (!isObject(params)) return undefined;
  const meta = params._meta;
  return isObject(meta) ? meta : undefined;
}

/**
 * The version a request names in its own `_meta`, if it names one (any value: a non-string is
 * refused later as an unsupported version). Cheap: the legacy hot path pays two property reads.
 */
export function declaredVersion(params: unknown): unknown {
  return requestMeta(params)?.[META.protocolVersion];
}

/** What a 2026-07-28 request says about its client. */
export interface ClientFacts {
  readonly capabilities: Json;
  readonly info?: Json;
  /** No level: the request wants no log notifications (2026-07-28 sends logs only on request). */
  readonly logLevel?: string;
}

export function clientFactsOf(meta: Json): ClientFacts {
  const capabilities = meta[META.clientCapabilities];
  const info = meta[META.clientInfo];
  const logLevel = meta[META.logLevel];
  // Built field by field (no conditional spreads): this runs on every 2026-07-28 request.
  const facts: { capabilities: Json; info?: Json; logLevel?: string } = { capabilities: isObject(capabilities) ? capabilities : {} };
  if (isObject(info)) facts.info = info;
  if (typeof logLevel === "string") facts.logLevel = logLevel;
  return facts;
}
