/**
 * bench:hpa — the seed's HPA scenario on a whole cluster (`kubesim up --speed 20`): wall time
 * for the scale-up (load on → 6 replicas) and the full scale-down (load off → 2 replicas,
 * after the 300 s window and 10%-per-minute steps), then the HPA controller's CPU with 100
 * HPAs, per sync period. Prints figures; asserts nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { type Deployment, deploymentDefinition } from '../apiserver/api/apps/deployment.js';
import { horizontalPodAutoscalerDefinition } from '../apiserver/api/autoscaling/horizontal-pod-autoscaler.js';
import type { KubeObject } from '../apiserver/api/resource-definition.js';
import { createKubeClient, type KubeClient } from '../controllers/runtime/client/http-client.js';
import { type ClusterProcess, processUsage, startCluster } from './support/cluster-process.js';

const SPEED = 20;
const SYNC_PERIOD_MS = 15_000;
const CLI = resolve(import.meta.dirname, '../cli/main.js');
const EXAMPLE = resolve(import.meta.dirname, '../../docs/examples/hpa.yaml');

async function replicasOf(client: KubeClient, namespace: string, name: string): Promise<number> {
  return (await client.resource(deploymentDefinition).get(namespace, name)).spec?.replicas ?? 0;
}

async function waitForReplicas(client: KubeClient, name: string, replicas: number): Promise<number> {
  const start = performance.now();
  while ((await replicasOf(client, 'production', name)) !== replicas) {
    if (performance.now() - start > 300_000) throw new Error(`timed out waiting for ${replicas} replicas`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return performance.now() - start;
}

function kubesim(args: string[], kubeconfig: string): void {
  execFileSync(process.execPath, [CLI, ...args, '--kubeconfig', kubeconfig], { stdio: 'ignore' });
}

async function applyExample(client: KubeClient): Promise<void> {
  for (const doc of parseAllDocuments(readFileSync(EXAMPLE, 'utf8'))) {
    const object = doc.toJSON() as KubeObject;
    await (await client.forKind(object.apiVersion ?? '', object.kind ?? '')).create(object);
  }
}

async function seedScenario(client: KubeClient, kubeconfig: string) {
  await applyExample(client);
  await waitForReplicas(client, 'web-frontend', 3);
  console.log('[seed] load on: 840m over 3 pods (140% of requests)');
  kubesim(['load', 'deployment/web-frontend', '-n', 'production', '--cpu', '840m'], kubeconfig);
  const upMs = await waitForReplicas(client, 'web-frontend', 6);
  console.log(`[seed] scaled to 6 after ${(upMs / 1000).toFixed(1)} s; load off`);
  kubesim(['load', 'deployment/web-frontend', '-n', 'production', '--off'], kubeconfig);
  const downMs = await waitForReplicas(client, 'web-frontend', 2);
  console.log(`[seed] scaled down to 2 after ${(downMs / 1000).toFixed(1)} s`);
  return { upMs, downMs };
}

function benchDeployment(name: string): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'production' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx:1.25', resources: { requests: { cpu: '100m' } } }] } },
    },
  } as Deployment;
}

async function hpaPid(url: string): Promise<number> {
  const body = (await (await fetch(`${url}/kubesim/v1/components`)).json()) as { components: Array<{ name: string; pid?: number }> };
  return body.components.find((c) => c.name === 'hpa')!.pid!;
}

/** hpaCpuPer100 creates 100 Deployments with an HPA each and measures the hpa process's CPU
 * over 20 sync periods. */
async function hpaCpuPer100(cluster: ClusterProcess, client: KubeClient): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const name = `svc-${i}`;
    await client.resource(deploymentDefinition).create(benchDeployment(name));
    await client.resource(horizontalPodAutoscalerDefinition).create({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name, namespace: 'production' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
        minReplicas: 1,
        maxReplicas: 3,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
      },
    } as never);
  }
  console.log('[100 HPAs] created; measuring the hpa process over 20 sync periods');
  const pid = await hpaPid(cluster.url);
  const periods = 20;
  const before = processUsage(pid);
  await new Promise((r) => setTimeout(r, (periods * SYNC_PERIOD_MS) / SPEED));
  return (processUsage(pid).cpuMs - before.cpuMs) / periods;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-hpa-bench-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const cluster = await startCluster(dir, 3, ['--speed', String(SPEED)]);
  const client = createKubeClient({ server: cluster.url, userAgent: 'bench-hpa' });
  try {
    const seed = await seedScenario(client, kubeconfig);
    const cpuPerSync = await hpaCpuPer100(cluster, client);
    console.log(`\nhpa bench (kubesim up --speed ${SPEED}; the seed's HPA: 70% target, 300 s scale-down window, 10%/60 s)`);
    console.table({
      'scale-up 3 → 6 after load on (wall)': { value: `${(seed.upMs / 1000).toFixed(1)} s`, 'cluster time': `${((seed.upMs * SPEED) / 1000).toFixed(0)} s` },
      'scale-down 6 → 2 after load off (wall)': {
        value: `${(seed.downMs / 1000).toFixed(1)} s`,
        'cluster time': `${((seed.downMs * SPEED) / 1000).toFixed(0)} s`,
      },
      'hpa controller CPU per sync, 100 HPAs': { value: `${cpuPerSync.toFixed(1)} ms`, 'cluster time': `every ${SYNC_PERIOD_MS / 1000} s` },
    });
  } finally {
    client.close();
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
