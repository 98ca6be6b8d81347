/**
 * bench:multinode — issue 19's benchmark: a Deployment of 10,000 pods on 1,000 simulated nodes
 * (SCALE=small: 1,000 on 100) in each layout the cluster can take, and, in the same run, raw
 * etcd puts of pod-sized values — as many as the first layout wrote — so kubesim's write
 * throughput has its ceiling beside it. Per layout: time until every pod is Running and
 * Ready, pods scheduled per second, pod startup latency, the store writes the rollout took
 * and their rate, CPU per pod (whole cluster and API servers) and how busy the machine's cores
 * were (near 100 %: the layout saturates this machine). Prints figures and ratios; asserts
 * nothing. Layouts:
 *   (a) `kubesim up`: SQLite and one API server, every component a process of its own;
 *   (b) `kubesim up --store etcd`: the same, the store in an etcd `up` starts;
 *   (c) an etcd, three `kubesim apiserver --store etcd://…` and up's components spread over
 *       them with --server lists, the nodes in four kubelet processes (bench/support/spread-cluster.ts).
 * Every layout over plain HTTP, as bench:scale measures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Etcd3 } from 'etcd3';
import { formatStoreSpec } from '../apiserver/store-spec.js';
import { createKubeClient } from '../controllers/runtime/client/http-client.js';
import { startEtcd } from '../test/support/etcd.js';
import { startCluster, treePids, treeUsage } from './support/cluster-process.js';
import { podManifest } from './support/pod-manifest.js';
import { measureRollout, nodesReady, type RolloutFigures } from './support/rollout.js';
import { startSpreadCluster } from './support/spread-cluster.js';
import { waitUntil } from './support/wait-until.js';

const SIZE = process.env['SCALE'] === 'small' ? { nodes: 100, pods: 1000 } : { nodes: 1000, pods: 10_000 };
const CORES = availableParallelism();

/** A running layout: where to reach it and which processes it consists of. */
interface RunningLayout {
  url: string;
  /** Every process of the cluster (store included) and the API servers alone. */
  pids: { cluster: () => number[]; apiservers: () => number[] };
  stop(): Promise<void>;
}

interface Layout {
  name: string;
  start(dir: string, nodes: number): Promise<RunningLayout>;
}

/** `kubesim up` with extra flags: the whole tree is the cluster (an etcd `up` starts included). */
function upLayout(name: string, args: string[]): Layout {
  return {
    name,
    async start(dir, nodes) {
      const cluster = await startCluster(dir, nodes, args);
      return { url: cluster.url, pids: { cluster: () => treePids(cluster.upPid), apiservers: () => [cluster.apiServerPid] }, stop: () => cluster.stop() };
    },
  };
}

const sqliteOneApiServer = upLayout('(a) SQLite, 1 API server', []);
const etcdOneApiServer = upLayout('(b) etcd, 1 API server', ['--store', 'etcd']);

const etcdThreeApiServers: Layout = {
  name: '(c) etcd, 3 API servers, 4 kubelet processes',
  async start(dir, nodes) {
    const etcd = await startEtcd({ members: 1 });
    const store = formatStoreSpec({ kind: 'etcd', endpoints: etcd.endpoints });
    const cli = resolve(import.meta.dirname, '../cli/main.js');
    const spread = await startSpreadCluster({ cli, dir, store, apiservers: 3, nodes, kubeletProcesses: 4, insecureHttp: true }).catch(async (err) => {
      await etcd.stop();
      throw err;
    });
    const etcdPids = etcd.members.map((m) => m.child.pid!);
    return {
      url: spread.apiservers[0]!.url,
      pids: { cluster: () => [...spread.pids(), ...etcdPids], apiservers: () => spread.apiservers.map((s) => s.pid) },
      async stop() {
        await spread.stop();
        await etcd.stop();
      },
    };
  },
};

/** LAYOUTS=b,c runs some of the layouts (by letter); all by default. (a) is the baseline of
 * the ratios: without it, the first layout run is. */
const LAYOUTS: Layout[] = [sqliteOneApiServer, etcdOneApiServer, etcdThreeApiServers].filter((layout) => {
  const wanted = process.env['LAYOUTS']?.split(',').map((letter) => `(${letter.trim()})`);
  return !wanted || wanted.some((prefix) => layout.name.startsWith(prefix));
});

async function runLayout(layout: Layout): Promise<RolloutFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-multinode-'));
  let running: RunningLayout | undefined;
  try {
    console.log(`\n${layout.name}: starting ${SIZE.nodes} nodes`);
    running = await layout.start(dir, SIZE.nodes);
    const client = createKubeClient({ server: running.url, userAgent: 'bench-multinode' });
    await waitUntil(`${SIZE.nodes} nodes Ready`, () => nodesReady(client, SIZE.nodes), 300_000);
    console.log(`${layout.name}: rolling out ${SIZE.pods} pods`);
    const figures = await measureRollout(client, SIZE.pods, running.pids);
    client.close();
    console.log(`${layout.name}: all Ready in ${(figures.allReadyMs / 1000).toFixed(1)} s`);
    return figures;
  } finally {
    await running?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

interface RawPuts {
  puts: number;
  elapsedMs: number;
  etcdCpuMs: number;
}

/** rawEtcdPuts writes `count` pod-sized values into a fresh single-member etcd, 64 in flight. */
async function rawEtcdPuts(count: number): Promise<RawPuts> {
  console.log(`\nraw etcd: ${count} puts of pod-sized values`);
  const etcd = await startEtcd({ members: 1 });
  const client = new Etcd3({ hosts: etcd.endpoints });
  try {
    const pid = etcd.members[0]!.child.pid!;
    const before = treeUsage([pid]);
    const start = performance.now();
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < count; i = next++) {
        const value = JSON.stringify(podManifest({ namespace: 'default', name: `raw-${i}`, index: i }));
        await client.put(`/registry/pods/default/raw-${i}`).value(value);
      }
    };
    await Promise.all(Array.from({ length: 64 }, worker));
    return { puts: count, elapsedMs: performance.now() - start, etcdCpuMs: treeUsage([pid]).cpuMs - before.cpuMs };
  } finally {
    client.close();
    await etcd.stop();
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function row(figures: RolloutFigures): Record<string, string> {
  const cluster = figures.usage['cluster']!;
  const apiservers = figures.usage['apiservers']!;
  return {
    'all Running+Ready': seconds(figures.allReadyMs),
    'pods scheduled/s': figures.podsScheduledPerSecond.toFixed(0),
    'startup p50': seconds(figures.startupP50Ms),
    'startup p99': seconds(figures.startupP99Ms),
    'store writes': String(figures.writes),
    'writes/s': (figures.writes / (figures.allReadyMs / 1000)).toFixed(0),
    'CPU ms/pod (all)': (cluster.cpuMs / SIZE.pods).toFixed(1),
    'CPU ms/pod (API servers)': (apiservers.cpuMs / SIZE.pods).toFixed(1),
    [`cores busy (of ${CORES})`]: `${((cluster.cpuMs / figures.allReadyMs / CORES) * 100).toFixed(0)} %`,
    'RSS (all)': `${Math.round(cluster.rssBytes / 2 ** 20)} MiB`,
  };
}

async function main(): Promise<void> {
  console.log(`bench:multinode — ${SIZE.pods} pods on ${SIZE.nodes} nodes, ${CORES} cores`);
  const results = new Map<string, RolloutFigures>();
  for (const layout of LAYOUTS) results.set(layout.name, await runLayout(layout));
  const baseline = results.get(LAYOUTS[0]!.name)!;
  const raw = await rawEtcdPuts(baseline.writes);
  const rawRate = raw.puts / (raw.elapsedMs / 1000);

  console.log(`\nbench:multinode — ${SIZE.pods} pods on ${SIZE.nodes} nodes (measured on this ${CORES}-core machine)`);
  console.table(Object.fromEntries([...results].map(([name, figures]) => [name, row(figures)])));
  console.log(
    `raw etcd: ${raw.puts} puts in ${seconds(raw.elapsedMs)} = ${rawRate.toFixed(0)} puts/s, etcd CPU ${(raw.etcdCpuMs / raw.puts).toFixed(2)} ms/put`,
  );
  console.log('\nratios');
  for (const [name, figures] of results) {
    const writeRate = figures.writes / (figures.allReadyMs / 1000);
    console.log(
      `  ${name}: ${(figures.allReadyMs / baseline.allReadyMs).toFixed(2)}× ${LAYOUTS[0]!.name.slice(0, 3)}'s time; writes/s = ${((writeRate / rawRate) * 100).toFixed(1)} % of raw etcd puts/s`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
