/**
 * scrapeHandler answers a scrape of one process's MetricSet: prom-client (and its default
 * collectors) load on the first scrape, not at process start.
 */

import type { MetricSet } from './metric-series.js';
import type { Exposition } from './metrics-exposition.js';

export type Scrape = () => Promise<{ contentType: string; body: string }>;

export function scrapeHandler(set: MetricSet): Scrape {
  let exposition: Promise<Exposition> | undefined;
  return async () => {
    exposition ??= import('./metrics-exposition.js').then((module) => module.createExposition(set));
    const ready = await exposition;
    return { contentType: ready.contentType, body: await ready.text() };
  };
}
