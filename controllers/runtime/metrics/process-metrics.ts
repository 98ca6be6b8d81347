/**
 * The metric families every loop process exposes, with client-go's names, labels and
 * buckets: workqueue_* per queue (label `name`) and rest_client_* per request to the API
 * server. One set per process (queues and transports register into it as they are made);
 * metrics-server.ts serves it. Series are resolved once per queue and per (method, code), so
 * the hot paths only add numbers (apiserver/api/machinery/metric-series.ts).
 */
import {
  CounterFamily,
  exponentialBuckets,
  GaugeFamily,
  HistogramFamily,
  type HistogramSeries,
  type MetricSet,
} from '../../../apiserver/api/machinery/metric-series.js';

/** client-go's workqueue latency buckets: 10 ns to 1000 s, ten times apart. */
const QUEUE_BUCKETS = exponentialBuckets(10e-9, 10, 12);
/** client-go's rest_client_request_duration_seconds buckets. */
const REST_BUCKETS = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];

/** QueueReadings is what a queue reports when scraped. */
export interface QueueReadings {
  readonly name: string;
  adds(): number;
  retries(): number;
  depth(): number;
  /** Seconds each key now held by a worker has been held. */
  heldForSeconds(): number[];
}

class ProcessMetrics implements MetricSet {
  readonly adds = new CounterFamily('workqueue_adds_total', 'Total number of adds handled by workqueue', ['name']);
  readonly depth = new GaugeFamily('workqueue_depth', 'Current depth of workqueue', ['name']);
  readonly queueDuration = new HistogramFamily(
    'workqueue_queue_duration_seconds',
    'How long in seconds an item stays in workqueue before being requested.',
    ['name'],
    QUEUE_BUCKETS,
  );
  readonly workDuration = new HistogramFamily(
    'workqueue_work_duration_seconds',
    'How long in seconds processing an item from workqueue takes.',
    ['name'],
    QUEUE_BUCKETS,
  );
  readonly retries = new CounterFamily('workqueue_retries_total', 'Total number of retries handled by workqueue', ['name']);
  readonly unfinishedWork = new GaugeFamily(
    'workqueue_unfinished_work_seconds',
    "How many seconds of work has done that is in progress and hasn't been observed by work_duration. Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.",
    ['name'],
  );
  readonly longestRunning = new GaugeFamily(
    'workqueue_longest_running_processor_seconds',
    'How many seconds has the longest running processor for workqueue been running.',
    ['name'],
  );
  readonly restRequests = new CounterFamily('rest_client_requests_total', 'Number of HTTP requests, partitioned by status code, method, and host.', [
    'code',
    'method',
    'host',
  ]);
  readonly restDuration = new HistogramFamily(
    'rest_client_request_duration_seconds',
    'Request latency in seconds. Broken down by verb, and host.',
    ['verb', 'host'],
    REST_BUCKETS,
  );
  readonly families = [
    this.adds,
    this.depth,
    this.queueDuration,
    this.workDuration,
    this.retries,
    this.unfinishedWork,
    this.longestRunning,
    this.restRequests,
    this.restDuration,
  ];
  private readonly queues = new Set<QueueReadings>();

  /** addQueue makes a queue's counters and gauges part of every scrape from now on. */
  addQueue(queue: QueueReadings): { queueDuration: HistogramSeries; workDuration: HistogramSeries; remove(): void } {
    this.queues.add(queue);
    return {
      queueDuration: this.queueDuration.series({ name: queue.name }),
      workDuration: this.workDuration.series({ name: queue.name }),
      remove: () => this.queues.delete(queue),
    };
  }

  /** beforeScrape reads every live queue (queues of one name add up). */
  readonly beforeScrape = (): void => {
    const totals = new Map<string, { adds: number; retries: number; depth: number; unfinished: number; longest: number }>();
    for (const queue of this.queues) {
      const total = totals.get(queue.name) ?? { adds: 0, retries: 0, depth: 0, unfinished: 0, longest: 0 };
      const held = queue.heldForSeconds();
      total.adds += queue.adds();
      total.retries += queue.retries();
      total.depth += queue.depth();
      total.unfinished += held.reduce((sum, s) => sum + s, 0);
      total.longest = Math.max(total.longest, ...held);
      totals.set(queue.name, total);
    }
    for (const [name, total] of totals) {
      this.adds.series({ name }).value = total.adds;
      this.retries.series({ name }).value = total.retries;
      this.depth.series({ name }).set(total.depth);
      this.unfinishedWork.series({ name }).set(total.unfinished);
      this.longestRunning.series({ name }).set(total.longest);
    }
  };
}

/** processMetrics is this process's set: every queue and API client in it reports here. */
export const processMetrics = new ProcessMetrics();
