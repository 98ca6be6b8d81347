/**
 * MetricsScraper plays metrics-server inside the API server process: every interval it
 * lists the Nodes from the store, groups them by kubelet endpoint (one kubelet-sim process
 * serves many nodes), asks each endpoint once for its `/stats/summary` report, and keeps the
 * latest usage of every node and pod in memory. The metrics.k8s.io kinds read from it
 * (metrics-sources.ts).
 *
 *   start() ─► scrape now ─► every intervalMs: scrape (a round still running is not doubled)
 *   scrape:  nodes from the store ─► endpoints ─► GET each (in parallel, timeout) ─► snapshot
 *   stop()  ─► no more rounds; requests in flight are aborted
 *
 * A kubelet that cannot be reached or answers nonsense contributes nothing to the round, so
 * its nodes and pods drop out of the metrics until it answers again — what `kubectl top`
 * shows on a real cluster when metrics-server cannot reach a node. Scraping is network I/O,
 * not cluster logic, so it runs on wall-clock timers (like compaction); samples are stamped
 * with the cluster clock.
 */
import { request as httpRequest } from 'node:http';
import type { Store } from '../../store/index.js';
import { SummaryListSchema } from '../api/metrics/stats-summary.js';
import type { Registry } from '../api/registry.js';
import type { KubeObject } from '../api/resource-definition.js';
import { EMPTY_SNAPSHOT, groupByEndpoint, type MetricsSnapshot, mergeBatches, type SampleBatch, samplesFromSummaries } from './samples.js';

/** ScrapeLogger is the part of the server's (pino) logger the scraper uses. */
export interface ScrapeLogger {
  warn(object: object, message: string): void;
  debug(object: object, message: string): void;
}

/** MetricsScraperOptions wires a scraper to the server's store, registry and clock. */
export interface MetricsScraperOptions {
  store: Store;
  registry: Registry;
  /** Cluster clock (ms since the epoch): stamps the samples. */
  now: () => number;
  logger: ScrapeLogger;
  /** Wall-clock limit of one kubelet request. Default 10 s (metrics-server's). */
  requestTimeoutMs?: number;
}

/** SUMMARY_PATH is where a kubelet serves its usage report. */
export const SUMMARY_PATH = '/stats/summary';

const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

/** MetricsScraper keeps the latest usage every kubelet reported (see the file comment for its
 * lifecycle). Its snapshot is replaced whole after each round, never edited in place. */
export class MetricsScraper {
  private snapshot: MetricsSnapshot = EMPTY_SNAPSHOT;
  private round: Promise<void> | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private intervalMs: number | undefined;
  private readonly abort = new AbortController();
  /** Endpoints whose last scrape failed: a failure is logged at warn once, then at debug. */
  private readonly failing = new Set<string>();

  constructor(private readonly options: MetricsScraperOptions) {}

  /** latest is the snapshot of the last completed round (empty before the first). */
  latest(): MetricsSnapshot {
    return this.snapshot;
  }

  /** start scrapes now and then every `intervalMs` of wall time until stop(). Called again
   * while running, it only changes the interval (the server follows the clock's speed so). */
  start(intervalMs: number): void {
    if (this.abort.signal.aborted || intervalMs === this.intervalMs) return;
    const first = this.timer === undefined;
    clearInterval(this.timer);
    this.intervalMs = intervalMs;
    this.timer = setInterval(() => void this.scrape(), intervalMs);
    // The timer must not keep a server process alive that is otherwise done.
    this.timer.unref();
    if (first) void this.scrape();
  }

  /** stop ends the rounds and aborts requests in flight. A stopped scraper stays stopped. */
  stop(): void {
    clearInterval(this.timer);
    this.abort.abort();
  }

  /** scrape runs one round and publishes its snapshot; a call while a round runs joins it.
   * Never rejects: every failure is per endpoint and logged. */
  scrape(): Promise<void> {
    this.round ??= this.runRound()
      .catch((err: unknown) => this.options.logger.warn({ err: (err as Error).message }, 'metrics: scrape round failed'))
      .finally(() => (this.round = undefined));
    return this.round;
  }

  private async runRound(): Promise<void> {
    const endpoints = groupByEndpoint(this.listNodes());
    const batches = await Promise.all([...endpoints].map(([endpoint, nodes]) => this.scrapeEndpoint(endpoint, nodes)));
    if (this.abort.signal.aborted) return;
    this.snapshot = mergeBatches(batches);
  }

  private listNodes(): KubeObject[] {
    const def = this.options.registry.find('', 'v1', 'nodes');
    if (!def) return [];
    return this.options.store.list({ resource: def.storage.resource }).items as unknown as KubeObject[];
  }

  /** scrapeEndpoint fetches one kubelet's report; any failure yields an empty batch. */
  private async scrapeEndpoint(endpoint: string, nodes: ReadonlySet<string>): Promise<SampleBatch> {
    const url = `http://${endpoint}${SUMMARY_PATH}`;
    try {
      const body = await getJson(url, this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, this.abort.signal);
      const parsed = SummaryListSchema.safeParse(body);
      if (!parsed.success) throw new Error(`unexpected summary: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      this.failing.delete(endpoint);
      return samplesFromSummaries(parsed.data, nodes, this.options.now());
    } catch (err) {
      if (!this.abort.signal.aborted) this.reportFailure(endpoint, [...nodes], err);
      return { nodes: [], pods: [] };
    }
  }

  private reportFailure(endpoint: string, nodes: string[], err: unknown): void {
    const fields = { url: `http://${endpoint}${SUMMARY_PATH}`, nodes, err: (err as Error).message };
    if (this.failing.has(endpoint)) return this.options.logger.debug(fields, 'metrics: kubelet still unreachable');
    this.failing.add(endpoint);
    this.options.logger.warn(fields, 'metrics: failed to scrape kubelet; its nodes and pods have no metrics until it answers');
  }
}

/** getJson GETs `url` over a fresh connection and decodes a 200 JSON answer; rejects on
 * any other status, a network error, the timeout or the signal. */
function getJson(url: string, timeoutMs: number, signal: AbortSignal): Promise<unknown> {
  return new Promise((resolve, reject) => {
    // agent: false — one short request per endpoint per round; no idle sockets to keep.
    const req = httpRequest(url, { method: 'GET', agent: false, signal, headers: { Accept: 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200) return reject(new Error(`kubelet answered HTTP ${res.statusCode}: ${text.slice(0, 200)}`));
        try {
          resolve(JSON.parse(text));
        } catch (err) {
          reject(err);
        }
      });
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}
