/**
 * The timeouts of every request of a session on one timer. A timer per request costs a timer
 * object and the timer list's bookkeeping on every call; this one is armed for the earliest
 * deadline, and when it fires it expires what is due and re-arms for the next. While nothing
 * waits it holds the process open no more than a cleared timer would.
 */
export interface HasDeadline {
  /** `performance.now()` at which it expires. */
  deadline: number;
}

export class Deadlines<T extends HasDeadline> {
  private timer: NodeJS.Timeout | undefined;
  /** The deadline the timer is armed for. */
  private due = Infinity;

  constructor(
    /** What may be waiting: the timer looks through these when it fires. */
    private readonly waiting: () => Iterable<T>,
    private readonly expire: (item: T) => void,
  ) {}

  /** Starts (or restarts) `item`'s countdown of `ms`. */
  start(item: T, ms: number): void {
    item.deadline = performance.now() + ms;
    if (this.timer !== undefined && this.due <= item.deadline) this.timer.ref();
    else this.arm(item.deadline);
  }

  /** Nothing waits any more: the timer may stay armed, but must not keep the process alive. */
  idle(): void {
    this.timer?.unref();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.due = Infinity;
  }

  private arm(deadline: number): void {
    clearTimeout(this.timer);
    this.due = deadline;
    this.timer = setTimeout(() => this.fire(), Math.max(0, deadline - performance.now()));
  }

  private fire(): void {
    this.timer = undefined;
    this.due = Infinity;
    const now = performance.now();
    const expired: T[] = [];
    let next = Infinity;
    for (const item of this.waiting()) {
      if (item.deadline <= now) expired.push(item);
      else next = Math.min(next, item.deadline);
    }
    // Re-armed first, so that the others still time out should expiring one of these throw.
    if (next !== Infinity) this.arm(next);
    for (const item of expired) this.expire(item);
  }
}
