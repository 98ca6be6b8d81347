/**
 * measureWatchLatency opens many streaming watches on a pods collection and times each
 * write's journey to every watcher: from the client-side moment just before the create
 * request is sent to the moment a watcher has parsed the ADDED event for that Pod.
 */
import { type ClientRequest, get, type IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { expectOk, type HttpClient, percentile, withCpuTime } from './http-load.js';
import { podManifest } from './pod-manifest.js';

/** WatchLatencyOptions: `watchers` watches on `namespace`'s pods, then `writes` creates
 * issued one every `writeIntervalMs`; give up waiting for stragglers after `settleMs`. */
export interface WatchLatencyOptions {
  baseUrl: string;
  client: HttpClient;
  namespace: string;
  watchers: number;
  writes: number;
  writeIntervalMs: number;
  settleMs: number;
}

/** WatchLatency summarises every (write, watcher) delivery; `missing` counts deliveries
 * that had not arrived by the end of the settle time. */
export interface WatchLatency {
  deliveries: number;
  missing: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Process CPU time (server and watchers) per write, from the first write to the last delivery. */
  cpuMsPerWrite: number;
}

/** measureWatchLatency runs the whole phase and closes every watch it opened. */
export async function measureWatchLatency(options: WatchLatencyOptions): Promise<WatchLatency> {
  const { client, namespace } = options;
  const list = expectOk(await client.send('GET', `/api/v1/namespaces/${namespace}/pods`), 'list pods');
  const listRv = (JSON.parse(list.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  const watchPath = `/api/v1/namespaces/${namespace}/pods?watch=true&resourceVersion=${listRv}`;
  const watchers = await Promise.all(Array.from({ length: options.watchers }, () => openWatch(new URL(watchPath, options.baseUrl), sentAt, latencies)));
  console.log(`[watch] ${watchers.length} watchers connected at resourceVersion ${listRv}`);
  try {
    const expected = options.watchers * options.writes;
    const { cpuMs } = await withCpuTime(async () => {
      await paceWrites(options, sentAt);
      const deadline = performance.now() + options.settleMs;
      while (latencies.length < expected && performance.now() < deadline) await sleep(10);
    });
    latencies.sort((a, b) => a - b);
    return {
      deliveries: latencies.length,
      missing: expected - latencies.length,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      maxMs: latencies[latencies.length - 1] ?? Number.NaN,
      cpuMsPerWrite: cpuMs / options.writes,
    };
  } finally {
    for (const watcher of watchers) watcher.destroy();
  }
}

/** paceWrites creates the Pods at a fixed rate, stamping each send time first. */
async function paceWrites(options: WatchLatencyOptions, sentAt: Map<string, number>): Promise<void> {
  const start = performance.now();
  for (let i = 0; i < options.writes; i++) {
    const due = start + i * options.writeIntervalMs;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const name = `watched-${String(i).padStart(5, '0')}`;
    const body = JSON.stringify(podManifest({ namespace: options.namespace, name, index: i }));
    sentAt.set(name, performance.now());
    expectOk(await options.client.send('POST', `/api/v1/namespaces/${options.namespace}/pods`, body), `create ${name}`);
    if ((i + 1) % 100 === 0) console.log(`[watch] ${i + 1}/${options.writes} writes`);
  }
}

/** openWatch resolves once the watch's 200 headers arrive; from then on it parses every
 * line and records the latency of each ADDED event for a Pod in `sentAt`. */
function openWatch(url: URL, sentAt: ReadonlyMap<string, number>, latencies: number[]): Promise<ClientRequest> {
  return new Promise((resolve, reject) => {
    // agent: false gives every watch its own connection, as separate clients would have.
    const request = get(url, { agent: false, headers: { Accept: 'application/json' } }, (res: IncomingMessage) => {
      if (res.statusCode !== 200) {
        reject(new Error(`watch: HTTP ${res.statusCode}`));
        res.resume();
        return;
      }
      let buffered = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffered += chunk;
        for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
          const line = buffered.slice(0, end);
          buffered = buffered.slice(end + 1);
          recordEvent(line, sentAt, latencies);
        }
      });
      // Ending the bench destroys the request; that abort is expected, not a failure.
      res.on('error', () => undefined);
      resolve(request);
    });
    request.on('error', (err) => {
      if (!request.destroyed) reject(err);
    });
  });
}

function recordEvent(line: string, sentAt: ReadonlyMap<string, number>, latencies: number[]): void {
  const event = JSON.parse(line) as { type: string; object: { metadata?: { name?: string } } };
  const sent = event.type === 'ADDED' ? sentAt.get(event.object.metadata?.name ?? '') : undefined;
  if (sent !== undefined) latencies.push(performance.now() - sent);
}
