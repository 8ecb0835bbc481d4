/**
 * Which entries are used, per test id, on one mount. Requests with no test id share one
 * default state. At most `cap` test ids keep state (0: no cap); when a new one would pass the
 * cap, the oldest is dropped and marked evicted, so its used entries are never served again:
 * its calls fail with MCP_FAKE_EVICTED until that test id (or everything) is reset.
 */

export interface ConsumptionLimits {
  /** Test ids whose state is kept; 0 keeps every one. */
  cap: number;
  /** Evicted marks kept; past it the oldest mark is forgotten (so memory stays bounded). */
  evictedMax: number;
}

export class ConsumptionState {
  /** Insertion order is age: the first key is the oldest test id. */
  private readonly byTestId = new Map<string, Set<string>>();
  private readonly shared = new Set<string>();
  private readonly evicted = new Set<string>();

  constructor(private readonly limits: ConsumptionLimits) {}

  get cap(): number {
    return this.limits.cap;
  }

  isEvicted(testId: string | null): boolean {
    return testId !== null && this.evicted.has(testId);
  }

  isUsed(testId: string | null, entryId: string): boolean {
    const used = testId === null ? this.shared : this.byTestId.get(testId);
    return used?.has(entryId) ?? false;
  }

  markUsed(testId: string | null, entryId: string): void {
    if (testId === null) {
      this.shared.add(entryId);
      return;
    }
    let used = this.byTestId.get(testId);
    if (!used) {
      used = new Set();
      this.byTestId.set(testId, used);
      this.evictPastCap();
    }
    used.add(entryId);
  }

  private evictPastCap(): void {
    const { cap, evictedMax } = this.limits;
    if (cap === 0) return;
    while (this.byTestId.size > cap) {
      const oldest = this.byTestId.keys().next().value as string;
      this.byTestId.delete(oldest);
      this.evicted.add(oldest);
      if (this.evicted.size > evictedMax) this.evicted.delete(this.evicted.values().next().value as string);
    }
  }

  /** With a test id: that id's used entries and evicted mark; without: everything. */
  reset(testId?: string): void {
    if (testId === undefined) {
      this.byTestId.clear();
      this.shared.clear();
      this.evicted.clear();
      return;
    }
    this.byTestId.delete(testId);
    this.evicted.delete(testId);
  }

  /** Test ids with state, for inspection. */
  get testIdCount(): number {
    return this.byTestId.size;
  }
}
