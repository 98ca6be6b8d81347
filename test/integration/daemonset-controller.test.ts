/**
 * The DaemonSet controller end to end: a real API server, the scheduler, the DaemonSet
 * controller and kubelet-sim (three nodes) in process on a fast clock. Daemon pods are pinned
 * to their node by node affinity and bound by the default scheduler; nodes that come and go
 * gain and lose pods; a rolling update replaces one node's pod at a time; the real kubectl
 * reads the DaemonSet (`get ds`, `rollout status`).
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type DaemonSet, daemonSetDefinition } from '../../apiserver/api/apps/daemon-set.js';
import { eventDefinition } from '../../apiserver/api/core/event.js';
import { nodeDefinition } from '../../apiserver/api/core/node.js';
import { type Pod, podDefinition } from '../../apiserver/api/core/pod.js';
import { createLogger } from '../../controllers/runtime/logger.js';
import { startKubelet } from '../../kubelet-sim/kubelet.js';
import { eventually } from '../support/eventually.js';
import { findKubectlBinaries, runKubectl } from '../support/kubectl.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const NS = 'default';
const SPEED = 10;
const WAIT = { timeoutMs: 20_000, intervalMs: 50 };

function daemonSet(name: string, spec: Partial<DaemonSet['spec']['template']['spec']> = {}, image = 'agent:1'): DaemonSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: NS },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'agent', image }], ...spec } },
    },
  };
}

const isReady = (pod: Pod) => pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

describe('DaemonSet controller (with scheduler and kubelet-sim)', () => {
  const cluster = useTestCluster({
    lifetime: 'file',
    speed: SPEED,
    userAgent: 'daemonset-test/0.1',
    nodes: 3,
    kubelet: { logLevel: 'warn' },
    controllers: ['daemonset'],
    scheduler: true,
  });
  const daemonSets = () => cluster.client.resource(daemonSetDefinition);
  const pods = () => cluster.client.resource(podDefinition);
  const livePods = async (app: string) =>
    (await pods().list({ namespace: NS, labelSelector: `app=${app}` })).items.filter((pod) => pod.metadata.deletionTimestamp === undefined);
  const podNodes = async (app: string) => (await livePods(app)).map((pod) => pod.spec.nodeName ?? '').sort();

  /** runningOn waits until `app` has exactly one Running, ready pod on each of `nodes`. */
  const runningOn = (app: string, nodes: string[]) =>
    eventually(async () => {
      const items = await livePods(app);
      expect(items.map((pod) => pod.spec.nodeName).sort()).toEqual(nodes);
      for (const pod of items) expect(pod.status?.phase === 'Running' && isReady(pod)).toBe(true);
      return items;
    }, WAIT);

  beforeAll(async () => {
    await eventually(async () => expect((await cluster.client.resource(nodeDefinition).list()).items).toHaveLength(3), WAIT);
  });

  it('runs one pod per node, pinned by node affinity and bound by the scheduler', async () => {
    await daemonSets().create(daemonSet('agent'));
    const items = await runningOn('agent', ['node-1', 'node-2', 'node-3']);
    const terms = items[0]?.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
    expect(terms?.[0]?.matchFields?.[0]).toMatchObject({ key: 'metadata.name', operator: 'In' });
    expect(items[0]?.spec.tolerations?.map((t) => t.key)).toContain('node.kubernetes.io/unschedulable');
    const status = await eventually(async () => {
      const ds = await daemonSets().get(NS, 'agent');
      expect(ds.status).toMatchObject({
        desiredNumberScheduled: 3,
        currentNumberScheduled: 3,
        numberReady: 3,
        updatedNumberScheduled: 3,
        numberAvailable: 3,
        numberMisscheduled: 0,
      });
      return ds.status;
    }, WAIT);
    expect(status?.observedGeneration).toBe(1);
  });

  it('honours nodeSelector', async () => {
    await daemonSets().create(daemonSet('picky', { nodeSelector: { 'kubernetes.io/hostname': 'node-2' } }));
    await runningOn('picky', ['node-2']);
    await eventually(async () => expect((await daemonSets().get(NS, 'picky')).status?.desiredNumberScheduled).toBe(1), WAIT);
  });

  it('skips a node with an untolerated NoSchedule taint, and uses it when tolerated', async () => {
    const nodes = cluster.client.resource(nodeDefinition);
    await nodes.patch('', 'node-3', { spec: { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] } }, { type: 'merge' });
    await daemonSets().create(daemonSet('plain'));
    await daemonSets().create(daemonSet('tolerant', { tolerations: [{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }] }));
    await runningOn('tolerant', ['node-1', 'node-2', 'node-3']);
    await runningOn('plain', ['node-1', 'node-2']);
    await nodes.patch('', 'node-3', { spec: { taints: null } }, { type: 'merge' });
    await runningOn('plain', ['node-1', 'node-2', 'node-3']);
    await daemonSets().delete(NS, 'plain');
    await daemonSets().delete(NS, 'tolerant');
  });

  it('adds a pod on a new node and removes it when the node object is deleted', async () => {
    const extraStop = new AbortController();
    const logger = createLogger({ component: 'kubelet', level: 'warn', clock: cluster.clock });
    const extra = await startKubelet({ server: cluster.url, nodes: 1, nodePrefix: 'extra-', clock: cluster.clock, logger, signal: extraStop.signal });
    await runningOn('agent', ['extra-1', 'node-1', 'node-2', 'node-3']);
    // Stop its kubelet first: a running one would register the node again.
    extraStop.abort();
    await extra.done;
    await cluster.client.resource(nodeDefinition).delete('', 'extra-1');
    await eventually(async () => expect(await podNodes('agent')).toEqual(['node-1', 'node-2', 'node-3']), WAIT);
    await eventually(async () => expect((await pods().list({ namespace: NS, labelSelector: 'app=agent' })).items).toHaveLength(3), WAIT);
    await eventually(async () => expect((await daemonSets().get(NS, 'agent')).status?.desiredNumberScheduled).toBe(3), WAIT);
  });

  it('rolls out a new template one node at a time (maxUnavailable 1)', async () => {
    const list = await pods().list({ namespace: NS, labelSelector: 'app=agent' });
    const state = new Map<string, Pod>(list.items.map((pod) => [pod.metadata.name ?? '', pod]));
    const watchStop = new AbortController();
    let maxUnavailable = 0;
    const watching = (async () => {
      const events = pods().watch({ namespace: NS, labelSelector: 'app=agent', resourceVersion: list.metadata.resourceVersion, signal: watchStop.signal });
      for await (const event of events) {
        if (event.type === 'DELETED') state.delete(event.object.metadata.name ?? '');
        else if (event.type === 'ADDED' || event.type === 'MODIFIED') state.set(event.object.metadata.name ?? '', event.object);
        const healthy = new Set([...state.values()].filter((p) => p.metadata.deletionTimestamp === undefined && isReady(p)).map((p) => p.spec.nodeName));
        maxUnavailable = Math.max(maxUnavailable, 3 - healthy.size);
      }
    })().catch((err: unknown) => {
      if (!watchStop.signal.aborted) throw err;
    });
    await daemonSets().patch(NS, 'agent', { spec: { template: { spec: { containers: [{ name: 'agent', image: 'agent:2' }] } } } }, { type: 'strategic' });
    await eventually(async () => {
      const items = await runningOn('agent', ['node-1', 'node-2', 'node-3']);
      expect(items.map((pod) => pod.spec.containers[0]?.image)).toEqual(['agent:2', 'agent:2', 'agent:2']);
      const ds = await daemonSets().get(NS, 'agent');
      expect(ds.status).toMatchObject({ observedGeneration: 2, updatedNumberScheduled: 3, numberAvailable: 3 });
    }, WAIT);
    watchStop.abort();
    await watching;
    expect(maxUnavailable).toBe(1);
  });

  it('records SuccessfulCreate and SuccessfulDelete events', async () => {
    const events = await cluster.client.resource(eventDefinition).list({ namespace: NS });
    const reasons = events.items.filter((e) => e.involvedObject?.kind === 'DaemonSet' && e.involvedObject.name === 'agent').map((e) => e.reason);
    expect(reasons).toContain('SuccessfulCreate');
    expect(reasons).toContain('SuccessfulDelete');
  });

  describe.each(findKubectlBinaries().map((binary) => [binary.label, binary] as const))('%s', (_label, binary) => {
    const kubectl = (args: string[]) =>
      runKubectl(binary, args, { kubeconfigPath: cluster.kubeconfigPath, cacheDir: join(cluster.dir, `cache-${binary.minor}`) });

    it('prints `get ds` columns as kube does', async () => {
      const result = await kubectl(['get', 'ds', 'agent', 'picky']);
      expect(result.stderr).toBe('');
      const [header, ...rows] = result.stdout.trim().split('\n');
      expect(header?.split(/\s{2,}/)).toEqual(['NAME', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR', 'AGE']);
      expect(rows[0]?.split(/\s+/).slice(0, 7)).toEqual(['agent', '3', '3', '3', '3', '3', '<none>']);
      expect(rows[1]?.split(/\s+/).slice(0, 7)).toEqual(['picky', '1', '1', '1', '1', '1', 'kubernetes.io/hostname=node-2']);
    });

    it('reports `rollout status daemonset/agent` as rolled out', async () => {
      const result = await kubectl(['rollout', 'status', 'daemonset/agent', '--timeout=20s']);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('daemon set "agent" successfully rolled out');
    });
  });
});
