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
import { type Deployment, deploymentDefinition } from '../apiserver/api/apps/deployment.js';
import { nodeDefinition } from '../apiserver/api/core/node.js';
import { createKubeClient, type KubeClient } from '../controllers/runtime/client/http-client.js';
import { type ClusterProcess, processUsage, startCluster } from './support/cluster-process.js';
import { deploymentManifest } from './support/pod-manifest.js';
import { type PodTracker, trackPods } from './support/pod-tracker.js';
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

async function nodesReady(client: KubeClient, count: number): Promise<boolean> {
  const nodes = await client.resource(nodeDefinition).list();
  return nodes.items.filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length >= count;
}

async function runScenario({ nodes, pods }: Scenario): Promise<Record<string, string>> {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-scale-'));
  let cluster: ClusterProcess | undefined;
  let tracker: PodTracker | undefined;
  try {
    console.log(`\n[${pods} pods / ${nodes} nodes] starting kubesim up --nodes ${nodes}`);
    cluster = await startCluster(dir, nodes);
    const client = createKubeClient({ server: cluster.url, userAgent: 'bench-scale' });
    await waitUntil(`${nodes} nodes Ready`, () => nodesReady(client, nodes), 120_000);
    tracker = await trackPods(client);
    const before = processUsage(cluster.apiServerPid);
    const start = performance.now();
    await client.resource(deploymentDefinition).create(deploymentManifest('scale', pods) as Deployment);
    await waitUntil(
      () => `${pods} pods Running and Ready (${tracker!.ready} so far)`,
      () => tracker!.ready >= pods,
      600_000,
    );
    const allReadyMs = performance.now() - start;
    const after = processUsage(cluster.apiServerPid);
    const startup = tracker.startupLatencies();
    client.close();
    return {
      'all pods Running+Ready': `${(allReadyMs / 1000).toFixed(1)} s`,
      'pods scheduled/s': (pods / ((tracker.lastScheduledMs - start) / 1000)).toFixed(0),
      'pod startup p50 (created→Ready)': `${(startup.p50 / 1000).toFixed(2)} s`,
      'pod startup p99': `${(startup.p99 / 1000).toFixed(2)} s`,
      'API server RSS': `${Math.round(after.rssBytes / 2 ** 20)} MiB`,
      'API server CPU during the run': `${((after.cpuMs - before.cpuMs) / 1000).toFixed(1)} s`,
    };
  } finally {
    tracker?.stop();
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
