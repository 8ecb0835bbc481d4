/**
 * Caching hints of 2026-07-28 (`ttlMs`, `cacheScope`), which the spec requires on the complete
 * results of discover, the lists and `resources/read`. The mock lets a test set them per list
 * method and per resource, so a client's cache can be tested; the default says "do not cache".
 */
import { McpTestkitError } from "../errors.js";
import { CacheableMethods, isCacheableMethod, type CacheableMethod } from "../protocol/methods.js";
import { typeLabel } from "../util/text.js";
import { checkKeys } from "./spec-checks.js";

export interface CacheHints {
  /** How long the client may consider the result fresh, in ms (0: stale at once). */
  ttlMs?: number;
  /** `public`: the same for every user; `private`: only within one authorization context. */
  cacheScope?: "public" | "private";
}

export interface CacheOptions extends CacheHints {
  /** Hints for one method's results, over the defaults above. */
  methods?: Partial<Record<CacheableMethod, CacheHints>>;
}

/** Immediately stale and private: the safe default for a mock whose catalog changes under test. */
export const DEFAULT_CACHE_HINTS: Required<CacheHints> = Object.freeze({ ttlMs: 0, cacheScope: "private" });

/** The hints for `method`: the resource's own, else the method's, else the mock's, else the default. */
export function cacheHintsFor(options: CacheOptions | undefined, method: CacheableMethod, own?: CacheHints): Required<CacheHints> {
  const byMethod = options?.methods?.[method];
  return {
    ttlMs: own?.ttlMs ?? byMethod?.ttlMs ?? options?.ttlMs ?? DEFAULT_CACHE_HINTS.ttlMs,
    cacheScope: own?.cacheScope ?? byMethod?.cacheScope ?? options?.cacheScope ?? DEFAULT_CACHE_HINTS.cacheScope,
  };
}

/** Refuses hints the spec forbids (a negative TTL, an unknown scope), naming where they came from. */
const HINT_KEYS = ["ttlMs", "cacheScope"];

export function checkCacheHints(hints: unknown, where: string, extraKeys: readonly string[] = []): void {
  if (hints === undefined) return;
  if (typeof hints !== "object" || hints === null) throw new McpTestkitError(`${where} must be an object { ttlMs, cacheScope }, got ${typeLabel(hints)}.`);
  // A misspelt hint (ttl, ttlMS) would be ignored, and a client-cache test fail for a reason nobody sees.
  checkKeys(hints, [...HINT_KEYS, ...extraKeys], where);
  const { ttlMs, cacheScope } = hints as CacheHints;
  if (ttlMs !== undefined && !(Number.isInteger(ttlMs) && ttlMs >= 0)) throw new McpTestkitError(`${where}.ttlMs must be a whole number of milliseconds, 0 or more, got ${typeLabel(ttlMs)}.`);
  if (cacheScope !== undefined && cacheScope !== "public" && cacheScope !== "private") {
    throw new McpTestkitError(`${where}.cacheScope must be "public" or "private", got ${typeLabel(cacheScope)}.`);
  }
}

export function checkCacheOptions(options: CacheOptions | undefined): void {
  if (options === undefined) return;
  checkCacheHints(options, '"cache"', ["methods"]);
  for (const [method, hints] of Object.entries(options.methods ?? {})) {
    if (!isCacheableMethod(method)) throw new McpTestkitError(`"cache.methods" has ${JSON.stringify(method)}, which is not cacheable; cacheable are ${CacheableMethods.join(", ")}.`);
    checkCacheHints(hints, `"cache.methods[${JSON.stringify(method)}]"`);
  }
}
