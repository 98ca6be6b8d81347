/**
 * The scheduler against a real API server: runScheduler in-process (real clock, real HTTP and
 * watches); nodes and pods created through the API as a kubelet and a user would. No
 * kubelets run, so bound pods stay Pending; only placement is checked.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { eventDefinition } from '../../apiserver/api/core/event.js';
import { type Node, nodeDefinition } from '../../apiserver/api/core/node.js';
import { type Pod, podDefinition } from '../../apiserver/api/core/pod.js';
import { createRealClock } from '../../apiserver/api/machinery/clock.js';
import { createLogger } from '../../controllers/runtime/logger.js';
import { type Decision, LAST_DECISION_ANNOTATION } from '../../scheduler/explain.js';
import { runScheduler } from '../../scheduler/main.js';
import type { Scheduler } from '../../scheduler/scheduler.js';
import { eventually } from '../support/eventually.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const NS = 'default';

interface NodeShape {
  cpu?: string;
  memory?: string;
  labels?: Record<string, string>;
  taints?: NonNullable<Node['spec']>['taints'];
  unschedulable?: boolean;
}

function node(name: string, { cpu = '2', memory = '4Gi', labels = {}, taints, unschedulable }: NodeShape = {}): Node {
  const resources = { cpu, memory, pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } },
    spec: { taints, unschedulable },
    status: { capacity: resources, allocatable: resources, conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

function pod(name: string, spec: Partial<Pod['spec']> = {}, metadata: Partial<Pod['metadata']> = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: NS, ...metadata },
    spec: { containers: [{ name: 'app', image: 'nginx:1.25', resources: { requests: { cpu: '100m', memory: '64Mi' } } }], ...spec },
  };
}

function requesting(cpu: string): Partial<Pod['spec']> {
  return { containers: [{ name: 'app', image: 'nginx:1.25', resources: { requests: { cpu } } }] };
}

describe('scheduler', () => {
  const cluster = useTestCluster({ userAgent: 'scheduler-test' });
  let stopScheduler: (() => Promise<void>) | undefined;
  const pods = () => cluster.client.resource(podDefinition);
  const nodes = () => cluster.client.resource(nodeDefinition);

  async function startScheduler(): Promise<Scheduler> {
    const abort = new AbortController();
    let started: Scheduler | undefined;
    const logger = createLogger({ component: 'default-scheduler', level: 'warn' });
    const running = runScheduler({ server: cluster.url, clock: createRealClock(), logger, seed: 7, signal: abort.signal, onStarted: (s) => (started = s) });
    stopScheduler = async () => {
      abort.abort();
      await running;
    };
    return started!;
  }

  const createNodes = (...list: Node[]) => Promise.all(list.map((n) => nodes().create(n)));
  const createPods = (...list: Pod[]) => Promise.all(list.map((p) => pods().create(p)));
  const nodeOf = async (name: string) => (await pods().get(NS, name)).spec.nodeName;

  async function bound(name: string): Promise<Pod> {
    return eventually(async () => {
      const current = await pods().get(NS, name);
      expect(current.spec.nodeName).toBeTruthy();
      return current;
    });
  }

  async function eventMessages(name: string, reason: string): Promise<string[]> {
    const events = await cluster.client.resource(eventDefinition).list({ namespace: NS });
    return events.items.filter((e) => e.involvedObject.name === name && e.reason === reason).map((e) => e.message ?? '');
  }

  async function failedWith(name: string, message: string): Promise<Pod> {
    return eventually(async () => {
      expect(await eventMessages(name, 'FailedScheduling')).toContain(message);
      const current = await pods().get(NS, name);
      const condition = current.status?.conditions?.find((c) => c.type === 'PodScheduled');
      expect(condition).toMatchObject({ status: 'False', reason: 'Unschedulable', message });
      expect(current.metadata.annotations?.[LAST_DECISION_ANNOTATION]).toBeDefined();
      return current;
    });
  }

  const decisionOf = (p: Pod): Decision => JSON.parse(p.metadata.annotations?.[LAST_DECISION_ANNOTATION] ?? '{}') as Decision;

  afterEach(async () => {
    await stopScheduler?.();
    stopScheduler = undefined;
  });

  it('binds a pod through pods/binding and explains the choice', async () => {
    await createNodes(node('node-1'), node('node-2'), node('node-3', { cpu: '1' }));
    await startScheduler();
    await createPods(pod('web'));
    const placed = await bound('web');
    expect(placed.status?.conditions?.find((c) => c.type === 'PodScheduled')?.status).toBe('True');
    await eventually(async () => expect(await eventMessages('web', 'Scheduled')).toEqual([`Successfully assigned default/web to ${placed.spec.nodeName}`]));
    const decision = decisionOf(placed);
    expect(decision).toMatchObject({ result: 'Scheduled', node: placed.spec.nodeName, nodes: 3, feasible: 3 });
    expect(Object.keys(decision.scores).sort()).toEqual(['node-1', 'node-2', 'node-3']);
    expect(decision.scores[placed.spec.nodeName ?? '']).toHaveProperty('NodeResourcesFit');
  });

  it("leaves a pod Pending with kube's FailedScheduling message, then schedules it when a bigger node joins", async () => {
    await createNodes(node('node-1', { cpu: '1' }), node('node-2', { cpu: '1' }), node('node-3', { cpu: '1' }));
    await startScheduler();
    await createPods(pod('big', requesting('2')));
    const message = '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.';
    const pending = await failedWith('big', message);
    expect(pending.spec.nodeName).toBeUndefined();
    expect(decisionOf(pending)).toMatchObject({ result: 'Unschedulable', nodes: 3, feasible: 0, rejected: { 'node-1': 'NodeResourcesFit: Insufficient cpu' } });
    await createNodes(node('node-4', { cpu: '4' }));
    await eventually(async () => expect(await nodeOf('big')).toBe('node-4'));
  });

  it('keeps pods off a NoSchedule-tainted node unless they tolerate the taint', async () => {
    await createNodes(node('gpu-1', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }));
    await startScheduler();
    await createPods(pod('plain'), pod('tolerant', { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }] }));
    expect((await bound('tolerant')).spec.nodeName).toBe('gpu-1');
    await failedWith(
      'plain',
      '0/1 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
    );
  });

  it('honours nodeSelector and required node affinity', async () => {
    await createNodes(node('a-1', { labels: { zone: 'a' } }), node('b-1', { labels: { zone: 'b', disk: 'ssd' } }), node('c-1', { labels: { zone: 'c' } }));
    await startScheduler();
    const inZoneC = { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In' as const, values: ['c'] }] }] };
    await createPods(
      pod('ssd', { nodeSelector: { disk: 'ssd' } }),
      pod('zone-c', { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: inZoneC } } }),
      pod('nowhere', { nodeSelector: { disk: 'nvme' } }),
    );
    expect((await bound('ssd')).spec.nodeName).toBe('b-1');
    expect((await bound('zone-c')).spec.nodeName).toBe('c-1');
    await failedWith(
      'nowhere',
      "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
    );
  });

  it('skips a cordoned node', async () => {
    await createNodes(node('open'), node('cordoned', { unschedulable: true }));
    await startScheduler();
    await createPods(pod('p-1'), pod('p-2'), pod('p-3'));
    for (const name of ['p-1', 'p-2', 'p-3']) expect((await bound(name)).spec.nodeName).toBe('open');
  });

  it('spreads 6 replicas of one ReplicaSet 2/2/2 over 3 equal nodes', async () => {
    await createNodes(node('node-1'), node('node-2'), node('node-3'));
    await startScheduler();
    const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-abc', uid: '6d7a4c1e-0000-4000-8000-000000000001', controller: true };
    const replicas = Array.from({ length: 6 }, (_, i) => pod(`web-abc-${i}`, {}, { labels: { app: 'web' }, ownerReferences: [owner] }));
    await createPods(...replicas);
    const placed = await Promise.all(replicas.map((r) => bound(r.metadata.name ?? '')));
    const perNode = new Map<string, number>();
    for (const p of placed) perNode.set(p.spec.nodeName ?? '', (perNode.get(p.spec.nodeName ?? '') ?? 0) + 1);
    expect(Object.fromEntries(perNode)).toEqual({ 'node-1': 2, 'node-2': 2, 'node-3': 2 });
  });

  it('enforces a DoNotSchedule topology spread constraint across zones', async () => {
    await createNodes(node('a-1', { labels: { zone: 'a' } }), node('a-2', { labels: { zone: 'a' } }), node('b-1', { labels: { zone: 'b' } }));
    await startScheduler();
    const spread = [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' as const, labelSelector: { matchLabels: { app: 'db' } } }];
    const names = ['db-0', 'db-1', 'db-2', 'db-3'];
    for (const name of names) {
      // One at a time, so each placement sees the ones before it bound.
      await createPods(pod(name, { topologySpreadConstraints: spread }, { labels: { app: 'db' } }));
      await bound(name);
    }
    const zones = await Promise.all(names.map(async (name) => ((await nodeOf(name)) ?? '').slice(0, 1)));
    expect(zones.filter((z) => z === 'a')).toHaveLength(2);
    expect(zones.filter((z) => z === 'b')).toHaveLength(2);
  });

  it('counts scheduling attempts', async () => {
    await createNodes(node('node-1'));
    const scheduler = await startScheduler();
    await createPods(pod('one'), pod('two'));
    await bound('one');
    await bound('two');
    await eventually(() => expect(scheduler.counters).toMatchObject({ scheduled: 2, unschedulable: 0 }));
    expect(scheduler.counters.attempts).toBeGreaterThanOrEqual(2);
  });
});
