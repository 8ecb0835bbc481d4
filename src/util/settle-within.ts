/**
 * Waiting for a promise at most so long, leaving no timer behind: for shutdowns that must not
 * hang on a peer that never answers.
 */

/** True if `promise` settles (either way) within `ms`; false if the time ran out first. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
