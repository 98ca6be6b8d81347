/**
 * bench:scale — a whole cluster under load: `kubesim up` with N simulated nodes (every control
 * loop, the scheduler and kubelet-sim as their own processes), then a Deployment of P
 * replicas. Measures the time until every pod is Running and Ready, pods scheduled per
 * second, pod startup latency (created → Ready, as seen by a watcher) and the API server
 * process's RSS and CPU. Runs 1,000 pods on 100 nodes, then 10,000 on 1,000 (SCALE=small
 * runs only the first). Prints figures; asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKubeClient } from '../controllers/runtime/client/http-client.js';
import { type ClusterProcess, startCluster } from './support/cluster-process.js';
import { measureRollout, nodesReady } from './support/rollout.js';
import { waitUntil } from './support/wait-until.js';

interface Scenario {
  nodes: number;
  pods: number;
}

const SCENARIOS: Scenario[] =
  process.env['SCALE'] === 'small'
    ? [{ nodes: 100, pods: 1000 }]
    : [
        { nodes: 100, pods: 1000 },
        { nodes: 1000, pods: 10_000 },
      ];

async function runScenario({ nodes, pods }: Scenario): Promise<Record<string, string>> {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-scale-'));
  let cluster: ClusterProcess | undefined;
  try {
    console.log(`\n[${pods} pods / ${nodes} nodes] starting kubesim up --nodes ${nodes}`);
    cluster = await startCluster(dir, nodes);
    const client = createKubeClient({ server: cluster.url, userAgent: 'bench-scale' });
    await waitUntil(`${nodes} nodes Ready`, () => nodesReady(client, nodes), 120_000);
    const apiServerPid = cluster.apiServerPid;
    const figures = await measureRollout(client, pods, { apiserver: () => [apiServerPid] });
    client.close();
    return {
      'all pods Running+Ready': `${(figures.allReadyMs / 1000).toFixed(1)} s`,
      'pods scheduled/s': figures.podsScheduledPerSecond.toFixed(0),
      'pod startup p50 (created→Ready)': `${(figures.startupP50Ms / 1000).toFixed(2)} s`,
      'pod startup p99': `${(figures.startupP99Ms / 1000).toFixed(2)} s`,
      'API server RSS': `${Math.round(figures.usage['apiserver']!.rssBytes / 2 ** 20)} MiB`,
      'API server CPU during the run': `${(figures.usage['apiserver']!.cpuMs / 1000).toFixed(1)} s`,
    };
  } finally {
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const results: Record<string, Record<string, string>> = {};
  for (const scenario of SCENARIOS) results[`${scenario.pods} pods / ${scenario.nodes} nodes`] = await runScenario(scenario);
  console.log('\nscale bench (kubesim up: API server, controllers, scheduler, kubelet-sim as separate processes)');
  console.table(results);
  console.log('Anchors: KWOK CI — 10,000 pods Running within 60 s with the scheduler bypassed; Kubernetes pod startup SLO — p99 ≤ 5 s.');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
