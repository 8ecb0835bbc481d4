/**
 * The pieces every matcher builds its result from: the `{ pass, message, actual, expected }`
 * object, and the small text helpers that keep the messages alike (quoted names, "it has: …"
 * listings, "did you mean …?", shortened long texts).
 *
 * Messages are plain text, without the runner's colours, so they read the same under Vitest and
 * Jest and a test can compare them exactly.
 */
import { formatValue, isComparedByKeys } from "../engine/match.js";
import { clip } from "../util/text.js";

export { closest, suggestion } from "../util/closest.js";

/** What a matcher returns; Vitest and Jest both take this shape. */
export interface McpMatcherResult {
  pass: boolean;
  message: () => string;
  /** Present only when a diff helps; Vitest renders `actual` against `expected`. */
  actual?: unknown;
  expected?: unknown;
}

/** The part of the runner's matcher context the matchers read. */
export interface McpMatcherContext {
  isNot?: boolean;
}

export interface Diff {
  actual: unknown;
  expected: unknown;
}

export function report(pass: boolean, message: string, diff?: Diff): McpMatcherResult {
  const result: McpMatcherResult = { pass, message: () => message };
  if (diff) {
    result.actual = diff.actual;
    result.expected = diff.expected;
  }
  return result;
}

/**
 * A failure whatever `.not` says: for inputs no answer can be given about (a value of the wrong
 * kind, a tool that does not exist), so `.not` cannot turn a mistake into a passing test.
 */
export function misuse(context: McpMatcherContext, message: string): McpMatcherResult {
  return report(context.isNot === true, message);
}

export function quote(text: string): string {
  return JSON.stringify(text);
}

export function shorten(text: string, max = 300): string {
  return clip(text, max);
}

/** A value for a message: JSON-like, RegExps and asymmetric matchers as themselves, shortened. */
export function show(value: unknown): string {
  return shorten(formatValue(value));
}

export { plural } from "../util/text.js";
import { listFirst } from "../util/text.js";

const LISTED = 50;

/** "it has: a, b, c" or "it has no tools". */
export function listing(labels: readonly string[], noun: string): string {
  if (labels.length === 0) return `it has no ${noun}`;
  return `it has: ${listFirst(labels, LISTED, ", ")}`;
}

/**
 * `actual` cut down to the keys `expected` names, so a diff against a partial expectation shows
 * only what was compared (as Jest's `toMatchObject` does) instead of every extra key as a change.
 */
export function projectOnto(actual: unknown, expected: unknown): unknown {
  if (Array.isArray(expected) && Array.isArray(actual)) {
    return actual.map((item, i) => (i < expected.length ? projectOnto(item, expected[i]) : item));
  }
  if (isComparedByKeys(expected) && isComparedByKeys(actual) && typeof (expected as { asymmetricMatch?: unknown }).asymmetricMatch !== "function") {
    const projected: Record<string, unknown> = {};
    for (const key of Object.keys(expected)) {
      if (key in actual) projected[key] = projectOnto(actual[key], expected[key]);
    }
    return projected;
  }
  return actual;
}
