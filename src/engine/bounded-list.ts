/**
 * A list that keeps only its newest `limit` entries, so records of a long-running mock
 * cannot grow without end; `dropped` says how many fell off the front.
 */
export class BoundedList<T> {
  private entries: T[] = [];
  private start = 0;
  dropped = 0;

  constructor(readonly limit: number) {}

  push(entry: T): void {
    this.entries.push(entry);
    if (this.entries.length - this.start > this.limit) {
      this.start++;
      this.dropped++;
      // Compact now and then rather than shifting the array on every push.
      if (this.start >= 1024 && this.start * 2 >= this.entries.length) {
        this.entries = this.entries.slice(this.start);
        this.start = 0;
      }
    }
  }

  all(): T[] {
    return this.entries.slice(this.start);
  }

  filter(keep: (entry: T) => boolean): T[] {
    const result: T[] = [];
    for (let i = this.start; i < this.entries.length; i++) if (keep(this.entries[i]!)) result.push(this.entries[i]!);
    return result;
  }

  get size(): number {
    return this.entries.length - this.start;
  }

  clear(): void {
    this.entries = [];
    this.start = 0;
    this.dropped = 0;
  }
}
