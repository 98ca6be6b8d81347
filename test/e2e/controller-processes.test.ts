/**
 * Controllers as real processes: `kubesim controller <name>` against a running API server.
 * A ReplicaSet controller killed with SIGKILL mid-scale never double-creates after its
 * restart, and two copies with --leader-elect never both act.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type ReplicaSet, replicaSetDefinition } from '../../apiserver/api/apps/replica-set.js';
import { leaseDefinition } from '../../apiserver/api/coordination/lease.js';
import { type Pod, podDefinition } from '../../apiserver/api/core/pod.js';
import type { KubeClient } from '../../controllers/runtime/client/http-client.js';
import { eventually } from '../support/eventually.js';
import { spawnKubesim, stopAllKubesim } from '../support/processes.js';
import { useTestCluster } from '../support/use-test-cluster.js';

function replicaSet(name: string, replicas: number): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx:1.25' }] } },
    },
  } as ReplicaSet;
}

/** PodTally counts every pod creation and deletion seen on a watch of the namespace. */
function tallyPods(client: KubeClient, signal: AbortSignal) {
  const tally = { added: new Set<string>(), deleted: new Set<string>() };
  const done = (async () => {
    for await (const event of client.resource(podDefinition).watch({ namespace: 'default', resourceVersion: '0', signal })) {
      const name = (event.object as Pod).metadata.name ?? '';
      if (event.type === 'ADDED') tally.added.add(name);
      if (event.type === 'DELETED') tally.deleted.add(name);
    }
  })().catch(() => undefined);
  return { tally, done };
}

describe('controllers as processes', () => {
  const cluster = useTestCluster({ userAgent: 'e2e-test' });
  const watches = new AbortController();

  afterEach(async () => {
    watches.abort();
    await stopAllKubesim();
  });

  it('converges to exactly spec.replicas after the ReplicaSet controller is killed mid-scale', async () => {
    const replicas = 200;
    const { tally } = tallyPods(cluster.client, watches.signal);
    const first = spawnKubesim(['controller', 'replicaset', '--kubeconfig', cluster.kubeconfigPath, '--log-level', 'warn']);
    await cluster.client.resource(replicaSetDefinition).create(replicaSet('web', replicas));
    await eventually(() => expect(tally.added.size).toBeGreaterThan(0), { timeoutMs: 15_000, intervalMs: 1 });
    first.child.kill('SIGKILL');
    await first.exited;
    const createdBeforeRestart = tally.added.size;
    // The kill must land mid-scale, or the test would prove nothing.
    expect(createdBeforeRestart).toBeLessThan(replicas);
    spawnKubesim(['controller', 'replicaset', '--kubeconfig', cluster.kubeconfigPath, '--log-level', 'warn']);
    await eventually(
      async () => {
        const pods = await cluster.client.resource(podDefinition).list({ namespace: 'default' });
        expect(pods.items).toHaveLength(replicas);
      },
      { timeoutMs: 30_000 },
    );
    await eventually(async () => {
      const rs = await cluster.client.resource(replicaSetDefinition).get('default', 'web');
      expect(rs.status?.replicas).toBe(replicas);
    });
    expect(tally.added.size).toBe(replicas);
    expect(tally.deleted.size).toBe(0);
  });

  it('lets only the lease holder act when two copies run with --leader-elect', async () => {
    const origin = String(Date.now());
    // A ×5 clock turns the 15 s lease into 3 s of wall time.
    const args = [
      'controller',
      'replicaset',
      '--kubeconfig',
      cluster.kubeconfigPath,
      '--leader-elect',
      '--speed',
      '5',
      '--clock-origin',
      origin,
      '--log-level',
      'info',
    ];
    const copies = [spawnKubesim(args), spawnKubesim(args)];
    const holder = async () => (await cluster.client.resource(leaseDefinition).get('kube-system', 'kubesim-replicaset-controller')).spec?.holderIdentity ?? '';
    const leaderIdentity = await eventually(async () => {
      const identity = await holder();
      expect(identity).toMatch(/_\d+$/);
      return identity;
    });
    const leader = copies.find((c) => leaderIdentity.endsWith(`_${c.child.pid}`))!;
    const follower = copies.find((c) => c !== leader)!;
    await leader.waitForOutput(/starting runnables/);
    await cluster.client.resource(replicaSetDefinition).create(replicaSet('api', 3));
    await eventually(async () => expect((await cluster.client.resource(podDefinition).list({ namespace: 'default' })).items).toHaveLength(3));
    expect(follower.output()).not.toMatch(/starting runnables/);

    leader.child.kill('SIGKILL');
    await leader.exited;
    await follower.waitForOutput(/starting runnables/, 20_000);
    expect(await holder()).toBe(leaderIdentity.replace(/_\d+$/, `_${follower.child.pid}`));
    await cluster.client.resource(replicaSetDefinition).patch('default', 'api', { spec: { replicas: 5 } }, { type: 'merge' });
    await eventually(async () => expect((await cluster.client.resource(podDefinition).list({ namespace: 'default' })).items).toHaveLength(5));
  });
});
