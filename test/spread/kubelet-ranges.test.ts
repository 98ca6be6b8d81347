/**
 * Several kubelet-sim processes simulating one cluster's nodes: each a range of node indexes
 * (`--node-prefix`, `--start-index`). Their nodes all come up Ready, pods land on both and get
 * distinct IPs from their node's own /24; a process whose range overlaps another's is refused.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { deploymentDefinition } from '../../apiserver/api/apps/deployment.js';
import { nodeDefinition } from '../../apiserver/api/core/node.js';
import { podDefinition } from '../../apiserver/api/core/pod.js';
import { reporters } from '../support/activity.js';
import { eventually } from '../support/eventually.js';
import { deployment } from '../support/objects.js';
import { spawnKubesim, stopAllKubesim } from '../support/processes.js';
import { useTestCluster } from '../support/use-test-cluster.js';

describe('kubelet-sim processes sharing a cluster', () => {
  const cluster = useTestCluster({ userAgent: 'spread-kubelet-test', controllers: ['deployment', 'replicaset'], scheduler: true });

  afterEach(() => stopAllKubesim());

  const kubelet = (prefix: string, startIndex: number, nodes: number) =>
    spawnKubesim(['kubelet', '--kubeconfig', cluster.kubeconfigPath, '--nodes', String(nodes), '--node-prefix', prefix, '--start-index', String(startIndex)]);

  it('runs the nodes of disjoint ranges side by side, each pod with an IP of its own', async () => {
    kubelet('rack-a-', 1, 2);
    kubelet('rack-b-', 3, 2);
    const nodes = await eventually(
      async () => {
        const items = (await cluster.client.resource(nodeDefinition).list()).items;
        const ready = items.filter((node) => node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
        expect(ready.map((node) => node.metadata.name).sort()).toEqual(['rack-a-1', 'rack-a-2', 'rack-b-3', 'rack-b-4']);
        return items;
      },
      { timeoutMs: 30_000, intervalMs: 50 },
    );
    // Each process reports its activity (for settle) under a name of its own.
    await eventually(async () => expect(await reporters(cluster.client)).toEqual(expect.arrayContaining(['kubelet@rack-a-1', 'kubelet@rack-b-3'])));
    const cidrs = new Map(nodes.map((node) => [node.metadata.name ?? '', node.spec?.podCIDR ?? '']));
    expect(new Set(cidrs.values()).size).toBe(4);

    const object = deployment('spread', 8);
    await cluster.client.resource(deploymentDefinition).create({ ...object, metadata: { ...object.metadata, namespace: 'default' } });
    const pods = await eventually(
      async () => {
        const items = (await cluster.client.resource(podDefinition).list({ namespace: 'default', labelSelector: 'app=spread' })).items;
        expect(items.map((pod) => [pod.status?.phase, Boolean(pod.status?.podIP)])).toEqual(Array(8).fill(['Running', true]));
        return items;
      },
      { timeoutMs: 60_000, intervalMs: 100 },
    );
    const prefixes = new Set(pods.map((pod) => pod.spec.nodeName?.replace(/\d+$/, '')));
    expect(prefixes).toEqual(new Set(['rack-a-', 'rack-b-']));
    expect(new Set(pods.map((pod) => pod.status?.podIP)).size).toBe(8);
    for (const pod of pods) {
      // Each IP is from its node's /24: 10.244.<n>.0/24 → 10.244.<n>.<host>.
      const network = (cidrs.get(pod.spec.nodeName ?? '') ?? '').replace(/0\/24$/, '');
      expect(pod.status?.podIP?.startsWith(network)).toBe(true);
    }
  }, 90_000);

  it('refuses a process whose node indexes overlap another process’s', async () => {
    const first = kubelet('rack-a-', 1, 2);
    await first.waitForOutput(/kubelet listening/);
    await eventually(async () => expect((await cluster.client.resource(nodeDefinition).list()).items).toHaveLength(2));
    const overlapping = kubelet('rack-c-', 2, 2);
    expect(await overlapping.exited).not.toBe(0);
    expect(overlapping.output()).toContain('node rack-c-2 would get pod CIDR 10.244.2.0/24, which node rack-a-2 already has');
    expect(overlapping.output()).toContain('--start-index; this one takes 2–3');
  }, 60_000);
});
