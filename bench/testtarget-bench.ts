/**
 * bench:testtarget — kubesim as a test target (issue 8), all in this process:
 *   0. the first startCluster() of the process, module loading included (as a test file's
 *      first test pays it);
 *   1. start: a bare API server (the baseline) vs startCluster() with every loop, the
 *      scheduler and one node, in real and virtual clock modes (HTTPS, the default) and over
 *      plain HTTP (insecure); stop times;
 *   2. reset after a test made a Deployment (3 pods), a namespace and some ConfigMaps;
 *   3. 100 sequential clusters (start, a Deployment of 2, settle, stop) with heap and RSS
 *      after a forced GC at 1, 25, 50 and 100 — memory must stay flat.
 * Prints figures; asserts nothing. Run with `npm run bench:testtarget` (needs --expose-gc).
 */
import type { startApiServer as StartApiServer } from '../apiserver/start-api-server.js';
import type { Cluster, startCluster as StartCluster } from '../cli/cluster/index.js';
import { parseKubeconfig } from '../controllers/runtime/client/kubeconfig.js';
import { fetchWithTls } from '../controllers/runtime/client/tls-fetch.js';

// Imported in firstStart(), which times them: the first start in a process includes loading.
let startApiServer: typeof StartApiServer;
let startCluster: typeof StartCluster;

const ROUNDS = Number(process.env['ROUNDS'] ?? 15);
const SEQUENTIAL = Number(process.env['CLUSTERS'] ?? 100);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await fn();
  return [value, performance.now() - start];
}

/** post sends as the cluster's kubeconfig user (its CA and admin certificate over HTTPS). */
async function post(cluster: Cluster, path: string, body: unknown): Promise<void> {
  const { tls } = parseKubeconfig(cluster.kubeconfig, 'startCluster');
  const init = { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), tls };
  const response = await fetchWithTls(`${cluster.url}${path}`, init);
  if (!response.ok) throw new Error(`POST ${path}: HTTP ${response.status} ${await response.text()}`);
}

function deployment(name: string, replicas: number) {
  const labels = { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: { replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  };
}

/** firstStart times import + first start of a cluster: what a test file's first test waits for. */
async function firstStart(): Promise<Record<string, string>> {
  const [cluster, clusterMs] = await timed(async () => {
    startCluster = (await import('../cli/cluster/index.js')).startCluster;
    return startCluster();
  });
  await cluster.stop();
  startApiServer = (await import('../apiserver/start-api-server.js')).startApiServer;
  return { 'first startCluster() of the process (import + start)': ms(clusterMs) };
}

async function startTimes(): Promise<Record<string, Record<string, string>>> {
  const bare: number[] = [];
  const bareStop: number[] = [];
  const real: number[] = [];
  const virtual: number[] = [];
  const insecure: number[] = [];
  const stops: number[] = [];
  // One warm-up of each: the first start pays for loading modules, as the first test of a file does.
  await (await startApiServer({ port: 0 })).close();
  await (await startCluster()).stop();
  for (let i = 0; i < ROUNDS; i++) {
    const [server, serverMs] = await timed(() => startApiServer({ port: 0, metricsIntervalMs: 0 }));
    bare.push(serverMs);
    bareStop.push((await timed(() => server.close()))[1]);
    const [cluster, clusterMs] = await timed(() => startCluster());
    real.push(clusterMs);
    stops.push((await timed(() => cluster.stop()))[1]);
    const [frozen, frozenMs] = await timed(() => startCluster({ clock: 'virtual' }));
    virtual.push(frozenMs);
    await frozen.stop();
    const [plain, plainMs] = await timed(() => startCluster({ insecure: true }));
    insecure.push(plainMs);
    await plain.stop();
  }
  return {
    'API server only (baseline)': { start: ms(median(bare)), stop: ms(median(bareStop)), 'vs baseline': '1.0×' },
    'startCluster() real clock': { start: ms(median(real)), stop: ms(median(stops)), 'vs baseline': `${(median(real) / median(bare)).toFixed(1)}×` },
    'startCluster() virtual clock': { start: ms(median(virtual)), stop: '-', 'vs baseline': `${(median(virtual) / median(bare)).toFixed(1)}×` },
    'startCluster({ insecure: true }) plain HTTP': {
      start: ms(median(insecure)),
      stop: '-',
      'vs baseline': `${(median(insecure) / median(bare)).toFixed(1)}×`,
    },
  };
}

async function resetTimes(): Promise<Record<string, string>> {
  const cluster = await startCluster();
  const resets: number[] = [];
  const settles: number[] = [];
  try {
    for (let i = 0; i < ROUNDS; i++) {
      await post(cluster, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `t${i}` } });
      await post(cluster, '/apis/apps/v1/namespaces/default/deployments', deployment('web', 3));
      for (let c = 0; c < 10; c++)
        await post(cluster, '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${c}` } });
      settles.push((await timed(() => cluster.settle()))[1]);
      resets.push((await timed(() => cluster.reset()))[1]);
    }
  } finally {
    await cluster.stop();
  }
  return { 'reset (median)': ms(median(resets)), 'reset (max)': ms(Math.max(...resets)), 'settle after a Deployment of 3 (median)': ms(median(settles)) };
}

function memory(): { heapMiB: number; rssMiB: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const usage = process.memoryUsage();
  return { heapMiB: usage.heapUsed / 2 ** 20, rssMiB: usage.rss / 2 ** 20 };
}

async function sequentialClusters(): Promise<Record<string, Record<string, string>>> {
  const rows: Record<string, Record<string, string>> = {};
  const checkpoints = new Set([1, 25, 50, SEQUENTIAL]);
  const started = performance.now();
  for (let i = 1; i <= SEQUENTIAL; i++) {
    const cluster = await startCluster();
    await post(cluster, '/apis/apps/v1/namespaces/default/deployments', deployment('web', 2));
    await cluster.settle();
    await cluster.stop();
    if (checkpoints.has(i)) {
      const { heapMiB, rssMiB } = memory();
      rows[`after ${i}`] = {
        heap: `${heapMiB.toFixed(1)} MiB`,
        rss: `${rssMiB.toFixed(1)} MiB`,
        elapsed: `${((performance.now() - started) / 1000).toFixed(1)} s`,
      };
      console.log(`  ...${i}/${SEQUENTIAL} clusters`);
    }
  }
  return rows;
}

async function main(): Promise<void> {
  if (!(globalThis as { gc?: unknown }).gc) console.log('note: run with node --expose-gc for exact memory figures');
  console.log(`bench:testtarget — ${ROUNDS} rounds, ${SEQUENTIAL} sequential clusters`);
  console.table(await firstStart());
  console.table(await startTimes());
  console.table(await resetTimes());
  console.table(await sequentialClusters());
}

await main();
