/**
 * The metric families themselves: counters, gauges and histograms keyed by a bounded label set.
 * Plain maps, updated synchronously by the collector (no library on the hot path); the text
 * exposition formats a snapshot of them.
 */

export type MetricType = "counter" | "gauge" | "histogram";
export type Labels = Readonly<Record<string, string>>;

/** Upper bounds (seconds) of the duration histograms' buckets; `+Inf` is implied. */
export const DURATION_BUCKETS_SECONDS: readonly number[] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** One counter or gauge series of a metrics snapshot: its labels and its value. */
export interface CounterSample {
  readonly labels: Labels;
  readonly value: number;
}

/** One histogram series of a metrics snapshot: cumulative bucket counts, count and sum (seconds). */
export interface HistogramSample {
  readonly labels: Labels;
  /** Cumulative counts per bucket of `DURATION_BUCKETS_SECONDS` (the last is `+Inf`). */
  readonly buckets: readonly number[];
  readonly count: number;
  readonly sum: number;
}

/** One metric family in a snapshot (`server.metrics()`): name, help, type and its series. */
export interface MetricFamilySnapshot {
  readonly name: string;
  readonly help: string;
  readonly type: MetricType;
  readonly labelNames: readonly string[];
  readonly samples: readonly (CounterSample | HistogramSample)[];
}

interface MutableValue {
  labels: Labels;
  value: number;
}

/** One histogram series, mutable; `observeInto` records a value in it. */
export type HistogramSeries = MutableHistogram;

export function observeInto(entry: HistogramSeries, seconds: number): void {
  let bucket = 0;
  while (bucket < DURATION_BUCKETS_SECONDS.length && seconds > DURATION_BUCKETS_SECONDS[bucket]!) bucket++;
  entry.counts[bucket]!++;
  entry.count++;
  entry.sum += seconds;
}

interface MutableHistogram {
  labels: Labels;
  counts: number[];
  count: number;
  sum: number;
}

function keyOf(values: readonly string[]): string {
  return values.length === 1 ? values[0]! : values.join("\u0000");
}

function labelsOf(names: readonly string[], values: readonly string[]): Labels {
  const labels: Record<string, string> = {};
  names.forEach((name, index) => (labels[name] = values[index]!));
  return Object.freeze(labels);
}

abstract class Family {
  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
  ) {}
  abstract readonly type: MetricType;
  abstract snapshot(): MetricFamilySnapshot;
  abstract reset(): void;
}

/** A counter or a gauge: one number per label set. */
export class ValueFamily extends Family {
  private readonly values = new Map<string, MutableValue>();

  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    readonly type: "counter" | "gauge",
  ) {
    super(name, help, labelNames);
    // A family without labels always shows its one series (0 until something happens).
    if (labelNames.length === 0) this.values.set("", { labels: Object.freeze({}), value: 0 });
  }

  add(amount: number, ...values: string[]): void {
    this.series(values).value += amount;
  }

  /** The mutable series for these label values (made at 0 on first use), for callers that keep it. */
  series(values: readonly string[]): { value: number } {
    const key = keyOf(values);
    let entry = this.values.get(key);
    if (entry === undefined) this.values.set(key, (entry = { labels: labelsOf(this.labelNames, values), value: 0 }));
    return entry;
  }

  get(...values: string[]): number {
    return this.values.get(keyOf(values))?.value ?? 0;
  }

  snapshot(): MetricFamilySnapshot {
    return { name: this.name, help: this.help, type: this.type, labelNames: this.labelNames, samples: [...this.values.values()].map(({ labels, value }) => ({ labels, value })) };
  }

  /** Counters go back to zero; gauges keep their live values. */
  reset(): void {
    if (this.type === "gauge") return;
    for (const entry of this.values.values()) entry.value = 0;
  }
}

export class HistogramFamily extends Family {
  readonly type = "histogram";
  private readonly values = new Map<string, MutableHistogram>();

  observe(seconds: number, ...values: string[]): void {
    observeInto(this.series(values), seconds);
  }

  /** The mutable series for these label values, for callers that keep it (record with `observeInto`). */
  series(values: readonly string[]): HistogramSeries {
    const key = keyOf(values);
    let entry = this.values.get(key);
    if (entry === undefined) {
      entry = { labels: labelsOf(this.labelNames, values), counts: new Array<number>(DURATION_BUCKETS_SECONDS.length + 1).fill(0), count: 0, sum: 0 };
      this.values.set(key, entry);
    }
    return entry;
  }

  snapshot(): MetricFamilySnapshot {
    const samples = [...this.values.values()].map(({ labels, counts, count, sum }) => {
      let running = 0;
      return { labels, buckets: counts.map((n) => (running += n)), count, sum };
    });
    return { name: this.name, help: this.help, type: this.type, labelNames: this.labelNames, samples };
  }

  /** Back to zero, keeping the series (callers may hold them). */
  reset(): void {
    for (const entry of this.values.values()) {
      entry.counts.fill(0);
      entry.count = 0;
      entry.sum = 0;
    }
  }
}
