/**
 * Exact argument matching, as Mastra's tool mocks match (so their users meet no surprise): object key order is
 * ignored, array order matters, values are never converted (1 is not "1"), and keys must be
 * the same on both sides. An `argsMatch` entry is matched by its compiled pattern instead
 * (arg-patterns.ts); both kinds share the closest-entry and first-difference reporting here.
 */
import { isObject } from "../protocol/jsonrpc.js";
import { patternCloseness, patternDifference, patternMatches, type ArgsPattern } from "./arg-patterns.js";

function pathSegment(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

const show = (value: unknown): string => (value === undefined ? "nothing" : JSON.stringify(value));

/**
 * The first place where `received` and `declared` part, as `$.city: expected "Seattle",
 * received "seattle"`, or undefined when they are equal. Recursion follows the declared value,
 * whose depth is bounded by the fixture file.
 */
export function argsDifference(received: unknown, declared: unknown, path = "$"): string | undefined {
  if (Array.isArray(declared)) {
    if (!Array.isArray(received)) return `${path}: expected ${show(declared)}, received ${show(received)}`;
    if (received.length !== declared.length) return `${path}: expected an array of ${declared.length}, received an array of ${received.length}`;
    for (let i = 0; i < declared.length; i++) {
      const difference = argsDifference(received[i], declared[i], `${path}[${i}]`);
      if (difference) return difference;
    }
    return undefined;
  }
  if (isObject(declared)) {
    if (!isObject(received)) return `${path}: expected ${show(declared)}, received ${show(received)}`;
    for (const key of Object.keys(declared)) {
      const difference = argsDifference(received[key], declared[key], `${path}${pathSegment(key)}`);
      if (difference) return difference;
    }
    for (const key of Object.keys(received)) {
      if (!Object.hasOwn(declared, key)) return `${path}${pathSegment(key)}: not declared, received ${show(received[key])}`;
    }
    return undefined;
  }
  return received === declared ? undefined : `${path}: expected ${show(declared)}, received ${show(received)}`;
}

export function argsEqual(received: unknown, declared: unknown): boolean {
  // The same rules as argsDifference, without building its message: this runs for every entry
  // a call is compared with, most of which do not match.
  if (Array.isArray(declared)) {
    if (!Array.isArray(received) || received.length !== declared.length) return false;
    for (let i = 0; i < declared.length; i++) if (!argsEqual(received[i], declared[i])) return false;
    return true;
  }
  if (isObject(declared)) {
    if (!isObject(received)) return false;
    // Key by key as argsDifference reads them, so a declared `undefined` (code-loaded fakes can
    // have one) matches an absent argument there and here alike.
    for (const key of Object.keys(declared)) if (!argsEqual(received[key], declared[key])) return false;
    for (const key of Object.keys(received)) if (!Object.hasOwn(declared, key)) return false;
    return true;
  }
  return received === declared;
}

/** How many leaf values of `declared` are equal at the same place in `received`: the closeness of an entry. */
export function sharedLeaves(received: unknown, declared: unknown): number {
  if (Array.isArray(declared)) {
    if (!Array.isArray(received)) return 0;
    let count = 0;
    for (let i = 0; i < declared.length; i++) count += sharedLeaves(received[i], declared[i]);
    return count;
  }
  if (isObject(declared)) {
    if (!isObject(received)) return 0;
    let count = 0;
    for (const key of Object.keys(declared)) if (Object.hasOwn(received, key)) count += sharedLeaves(received[key], declared[key]);
    return count;
  }
  return argsEqual(received, declared) ? 1 : 0;
}

/** What an entry matches: exact `args`, a partial `argsMatch` pattern, or (both null) any arguments. */
export interface ArgsMatcher {
  args: Record<string, unknown> | null;
  argsMatch: ArgsPattern | null;
}

/** Where `received` parts from the entry's arguments, or undefined when the entry matches. */
export function entryDifference(received: unknown, entry: ArgsMatcher): string | undefined {
  if (entry.argsMatch !== null) return patternDifference(received, entry.argsMatch.node);
  return entry.args === null ? undefined : argsDifference(received, entry.args);
}

/**
 * Whether the entry matches `received`: `entryDifference(...) === undefined`, without building
 * the message. A call is compared with every entry of its tool, and most do not match: a message
 * for each of them was most of a fake-answered call's cost (bench/README.md, "Scenario fakes").
 */
export function entryMatches(received: unknown, entry: ArgsMatcher): boolean {
  if (entry.argsMatch !== null) return patternMatches(received, entry.argsMatch.node);
  return entry.args === null || argsEqual(received, entry.args);
}

/** The entry closest to `received` (most leaf values matched; the first on a tie); anyArgs entries are left out. */
export function closestEntry<T extends ArgsMatcher>(received: unknown, entries: readonly T[]): T | undefined {
  let best: T | undefined;
  let bestScore = -1;
  for (const entry of entries) {
    const score = entry.argsMatch !== null ? patternCloseness(received, entry.argsMatch.node) : entry.args !== null ? sharedLeaves(received, entry.args) : -1;
    if (score > bestScore) {
      best = entry;
      bestScore = score;
    }
  }
  return best;
}
