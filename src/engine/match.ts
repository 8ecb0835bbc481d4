/**
 * Deep partial matching, as `assertCalled(..., { with })` uses it: extra keys in the actual
 * value are fine, arrays match item by item, a RegExp tests a string, and an asymmetric
 * matcher (Vitest/Jest `expect.any(...)`, `expect.stringContaining(...)`) is asked.
 */

interface AsymmetricMatcher {
  asymmetricMatch(actual: unknown): boolean;
}

function isAsymmetricMatcher(value: unknown): value is AsymmetricMatcher {
  return typeof value === "object" && value !== null && typeof (value as AsymmetricMatcher).asymmetricMatch === "function";
}

/**
 * An object that partial matching compares key by key (here and in the matchers' diffs): as
 * protocol's `isObject` (not null, not an array, which match item by item) but not a RegExp,
 * which tests a string instead, so a RegExp actual against an object pattern is a mismatch.
 * Written out, not built on `isObject`, so the matchers still load no protocol module.
 */
export function isComparedByKeys(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof RegExp);
}

export interface Difference {
  /** JSON path of the first place where actual and expected part, e.g. `$.filters[0].repo`. */
  path: string;
  expected: unknown;
  actual: unknown;
}

/** The first place where `actual` fails to match `expected`, or undefined when it matches. */
export function firstDifference(actual: unknown, expected: unknown, path = "$"): Difference | undefined {
  if (isAsymmetricMatcher(expected)) {
    return expected.asymmetricMatch(actual) ? undefined : { path, expected, actual };
  }
  if (expected instanceof RegExp) {
    // Reset lastIndex so a /g or /y pattern cannot make repeated checks flip.
    expected.lastIndex = 0;
    return typeof actual === "string" && expected.test(actual) ? undefined : { path, expected, actual };
  }
  if (expected instanceof Date) {
    return actual instanceof Date && actual.getTime() === expected.getTime() ? undefined : { path, expected, actual };
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return { path, expected, actual };
    for (let i = 0; i < expected.length; i++) {
      const difference = firstDifference(actual[i], expected[i], `${path}[${i}]`);
      if (difference) return difference;
    }
    return undefined;
  }
  if (isComparedByKeys(expected)) {
    if (!isComparedByKeys(actual)) return { path, expected, actual };
    for (const key of Object.keys(expected)) {
      const difference = firstDifference(actual[key], expected[key], `${path}${pathSegment(key)}`);
      if (difference) return difference;
    }
    return undefined;
  }
  return Object.is(actual, expected) ? undefined : { path, expected, actual };
}

/** A matcher as Jest and Vitest print it: `Any<String>`, `StringContaining "ab"`. */
function describeMatcher(matcher: AsymmetricMatcher): string {
  const { toAsymmetricMatcher, sample } = matcher as { toAsymmetricMatcher?: () => string; sample?: unknown };
  const named = toAsymmetricMatcher?.call(matcher);
  if (typeof named === "string") return named;
  const described = String(matcher);
  if (described === "[object Object]") return "<asymmetric matcher>";
  return sample === undefined ? described : `${described} ${formatValue(sample)}`;
}

function pathSegment(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** Whether `actual` matches the partial pattern `expected`. */
export function matches(actual: unknown, expected: unknown): boolean {
  return firstDifference(actual, expected) === undefined;
}

const UNQUOTE = `__mcp_testkit_${Math.random().toString(36).slice(2)}__`;
const UNQUOTE_PATTERN = new RegExp(`"${UNQUOTE}((?:[^"\\\\]|\\\\.)*)"`, "g");

/**
 * A whole value as JSON-like text for messages (expected and received), showing RegExps and
 * matchers as themselves rather than `{}`; `describeValue` (util/text.ts) names only its kind.
 */
export function formatValue(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value instanceof RegExp) return String(value);
  if (isAsymmetricMatcher(value)) return describeMatcher(value);
  if (typeof value === "bigint") return `${value}n`;
  try {
    // RegExps and matchers are written as marked strings, then unquoted; the marker is unguessable,
    // so a real argument string that looks like one is left alone.
    const text = JSON.stringify(value, (_key, inner: unknown) => {
      if (inner instanceof RegExp) return `${UNQUOTE}${String(inner)}`;
      if (typeof inner === "bigint") return `${inner}n`;
      if (isAsymmetricMatcher(inner)) return `${UNQUOTE}${describeMatcher(inner)}`;
      return inner;
    });
    return text === undefined ? String(value) : text.replace(UNQUOTE_PATTERN, (_m, inner: string) => JSON.parse(`"${inner}"`));
  } catch {
    return String(value);
  }
}
