/**
 * Two copies of a component with --leader-elect against one cluster, as real processes on the
 * cluster's clock: only the holder of the component's Lease acts; after it is killed with
 * SIGKILL the other takes the Lease once it expires and acts from then on. For the scheduler
 * (Lease kube-system/kube-scheduler) and for a process of several loops (Lease
 * kube-system/kubesim-controller-manager), both given a dead first API server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { deploymentDefinition } from '../../apiserver/api/apps/deployment.js';
import { leaseDefinition } from '../../apiserver/api/coordination/lease.js';
import { type Pod, podDefinition } from '../../apiserver/api/core/pod.js';
import { reporters } from '../support/activity.js';
import { eventually } from '../support/eventually.js';
import { deployment, pod } from '../support/objects.js';
import { freePort } from '../support/ports.js';
import { type KubesimProcess, spawnKubesim, stopAllKubesim } from '../support/processes.js';
import { type ClusterHandle, useTestCluster } from '../support/use-test-cluster.js';

interface Copies {
  leader: KubesimProcess;
  follower: KubesimProcess;
  holder(): Promise<string>;
}

/** startCopies runs two copies of `args` (component `component`) on the cluster's clock at ×5
 * (the 15 s lease lasts 3 s of wall time) and resolves once one holds Lease
 * kube-system/`lease` and has started. */
async function startCopies(cluster: ClusterHandle, component: string, lease: string, args: string[]): Promise<Copies> {
  const speed = spawnKubesim(['clock', 'speed', '5', '--kubeconfig', cluster.kubeconfigPath]);
  expect(await speed.exited).toBe(0);
  const dead = `http://127.0.0.1:${await freePort()}`;
  const all = [...args, '--leader-elect', '--kubeconfig', cluster.kubeconfigPath, '--server', `${dead},${cluster.url}`, '--log-level', 'info'];
  const copies = [spawnKubesim(all), spawnKubesim(all)];
  const holder = async () => (await cluster.client.resource(leaseDefinition).get('kube-system', lease)).spec?.holderIdentity ?? '';
  const identity = await eventually(
    async () => {
      const current = await holder();
      expect(current).toMatch(/_\d+$/);
      return current;
    },
    { timeoutMs: 30_000 },
  );
  const leader = copies.find((copy) => identity.endsWith(`_${copy.child.pid}`))!;
  // Both copies report their activity (for settle), each under a name of its own.
  const names = copies.map((copy) => `${component}@${identity.replace(/_\d+$/, `_${copy.child.pid}`)}`);
  await eventually(async () => expect(await reporters(cluster.client)).toEqual(expect.arrayContaining(names)));
  await leader.waitForOutput(/starting runnables/);
  return { leader, follower: copies.find((copy) => copy !== leader)!, holder };
}

/** killLeader kills the leader with SIGKILL and waits until the follower leads. */
async function killLeader({ leader, follower, holder }: Copies): Promise<void> {
  expect(follower.output()).not.toMatch(/starting runnables/);
  leader.child.kill('SIGKILL');
  await leader.exited;
  await follower.waitForOutput(/starting runnables/, 30_000);
  expect(await holder()).toMatch(new RegExp(`_${follower.child.pid}$`));
}

describe('component copies with --leader-elect', () => {
  afterEach(() => stopAllKubesim());

  describe('the scheduler', () => {
    const cluster = useTestCluster({ userAgent: 'spread-leader-test', nodes: 1 });

    async function boundNode(name: string): Promise<string> {
      await cluster.client.resource(podDefinition).create({ ...pod(name), metadata: { name, namespace: 'default' } });
      return eventually(
        async () => {
          const bound = (await cluster.client.resource(podDefinition).get('default', name)) as Pod;
          expect(bound.spec.nodeName).toBeTruthy();
          return bound.spec.nodeName ?? '';
        },
        { timeoutMs: 30_000, intervalMs: 50 },
      );
    }

    it('binds pods only from the Lease holder, and from the other after a kill -9', async () => {
      const copies = await startCopies(cluster, 'scheduler', 'kube-scheduler', ['scheduler']);
      expect(await boundNode('first')).toBe(cluster.kubelet.nodeNames[0]);
      await killLeader(copies);
      expect(await boundNode('second')).toBe(cluster.kubelet.nodeNames[0]);
    }, 90_000);
  });

  describe('a process of several loops', () => {
    const cluster = useTestCluster({ userAgent: 'spread-leader-test' });

    async function untilReplicas(replicas: number): Promise<void> {
      await eventually(
        async () =>
          expect((await cluster.client.resource(podDefinition).list({ namespace: 'default', labelSelector: 'app=web' })).items).toHaveLength(replicas),
        { timeoutMs: 30_000, intervalMs: 50 },
      );
    }

    it('reconciles only from the Lease holder, and from the other after a kill -9', async () => {
      const copies = await startCopies(cluster, 'kubesim-controller-manager', 'kubesim-controller-manager', ['controller', 'deployment,replicaset']);
      const object = deployment('web', 2);
      await cluster.client.resource(deploymentDefinition).create({ ...object, metadata: { ...object.metadata, namespace: 'default' } });
      await untilReplicas(2);
      await killLeader(copies);
      await cluster.client.resource(deploymentDefinition).patch('default', 'web', { spec: { replicas: 4 } }, { type: 'merge' });
      await untilReplicas(4);
    }, 90_000);
  });
});
