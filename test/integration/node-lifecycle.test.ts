/**
 * The node lifecycle controller against a real API server: an in-process Manager running
 * registerNodeLifecycleController on a fast clock (shared with the server, so deletion
 * timestamps and taint times are cluster time too), and fake kubelets (test/support/fake-node)
 * whose heartbeats the test stops and resumes. Timing claims are checked in cluster time from
 * the objects' own timestamps, never with sleeps. Set KUBESIM_TEST_LOG_LEVEL to see the logs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isNotFound } from '../../apiserver/api/api-error.js';
import { replicaSetDefinition } from '../../apiserver/api/apps/replica-set.js';
import type { Toleration } from '../../apiserver/api/core/affinity.js';
import { type Event, eventDefinition } from '../../apiserver/api/core/event.js';
import { type Node, nodeDefinition, type Taint } from '../../apiserver/api/core/node.js';
import { type Pod, podDefinition } from '../../apiserver/api/core/pod.js';
import { createRealClock, type RealClock } from '../../apiserver/api/machinery/clock.js';
import { type NodeLifecycleControllers, registerNodeLifecycleController } from '../../controllers/node-lifecycle/index.js';
import { registerReplicaSetController } from '../../controllers/replicaset/index.js';
import { createKubeClient, type KubeClient } from '../../controllers/runtime/client/http-client.js';
import { createLogger, type LogLevel } from '../../controllers/runtime/logger.js';
import { createManager } from '../../controllers/runtime/manager.js';
import { eventually } from '../support/eventually.js';
import { type FakeNode, startFakeNode } from '../support/fake-node.js';
import { startRoundRobinBinder } from '../support/round-robin-binder.js';
import { startTestCluster, type TestCluster } from '../support/test-cluster.js';

const UNREACHABLE = 'node.kubernetes.io/unreachable';
const GRACE_MS = 40_000;
const PERIOD_MS = 5_000;
/** Cluster time a reconcile may lag behind its ideal moment (HTTP, watch delivery, rounding). */
const SLACK_MS = 8_000;

const ms = (time: string | undefined) => Date.parse(time ?? '');
const tolerate = (key: string, tolerationSeconds?: number): Toleration => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds });

describe('node lifecycle controller', () => {
  let cluster: TestCluster;
  let client: KubeClient;
  let clock: RealClock;
  const stops: Array<() => Promise<void>> = [];

  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
    client.close();
    await cluster.stop();
  });

  /** setup starts a cluster on a clock running `speed` times wall time, a client and fake nodes. */
  async function setup(speed: number, nodeNames: string[]): Promise<FakeNode[]> {
    clock = createRealClock({ speed });
    cluster = await startTestCluster({ now: () => clock.now() });
    client = createKubeClient({ server: cluster.url, userAgent: 'test' });
    const nodes = await Promise.all(nodeNames.map((name) => startFakeNode({ client, clock, name })));
    for (const node of nodes) stops.push(() => node.close());
    return nodes;
  }

  /** startControllers runs the node lifecycle controller (and optionally the ReplicaSet one). */
  function startControllers({ replicaSets = false } = {}): NodeLifecycleControllers {
    const managerClient = createKubeClient({ server: cluster.url, userAgent: 'kube-controller-manager/test' });
    const level = (process.env['KUBESIM_TEST_LOG_LEVEL'] as LogLevel | undefined) ?? 'silent';
    const logger = createLogger({ component: 'node-lifecycle-controller', level, clock });
    const manager = createManager({ client: managerClient, clock, logger, component: 'node-lifecycle-controller' });
    const controllers = registerNodeLifecycleController(manager, { nodeMonitorPeriodMs: PERIOD_MS, nodeMonitorGracePeriodMs: GRACE_MS });
    if (replicaSets) registerReplicaSetController(manager);
    const abort = new AbortController();
    const running = manager.start(abort.signal);
    stops.push(async () => {
      abort.abort();
      await running;
      managerClient.close();
    });
    return controllers;
  }

  const pods = () => client.resource(podDefinition);
  const nodes = () => client.resource(nodeDefinition);

  /** createReadyPod creates a pod bound to `nodeName` and reports it Running and Ready. */
  async function createReadyPod(name: string, nodeName: string, spec: Partial<Pod['spec']> = {}): Promise<Pod> {
    const created = await pods().create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'default' },
      spec: { nodeName, containers: [{ name: 'app', image: 'nginx:1.25' }], ...spec },
    });
    const at = new Date(clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    created.status = { ...created.status, phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: at }] };
    return pods().updateStatus(created);
  }

  async function getPod(name: string): Promise<Pod | undefined> {
    try {
      return await pods().get('default', name);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  const taintsOf = async (name: string) => (await nodes().get('', name)).spec?.taints ?? [];
  const readyOf = (node: Node) => node.status?.conditions?.find((c) => c.type === 'Ready');
  const podReady = (pod: Pod | undefined) => pod?.status?.conditions?.find((c) => c.type === 'Ready')?.status;
  const events = async (reason: string): Promise<Event[]> =>
    (await client.resource(eventDefinition).list({ namespace: 'default' })).items.filter((e) => e.reason === reason);
  const unreachableSince = (taints: Taint[]) => ms(taints.find((t) => t.key === UNREACHABLE && t.effect === 'NoExecute')?.timeAdded);

  it('turns a silent node Unknown after the grace period, taints it and marks its pods not ready; lifts the taints when it reports again', async () => {
    const [healthy, silent] = await setup(20, ['node-1', 'node-2']);
    await createReadyPod('stays', 'node-2', { tolerations: [tolerate(UNREACHABLE)] });
    const controllers = startControllers();
    await eventually(() => expect(controllers.monitor.stats.reconciles.success).toBeGreaterThanOrEqual(2));
    expect(await taintsOf('node-2')).toEqual([]);

    await silent!.stop();
    const node = await eventually(async () => {
      const current = await nodes().get('', 'node-2');
      expect(readyOf(current)).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });
      expect(current.spec?.taints?.map((t) => `${t.key}:${t.effect}`)).toEqual([`${UNREACHABLE}:NoSchedule`, `${UNREACHABLE}:NoExecute`]);
      return current;
    });
    // Unknown only after the grace period, and within a monitor period (plus slack) of it.
    const silentForMs = ms(readyOf(node)?.lastTransitionTime) - silent!.lastRenewMs;
    expect(silentForMs).toBeGreaterThanOrEqual(GRACE_MS - 1_000);
    expect(silentForMs).toBeLessThanOrEqual(GRACE_MS + PERIOD_MS + SLACK_MS);
    expect(
      node.status?.conditions
        ?.filter((c) => c.status === 'Unknown')
        .map((c) => c.type)
        .sort(),
    ).toEqual(['DiskPressure', 'MemoryPressure', 'PIDPressure', 'Ready']);
    await eventually(async () => expect(podReady(await getPod('stays'))).toBe('False'));
    await eventually(async () => expect((await events('NodeNotReady')).map((e) => e.message)).toContain('Node node-2 status is now: NodeNotReady'));
    expect(readyOf(await nodes().get('', healthy!.name))?.status).toBe('True');
    expect(await taintsOf('node-1')).toEqual([]);

    await silent!.resume();
    await eventually(async () => expect(await taintsOf('node-2')).toEqual([]));
    expect((await getPod('stays'))?.metadata.deletionTimestamp).toBeUndefined();
  });

  it('evicts the pods of an unreachable node by their tolerations and force-deletes them after their grace period', async () => {
    const [, silent] = await setup(20, ['node-1', 'node-2']);
    const grace = { terminationGracePeriodSeconds: 10 };
    await createReadyPod('at-once', 'node-2', { tolerations: [tolerate(UNREACHABLE, 0)], ...grace });
    await createReadyPod('after-20s', 'node-2', { tolerations: [tolerate(UNREACHABLE, 20)], ...grace });
    await createReadyPod('forever', 'node-2', { tolerations: [tolerate(UNREACHABLE)], ...grace });
    startControllers();
    await silent!.stop();

    const taintedAtMs = await eventually(async () => {
      const since = unreachableSince(await taintsOf('node-2'));
      expect(since).not.toBeNaN();
      return since;
    });
    /** evictedAtMs waits for the pod's deletion and returns when it started (cluster time). */
    const evictedAtMs = (name: string) =>
      eventually(async () => {
        const pod = await getPod(name);
        expect(pod?.metadata.deletionTimestamp).toBeDefined();
        expect(pod?.status?.conditions?.find((c) => c.type === 'DisruptionTarget')).toMatchObject({ status: 'True', reason: 'DeletionByTaintManager' });
        return ms(pod?.metadata.deletionTimestamp) - 10_000;
      });
    const atOnce = await evictedAtMs('at-once');
    expect(atOnce - taintedAtMs).toBeLessThanOrEqual(SLACK_MS);
    const later = await evictedAtMs('after-20s');
    // Both times are whole seconds: allow one second of rounding.
    expect(later - taintedAtMs).toBeGreaterThanOrEqual(20_000 - 1_000);
    expect(later - taintedAtMs).toBeLessThanOrEqual(20_000 + SLACK_MS);
    // Each pod is evicted exactly once (count 1), though its status write wakes it again.
    const messages = (await events('TaintManagerEviction')).map((e) => `${e.message} ×${e.count}`).sort();
    expect(messages).toEqual(['Marking for deletion Pod default/after-20s ×1', 'Marking for deletion Pod default/at-once ×1']);

    // Nobody can confirm these deletions on a silent node: the controller force-deletes them.
    await eventually(async () => expect([await getPod('at-once'), await getPod('after-20s')]).toEqual([undefined, undefined]));
    const forever = await getPod('forever');
    expect(forever?.metadata.deletionTimestamp).toBeUndefined();
    expect(podReady(forever)).toBe('False');
  });

  it('evicts pods that do not tolerate a NoExecute taint added by hand, and leaves terminating pods to a live kubelet', async () => {
    await setup(20, ['node-1']);
    await createReadyPod('plain', 'node-1', { terminationGracePeriodSeconds: 5 });
    await createReadyPod('tolerant', 'node-1', { tolerations: [tolerate('example.com/maintenance')] });
    await createReadyPod('briefly', 'node-1', { tolerations: [tolerate('example.com/maintenance', 20)] });
    const controllers = startControllers();
    await eventually(() => expect(controllers.monitor.stats.reconciles.success).toBeGreaterThanOrEqual(1));

    // As `kubectl taint node node-1 example.com/maintenance=now:NoExecute`: no timeAdded.
    const node = await nodes().get('', 'node-1');
    node.spec = { ...node.spec, taints: [{ key: 'example.com/maintenance', value: 'now', effect: 'NoExecute' }] };
    await nodes().update(node);
    const taintedAtMs = clock.now();

    await eventually(async () => expect((await getPod('plain'))?.metadata.deletionTimestamp).toBeDefined());
    const briefly = await eventually(async () => {
      const pod = await getPod('briefly');
      expect(pod?.metadata.deletionTimestamp).toBeDefined();
      return pod;
    });
    expect(ms(briefly?.metadata.deletionTimestamp) - 30_000 - taintedAtMs).toBeGreaterThanOrEqual(20_000 - 1_000);
    // The node's kubelet still reports, so it, not the controller, finishes deletions: `plain`
    // is past its 5 s grace period and still there.
    expect((await getPod('plain'))?.metadata.deletionTimestamp).toBeDefined();
    expect((await getPod('tolerant'))?.metadata.deletionTimestamp).toBeUndefined();
    expect(await taintsOf('node-1')).toEqual([{ key: 'example.com/maintenance', value: 'now', effect: 'NoExecute' }]);
  });

  it('node stop: the pods of the stopped node are replaced on the other node within the scaled grace periods', async () => {
    // ×50: the real defaults (40 s grace, 300 s default tolerations, 30 s pod grace) take ~8 s,
    // while a 40 s grace period still outlasts any event-loop stall of a busy test machine.
    const [, silent] = await setup(50, ['node-1', 'node-2']);
    startControllers({ replicaSets: true });
    const binder = await startRoundRobinBinder(client, clock);
    stops.push(() => binder.stop());
    const labels = { app: 'web' };
    await client.resource(replicaSetDefinition).create({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        replicas: 4,
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } },
      },
    });
    const placement = async () =>
      (await pods().list({ namespace: 'default' })).items.map((p) => `${p.spec.nodeName ?? '-'}${p.metadata.deletionTimestamp ? '(terminating)' : ''}`).sort();
    await eventually(async () => expect(await placement()).toEqual(['node-1', 'node-1', 'node-2', 'node-2']));

    await silent!.stop();
    await eventually(async () => expect(await placement()).toEqual(['node-1', 'node-1', 'node-1', 'node-1']), { timeoutMs: 25_000 });

    const taintedAtMs = unreachableSince(await taintsOf('node-2'));
    const evictions = await events('TaintManagerEviction');
    expect(evictions).toHaveLength(2);
    for (const eviction of evictions) {
      // The default toleration of 300 s (added by the API server) ran out, and not earlier.
      expect(ms(eviction.firstTimestamp) - taintedAtMs).toBeGreaterThanOrEqual(300_000 - 1_000);
      expect(ms(eviction.firstTimestamp) - silent!.lastRenewMs).toBeLessThanOrEqual(GRACE_MS + PERIOD_MS + 300_000 + SLACK_MS);
    }
  });
});
