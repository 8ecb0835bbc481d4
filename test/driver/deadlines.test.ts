/** The session's one timer for all request timeouts (src/driver/deadlines.ts). */
import { describe, expect, it } from "vitest";
import { Deadlines } from "../../src/driver/deadlines.js";

interface Item {
  name: string;
  deadline: number;
}

function setUp() {
  const waiting = new Set<Item>();
  const expired: Array<{ name: string; late: number }> = [];
  const deadlines = new Deadlines<Item>(
    () => waiting,
    (item) => {
      waiting.delete(item);
      expired.push({ name: item.name, late: performance.now() - item.deadline });
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

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe("Deadlines", () => {
  it("expires each item at its own deadline, whatever order they were started in", async () => {
    const { expired, start } = setUp();
    start("slow", 120);
    start("fast", 40); // earlier than the timer is armed for: re-armed
    start("medium", 80);
    await delay(200);
    expect(expired.map((item) => item.name)).toEqual(["fast", "medium", "slow"]);
    for (const { late } of expired) {
      expect(late).toBeGreaterThanOrEqual(0);
      expect(late).toBeLessThan(150); // timers run late on a busy machine, never early
    }
  });

  it("restarting an item's countdown pushes its deadline back", async () => {
    const { expired, deadlines, start } = setUp();
    const item = start("restarted", 50);
    await delay(30);
    deadlines.start(item, 300);
    await delay(100); // past the first deadline, well before the second
    expect(expired).toEqual([]);
    await delay(400);
    expect(expired.map((entry) => entry.name)).toEqual(["restarted"]);
  });

  it("items that are gone (answered) are never expired, and an idle timer does not hold the process", async () => {
    const { waiting, expired, deadlines, start, timerOf } = setUp();
    start("answered", 30);
    waiting.clear();
    deadlines.idle();
    expect(timerOf()?.hasRef()).toBe(false);
    start("next", 1000);
    expect(timerOf()?.hasRef()).toBe(true);
    waiting.clear();
    await delay(60);
    expect(expired).toEqual([]);
    deadlines.stop();
    expect(timerOf()).toBeUndefined();
  });
});
