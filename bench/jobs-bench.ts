/**
 * bench:jobs — the Job path under load: `kubesim up` (API server, job and garbage-collector
 * loops, scheduler and kubelet-sim as their own processes, clock at speed 1), then
 *   1. 1,000 short Jobs (one 1 s pod each) created at once → time until every one is
 *      Complete, Jobs completed per second;
 *   2. one Job of 1,000 completions at parallelism 100 → time until Complete, pods per second.
 * Prints figures; asserts nothing. JOBS=<n> changes the counts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Job, jobDefinition } from '../apiserver/api/batch/index.js';
import { nodeDefinition } from '../apiserver/api/core/node.js';
import { createKubeClient, type KubeClient } from '../controllers/runtime/client/http-client.js';
import { type ClusterProcess, processUsage, startCluster } from './support/cluster-process.js';
import { waitUntil } from './support/wait-until.js';

const COUNT = Number(process.env['JOBS'] ?? 1000);
const NODES = 20;

function job(name: string, spec: Partial<Job['spec']> = {}): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default' },
    spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'work', image: 'busybox', resources: { requests: { cpu: '1m' } } }] } }, ...spec },
  };
}

const isComplete = (j: Job) => j.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True') ?? false;

async function completeJobs(client: KubeClient): Promise<number> {
  return (await client.resource(jobDefinition).list({ namespace: 'default' })).items.filter(isComplete).length;
}

async function createAll(client: KubeClient, names: string[], concurrency = 50): Promise<void> {
  for (let i = 0; i < names.length; i += concurrency) {
    await Promise.all(names.slice(i, i + concurrency).map((name) => client.resource(jobDefinition).create(job(name))));
  }
}

async function manyJobs(client: KubeClient): Promise<Record<string, string>> {
  const names = Array.from({ length: COUNT }, (_, i) => `short-${i}`);
  const start = performance.now();
  await createAll(client, names);
  const createdMs = performance.now() - start;
  await waitUntil(`${COUNT} Jobs Complete`, async () => (await completeJobs(client)) >= COUNT, 600_000);
  const seconds = (performance.now() - start) / 1000;
  return {
    'created in': `${(createdMs / 1000).toFixed(1)} s`,
    'all Complete after': `${seconds.toFixed(1)} s`,
    'Jobs completed/s': (COUNT / seconds).toFixed(0),
  };
}

async function wideJob(client: KubeClient): Promise<Record<string, string>> {
  const start = performance.now();
  await client.resource(jobDefinition).create(job('wide', { completions: COUNT, parallelism: 100 }));
  await waitUntil(`Job wide (${COUNT} completions) Complete`, async () => isComplete(await client.resource(jobDefinition).get('default', 'wide')), 600_000);
  const seconds = (performance.now() - start) / 1000;
  return { 'created in': '-', 'all Complete after': `${seconds.toFixed(1)} s`, 'Jobs completed/s': `${(COUNT / seconds).toFixed(0)} pods/s` };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-jobs-'));
  let cluster: ClusterProcess | undefined;
  try {
    cluster = await startCluster(dir, NODES, ['--controllers', 'job,garbage-collector']);
    const client = createKubeClient({ server: cluster.url, userAgent: 'bench-jobs' });
    await waitUntil(`${NODES} nodes`, async () => (await client.resource(nodeDefinition).list()).items.length >= NODES, 120_000);
    const before = processUsage(cluster.apiServerPid);
    const results = { [`${COUNT} Jobs × 1 pod`]: await manyJobs(client), [`1 Job × ${COUNT} completions, parallelism 100`]: await wideJob(client) };
    const after = processUsage(cluster.apiServerPid);
    console.log(`\njobs bench (kubesim up, ${NODES} nodes, speed 1, pods run 1 s)`);
    console.table(results);
    console.log(`API server RSS ${Math.round(after.rssBytes / 2 ** 20)} MiB, CPU ${((after.cpuMs - before.cpuMs) / 1000).toFixed(1)} s`);
    client.close();
  } finally {
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
