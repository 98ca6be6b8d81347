/**
 * Metric families kept as plain numbers on the hot path. A caller resolves a series (one
 * label set) once — per route, per queue, per host — and then only adds to numbers in it:
 * no label hashing, no validation, no strings per observation. prom-client's own
 * Counter.inc/Histogram.observe hash and validate every label set on every call (about 5 µs
 * for kube-apiserver's eight labels here), which is a noticeable share of a request.
 * metrics-exposition.ts hands these families to prom-client, which writes the text format.
 */

/** Labels of one series, in the family's label-name order. */
export type Labels = Readonly<Record<string, string>>;

export type FamilyType = 'counter' | 'gauge' | 'histogram';

interface FamilyInfo {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
}

/** Family is a metric family: its series, found by label values (once per caller). */
abstract class Family<S> implements FamilyInfo {
  abstract readonly type: FamilyType;
  private readonly byKey = new Map<string, { labels: Labels; series: S }>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
  ) {}

  /** series returns the series of these label values, created at zero on first use. Callers
   * keep the result: this lookup builds a key and is not meant for every observation. */
  series(values: Readonly<Record<string, string>>): S {
    const ordered = this.labelNames.map((label) => values[label] ?? '');
    const key = ordered.join('\u0000');
    let entry = this.byKey.get(key);
    if (!entry) {
      const labels = Object.fromEntries(this.labelNames.map((label, i) => [label, ordered[i]!]));
      entry = { labels, series: this.create() };
      this.byKey.set(key, entry);
    }
    return entry.series;
  }

  /** entries lists every series with its labels, for exposition. */
  entries(): Array<{ labels: Labels; series: S }> {
    return [...this.byKey.values()];
  }

  protected abstract create(): S;
}

export class CounterSeries {
  value = 0;
  inc(by = 1): void {
    this.value += by;
  }
}

export class GaugeSeries {
  value = 0;
  inc(by = 1): void {
    this.value += by;
  }
  dec(by = 1): void {
    this.value -= by;
  }
  set(value: number): void {
    this.value = value;
  }
}

/** HistogramSeries counts observations per bucket (not cumulative; exposition sums them). */
export class HistogramSeries {
  /** One slot per upper bound, plus the last for +Inf. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(private readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    const { bounds } = this;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    this.counts[i]!++;
    this.sum += value;
    this.count++;
  }
}

export class CounterFamily extends Family<CounterSeries> {
  readonly type = 'counter';
  protected create(): CounterSeries {
    return new CounterSeries();
  }
}

export class GaugeFamily extends Family<GaugeSeries> {
  readonly type = 'gauge';
  protected create(): GaugeSeries {
    return new GaugeSeries();
  }
}

export class HistogramFamily extends Family<HistogramSeries> {
  readonly type = 'histogram';

  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    readonly bounds: readonly number[],
  ) {
    super(name, help, labelNames);
  }

  protected create(): HistogramSeries {
    return new HistogramSeries(this.bounds);
  }
}

export type AnyFamily = CounterFamily | GaugeFamily | HistogramFamily;

/** exponentialBuckets: `count` bounds from `start`, each `factor` times the one before
 * (Prometheus' ExponentialBuckets). */
export function exponentialBuckets(start: number, factor: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => start * factor ** i);
}

/** MetricSet is the families one process exposes, plus gauges computed when scraped. */
export interface MetricSet {
  families: readonly AnyFamily[];
  /** Called before each scrape: refresh gauges that are computed (storage object counts). */
  beforeScrape?: () => void;
}
