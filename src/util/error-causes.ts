/**
 * The causes behind an error, as text: fetch's "fetch failed" says nothing until its cause
 * (`connect ECONNREFUSED 127.0.0.1:3999`) is read, so a message that teaches names it.
 */

/** ` (connect ECONNREFUSED 127.0.0.1:9)`: the messages of `error`'s causes not already in its own, or "". */
export function causesText(error: Error): string {
  const seen: string[] = [];
  let cause: unknown = error.cause;
  // Bounded: a cause chain can be made to loop.
  for (let depth = 0; cause instanceof Error && depth < 5; depth++) {
    if (!error.message.includes(cause.message) && !seen.includes(cause.message)) seen.push(cause.message);
    cause = cause.cause;
  }
  return seen.length === 0 ? "" : ` (${seen.join(": ")})`;
}

/** What went wrong, in words: an error's message with its causes, or the value itself. */
export function describeCause(cause: unknown): string {
  if (cause instanceof Error) return cause.message + causesText(cause);
  return cause === undefined ? "unknown reason" : String(cause);
}
