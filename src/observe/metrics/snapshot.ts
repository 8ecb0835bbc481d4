/** A metrics snapshot: every family with its samples at one moment, immutable. */
import type { CounterSample, HistogramSample, Labels, MetricFamilySnapshot } from "./families.js";

export class MetricsSnapshot {
  readonly takenAt: number;

  constructor(readonly families: readonly MetricFamilySnapshot[]) {
    this.takenAt = Date.now();
    Object.freeze(this.families);
  }

  family(name: string): MetricFamilySnapshot | undefined {
    return this.families.find((family) => family.name === name);
  }

  /**
   * The value of a counter or gauge, summed over the series whose labels include `labels`; for a
   * histogram, its count of observations. 0 when nothing matches.
   */
  value(name: string, labels: Labels = {}): number {
    const family = this.family(name);
    if (family === undefined) return 0;
    let total = 0;
    for (const sample of family.samples) {
      if (!Object.entries(labels).every(([key, value]) => sample.labels[key] === value)) continue;
      total += "value" in sample ? (sample as CounterSample).value : (sample as HistogramSample).count;
    }
    return total;
  }

  /** How many series (label sets) there are across all families: what a scrape stores. */
  get seriesCount(): number {
    return this.families.reduce((total, family) => total + family.samples.length, 0);
  }
}
