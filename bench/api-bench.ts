/**
 * api-bench measures the API server over real HTTP on loopback: Pod creates/s and gets/s at
 * concurrency 1 and 32 with ~2 KiB Pods, watch delivery latency to 100 concurrent
 * watchers, a plain JSON LIST of 10,000 small Pods, startup time and RSS. As baselines it
 * runs a bare node:http server answering the same bytes a Pod GET returns, and a bare
 * fastify + better-sqlite3 server storing each POSTed Pod with one insert, in the same
 * process and with the same client, so the printed ratios show what routing, decoding,
 * Kubernetes' write semantics, the store and encoding cost per request.
 *
 * Then it repeats the creates and gets over HTTPS with RBAC (a client certificate of a user a
 * RoleBinding to edit's rules allows) and prints those rates over the plain-HTTP, AlwaysAllow ones.
 *
 * Server and load generator share one process (and its event loop): absolute figures are
 * lower than a separate client would see. Ratios between two servers are fair when the client
 * costs both the same — not for HTTPS against plain HTTP, where the client's own TLS work
 * lands on the same event loop. So both servers are measured a second time from clients in
 * worker threads, in paired rounds, with the server's event-loop busy time per request beside
 * the rates.
 * Run: npm run bench:api.
 * Prints figures only; it asserts nothing.
 */
import { performance } from 'node:perf_hooks';
import { type RunningApiServer, startApiServer } from '../apiserver/start-api-server.js';
import { startBareCreateServer } from './support/bare-create-server.js';
import { type ClientCertificate, createHttpClient, expectOk, type HttpClient, runConcurrent, startRawServer, withCpuTime } from './support/http-load.js';
import { type LargeList, measureLargeList } from './support/large-list.js';
import { startLoadWorker, type WorkerPhase } from './support/load-worker.js';
import { podManifest } from './support/pod-manifest.js';
import { measureWatchLatency, type WatchLatency } from './support/watch-latency.js';

const RequestsPerPhase = 2000;
const WarmupRequests = 300;
const Concurrencies = [1, 32] as const;
const Watchers = 100;
const WatchWrites = 300;
const WatchWriteIntervalMs = 10;
const ListPods = 10_000;
const ListRuns = 5;

type Concurrency = (typeof Concurrencies)[number];

/** Rates holds one requests-per-second figure per concurrency level. */
type Rates = Record<Concurrency, number>;

interface Clients {
  byConcurrency: Record<Concurrency, HttpClient>;
  close(): void;
}

function createClients(url: string, tls?: ClientCertificate): Clients {
  const byConcurrency = { 1: createHttpClient(url, 1, tls), 32: createHttpClient(url, 32, tls) };
  return { byConcurrency, close: () => Object.values(byConcurrency).forEach((c) => c.close()) };
}

function podsPath(namespace: string, name?: string): string {
  return `/api/v1/namespaces/${namespace}/pods${name === undefined ? '' : `/${name}`}`;
}

function podName(prefix: string, index: number): string {
  return `${prefix}-${String(index).padStart(5, '0')}`;
}

async function createNamespace(client: HttpClient, name: string): Promise<void> {
  const body = JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  expectOk(await client.send('POST', '/api/v1/namespaces', body), `create namespace ${name}`);
}

/** createPods POSTs `count` Pods named `<prefix>-NNNNN` and returns creates per second. */
function createPods(client: HttpClient, options: { namespace: string; prefix: string; count: number; concurrency: number }): Promise<number> {
  const bodies = Array.from({ length: options.count }, (_, i) =>
    JSON.stringify(podManifest({ namespace: options.namespace, name: podName(options.prefix, i), index: i })),
  );
  return runConcurrent({
    count: options.count,
    concurrency: options.concurrency,
    task: async (i) => {
      expectOk(await client.send('POST', podsPath(options.namespace), bodies[i]), 'create pod');
    },
  });
}

/** getPaths GETs the paths round-robin, `count` times, and returns requests per second. */
function getPaths(client: HttpClient, options: { paths: readonly string[]; count: number; concurrency: number }): Promise<number> {
  return runConcurrent({
    count: options.count,
    concurrency: options.concurrency,
    task: async (i) => {
      const path = options.paths[(i * 7919) % options.paths.length] ?? '/';
      expectOk(await client.send('GET', path), `GET ${path}`);
    },
  });
}

function progress(what: string, rate: number): void {
  console.log(`[api] ${what}: ${Math.round(rate).toLocaleString('en-US')}/s`);
}

async function warmUp(clients: Clients, namespace: string): Promise<void> {
  const client = clients.byConcurrency[32];
  await createPods(client, { namespace, prefix: 'warmup', count: WarmupRequests, concurrency: 32 });
  const paths = Array.from({ length: WarmupRequests }, (_, i) => podsPath(namespace, podName('warmup', i)));
  await getPaths(client, { paths, count: WarmupRequests, concurrency: 32 });
  console.log(`[api] warm-up: ${WarmupRequests} creates + ${WarmupRequests} gets`);
}

/** CreateRates: creates per wall-clock second, and per second of this process's CPU time
 * (server and client; steadier than wall time when other work shares the machine). */
interface CreateRates {
  wall: Rates;
  cpu: Rates;
}

async function measureCreatePhases(clients: Clients, what: string, options: { namespace: string; prefix: string }): Promise<CreateRates> {
  const rates: CreateRates = { wall: {} as Rates, cpu: {} as Rates };
  for (const concurrency of Concurrencies) {
    const phase = { namespace: options.namespace, prefix: `${options.prefix}c${concurrency}`, count: RequestsPerPhase, concurrency };
    const { value, cpuMs } = await withCpuTime(() => createPods(clients.byConcurrency[concurrency], phase));
    rates.wall[concurrency] = value;
    rates.cpu[concurrency] = RequestsPerPhase / (cpuMs / 1000);
    progress(`${RequestsPerPhase} ${what} at concurrency ${concurrency}`, value);
  }
  return rates;
}

function measureCreates(clients: Clients, namespace: string): Promise<CreateRates> {
  return measureCreatePhases(clients, 'pod creates', { namespace, prefix: '' });
}

/** measureGets: gets per wall-clock second and per CPU-second, as CreateRates. */
async function measureGets(clients: Clients, paths: readonly string[]): Promise<CreateRates> {
  const rates: CreateRates = { wall: {} as Rates, cpu: {} as Rates };
  for (const concurrency of Concurrencies) {
    const phase = { paths, count: RequestsPerPhase, concurrency };
    const { value, cpuMs } = await withCpuTime(() => getPaths(clients.byConcurrency[concurrency], phase));
    rates.wall[concurrency] = value;
    rates.cpu[concurrency] = RequestsPerPhase / (cpuMs / 1000);
    progress(`${RequestsPerPhase} pod gets at concurrency ${concurrency}`, value);
  }
  return rates;
}

/** measureRaw serves `body` from a bare node:http server and measures GETs against it. */
async function measureRaw(body: string): Promise<Rates> {
  const raw = await startRawServer(body);
  const clients = createClients(raw.url);
  try {
    await getPaths(clients.byConcurrency[32], { paths: ['/'], count: WarmupRequests, concurrency: 32 });
    const rates = {} as Rates;
    for (const concurrency of Concurrencies) {
      rates[concurrency] = await getPaths(clients.byConcurrency[concurrency], { paths: ['/'], count: RequestsPerPhase, concurrency });
      progress(`${RequestsPerPhase} raw node:http GETs at concurrency ${concurrency}`, rates[concurrency]);
    }
    return rates;
  } finally {
    clients.close();
    await raw.close();
  }
}

/** measureBareCreates POSTs the same Pods to the bare fastify + better-sqlite3 baseline. */
async function measureBareCreates(): Promise<CreateRates> {
  const bare = await startBareCreateServer();
  const clients = createClients(bare.url);
  try {
    await createPods(clients.byConcurrency[32], { namespace: 'bench', prefix: 'bare-warmup', count: WarmupRequests, concurrency: 32 });
    return await measureCreatePhases(clients, 'bare fastify + better-sqlite3 creates', { namespace: 'bench', prefix: 'bare-' });
  } finally {
    clients.close();
    await bare.close();
  }
}

interface Results {
  startupMs: number;
  podBytes: number;
  creates: CreateRates;
  bareCreates: CreateRates;
  list: LargeList;
  gets: CreateRates;
  raw: Rates;
  watch: WatchLatency;
  rssMiB: number;
  /** The same creates and gets over HTTPS with RBAC, as a user a RoleBinding to edit's rules
   * allows; and both servers from worker-thread clients, in paired rounds (compareFromWorkers). */
  secure: { creates: CreateRates; gets: CreateRates; separate: SeparateComparison };
}

type Op = 'creates' | 'gets';
type Server = 'plain' | 'secure';

/** One server's phases from a worker-thread client: per op and concurrency, one per round. */
type SeparateRounds = Record<Op, Record<Concurrency, WorkerPhase[]>>;

/** Both servers' rounds (compareFromWorkers). */
type SeparateComparison = Record<Server, SeparateRounds>;

/** A server as a worker-thread client reaches it. */
interface Target {
  url: string;
  tls?: ClientCertificate;
}

/** Paired rounds of the worker-thread comparison, and requests per phase in each. */
const SeparateRounds = 5;
const SeparateCreates = 600;

/**
 * compareFromWorkers measures both servers again from clients in worker threads
 * (bench/support/load-worker.ts), so that the server's event loop carries only the server's
 * work: the fair comparison of HTTPS + RBAC with plain HTTP, whose same-process figures also
 * charge the client's TLS to the server. Both servers are up at once and measured in paired
 * rounds, plain and secure one after the other (which goes first alternates), so a slower
 * minute of a shared machine falls on both sides of a ratio instead of on one. Creates go to
 * `w<c>r<round>-NNNNN` in `namespace` of each; gets read `paths` (present on both).
 */
async function compareFromWorkers(targets: Record<Server, Target>, namespace: string, paths: string[]): Promise<SeparateComparison> {
  const servers: Server[] = ['plain', 'secure'];
  const loads = { plain: startLoadWorker(targets.plain.url, targets.plain.tls), secure: startLoadWorker(targets.secure.url, targets.secure.tls) };
  const empty = (): SeparateRounds => ({ creates: { 1: [], 32: [] }, gets: { 1: [], 32: [] } });
  const result: SeparateComparison = { plain: empty(), secure: empty() };
  try {
    for (const server of servers) await loads[server].gets(paths, WarmupRequests, 32);
    for (let round = 0; round < SeparateRounds; round++) {
      const order = round % 2 === 0 ? servers : [...servers].reverse();
      for (const concurrency of Concurrencies) {
        const names = Array.from({ length: SeparateCreates }, (_, i) => podName(`w${concurrency}r${round}`, i));
        for (const server of order) result[server].creates[concurrency].push(await loads[server].creates(namespace, names, concurrency));
        for (const server of order) result[server].gets[concurrency].push(await loads[server].gets(paths, RequestsPerPhase, concurrency));
      }
      console.log(
        `[api] worker-thread round ${round + 1} of ${SeparateRounds}: HTTPS + RBAC ÷ plain HTTP, gets at concurrency 32: ${pairedRatio(result, 'gets', 32, round).toFixed(2)}`,
      );
    }
    return result;
  } finally {
    await Promise.all(servers.map((server) => loads[server].close()));
  }
}

/** pairedRatio is one round's secure rate over the plain rate of the same round. */
function pairedRatio(r: SeparateComparison, op: Op, concurrency: Concurrency, round: number): number {
  return r.secure[op][concurrency][round]!.rate / r.plain[op][concurrency][round]!.rate;
}

function printTables(r: Results): void {
  const format = (n: number) => Math.round(n).toLocaleString('en-US');
  const row = (rates: Rates) => ({ 'concurrency 1': format(rates[1]), 'concurrency 32': format(rates[32]) });
  const ratio = (a: Rates, b: Rates) => ({ 'concurrency 1': (a[1] / b[1]).toFixed(2), 'concurrency 32': (a[32] / b[32]).toFixed(2) });
  console.log(`\napi bench: ${RequestsPerPhase} requests per phase, Pod GET body ${r.podBytes} B, loopback HTTP/1.1 keep-alive, one process`);
  console.table({
    'kubesim pod creates/s': row(r.creates.wall),
    'bare fastify + better-sqlite3 creates/s': row(r.bareCreates.wall),
    'creates ÷ bare': ratio(r.creates.wall, r.bareCreates.wall),
    'kubesim pod creates per CPU-second': row(r.creates.cpu),
    'bare creates per CPU-second': row(r.bareCreates.cpu),
    'creates ÷ bare, by CPU time': ratio(r.creates.cpu, r.bareCreates.cpu),
    'kubesim pod gets/s': row(r.gets.wall),
    'kubesim pod gets per CPU-second': row(r.gets.cpu),
    'raw node:http GETs/s (same body)': row(r.raw),
    'gets ÷ raw': ratio(r.gets.wall, r.raw),
    'HTTPS + RBAC pod creates/s': row(r.secure.creates.wall),
    'HTTPS + RBAC ÷ plain HTTP, creates': ratio(r.secure.creates.wall, r.creates.wall),
    'HTTPS + RBAC ÷ plain HTTP, creates by CPU time': ratio(r.secure.creates.cpu, r.creates.cpu),
    'HTTPS + RBAC pod gets/s': row(r.secure.gets.wall),
    'HTTPS + RBAC ÷ plain HTTP, gets': ratio(r.secure.gets.wall, r.gets.wall),
    'HTTPS + RBAC ÷ plain HTTP, gets by CPU time': ratio(r.secure.gets.cpu, r.gets.cpu),
  });
  printSeparateComparison(r.secure.separate);
  console.table({
    [`watch latency p50 (${Watchers} watchers × ${WatchWrites} writes)`]: { value: `${r.watch.p50Ms.toFixed(2)} ms` },
    'watch latency p99': { value: `${r.watch.p99Ms.toFixed(2)} ms` },
    'watch latency max': { value: `${r.watch.maxMs.toFixed(2)} ms` },
    'watch CPU time per write (server + 100 watchers)': { value: `${r.watch.cpuMsPerWrite.toFixed(2)} ms` },
    'watch deliveries (missing)': { value: `${r.watch.deliveries} (${r.watch.missing})` },
    [`LIST ${ListPods.toLocaleString('en-US')} small pods, JSON (median of ${ListRuns})`]: { value: `${r.list.medianMs.toFixed(1)} ms` },
    'LIST runs': { value: r.list.runsMs.map((ms) => ms.toFixed(0)).join(', ') },
    'LIST CPU time (median; server + client)': { value: `${r.list.medianCpuMs.toFixed(1)} ms` },
    'LIST body; one pod': { value: `${(r.list.bytes / 2 ** 20).toFixed(1)} MiB; ${r.list.podBytes} B` },
    'startApiServer → listening': { value: `${r.startupMs.toFixed(1)} ms` },
    'RSS after run': { value: `${r.rssMiB.toFixed(0)} MiB` },
  });
}

/** printSeparateComparison: the worker-thread clients' rates and the server's busy time per
 * request (medians over the rounds), and HTTPS + RBAC over plain HTTP (the median of the
 * rounds' paired ratios, and the range). */
function printSeparateComparison(r: SeparateComparison): void {
  const format = (n: number) => Math.round(n).toLocaleString('en-US');
  const byConcurrency = (cell: (c: Concurrency) => string) => ({ 'concurrency 1': cell(1), 'concurrency 32': cell(32) });
  const rounds = [...Array(SeparateRounds).keys()];
  console.log(`\nthe same, from clients in worker threads (the server's event loop carries only the server's work): ${SeparateRounds} paired rounds, medians`);
  const rows: Record<string, Record<string, string>> = {};
  for (const [op, noun] of [
    ['creates', 'create'],
    ['gets', 'get'],
  ] as const) {
    rows[`plain HTTP ${op}/s`] = byConcurrency((c) => format(median(r.plain[op][c].map((p) => p.rate))));
    rows[`HTTPS + RBAC ${op}/s`] = byConcurrency((c) => format(median(r.secure[op][c].map((p) => p.rate))));
    rows[`HTTPS + RBAC ÷ plain HTTP, ${op}`] = byConcurrency((c) => median(rounds.map((i) => pairedRatio(r, op, c, i))).toFixed(2));
    rows[`  ${op} ratio, lowest–highest round`] = byConcurrency((c) => {
      const ratios = rounds.map((i) => pairedRatio(r, op, c, i));
      return `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
    });
    rows[`server busy per ${noun}, plain HTTP`] = byConcurrency((c) => `${median(r.plain[op][c].map((p) => p.serverBusyUsPerRequest)).toFixed(0)} µs`);
    rows[`server busy per ${noun}, HTTPS + RBAC`] = byConcurrency((c) => `${median(r.secure[op][c].map((p) => p.serverBusyUsPerRequest)).toFixed(0)} µs`);
    rows[`HTTPS + RBAC ÷ plain HTTP, ${op} per server-busy second`] = byConcurrency((c) =>
      median(rounds.map((i) => r.plain[op][c][i]!.serverBusyUsPerRequest / r.secure[op][c][i]!.serverBusyUsPerRequest)).toFixed(2),
    );
  }
  console.table(rows);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function runPhases(server: RunningApiServer, startupMs: number): Promise<Results> {
  const clients = createClients(server.url);
  try {
    const admin = clients.byConcurrency[1];
    for (const namespace of ['bench-warmup', 'bench', 'bench-watch']) await createNamespace(admin, namespace);
    await warmUp(clients, 'bench-warmup');
    const creates = await measureCreates(clients, 'bench');
    const bareCreates = await measureBareCreates();
    const paths = Concurrencies.flatMap((c) => Array.from({ length: RequestsPerPhase }, (_, i) => podsPath('bench', podName(`c${c}`, i))));
    const gets = await measureGets(clients, paths);
    const sample = expectOk(await admin.send('GET', paths[0] ?? '/'), 'sample pod').body;
    const raw = await measureRaw(sample);
    const watch = await measureWatchLatency({
      baseUrl: server.url,
      client: admin,
      namespace: 'bench-watch',
      watchers: Watchers,
      writes: WatchWrites,
      writeIntervalMs: WatchWriteIntervalMs,
      settleMs: 10_000,
    });
    console.log(`[watch] p50 ${watch.p50Ms.toFixed(2)} ms, p99 ${watch.p99Ms.toFixed(2)} ms, ${watch.missing} missing`);
    const list = await measureLargeList({ client: admin, store: server.store, namespace: 'bench-list', count: ListPods, runs: ListRuns });
    console.log(`[list] ${ListPods} pods: ${list.runsMs.map((ms) => ms.toFixed(1)).join(', ')} ms`);
    const rssMiB = process.memoryUsage().rss / (1024 * 1024);
    // Last, so that its extra pods and heap change none of the figures above.
    const secure = await measureSecure({ url: server.url }, paths);
    return { startupMs, podBytes: Buffer.byteLength(sample), creates, bareCreates, gets, raw, watch, list, rssMiB, secure };
  } finally {
    clients.close();
  }
}

const BENCH_USER = 'bench-user';

/** untilAllowed waits until the authorizer's cache (which follows the store by watch) has seen
 * the user's RoleBinding; throws if it never does. */
async function untilAllowed(client: HttpClient, path: string): Promise<void> {
  const deadline = performance.now() + 10_000;
  for (;;) {
    const { status, body } = await client.send('GET', path);
    if (status !== 403) return void expectOk({ status, body }, `GET ${path}`);
    if (performance.now() > deadline) throw new Error(`${BENCH_USER} is still refused: ${body}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * measureSecure repeats the create and get phases against a server as `kubesim up` runs it:
 * HTTPS with client certificates and RBAC. The client is an ordinary user whom a RoleBinding
 * to edit's and view's own rules allows (no aggregation loop runs here) (system:masters would skip the rules), so every request is authenticated
 * and authorized through the RBAC rules.
 */
async function measureSecure(plain: Target, plainPaths: string[]): Promise<Results['secure']> {
  const server = await startApiServer({ port: 0, host: '127.0.0.1', logger: false, tls: true, security: { authorization: 'RBAC' } });
  const ca = server.clusterCa.certPem;
  const adminPair = await server.clientCertificate({ commonName: 'kubernetes-admin', organizations: ['system:masters'] });
  const userPair = await server.clientCertificate({ commonName: BENCH_USER });
  const admin = createHttpClient(server.url, 1, { ca, cert: adminPair.certPem, key: adminPair.keyPem });
  const clients = createClients(server.url, { ca, cert: userPair.certPem, key: userPair.keyPem });
  try {
    for (const namespace of ['bench-warmup', 'bench']) {
      await createNamespace(admin, namespace);
      // edit's own rules (writes) and view's (reads): what the aggregated `edit` role holds.
      for (const role of ['system:aggregate-to-edit', 'system:aggregate-to-view']) {
        const binding = {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'RoleBinding',
          metadata: { name: role.replace('system:aggregate-to-', 'bench-'), namespace },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
          subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: BENCH_USER }],
        };
        const path = `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/rolebindings`;
        expectOk(await admin.send('POST', path, JSON.stringify(binding)), `bind ${role}`);
      }
    }
    await untilAllowed(clients.byConcurrency[1], podsPath('bench'));
    await warmUp(clients, 'bench-warmup');
    const creates = await measureCreatePhases(clients, 'pod creates over HTTPS + RBAC', { namespace: 'bench', prefix: '' });
    const paths = Concurrencies.flatMap((c) => Array.from({ length: RequestsPerPhase }, (_, i) => podsPath('bench', podName(`c${c}`, i))));
    const gets = await measureGets(clients, paths);
    if (paths.join() !== plainPaths.join()) throw new Error('both servers must hold the same pods for the paired gets');
    const separate = await compareFromWorkers(
      { plain, secure: { url: server.url, tls: { ca, cert: userPair.certPem, key: userPair.keyPem } } },
      'bench',
      paths,
    );
    return { creates, gets, separate };
  } finally {
    admin.close();
    clients.close();
    await server.close();
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const server = await startApiServer({ port: 0, host: '127.0.0.1', logger: false });
  const startupMs = performance.now() - started;
  console.log(`[api] startApiServer listening on ${server.url} after ${startupMs.toFixed(1)} ms`);
  try {
    printTables(await runPhases(server, startupMs));
  } finally {
    await server.close();
  }
}

await main();
