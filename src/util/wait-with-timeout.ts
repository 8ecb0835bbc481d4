/**
 * "Wait for N with a timeout", written once: the mock's `waitForCalls` and the driver's
 * notification waits both watch for something, give up after a while with an error that says
 * what came, and must leave no listener and no timer behind either way.
 */

/**
 * Starts `watch`, which returns how to stop watching and calls `done(value)` once what it waits
 * for is there (or `fail(error)` to give up early). After `timeoutMs` without either, rejects with
 * `timedOut()`. Whichever comes first settles the promise; the watch is stopped and the timer
 * cleared at that moment, and later calls of `done` or `fail` do nothing.
 */
export function waitWithTimeout<T>(watch: (done: (value: T) => void, fail: (error: unknown) => void) => () => void, timeoutMs: number, timedOut: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let stop: (() => void) | undefined;
    const finish = (): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      stop?.();
      return true;
    };
    const timer = setTimeout(() => {
      if (finish()) reject(timedOut());
    }, timeoutMs);
    const done = (value: T) => {
      if (finish()) resolve(value);
    };
    const fail = (error: unknown) => {
      if (finish()) reject(error);
    };
    try {
      stop = watch(done, fail);
    } catch (error) {
      fail(error);
    }
    // A watch that settled while starting is stopped now that its stop function exists.
    if (settled) stop?.();
  });
}
