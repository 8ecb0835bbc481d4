/**
 * A list that keeps only its newest `capacity` entries, so the records of a long-running mock
 * or driver cannot grow without end; `dropped` says how many fell off the front. Once full it is
 * a ring: the newest entry overwrites the oldest (O(1), no `shift()`), which is no longer held.
 */
export class RingBuffer<T> {
  private entries: T[] = [];
  /** Where the oldest entry is once the ring is full (0 until then). */
  private head = 0;
  private droppedCount = 0;

  constructor(readonly capacity: number) {}

  /** How many entries were dropped to stay within the capacity since the last `clear()`. */
  get dropped(): number {
    return this.droppedCount;
  }

  get size(): number {
    return this.entries.length;
  }

  push(entry: T): void {
    if (this.entries.length < this.capacity) {
      this.entries.push(entry);
      return;
    }
    this.droppedCount++;
    if (this.capacity === 0) return;
    this.entries[this.head] = entry;
    this.head = this.head + 1 === this.capacity ? 0 : this.head + 1;
  }

  /** Replaces the newest `count` entries with what `change` makes of each, in place (order and `dropped` unchanged). */
  replaceNewest(count: number, change: (entry: T) => T): void {
    const { entries } = this;
    const length = entries.length;
    // The newest entry sits just before `head` once the ring is full, at the end until then.
    for (let back = 1; back <= Math.min(count, length); back++) {
      const index = (this.head - back + length) % length;
      entries[index] = change(entries[index]!);
    }
  }

  /** The entries, oldest first, as a new array. */
  toArray(): T[] {
    if (this.head === 0) return this.entries.slice();
    return this.entries.slice(this.head).concat(this.entries.slice(0, this.head));
  }

  /** The entries that `keep` accepts, oldest first. */
  filter(keep: (entry: T) => boolean): T[] {
    const result: T[] = [];
    const { entries, head } = this;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[(head + i) % entries.length]!;
      if (keep(entry)) result.push(entry);
    }
    return result;
  }

  clear(): void {
    this.entries = [];
    this.head = 0;
    this.droppedCount = 0;
  }
}
