/** Text helpers for messages people read: one copy for the whole package. */

/** `text`, cut to at most `max` characters with an ellipsis. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * `text`, its first `max` characters kept and its full length said when cut: for evidence
 * (a server's output, a JSON message), where how much was left out matters.
 */
export function clipCounted(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

/**
 * The first `max` of `items`, each written by `format`, joined by `separator`, then how many
 * more there are (`more` words it): a message lists a few and counts the rest. Only the items
 * shown are formatted (a record of 10,000 calls makes `max` lines, not 10,000).
 */
export function listFirst<T>(
  items: readonly T[],
  max: number,
  separator: string,
  { format = String, more = (count) => `… and ${count} more` }: { format?: (item: T) => string; more?: (count: number) => string } = {},
): string {
  const shown = items.slice(0, max).map((item) => format(item));
  if (items.length > max) shown.push(more(items.length - max));
  return shown.join(separator);
}

/** `1 call`, `2 calls`; `words` for an irregular plural. */
export function plural(count: number, word: string, words = `${word}s`): string {
  return `${count} ${count === 1 ? word : words}`;
}

const MAX_SHOWN_STRING = 40;

/**
 * A value as the "got …" of a message shows it: null, strings quoted (a long one cut, with its
 * length), numbers and booleans as written, arrays and objects by kind, `nothing` for undefined.
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "string") {
    const quoted = JSON.stringify(value);
    // Long strings (base64 payloads, documents) would drown the message.
    return quoted.length <= MAX_SHOWN_STRING ? quoted : `${quoted.slice(0, MAX_SHOWN_STRING - 2)}…" (${value.length} characters)`;
  }
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

/**
 * `describeValue` naming the type of a number or boolean (`number 5`, `boolean true`): the mock's
 * option and step checks say so, as their readers may have written `"5"` for `5`.
 */
export function typeLabel(value: unknown): string {
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return `${typeof value} ${String(value)}`;
  return describeValue(value);
}

/** Literal options, JSON-quoted: `"2.0"` for one, `one of "text", "image"` for several. */
export function describeOptions(options: readonly unknown[]): string {
  const shown = options.map((option) => JSON.stringify(option));
  return shown.length === 1 ? shown[0]! : `one of ${shown.join(", ")}`;
}

/** What went wrong, as text: an `Error`'s message, or anything else as a string. Never throws (a thrown `Object.create(null)` has no `toString`). */
/** The text up to its first line break: a one-line summary of something said at length. */
export function firstLineOf(text: string): string {
  const end = text.indexOf("\n");
  return end === -1 ? text : text.slice(0, end);
}

export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  try {
    return String(error);
  } catch {
    return Object.prototype.toString.call(error);
  }
}
