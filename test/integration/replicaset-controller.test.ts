/**
 * The ReplicaSet controller against a real API server: an in-process Manager (real clock,
 * real HTTP and watches) running registerReplicaSetController, driven through the API as a
 * user would. Kubelets do not exist here, so pods stay unscheduled and tests make them
 * Running and Ready themselves (markPodRunningReady).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type ReplicaSet, replicaSetDefinition } from '../../apiserver/api/apps/replica-set.js';
import { eventDefinition } from '../../apiserver/api/core/event.js';
import { type Pod, podDefinition } from '../../apiserver/api/core/pod.js';
import { createRealClock } from '../../apiserver/api/machinery/clock.js';
import { registerReplicaSetController } from '../../controllers/replicaset/index.js';
import { createKubeClient } from '../../controllers/runtime/client/http-client.js';
import { createLogger } from '../../controllers/runtime/logger.js';
import { createManager } from '../../controllers/runtime/manager.js';
import { eventually } from '../support/eventually.js';
import { markPodRunningReady } from '../support/pods.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const NS = 'default';

interface RunningManager {
  stop(): Promise<void>;
}

describe('ReplicaSet controller', () => {
  const cluster = useTestCluster({ userAgent: 'replicaset-controller-test' });
  const managers: RunningManager[] = [];
  const replicaSets = () => cluster.client.resource(replicaSetDefinition);
  const pods = () => cluster.client.resource(podDefinition);

  /** startController runs a fresh Manager with the ReplicaSet controller (no leader election). */
  function startController(): RunningManager {
    const managerClient = createKubeClient({ server: cluster.url, userAgent: 'kubesim-replicaset-controller/test' });
    // Warnings and errors only: a passing run prints nothing, a failing one shows why.
    const logger = createLogger({ component: 'replicaset-controller', level: 'warn' });
    const manager = createManager({ client: managerClient, clock: createRealClock(), logger, component: 'replicaset-controller' });
    registerReplicaSetController(manager);
    const abort = new AbortController();
    const running = manager.start(abort.signal);
    let stopped: Promise<void> | undefined;
    const handle = {
      stop: () =>
        (stopped ??= (async () => {
          abort.abort();
          await running;
          managerClient.close();
        })()),
    };
    managers.push(handle);
    return handle;
  }

  function replicaSet(name: string, replicas: number): ReplicaSet {
    return {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name, namespace: NS },
      spec: {
        replicas,
        selector: { matchLabels: { app: name } },
        template: { metadata: { labels: { app: name, tier: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.25' }] } },
      },
    };
  }

  const scale = (name: string, replicas: number) => replicaSets().patch(NS, name, { spec: { replicas } }, { type: 'merge' });
  const podsOf = async (app: string) => (await pods().list({ namespace: NS, labelSelector: `app=${app}` })).items;
  const podNames = (list: Pod[]) => list.map((pod) => pod.metadata.name ?? '').sort();
  const ownedBy = (pod: Pod, rs: ReplicaSet) => pod.metadata.ownerReferences?.some((ref) => ref.uid === rs.metadata.uid && ref.controller) ?? false;

  async function eventsAbout(name: string, reason: string): Promise<string[]> {
    const events = await cluster.client.resource(eventDefinition).list({ namespace: NS });
    return events.items.filter((e) => e.involvedObject.name === name && e.reason === reason).map((e) => e.message ?? '');
  }

  /** settled waits until `name` owns exactly `replicas` pods and its status says so. */
  async function settled(name: string, replicas: number): Promise<Pod[]> {
    return eventually(async () => {
      const rs = await replicaSets().get(NS, name);
      const owned = (await podsOf(name)).filter((pod) => ownedBy(pod, rs));
      expect(owned).toHaveLength(replicas);
      expect(rs.status?.replicas).toBe(replicas);
      expect(rs.status?.observedGeneration).toBe(rs.metadata.generation);
      return owned;
    });
  }

  afterEach(async () => {
    await Promise.all(managers.splice(0).map((manager) => manager.stop()));
  });

  it('scales up from 0 to 5 with pods built from the template', async () => {
    startController();
    const rs = await replicaSets().create(replicaSet('web', 0));
    await settled('web', 0);
    await scale('web', 5);
    const created = await settled('web', 5);
    for (const pod of created) {
      expect(pod.metadata.generateName).toBe('web-');
      expect(pod.metadata.name).toMatch(/^web-[a-z0-9]{5}$/);
      expect(pod.metadata.labels).toEqual({ app: 'web', tier: 'web' });
      expect(pod.metadata.ownerReferences).toEqual([
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.metadata.uid, controller: true, blockOwnerDeletion: true },
      ]);
      expect(pod.spec.containers[0]?.image).toBe('nginx:1.25');
    }
    await eventually(async () => {
      expect((await eventsAbout('web', 'SuccessfulCreate')).sort()).toEqual(podNames(created).map((name) => `Created pod: ${name}`));
    });
  });

  it('scales down 5 → 2, deleting not-ready pods before ready ones', async () => {
    startController();
    await replicaSets().create(replicaSet('web', 5));
    const all = await settled('web', 5);
    const survivors = all.slice(0, 2);
    for (const pod of survivors) await markPodRunningReady(cluster, pod);
    await eventually(async () => expect((await replicaSets().get(NS, 'web')).status?.readyReplicas).toBe(2));
    await scale('web', 2);
    const left = await settled('web', 2);
    expect(podNames(left)).toEqual(podNames(survivors));
    const deleted = all.filter((pod) => !survivors.includes(pod));
    await eventually(async () => {
      expect((await eventsAbout('web', 'SuccessfulDelete')).sort()).toEqual(podNames(deleted).map((name) => `Deleted pod: ${name}`));
    });
  });

  it('replaces a deleted pod', async () => {
    startController();
    await replicaSets().create(replicaSet('web', 3));
    const [victim] = await settled('web', 3);
    await pods().delete(NS, victim!.metadata.name!);
    await eventually(async () => {
      const now = await podsOf('web');
      expect(now).toHaveLength(3);
      expect(podNames(now)).not.toContain(victim!.metadata.name);
    });
  });

  it('adopts an orphan whose labels match instead of creating a pod', async () => {
    await pods().create({ metadata: { name: 'orphan', namespace: NS, labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'busybox' }] } });
    startController();
    const rs = await replicaSets().create(replicaSet('web', 3));
    const owned = await settled('web', 3);
    expect(podNames(owned)).toContain('orphan');
    const orphan = await pods().get(NS, 'orphan');
    expect(orphan.metadata.ownerReferences).toEqual([
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.metadata.uid, controller: true, blockOwnerDeletion: true },
    ]);
    await eventually(async () => expect(await eventsAbout('web', 'SuccessfulCreate')).toHaveLength(2));
  });

  it('releases a pod relabelled out of its selector and replaces it', async () => {
    startController();
    await replicaSets().create(replicaSet('web', 2));
    const [moved] = await settled('web', 2);
    await pods().patch(NS, moved!.metadata.name!, { metadata: { labels: { app: 'debug' } } }, { type: 'merge' });
    await eventually(async () => {
      const released = await pods().get(NS, moved!.metadata.name!);
      expect(released.metadata.ownerReferences ?? []).toEqual([]);
    });
    const owned = await settled('web', 2);
    expect(podNames(owned)).not.toContain(moved!.metadata.name);
  });

  it('reports ready, available and fully labeled replicas in status', async () => {
    startController();
    await replicaSets().create(replicaSet('web', 3));
    const [first, second] = await settled('web', 3);
    await markPodRunningReady(cluster, first!);
    await markPodRunningReady(cluster, second!);
    await eventually(async () => {
      const rs = await replicaSets().get(NS, 'web');
      expect(rs.status).toMatchObject({ replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 2, availableReplicas: 2, observedGeneration: 1 });
    });
  });

  it('counts ready pods as available once minReadySeconds have passed', async () => {
    startController();
    const slow = replicaSet('web', 2);
    // Long enough that a loaded machine still sees the pods ready but not yet available.
    slow.spec.minReadySeconds = 3;
    await replicaSets().create(slow);
    const owned = await settled('web', 2);
    for (const pod of owned) await markPodRunningReady(cluster, pod);
    await eventually(async () => expect((await replicaSets().get(NS, 'web')).status).toMatchObject({ readyReplicas: 2, availableReplicas: 0 }));
    // No pod changes after this: only the controller's own requeue can notice the time passing.
    await eventually(async () => expect((await replicaSets().get(NS, 'web')).status?.availableReplicas).toBe(2), { timeoutMs: 10_000 });
  });

  it('never ends with more pods than spec.replicas when the controller restarts mid-scale-up', async () => {
    const stopWatch = new AbortController();
    const added = new Set<string>();
    let deletions = 0;
    const first = startController();
    let firstStopped: Promise<void> | undefined;
    const watched = (async () => {
      try {
        for await (const event of pods().watch({ namespace: NS, signal: stopWatch.signal })) {
          if (event.type === 'ADDED') added.add(event.object.metadata.name ?? '');
          if (event.type === 'DELETED') deletions++;
          // Stop the first controller as soon as its first pod exists: mid-scale-up.
          firstStopped ??= first.stop();
        }
      } catch (err) {
        if (!stopWatch.signal.aborted) throw err;
      }
    })();
    await replicaSets().create(replicaSet('web', 30));
    await eventually(() => firstStopped !== undefined);
    await firstStopped;
    expect((await podsOf('web')).length).toBeLessThan(30);
    startController();
    await settled('web', 30);
    stopWatch.abort();
    await watched;
    // Every pod ever created still exists: the restarted controller did not over-create and
    // then delete the surplus.
    expect(added.size).toBe(30);
    expect(deletions).toBe(0);
  });
});
