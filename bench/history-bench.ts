/**
 * history-bench measures what recording causes costs (docs/history.md): ConfigMap creates/s
 * over real HTTP through the components' own transport, with and without an X-Kubesim-Cause
 * header (the server parses it and stores the actor with the change either way — without a
 * cause the actor is just the User-Agent), and raw store writes/s with and without an actor.
 * Both variants run in the same process, interleaved over several rounds (in alternating
 * order), and the median round of each is printed, so drift and warm-up hit both alike.
 *
 * Run: node dist/bench/history-bench.js (after npm run build). Prints figures only.
 */
import { performance } from 'node:perf_hooks';
import { type Cause, runWithCause } from '../apiserver/api/machinery/cause.js';
import { startApiServer } from '../apiserver/start-api-server.js';
import { createHttpTransport, type HttpTransport } from '../controllers/runtime/client/http-transport.js';
import { openSqliteStore } from '../store/index.js';
import { runConcurrent } from './support/http-load.js';

const Rounds = 5;
const WritesPerRound = 2000;
const Concurrency = 16;
const StoreWrites = 20_000;

const cause: Cause = {
  controller: 'replicaset',
  key: 'bench/web-7d4b8c6',
  reconcileId: '0a1b2c3d',
  trigger: { kind: 'event', type: 'MODIFIED', object: { kind: 'ReplicaSet', namespace: 'bench', name: 'web-7d4b8c6', resourceVersion: '12345' } },
};

type Mode = 'without cause' | 'with cause';

/** createConfigMaps POSTs `count` small ConfigMaps, each inside the cause when given. */
function createConfigMaps(transport: HttpTransport, prefix: string, withCause: boolean): Promise<number> {
  return runConcurrent({
    count: WritesPerRound,
    concurrency: Concurrency,
    task: async (i) => {
      const body = JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `${prefix}-${i}`, labels: { app: 'web' } },
        data: { index: String(i) },
      });
      const send = () => transport.send({ method: 'POST', path: '/api/v1/namespaces/bench/configmaps', body, contentType: 'application/json' });
      await (withCause ? runWithCause(cause, send) : send());
    },
  });
}

async function measureHttp(): Promise<Record<Mode, number>> {
  const server = await startApiServer({ port: 0, host: '127.0.0.1', logger: false, metricsIntervalMs: 0 });
  const transport = createHttpTransport({ server: server.url, userAgent: 'kubesim-bench/0.1' });
  try {
    await transport.send({
      method: 'POST',
      path: '/api/v1/namespaces',
      body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } }),
      contentType: 'application/json',
    });
    await createConfigMaps(transport, 'warmup', true);
    const rates: Record<Mode, number[]> = { 'without cause': [], 'with cause': [] };
    for (let round = 1; round <= Rounds; round++) {
      for (const mode of orderOf(round)) {
        const rate = await createConfigMaps(transport, `r${round}-${mode === 'with cause' ? 'c' : 'p'}`, mode === 'with cause');
        console.log(`[history] round ${round}, ${WritesPerRound} creates ${mode}: ${Math.round(rate).toLocaleString('en-US')}/s`);
        rates[mode].push(rate);
      }
    }
    return { 'without cause': median(rates['without cause']), 'with cause': median(rates['with cause']) };
  } finally {
    transport.close();
    await server.close();
  }
}

/** orderOf alternates which variant goes first, so neither always runs on a warmer server. */
function orderOf(round: number): Mode[] {
  return round % 2 === 0 ? ['with cause', 'without cause'] : ['without cause', 'with cause'];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** measureStore writes `StoreWrites` objects straight into a store, with or without an actor. */
function measureStore(withActor: boolean): number {
  const store = openSqliteStore();
  const actor = { userAgent: 'kubesim-replicaset-controller/0.1', user: 'kubesim', ...cause };
  const start = performance.now();
  for (let i = 0; i < StoreWrites; i++) {
    const ref = { resource: 'configmaps', namespace: 'bench', name: `c${i}` };
    store.create(ref, { metadata: { name: ref.name, namespace: 'bench' }, data: { index: String(i) } }, withActor ? { actor } : undefined);
  }
  const rate = StoreWrites / ((performance.now() - start) / 1000);
  store.close();
  return rate;
}

async function main(): Promise<void> {
  const http = await measureHttp();
  const storeRates: Record<Mode, number[]> = { 'without cause': [], 'with cause': [] };
  for (let round = 1; round <= Rounds; round++) {
    for (const mode of orderOf(round)) storeRates[mode].push(measureStore(mode === 'with cause'));
  }
  const store = { 'without cause': median(storeRates['without cause']), 'with cause': median(storeRates['with cause']) };
  const format = (n: number) => Math.round(n).toLocaleString('en-US');
  const cost = (r: Record<Mode, number>) => `${((1 - r['with cause'] / r['without cause']) * 100).toFixed(1)} %`;
  console.log(
    `\nhistory bench: median of ${Rounds} interleaved rounds; HTTP: ${WritesPerRound} ConfigMap creates at concurrency ${Concurrency}; store: ${StoreWrites} creates`,
  );
  console.table({
    'HTTP creates/s': { 'without cause': format(http['without cause']), 'with cause': format(http['with cause']), cost: cost(http) },
    'store creates/s (actor column)': { 'without cause': format(store['without cause']), 'with cause': format(store['with cause']), cost: cost(store) },
  });
}

await main();
