/**
 * The Prometheus text exposition of a MetricSet, written by prom-client: each family is a
 * prom-client metric whose values are read from the plain series at scrape time, and the
 * registry also carries prom-client's default process_* and nodejs_* metrics (the
 * counterparts of the process_* and go_* families a Go component exposes). Loaded only on
 * the first scrape (see metrics-scrape.ts), so processes that are never scraped do not load it.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, type MetricObjectWithValues, type MetricValueWithName, Registry } from 'prom-client';
import type { AnyFamily, CounterFamily, GaugeFamily, HistogramFamily, MetricSet } from './metric-series.js';

type Values = MetricObjectWithValues<MetricValueWithName<string>>;

/** Fields prom-client's registry reads from a metric besides its values. */
function header(family: AnyFamily, type: string) {
  return { name: family.name, help: family.help, type, aggregator: 'sum' as const, collect: () => undefined };
}

function scalarValues(family: CounterFamily | GaugeFamily): Values {
  const values = family.entries().map(({ labels, series }) => ({ labels, value: series.value }));
  return { ...header(family, family.type), values } as unknown as Values;
}

function histogramValues(family: HistogramFamily): Values {
  const values: MetricValueWithName<string>[] = [];
  for (const { labels, series } of family.entries()) {
    let cumulative = 0;
    family.bounds.forEach((bound, i) => {
      cumulative += series.counts[i]!;
      values.push({ metricName: `${family.name}_bucket`, labels: { ...labels, le: bound }, value: cumulative });
    });
    values.push({ metricName: `${family.name}_bucket`, labels: { ...labels, le: '+Inf' }, value: series.count });
    values.push({ metricName: `${family.name}_sum`, labels, value: series.sum });
    values.push({ metricName: `${family.name}_count`, labels, value: series.count });
  }
  return { ...header(family, 'histogram'), values } as unknown as Values;
}

/** promMetricOf wraps a family as the prom-client metric of its type, reading its series. */
function promMetricOf(family: AnyFamily, registry: Registry): void {
  const common = { name: family.name, help: family.help, labelNames: [...family.labelNames], registers: [registry] };
  if (family.type === 'histogram') {
    const source = family;
    new (class extends Histogram<string> {
      override async get() {
        return histogramValues(source);
      }
      // The registry renders a histogram from this one (prom-client 15), not from get().
      async getForPromString() {
        return histogramValues(source);
      }
    })({ ...common, buckets: [...family.bounds] });
    return;
  }
  const source = family;
  if (family.type === 'counter') {
    new (class extends Counter<string> {
      override async get() {
        return scalarValues(source);
      }
    })(common);
    return;
  }
  new (class extends Gauge<string> {
    override async get() {
      return scalarValues(source);
    }
  })(common);
}

export interface Exposition {
  contentType: string;
  text(): Promise<string>;
}

/** createExposition builds the registry of a metric set once; text() renders it. */
export function createExposition(set: MetricSet): Exposition {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const family of set.families) promMetricOf(family, registry);
  return {
    contentType: registry.contentType,
    text: async () => {
      set.beforeScrape?.();
      return registry.metrics();
    },
  };
}
