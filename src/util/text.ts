/** Text helpers for messages people read: one copy for the whole package. */

/** `text`, cut to at most `max` characters with an ellipsis. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * The first `max` of `items` joined by `separator`, then how many more there are (`more` words
 * it): a message lists a few and counts the rest.
 */
export function firstOf(items: readonly string[], max: number, separator: string, more: (count: number) => string = (count) => `… and ${count} more`): string {
  const shown = items.length <= max ? items : [...items.slice(0, max), more(items.length - max)];
  return shown.join(separator);
}

/** `1 call`, `2 calls`; `words` for an irregular plural. */
export function plural(count: number, word: string, words = `${word}s`): string {
  return `${count} ${count === 1 ? word : words}`;
}
