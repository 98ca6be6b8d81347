/**
 * The resource metrics pipeline end to end: kubelet-sim (in process, fast clock) computes
 * usage from the load model and serves /stats/summary; the API server scrapes it (short
 * interval) and serves metrics.k8s.io; the Deployment and ReplicaSet controllers and the
 * scheduler run in process. A Deployment carrying `kubesim.io/load-cpu: 1400m` shows about
 * 1400m / ready pods per pod, and the real kubectl prints it with `kubectl top`.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Deployment, deploymentDefinition } from '../../apiserver/api/apps/deployment.js';
import { podDefinition } from '../../apiserver/api/core/pod.js';
import { type NodeMetrics, nodeMetricsDefinition, type PodMetrics, podMetricsDefinition } from '../../apiserver/api/metrics/index.js';
import { tryParseQuantity } from '../../apiserver/api/quantity.js';
import { setLoad } from '../../cli/commands/load.js';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http.js';
import { findKubectlBinaries, runKubectl } from '../support/kubectl.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const NS = 'default';
/** Cluster time runs this much faster than wall time: pods are ready within ~0.1 s. */
const SPEED = 10;
/** The idle baseline a container adds to its share of the load (IDLE_USAGE in usage.ts). */
const BASELINE_MAX = 5;

function webDeployment(replicas: number): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: NS, annotations: { 'kubesim.io/load-cpu': '1400m' } },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', resources: { requests: { cpu: '500m', memory: '64Mi' } } }] },
      },
    },
  };
}

const milli = (text: string | undefined) => tryParseQuantity(text ?? '')?.milliValue() ?? Number.NaN;
const podCpu = (metrics: PodMetrics) => metrics.containers.reduce((sum, c) => sum + milli(c.usage['cpu']), 0);

describe('resource metrics (metrics.k8s.io fed by kubelet-sim)', () => {
  const cluster = useTestCluster({
    lifetime: 'file',
    speed: SPEED,
    metricsIntervalMs: 100,
    userAgent: 'metrics-test/0.1',
    nodes: 2,
    kubelet: { logLevel: 'warn' },
    controllers: ['replicaset', 'deployment'],
    scheduler: true,
  });
  const podMetrics = (labelSelector?: string) => cluster.client.resource(podMetricsDefinition).list({ namespace: NS, labelSelector });

  /** webUsage waits until exactly `count` web pods report metrics, each within `expected`
   * (plus the idle baseline), and returns their CPU in millicores. */
  const webUsage = (count: number, expected: number) =>
    eventually(
      async () => {
        const cpu = (await podMetrics('app=web')).items.map(podCpu);
        expect(cpu).toHaveLength(count);
        for (const value of cpu) expect(value - expected).toSatisfy((d: number) => d >= 0 && d <= BASELINE_MAX + 1);
        return cpu;
      },
      { timeoutMs: 15_000 },
    );

  it('kubelet-sim reports usage per node, pod and container at /stats/summary', async () => {
    const summary = await request(`${cluster.kubelet.url}/stats/summary`);
    expect(summary.status).toBe(200);
    expect(summary.body.kind).toBe('SummaryList');
    expect(summary.body.items.map((s: { node: { nodeName: string } }) => s.node.nodeName)).toEqual(['node-1', 'node-2']);
    const one = await request(`${cluster.kubelet.url}/stats/summary?node=node-2`);
    expect(one.body.node).toMatchObject({ nodeName: 'node-2', cpu: { usageNanoCores: expect.any(Number) }, memory: { workingSetBytes: expect.any(Number) } });
    expect((await request(`${cluster.kubelet.url}/stats/summary?node=node-9`)).status).toBe(404);
  });

  it('spreads a Deployment’s load over its ready pods: 1400m over 3 is ~466m each, over 6 ~233m', async () => {
    await cluster.client.resource(deploymentDefinition).create(webDeployment(3));
    const three = await webUsage(3, 1400 / 3);
    expect(three.every((cpu) => cpu >= 467)).toBe(true);
    await cluster.client.resource(deploymentDefinition).patch(NS, 'web', { spec: { replicas: 6 } }, { type: 'merge' });
    await webUsage(6, 1400 / 6);
  });

  it('kubesim load changes the demand and --off removes it, from the next scrape', async () => {
    // The message counts status.readyReplicas, which the controllers update just after the pods.
    await eventually(async () => expect((await cluster.client.resource(deploymentDefinition).get(NS, 'web')).status?.readyReplicas).toBe(6));
    const set = await setLoad({ kubeconfig: cluster.kubeconfigPath, namespace: NS, def: deploymentDefinition, name: 'web', cpu: '600m' });
    expect(set).toBe('deployment.apps/web: load set to cpu 600m (spread over 6 ready pods)');
    await webUsage(6, 100);
    const off = await setLoad({ kubeconfig: cluster.kubeconfigPath, namespace: NS, def: deploymentDefinition, name: 'web', off: true });
    expect(off).toBe('deployment.apps/web: load removed');
    const deployment = await cluster.client.resource(deploymentDefinition).get(NS, 'web');
    expect(deployment.metadata.annotations?.['kubesim.io/load-cpu']).toBeUndefined();
    await webUsage(6, 0);
    await setLoad({ kubeconfig: cluster.kubeconfigPath, namespace: NS, def: deploymentDefinition, name: 'web', cpu: '1400m' });
    await webUsage(6, 1400 / 6);
  });

  it('selects PodMetrics by label, gets one by name, and takes labels from the pod', async () => {
    await cluster.client.resource(podDefinition).create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'lone', namespace: NS, labels: { app: 'lone' }, annotations: { 'kubesim.io/cpu': '42m', 'kubesim.io/memory': '100Mi' } },
      spec: { containers: [{ name: 'main', image: 'busybox' }] },
    });
    const lone = await eventually(() => cluster.client.resource(podMetricsDefinition).get(NS, 'lone'), { timeoutMs: 15_000 });
    expect(lone).toMatchObject({
      metadata: { name: 'lone', namespace: NS, labels: { app: 'lone' } },
      window: '15s',
      containers: [{ name: 'main', usage: { cpu: '42m', memory: '100Mi' } }],
    });
    expect((await podMetrics('app=lone')).items.map((m) => m.metadata.name)).toEqual(['lone']);
    expect((await podMetrics('app=web')).items.every((m) => m.metadata.labels?.['app'] === 'web')).toBe(true);
  });

  it('lists NodeMetrics: each node’s pods plus its system overhead', async () => {
    const nodes = await eventually(async () => {
      const items = (await cluster.client.resource(nodeMetricsDefinition).list()).items as NodeMetrics[];
      expect(items.map((n) => n.metadata.name)).toEqual(['node-1', 'node-2']);
      return items;
    });
    const total = nodes.reduce((sum, n) => sum + milli(n.usage['cpu']), 0);
    expect(total).toBeGreaterThan(1400 + 42);
    expect(nodes[0]?.metadata.labels?.['kubernetes.io/hostname']).toBe('node-1');
  });

  it('is discoverable, as kubectl top requires', async () => {
    const groups = (await request(`${cluster.url}/apis`)).body.groups.map((g: { name: string }) => g.name);
    expect(groups).toContain('metrics.k8s.io');
    const aggregated = await request(`${cluster.url}/apis`, { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' });
    const metrics = aggregated.body.items.find((g: { metadata: { name: string } }) => g.metadata.name === 'metrics.k8s.io');
    expect(metrics.versions[0].resources.map((r: { resource: string; verbs: string[] }) => [r.resource, r.verbs])).toEqual([
      ['pods', ['get', 'list']],
      ['nodes', ['get', 'list']],
    ]);
  });

  describe.each(findKubectlBinaries().map((binary) => [binary.label, binary] as const))('%s', (_label, binary) => {
    const kubectl = (args: string[]) =>
      runKubectl(binary, args, { kubeconfigPath: cluster.kubeconfigPath, cacheDir: join(cluster.dir, `cache-${binary.minor}`) });
    const rows = (stdout: string) =>
      stdout
        .trim()
        .split('\n')
        .map((line) => line.trim().split(/\s+/));

    it('kubectl top pods prints each pod’s CPU and memory', async () => {
      const result = await kubectl(['top', 'pods', '-l', 'app=web']);
      expect(result.stderr).toBe('');
      const [header, ...pods] = rows(result.stdout);
      expect(header).toEqual(['NAME', 'CPU(cores)', 'MEMORY(bytes)']);
      expect(pods).toHaveLength(6);
      for (const [name, cpu, memory] of pods) {
        expect(name).toMatch(/^web-/);
        expect(milli(cpu) - 1400 / 6).toSatisfy((d: number) => d >= 0 && d <= BASELINE_MAX + 1);
        expect(memory).toMatch(/^\d+Mi$/);
      }
    });

    it('kubectl top pods --containers prints a row per container', async () => {
      const result = await kubectl(['top', 'pods', 'lone', '--containers']);
      expect(result.stderr).toBe('');
      expect(rows(result.stdout)).toEqual([
        ['POD', 'NAME', 'CPU(cores)', 'MEMORY(bytes)'],
        ['lone', 'main', '42m', '100Mi'],
      ]);
    });

    it('kubectl top nodes prints usage and its share of allocatable', async () => {
      const result = await kubectl(['top', 'nodes']);
      expect(result.stderr).toBe('');
      const [header, ...nodes] = rows(result.stdout);
      expect(header).toEqual(['NAME', 'CPU(cores)', expect.stringMatching(/^CPU\(?%\)?$/), 'MEMORY(bytes)', expect.stringMatching(/^MEMORY\(?%\)?$/)]);
      expect(nodes.map((n) => n[0])).toEqual(['node-1', 'node-2']);
      for (const [, cpu, cpuPercent, memory, memoryPercent] of nodes) {
        expect(cpu).toMatch(/^\d+m$/);
        expect(cpuPercent).toBe(`${Math.floor(milli(cpu) / 40)}%`);
        expect(memory).toMatch(/^\d+Mi$/);
        expect(memoryPercent).toMatch(/^\d+%$/);
      }
    });

    it('kubectl get podmetrics prints the table', async () => {
      const result = await kubectl(['get', 'podmetrics', 'lone']);
      expect(result.stderr).toBe('');
      expect(rows(result.stdout)).toEqual([
        ['NAME', 'CPU', 'MEMORY', 'WINDOW'],
        ['lone', '42m', '100Mi', '15s'],
      ]);
    });
  });
});
