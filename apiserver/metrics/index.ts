/**
 * apiserver/metrics — the metrics-server role inside the API server: a scraper that reads
 * every kubelet's `/stats/summary` report and the virtual sources that serve the
 * metrics.k8s.io kinds (PodMetrics, NodeMetrics) from what it read. `kubectl top` and the
 * HorizontalPodAutoscaler read those kinds.
 *
 * May import: apiserver/** and store/ (it is part of the server). See docs/kubelet-sim.md
 * ("Load and usage").
 */
import { nodeMetricsDefinition, podMetricsDefinition } from '../api/metrics/index.js';
import type { VirtualSource } from '../handlers/types.js';
import { nodeMetricsSource, podMetricsSource } from './metrics-sources.js';
import { MetricsScraper, type MetricsScraperOptions } from './scraper.js';

export { type MetricsSourceOptions, nodeMetricsSource, podMetricsSource } from './metrics-sources.js';
export * from './samples.js';
export { MetricsScraper, type MetricsScraperOptions, type ScrapeLogger, SUMMARY_PATH } from './scraper.js';

/** MetricsPipeline is a scraper plus the virtual sources it feeds, keyed as HandlerContext wants. */
export interface MetricsPipeline {
  scraper: MetricsScraper;
  sources: ReadonlyMap<string, VirtualSource>;
}

/** createMetricsPipeline wires a scraper (not started: no timers until scraper.start) and the
 * PodMetrics and NodeMetrics sources reading its snapshots. */
export function createMetricsPipeline(options: MetricsScraperOptions): MetricsPipeline {
  const scraper = new MetricsScraper(options);
  const sourceOptions = { snapshot: () => scraper.latest(), store: options.store, registry: options.registry, now: options.now };
  const sources = new Map<string, VirtualSource>([
    [podMetricsDefinition.storage.resource, podMetricsSource(sourceOptions)],
    [nodeMetricsDefinition.storage.resource, nodeMetricsSource(sourceOptions)],
  ]);
  return { scraper, sources };
}
