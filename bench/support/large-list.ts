/**
 * The large-list phase of the API bench: many small Pods in one namespace, then the time of
 * a plain JSON LIST of all of them, from request sent to the last byte read by the client.
 */
import { performance } from 'node:perf_hooks';
import type { Store, StoredObject } from '../../store/index.js';
import { expectOk, type HttpClient, withCpuTime } from './http-load.js';

/** LargeListOptions: `count` Pods go into `namespace` (which must not exist yet); the
 * list is timed `runs` times. */
export interface LargeListOptions {
  client: HttpClient;
  store: Store;
  namespace: string;
  count: number;
  runs: number;
}

/** LargeList is what the phase measured: every run's time and the size of one list. */
export interface LargeList {
  runsMs: number[];
  medianMs: number;
  /** Median process CPU time (server and client) of one list. */
  medianCpuMs: number;
  bytes: number;
  podBytes: number;
}

/** measureLargeList creates one small Pod through the API (so it carries everything the
 * server adds: defaults, uid, managedFields) and `count - 1` copies of it straight into
 * the store (creating 10,000 over HTTP would take the bench longer than the list), then
 * times GET …/namespaces/{namespace}/pods. */
export async function measureLargeList(options: LargeListOptions): Promise<LargeList> {
  const { client, store, namespace, count } = options;
  const path = `/api/v1/namespaces/${namespace}/pods`;
  expectOk(
    await client.send('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } })),
    'namespace',
  );
  const first = expectOk(await client.send('POST', path, JSON.stringify(smallPod('pod-00000'))), 'create pod').body;
  const template = JSON.parse(first) as StoredObject;
  for (let i = 1; i < count; i++) {
    const name = `pod-${String(i).padStart(5, '0')}`;
    store.create(
      { resource: 'pods', namespace, name },
      { ...template, metadata: { ...template.metadata, name, uid: `${i}-${String(template.metadata['uid'])}` } },
    );
  }
  const runsMs: number[] = [];
  const cpuMs: number[] = [];
  let bytes = 0;
  for (let run = 0; run < options.runs; run++) {
    const started = performance.now();
    const { value: response, cpuMs: spent } = await withCpuTime(async () => expectOk(await client.send('GET', path), 'list pods'));
    runsMs.push(performance.now() - started);
    cpuMs.push(spent);
    bytes = Buffer.byteLength(response.body);
  }
  return { runsMs, medianMs: median(runsMs), medianCpuMs: median(cpuMs), bytes, podBytes: Buffer.byteLength(first) };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function smallPod(name: string): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { app: 'list-bench' } },
    spec: { containers: [{ name: 'app', image: 'registry.example/app:1.0' }] },
  };
}
