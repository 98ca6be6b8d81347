/**
 * bench:smoke — the figures a regression would move, in under a minute, printed in every CI
 * log next to the committed baseline (bench/smoke-baseline.json): `kubesim up` with 20 nodes
 * (spawn to banner, which waits for the nodes to be Ready), the cluster's processes and their
 * memory, a Deployment of 200 pods until all are Ready, a burst of ConfigMap creates over
 * HTTP, and the cluster's CPU while idle. Prints; asserts nothing. `--write-baseline` records
 * this run as the new baseline (do it on a quiet machine, and commit the file);
 * `KUBESIM_CLI=<other>/dist/cli/main.js` measures another build with the same bench.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type ClusterProcess, startCluster, treePids, treeUsage } from './support/cluster-process.js';
import { createHttpClient, expectOk, runConcurrent } from './support/http-load.js';
import { deploymentManifest } from './support/pod-manifest.js';
import { waitUntil } from './support/wait-until.js';

const NODES = 20;
const PODS = 200;
const CREATES = 500;
const CREATE_CONCURRENCY = 8;
const IDLE_WINDOW_MS = 10_000;
/** KUBESIM_CLI=<another build's dist/cli/main.js> measures that build instead (before/after). */
const OTHER_BUILD = process.env['KUBESIM_CLI'] ? resolve(process.env['KUBESIM_CLI']) : undefined;
/** The baseline sits next to the sources, not dist/, so that it is committed. */
const BASELINE = resolve(import.meta.dirname, '../../bench/smoke-baseline.json');

interface Figure {
  value: number;
  unit: string;
  /** Whether a larger value is better (creates/s) or worse (ms, MB, % CPU). */
  higherIsBetter?: boolean;
}

type Figures = Record<string, Figure>;

async function readyPods(url: string): Promise<number> {
  const list = (await (await fetch(`${url}/api/v1/namespaces/default/pods?labelSelector=app%3Dsmoke`)).json()) as {
    items: Array<{ status?: { conditions?: Array<{ type: string; status: string }> } }>;
  };
  return list.items.filter((pod) => pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length;
}

/** processNames maps each supervised process's pid to its name (from `kubesim status`'s API). */
async function processNames(url: string): Promise<Map<number, string>> {
  const { components } = (await (await fetch(`${url}/kubesim/v1/components`)).json()) as {
    components: Array<{ name: string; pid?: number; process?: string }>;
  };
  return new Map(components.filter((c) => c.pid && (c.process ?? c.name) === c.name).map((c) => [c.pid!, c.name]));
}

async function measure(dir: string): Promise<Figures> {
  const spawned = performance.now();
  const cluster: ClusterProcess = await startCluster(dir, NODES, [], OTHER_BUILD);
  // A build from before the API server had a process of its own ran it inside `up`.
  const apiServerPid = cluster.apiServerPid || cluster.upPid;
  const figures: Figures = {};
  try {
    figures['up: spawn to banner, 20 nodes Ready'] = { value: performance.now() - spawned, unit: 'ms' };
    const pids = treePids(cluster.upPid);
    figures['up: processes'] = { value: pids.length, unit: '' };
    figures['up: RSS of all processes'] = { value: treeUsage(pids).rssBytes / 2 ** 20, unit: 'MB' };
    figures['API server RSS at start'] = { value: treeUsage([apiServerPid]).rssBytes / 2 ** 20, unit: 'MB' };

    const http = createHttpClient(cluster.url, CREATE_CONCURRENCY);
    const processes = await processNames(cluster.url);
    if (!cluster.apiServerPid) processes.set(cluster.upPid, 'up (with the API server)');
    const cpuBefore = new Map([...processes].map(([pid]) => [pid, treeUsage([pid]).cpuMs]));
    const rolled = performance.now();
    expectOk(
      await http.send('POST', '/apis/apps/v1/namespaces/default/deployments', JSON.stringify(deploymentManifest('smoke', PODS))),
      'create the Deployment',
    );
    await waitUntil(`${PODS} pods Ready`, async () => (await readyPods(cluster.url)) >= PODS, 120_000);
    figures[`${PODS} pods on ${NODES} nodes: all Ready`] = { value: performance.now() - rolled, unit: 'ms' };
    for (const [pid, name] of processes) {
      figures[`  CPU of ${name} during the rollout`] = { value: treeUsage([pid]).cpuMs - (cpuBefore.get(pid) ?? 0), unit: 'ms' };
    }

    const burst = performance.now();
    await runConcurrent({
      count: CREATES,
      concurrency: CREATE_CONCURRENCY,
      task: async (i) => {
        const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `smoke-${i}`, namespace: 'default' }, data: { i: String(i) } });
        expectOk(await http.send('POST', '/api/v1/namespaces/default/configmaps', body), 'create a ConfigMap');
      },
    });
    figures[`ConfigMap creates/s (c=${CREATE_CONCURRENCY})`] = { value: CREATES / ((performance.now() - burst) / 1000), unit: '/s', higherIsBetter: true };
    expectOk(await http.send('POST', '/apis/kubesim.io/v1alpha1/settle', '{}'), 'settle');
    http.close();
    const idleFrom = treeUsage(treePids(cluster.upPid));
    await new Promise((done) => setTimeout(done, IDLE_WINDOW_MS));
    const idleTo = treeUsage(treePids(cluster.upPid));
    figures['idle CPU of the whole cluster'] = { value: ((idleTo.cpuMs - idleFrom.cpuMs) / IDLE_WINDOW_MS) * 100, unit: '% of a core' };
    figures['up: RSS of all processes, 200 pods'] = { value: idleTo.rssBytes / 2 ** 20, unit: 'MB' };
  } finally {
    await cluster.stop();
  }
  return figures;
}

function readBaseline(): Figures | undefined {
  try {
    return (JSON.parse(readFileSync(BASELINE, 'utf8')) as { figures: Figures }).figures;
  } catch {
    return undefined;
  }
}

/** verdict says whether `now` is better or worse than `then`, by how much (×). */
function verdict(now: Figure, then: Figure | undefined): string {
  if (!then || then.value === 0) return '';
  const ratio = now.value / then.value;
  const better = now.higherIsBetter ? ratio >= 1 : ratio <= 1;
  const change = Math.abs(ratio - 1) < 0.1 ? 'about the same' : better ? 'better' : 'WORSE';
  return `${ratio.toFixed(2)}× baseline (${change})`;
}

const format = (figure: Figure) => {
  const whole = figure.value >= 100 || Number.isInteger(figure.value);
  return `${whole ? Math.round(figure.value).toLocaleString('en-US') : figure.value.toFixed(1)} ${figure.unit}`.trim();
};

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-smoke-'));
  console.log(`bench:smoke — kubesim up with ${NODES} nodes, ${PODS} pods, ${CREATES} creates, ${IDLE_WINDOW_MS / 1000} s idle (Node ${process.version})`);
  try {
    const figures = await measure(dir);
    const baseline = readBaseline();
    const rows = Object.entries(figures).map(([name, figure]) => ({
      figure: name,
      now: format(figure),
      baseline: baseline?.[name] ? format(baseline[name]) : '—',
      ratio: verdict(figure, baseline?.[name]),
    }));
    console.table(rows);
    if (process.argv.includes('--write-baseline')) {
      writeFileSync(BASELINE, `${JSON.stringify({ recorded: new Date().toISOString(), node: process.version, figures }, null, 2)}\n`);
      console.log(`baseline written to ${BASELINE}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
