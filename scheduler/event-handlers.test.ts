import { describe, expect, it } from 'vitest';
import type { Pod } from '../apiserver/api/core/pod.js';
import { FakeClock } from '../apiserver/api/machinery/clock.js';
import type { DeepReadonly, Lister } from '../controllers/runtime/types.js';
import { isNodeSchedulingRelevantUpdate, isSchedulingRelevantUpdate, nodeEventHandlers, podEventHandlers, shouldSchedule } from './event-handlers.js';
import { LAST_DECISION_ANNOTATION } from './explain.js';
import { SchedulingQueue } from './scheduling-queue.js';
import { makeNode, makePod } from './testing/fixtures.js';

const withRv = (pod: Pod, resourceVersion: string): Pod => ({ ...pod, metadata: { ...pod.metadata, resourceVersion } });

function setup() {
  const clock = new FakeClock(0);
  const queue = new SchedulingQueue({ clock });
  const cache = new Map<string, Pod>();
  const podLister = { get: (ns: string, name: string) => cache.get(`${ns}/${name}`) } as unknown as Lister<Pod>;
  const handlers = podEventHandlers({ queue, podLister, schedulerName: 'default-scheduler' });
  /** parkUnschedulable pops `pod` and parks it as unschedulable, past its backoff. */
  const parkUnschedulable = async (pod: Pod) => {
    handlers.onAdd?.(pod);
    queue.requeueUnschedulable((await queue.pop())!);
    clock.advance(10_000);
  };
  return { clock, queue, cache, handlers, parkUnschedulable };
}

describe('shouldSchedule', () => {
  it('takes unbound, live pods of this scheduler (empty schedulerName is the default)', () => {
    expect(shouldSchedule(makePod('p'), 'default-scheduler')).toBe(true);
    expect(shouldSchedule(makePod('p', { spec: { schedulerName: 'default-scheduler' } }), 'default-scheduler')).toBe(true);
    expect(shouldSchedule(makePod('p', { spec: { schedulerName: 'other' } }), 'default-scheduler')).toBe(false);
    expect(shouldSchedule(makePod('p', { nodeName: 'n1' }), 'default-scheduler')).toBe(false);
    expect(shouldSchedule(makePod('p', { deleting: true }), 'default-scheduler')).toBe(false);
    expect(shouldSchedule(makePod('p', { phase: 'Failed' }), 'default-scheduler')).toBe(false);
    expect(shouldSchedule(makePod('p', { spec: { schedulingGates: [{ name: 'wait' }] } }), 'default-scheduler')).toBe(false);
  });
});

describe('relevance of updates', () => {
  it("ignores status, resourceVersion and the scheduler's own annotation", () => {
    const pod = makePod('p');
    const written: Pod = {
      ...withRv(pod, '9'),
      metadata: { ...pod.metadata, resourceVersion: '9', annotations: { [LAST_DECISION_ANNOTATION]: '{}' } },
      status: { phase: 'Pending' },
    };
    expect(isSchedulingRelevantUpdate(pod, written)).toBe(false);
    expect(isSchedulingRelevantUpdate(pod, { ...pod, metadata: { ...pod.metadata, labels: { a: 'b' } } })).toBe(true);
    expect(isSchedulingRelevantUpdate(pod, { ...pod, spec: { ...pod.spec, tolerations: [{ operator: 'Exists' }] } })).toBe(true);
  });

  it('ignores node heartbeats but not allocatable, labels, taints or cordoning', () => {
    const node = makeNode('n');
    const heartbeat = { ...node, status: { ...node.status, conditions: [{ type: 'Ready', status: 'True' as const }] } };
    expect(isNodeSchedulingRelevantUpdate(node, heartbeat)).toBe(false);
    expect(isNodeSchedulingRelevantUpdate(node, makeNode('n', { cpu: '8' }))).toBe(true);
    expect(isNodeSchedulingRelevantUpdate(node, makeNode('n', { labels: { zone: 'a' } }))).toBe(true);
    expect(isNodeSchedulingRelevantUpdate(node, makeNode('n', { taints: [{ key: 'k', effect: 'NoSchedule' }] }))).toBe(true);
    expect(isNodeSchedulingRelevantUpdate(node, makeNode('n', { unschedulable: true }))).toBe(true);
  });
});

describe('pod and node handlers', () => {
  it('queue new pods of ours and drop them once bound or deleted', async () => {
    const { queue, handlers } = setup();
    const pod = makePod('p');
    handlers.onAdd?.(makePod('theirs', { spec: { schedulerName: 'other' } }));
    handlers.onAdd?.(pod);
    expect(queue.stats().active).toBe(1);
    handlers.onUpdate?.(pod, withRv({ ...pod, spec: { ...pod.spec, nodeName: 'n1' } }, '2'));
    expect(queue.stats().active).toBe(0);
  });

  it('retry unschedulable pods when an assigned pod is deleted or a node is added', async () => {
    const { queue, handlers, parkUnschedulable } = setup();
    await parkUnschedulable(makePod('p'));
    handlers.onDelete?.(makePod('gone', { nodeName: 'n1' }));
    expect(queue.stats().active).toBe(1);
    queue.requeueUnschedulable((await queue.pop())!);
    expect(queue.stats().unschedulable).toBe(1);
    nodeEventHandlers(queue).onAdd?.(makeNode('new') as DeepReadonly<ReturnType<typeof makeNode>>);
    expect(queue.stats().unschedulable).toBe(0);
  });

  it('retry only spread-constrained pods when another pod gets bound', async () => {
    const { queue, cache, handlers, parkUnschedulable } = setup();
    const spread = makePod('spread', { spec: { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }] } });
    const plain = makePod('plain');
    for (const pod of [spread, plain]) cache.set(`default/${pod.metadata.name}`, pod);
    await parkUnschedulable(spread);
    await parkUnschedulable(plain);
    handlers.onAdd?.(makePod('other', { nodeName: 'n1' }));
    expect(queue.stats()).toMatchObject({ active: 1, unschedulable: 1 });
  });

  it("ignore the scheduler's own writes to an unschedulable pod", async () => {
    const { queue, handlers, parkUnschedulable } = setup();
    const pod = makePod('p');
    await parkUnschedulable(pod);
    const annotated = { ...pod, metadata: { ...pod.metadata, resourceVersion: '5', annotations: { [LAST_DECISION_ANNOTATION]: '{}' } } };
    handlers.onUpdate?.(pod, annotated);
    expect(queue.stats().unschedulable).toBe(1);
  });
});
