/** Text helpers for messages people read: one copy for the whole package. */

/** `text`, cut to at most `max` characters with an ellipsis. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** `1 call`, `2 calls`; `words` for an irregular plural. */
export function plural(count: number, word: string, words = `${word}s`): string {
  return `${count} ${count === 1 ? word : words}`;
}
