/**
 * A fixed-capacity journal that keeps the newest entries. A ring buffer rather than an array with
 * `shift()`, so a long session at the cap costs O(1) per entry instead of moving 10 000 items.
 */
export class BoundedJournal<T> {
  private entries: T[] = [];
  /** Index of the oldest entry once the buffer has wrapped. */
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
    this.entries[this.head] = entry;
    this.head = (this.head + 1) % this.capacity;
    this.droppedCount++;
  }

  /** The entries, oldest first, as a new array. */
  toArray(): T[] {
    if (this.head === 0) return this.entries.slice();
    return this.entries.slice(this.head).concat(this.entries.slice(0, this.head));
  }

  clear(): void {
    this.entries = [];
    this.head = 0;
    this.droppedCount = 0;
  }
}
