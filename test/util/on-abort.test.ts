/**
 * `onAbort(signal, action)`: the one abort listener. It runs the action once, with the signal's
 * reason: at once when the signal has already aborted, else when it aborts; its disposer takes
 * the listener off, so work that ended another way is not called back.
 */
import { describe, expect, it } from "vitest";
import { onAbort, untilAbort } from "../../src/util/on-abort.js";

describe("onAbort", () => {
  it("runs the action when the signal aborts, once, with its reason", () => {
    const controller = new AbortController();
    const seen: unknown[] = [];
    onAbort(controller.signal, (reason) => seen.push(reason));
    expect(seen).toEqual([]);
    controller.abort("stop");
    controller.abort("again");
    expect(seen).toEqual(["stop"]);
  });

  it("runs the action at once when the signal has already aborted, where a listener would never fire", () => {
    const seen: unknown[] = [];
    const stop = onAbort(AbortSignal.abort("already"), (reason) => seen.push(reason));
    expect(seen).toEqual(["already"]);
    stop();
    expect(seen).toEqual(["already"]);
  });

  it("the disposer takes the listener off: an abort after it runs nothing", () => {
    const controller = new AbortController();
    const seen: unknown[] = [];
    const stop = onAbort(controller.signal, (reason) => seen.push(reason));
    stop();
    stop();
    controller.abort("late");
    expect(seen).toEqual([]);
  });

  it("takes no signal (an optional one left out): nothing runs, and the disposer does nothing", () => {
    const seen: unknown[] = [];
    const stop = onAbort(undefined, (reason) => seen.push(reason));
    stop();
    expect(seen).toEqual([]);
  });

  it("untilAbort resolves when the signal aborts, or at once when it has", async () => {
    const controller = new AbortController();
    let ended = false;
    const waiting = untilAbort(controller.signal).then(() => (ended = true));
    await Promise.resolve();
    expect(ended).toBe(false);
    controller.abort();
    await waiting;
    expect(ended).toBe(true);
    await expect(untilAbort(AbortSignal.abort())).resolves.toBeUndefined();
  });
});
