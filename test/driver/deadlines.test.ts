/** The session's one timer for all request timeouts (src/driver/deadlines.ts), on a fake clock. */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Deadlines } from "../../src/driver/deadlines.js";

interface Item {
  name: string;
  deadline: number;
}

// The class reads performance.now() and arms setTimeout: both are faked, so every expiry is exact.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
});
afterEach(() => {
  vi.useRealTimers();
});

function setUp() {
  const waiting = new Set<Item>();
  const expired: Array<{ name: string; at: number }> = [];
  const began = performance.now();
  const deadlines = new Deadlines<Item>(
    () => waiting,
    (item) => {
      waiting.delete(item);
      expired.push({ name: item.name, at: performance.now() - began });
    },
  );
  const start = (name: string, ms: number) => {
    const item = { name, deadline: Infinity };
    waiting.add(item);
    deadlines.start(item, ms);
    return item;
  };
  const timerOf = () => (deadlines as unknown as { timer: NodeJS.Timeout | undefined }).timer;
  return { waiting, expired, deadlines, start, timerOf };
}

describe("Deadlines", () => {
  it("expires each item at its own deadline, whatever order they were started in", () => {
    const { expired, start } = setUp();
    start("slow", 120);
    start("fast", 40); // earlier than the timer is armed for: re-armed
    start("medium", 80);
    vi.advanceTimersByTime(39);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(200);
    expect(expired).toEqual([
      { name: "fast", at: 40 },
      { name: "medium", at: 80 },
      { name: "slow", at: 120 },
    ]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("restarting an item's countdown pushes its deadline back", () => {
    const { expired, deadlines, start } = setUp();
    const item = start("restarted", 50);
    vi.advanceTimersByTime(30);
    deadlines.start(item, 300);
    vi.advanceTimersByTime(299); // past the first deadline, a moment before the second
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual([{ name: "restarted", at: 330 }]);
  });

  it("items that are gone (answered) are never expired, and an idle timer does not hold the process", () => {
    const { waiting, expired, deadlines, start, timerOf } = setUp();
    start("answered", 30);
    waiting.clear();
    deadlines.idle();
    expect(timerOf()?.hasRef()).toBe(false);
    start("next", 1000);
    expect(timerOf()?.hasRef()).toBe(true);
    waiting.clear();
    vi.advanceTimersByTime(2000);
    expect(expired).toEqual([]);
    deadlines.stop();
    expect(timerOf()).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });
});
