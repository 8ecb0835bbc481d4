/**
 * A list that keeps only its newest `limit` entries, so records of a long-running mock
 * cannot grow without end; `dropped` says how many fell off the front.
 */
export class BoundedList<T> {
  /** Once full, a ring: the newest entry overwrites the oldest, which is no longer held (the heap stays at `limit` entries). */
  private entries: T[] = [];
  /** Where the oldest entry is once the ring is full (0 until then). */
  private oldest = 0;
  dropped = 0;

  constructor(readonly limit: number) {}

  push(entry: T): void {
    if (this.entries.length < this.limit) {
      this.entries.push(entry);
      return;
    }
    this.dropped++;
    if (this.limit === 0) return;
    this.entries[this.oldest] = entry;
    this.oldest = this.oldest + 1 === this.limit ? 0 : this.oldest + 1;
  }

  /** The entries, oldest first. */
  all(): T[] {
    if (this.oldest === 0) return this.entries.slice();
    return this.entries.slice(this.oldest).concat(this.entries.slice(0, this.oldest));
  }

  filter(keep: (entry: T) => boolean): T[] {
    const result: T[] = [];
    const { entries, oldest } = this;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[(oldest + i) % entries.length]!;
      if (keep(entry)) result.push(entry);
    }
    return result;
  }

  get size(): number {
    return this.entries.length;
  }

  clear(): void {
    this.entries = [];
    this.oldest = 0;
    this.dropped = 0;
  }
}
