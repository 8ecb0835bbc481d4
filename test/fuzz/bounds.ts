/** Time bounds for the fuzz properties: generous enough for a busy 2-core machine, far below a hang. */

/** No single message may take longer than this to be answered (a blocked event loop or a hang shows up here). */
export const ANSWER_BOUND_MS = 2_000;

/** `promise`, or a rejection naming `what` once `ms` pass; the timer never outlives the race. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms (a hang, or a blocked event loop)`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `work` and says how long it took, in ms: a synchronous block (a slow regex) counts in full. */
export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: performance.now() - start };
}
