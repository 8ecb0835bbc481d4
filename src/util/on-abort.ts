/**
 * The one way to act on an abort signal: `onAbort(signal, action)` runs `action` once, at once
 * when the signal has already aborted (a listener added then would never fire, and a wait on it
 * would last for ever), else when it aborts. It returns a disposer that removes the listener, so
 * work that ends another way leaves nothing behind on a signal that lives longer than it.
 */

const NOTHING_TO_REMOVE = (): void => undefined;

export function onAbort(signal: AbortSignal | undefined, action: (reason: unknown) => void): () => void {
  if (signal === undefined) return NOTHING_TO_REMOVE;
  if (signal.aborted) {
    action(signal.reason);
    return NOTHING_TO_REMOVE;
  }
  const listener = (): void => action(signal.reason);
  signal.addEventListener("abort", listener, { once: true });
  return () => signal.removeEventListener("abort", listener);
}

/** Resolves when `signal` aborts (at once if it has): a hang that ends with its call. */
export function untilAbort(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => onAbort(signal, () => resolve()));
}
