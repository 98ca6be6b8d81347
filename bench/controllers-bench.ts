/**
 * bench:controllers — how fast the workload loops turn a 1,000-replica Deployment into Pod
 * objects. The API server runs as its own process (`kubesim up --controllers none`), as in a
 * real cluster; the Deployment and ReplicaSet controllers run in this process so their
 * reconcile counters can be read. Prints figures; asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Deployment, deploymentDefinition } from '../apiserver/api/apps/deployment.js';
import { replicaSetDefinition } from '../apiserver/api/apps/replica-set.js';
import { podDefinition } from '../apiserver/api/core/pod.js';
import { createRealClock } from '../apiserver/api/machinery/clock.js';
import { registerDeploymentController } from '../controllers/deployment/index.js';
import { registerReplicaSetController } from '../controllers/replicaset/index.js';
import { createKubeClient, type KubeClient } from '../controllers/runtime/client/http-client.js';
import type { Controller } from '../controllers/runtime/controller.js';
import { createLogger } from '../controllers/runtime/logger.js';
import { createManager } from '../controllers/runtime/manager.js';
import { startCluster } from './support/cluster-process.js';

const REPLICAS = Number(process.env['REPLICAS'] ?? 1000);

function deployment(): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'bench', namespace: 'default' },
    spec: {
      replicas: REPLICAS,
      selector: { matchLabels: { app: 'bench' } },
      template: { metadata: { labels: { app: 'bench' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.25' }] } },
    },
  } as Deployment;
}

/** waitFor polls `check` every 20 ms until it returns true; resolves with the elapsed ms. */
async function waitFor(startMs: number, label: string, check: () => Promise<boolean>): Promise<number> {
  let lastReport = 0;
  for (;;) {
    if (await check()) return performance.now() - startMs;
    const elapsed = performance.now() - startMs;
    if (elapsed - lastReport > 2000) {
      console.log(`  ...waiting for ${label} (${(elapsed / 1000).toFixed(1)} s)`);
      lastReport = elapsed;
    }
    if (elapsed > 120_000) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function countPods(client: KubeClient): Promise<number> {
  return (await client.resource(podDefinition).list({ namespace: 'default' })).items.length;
}

function totalReconciles(controller: Controller): number {
  return Object.values(controller.stats.reconciles).reduce((a, b) => a + b, 0);
}

/** measureSteadyReconciles re-enqueues the converged ReplicaSet 2,000 times, one at a time,
 * and times the no-op reconciles: the loop's own cost (cache reads, claim, diff, status
 * comparison) with nothing to write. */
async function measureSteadyReconciles(controller: Controller, key: string): Promise<{ count: number; perSecond: number }> {
  const rounds = 2000;
  const before = totalReconciles(controller);
  const start = performance.now();
  for (let i = 0; i < rounds; i++) {
    const target = before + i + 1;
    controller.queue.add(key);
    while (totalReconciles(controller) < target) await new Promise((r) => setImmediate(r));
  }
  return { count: rounds, perSecond: rounds / ((performance.now() - start) / 1000) };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-bench-'));
  // No nodes, scheduler or other loops: only object creation is measured.
  const server = await startCluster(dir, 0, ['--controllers', 'none', '--scheduler=false']);
  const clock = createRealClock();
  const client = createKubeClient({ server: server.url, userAgent: 'bench-controllers' });
  const manager = createManager({ client, clock, logger: createLogger({ component: 'bench', level: 'warn' }), component: 'bench' });
  const replicasets = registerReplicaSetController(manager);
  registerDeploymentController(manager);
  const stop = new AbortController();
  const running = manager.start(stop.signal);
  console.log(`controllers bench: Deployment of ${REPLICAS} replicas, API server ${server.url} (own process)`);
  const start = performance.now();
  await client.resource(deploymentDefinition).create(deployment());
  const podsMs = await waitFor(start, `${REPLICAS} pods`, async () => (await countPods(client)) >= REPLICAS);
  const statusMs = await waitFor(start, 'deployment status', async () => {
    const d = await client.resource(deploymentDefinition).get('default', 'bench');
    return d.status?.replicas === REPLICAS && d.status?.updatedReplicas === REPLICAS;
  });
  const rs = (await client.resource(replicaSetDefinition).list({ namespace: 'default' })).items[0]!;
  const steady = await measureSteadyReconciles(replicasets, `default/${rs.metadata.name}`);
  console.table({
    [`all ${REPLICAS} Pod objects exist`]: { value: `${(podsMs / 1000).toFixed(2)} s` },
    ['Deployment status reports them']: { value: `${(statusMs / 1000).toFixed(2)} s` },
    ['pod creates/s (end to end)']: { value: Math.round(REPLICAS / (podsMs / 1000)).toLocaleString('en-US') },
    ['ReplicaSet reconciles during the rollout']: { value: totalReconciles(replicasets) - steady.count },
    [`ReplicaSet reconciles/s (steady state, ${REPLICAS} pods in cache)`]: { value: steady.perSecond.toFixed(0) },
  });
  stop.abort();
  await running;
  client.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
