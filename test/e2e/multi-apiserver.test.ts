/**
 * Issue 19's end-to-end test: a 3-member etcd, three `kubesim apiserver --store etcd://…`
 * processes on it, and the components spread over them (bench/support/spread-cluster.ts: the
 * processes `kubesim up` runs, with the nodes in two kubelet processes, each given all three
 * servers with --server, preferring a different one). Leader election across copies of a loop
 * is test/spread's; one copy of each keeps this test lean.
 *
 * A 100-replica Deployment is created and, mid-rollout (some pods Ready, not all), the API
 * server the test's own failing-over clients prefer is killed -9. Then: those clients reconnect
 * to another, the Deployment converges, every write the test saw acknowledged (a writer on the
 * victim, failing over) is there, and a watch that started on the victim and resumed elsewhere
 * from its last resourceVersion saw exactly the events a watch on a survivor saw — none
 * missing, none twice. Last, one etcd member (the leader) is killed -9 and the cluster keeps
 * serving: writes through the servers, and the Deployment scaled up converges.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Deployment, deploymentDefinition } from '../../apiserver/api/apps/deployment.js';
import { type ConfigMap, configMapDefinition } from '../../apiserver/api/core/config-map.js';
import { nodeDefinition } from '../../apiserver/api/core/node.js';
import { podDefinition } from '../../apiserver/api/core/pod.js';
import { formatStoreSpec } from '../../apiserver/store-spec.js';
import { deploymentManifest } from '../../bench/support/pod-manifest.js';
import { type SpreadCluster, startSpreadCluster } from '../../bench/support/spread-cluster.js';
import { createKubeClient, type KubeClient } from '../../controllers/runtime/client/http-client.js';
import { loadKubeconfig } from '../../controllers/runtime/client/kubeconfig.js';
import { type RunningEtcd, startEtcd, stopMember } from '../support/etcd.js';
import { eventually } from '../support/eventually.js';
import { KUBESIM_BIN } from '../support/processes.js';

const REPLICAS = 100;
const NODES = 4;

/** A watch that, like a reflector, opens again from the last resourceVersion it saw when its
 * stream ends or fails; it records every event as `TYPE name@resourceVersion`. */
function resumingWatch(client: KubeClient, fromResourceVersion: string) {
  const events: string[] = [];
  const abort = new AbortController();
  let last = fromResourceVersion;
  let reopened = 0;
  void (async () => {
    while (!abort.signal.aborted) {
      try {
        for await (const event of client.resource(podDefinition).watch({ namespace: 'default', resourceVersion: last, signal: abort.signal })) {
          if (event.type === 'BOOKMARK' || event.type === 'ERROR') continue;
          last = event.object.metadata.resourceVersion!;
          events.push(`${event.type} ${event.object.metadata.name}@${last}`);
        }
      } catch {
        // The server went away mid-stream: open again (the client moves to the next server).
      }
      if (!abort.signal.aborted) reopened++;
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return {
    events,
    get lastResourceVersion() {
      return last;
    },
    get reopened() {
      return reopened;
    },
    stop: () => abort.abort(),
  };
}

/** A writer creating ConfigMaps one after another, remembering those the server acknowledged. */
function ackedWriter(client: KubeClient) {
  const acknowledged: string[] = [];
  let failures = 0;
  let running = true;
  const done = (async () => {
    for (let i = 0; running; i++) {
      const name = `ack-${i}`;
      try {
        await client
          .resource(configMapDefinition)
          .create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { i: String(i) } } as ConfigMap);
        acknowledged.push(name);
      } catch {
        failures++;
      }
      // A steady trickle, not a flood: the writes are evidence, the rollout is the load.
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return {
    acknowledged,
    get failures() {
      return failures;
    },
    async stop() {
      running = false;
      await done;
    },
  };
}

describe('three API servers on a 3-member etcd, components spread over them', () => {
  let etcd: RunningEtcd;
  let cluster: SpreadCluster;
  let dir: string;
  const clients: KubeClient[] = [];

  /** A client of `servers` (a comma list fails over in that order), with the admin credentials. */
  const clientOf = (servers: string[]) => {
    const { tls } = loadKubeconfig(cluster.kubeconfig);
    const client = createKubeClient({ server: servers.join(','), tls, userAgent: 'e2e-multi-apiserver' });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubesim-multi-apiserver-'));
    etcd = await startEtcd({ members: 3 });
    cluster = await startSpreadCluster({
      cli: KUBESIM_BIN,
      dir,
      store: formatStoreSpec({ kind: 'etcd', endpoints: etcd.endpoints }),
      apiservers: 3,
      nodes: NODES,
      kubeletProcesses: 2,
    });
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await cluster?.stop();
    await etcd?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('converges, survives an API server killed mid-rollout without losing a write or an event, and an etcd member', async () => {
    const [victim, , survivor] = cluster.apiservers as [(typeof cluster.apiservers)[0], unknown, (typeof cluster.apiservers)[0]];
    const onSurvivor = clientOf([survivor.url]);
    const onVictimFirst = clientOf(cluster.apiservers.map((s) => s.url));

    await eventually(
      async () => {
        const nodes = await onSurvivor.resource(nodeDefinition).list();
        const ready = nodes.items.filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
        expect(ready.length).toBe(NODES);
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );

    // Watches from one resourceVersion: one on the survivor, one starting on the victim.
    const { metadata } = await onSurvivor.resource(podDefinition).list({ namespace: 'default', limit: 1 });
    const reference = resumingWatch(onSurvivor, metadata.resourceVersion!);
    const failingOver = resumingWatch(onVictimFirst, metadata.resourceVersion!);
    const writer = ackedWriter(onVictimFirst);

    const deployments = onSurvivor.resource(deploymentDefinition);
    await deployments.create(deploymentManifest('web', REPLICAS) as Deployment);
    // Mid-rollout: some pods Ready, not all.
    const readyNow = async () => (await deployments.get('default', 'web')).status?.readyReplicas ?? 0;
    await eventually(async () => expect(await readyNow()).toBeGreaterThanOrEqual(10), { timeoutMs: 60_000, intervalMs: 100 });
    const ackedBeforeKill = writer.acknowledged.length;
    await victim.kill('SIGKILL');
    expect(await readyNow()).toBeLessThan(REPLICAS);

    await eventually(
      async () => {
        const d = await deployments.get('default', 'web');
        expect(d.status?.observedGeneration).toBe(d.metadata.generation);
        expect([d.status?.updatedReplicas, d.status?.availableReplicas, d.status?.replicas]).toEqual([REPLICAS, REPLICAS, REPLICAS]);
      },
      { timeoutMs: 90_000, intervalMs: 250 },
    );
    // The writer went on through another server.
    await eventually(() => expect(writer.acknowledged.length).toBeGreaterThan(ackedBeforeKill + 5), { timeoutMs: 15_000 });
    await writer.stop();

    const stored = new Set((await onSurvivor.resource(configMapDefinition).list({ namespace: 'default' })).items.map((c) => c.metadata.name));
    expect(writer.acknowledged.filter((name) => !stored.has(name))).toEqual([]);

    // Both watches reach the same resourceVersion; then their histories must be identical.
    await eventually(() => expect(failingOver.lastResourceVersion).toBe(reference.lastResourceVersion), { timeoutMs: 20_000, intervalMs: 100 });
    reference.stop();
    failingOver.stop();
    expect(failingOver.reopened).toBeGreaterThan(0);
    expect(failingOver.events.length).toBeGreaterThan(REPLICAS);
    expect(failingOver.events).toEqual(reference.events);

    // Lose the etcd leader: the two remaining members elect another and the servers go on.
    const etcdClient = new Etcd3({ hosts: etcd.endpoints });
    const leaderId = (await etcdClient.maintenance.status({})).leader;
    const leaderName = (await etcdClient.cluster.memberList({})).members.find((m) => m.ID === leaderId)?.name;
    etcdClient.close();
    await stopMember(etcd.members.find((m) => m.name === leaderName)!);
    await eventually(
      async () => {
        const name = `after-etcd-loss-${Date.now()}`;
        await onVictimFirst
          .resource(configMapDefinition)
          .create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } } as ConfigMap);
        expect((await onSurvivor.resource(configMapDefinition).get('default', name)).metadata.name).toBe(name);
      },
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    await deployments.patch('default', 'web', { spec: { replicas: REPLICAS + 10 } }, { type: 'merge' });
    await eventually(async () => expect((await deployments.get('default', 'web')).status?.availableReplicas).toBe(REPLICAS + 10), {
      timeoutMs: 30_000,
      intervalMs: 250,
    });
  }, 240_000);
});
