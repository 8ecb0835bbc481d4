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
