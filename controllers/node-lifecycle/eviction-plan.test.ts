import { describe, expect, it } from 'vitest';
import type { Toleration } from '../../apiserver/api/core/affinity.js';
import type { Node, NodeCondition, Taint } from '../../apiserver/api/core/node.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { FakeClock } from '../../apiserver/api/machinery/clock.js';
import { evictionTime, planPodAction, TaintClock } from './eviction-plan.js';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const stamp = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const UNREACHABLE = 'node.kubernetes.io/unreachable';
const unreachable: Taint = { key: UNREACHABLE, effect: 'NoExecute', timeAdded: stamp(T0) };
const maintenance: Taint = { key: 'example.com/maintenance', effect: 'NoExecute', timeAdded: stamp(T0 + 10_000) };
const tolerate = (key: string, tolerationSeconds?: number): Toleration => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds });

describe('evictionTime', () => {
  const timed = (taint: Taint) => ({ taint, addedAtMs: Date.parse(taint.timeAdded ?? '') });

  it.each<{ name: string; tolerations: Toleration[]; taints: Taint[]; atMs: number | undefined }>([
    { name: 'no toleration: at once (when the taint appeared)', tolerations: [], taints: [unreachable], atMs: T0 },
    { name: 'tolerationSeconds after the taint appeared', tolerations: [tolerate(UNREACHABLE, 300)], taints: [unreachable], atMs: T0 + 300_000 },
    { name: 'tolerated forever', tolerations: [tolerate(UNREACHABLE)], taints: [unreachable], atMs: undefined },
    { name: 'tolerationSeconds ≤ 0 counts as 0', tolerations: [tolerate(UNREACHABLE, -5)], taints: [unreachable], atMs: T0 },
    { name: 'the first matching toleration decides', tolerations: [tolerate(UNREACHABLE), tolerate(UNREACHABLE, 2)], taints: [unreachable], atMs: undefined },
    {
      name: 'the earliest deadline over all taints',
      tolerations: [tolerate(UNREACHABLE, 60), tolerate('example.com/maintenance', 20)],
      taints: [unreachable, maintenance],
      atMs: T0 + 30_000,
    },
    { name: 'one untolerated taint among tolerated ones', tolerations: [tolerate(UNREACHABLE)], taints: [unreachable, maintenance], atMs: T0 + 10_000 },
    { name: 'a wildcard toleration covers every taint', tolerations: [{ operator: 'Exists' }], taints: [unreachable, maintenance], atMs: undefined },
  ])('$name', ({ tolerations, taints, atMs }) => {
    expect(evictionTime(tolerations, taints.map(timed))?.atMs).toBe(atMs);
  });
});

describe('planPodAction', () => {
  const readyNode = (status: NodeCondition['status'], taints?: Taint[]): Node => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'node-2' },
    spec: { taints },
    status: { conditions: [{ type: 'Ready', status }] },
  });
  const pod = (extra: { tolerations?: Toleration[]; deletionTimestamp?: string; nodeName?: string } = {}): Pod => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-abc', namespace: 'default', deletionTimestamp: extra.deletionTimestamp },
    spec: { nodeName: 'nodeName' in extra ? extra.nodeName : 'node-2', containers: [{ name: 'app', image: 'nginx' }], tolerations: extra.tolerations },
  });
  const addedAtMs = (taint: { timeAdded?: string }) => Date.parse(taint.timeAdded ?? '');

  it('leaves unscheduled pods and pods on untainted nodes alone', () => {
    expect(planPodAction({ pod: pod({ nodeName: undefined }), node: readyNode('Unknown', [unreachable]), addedAtMs })).toEqual({ kind: 'none' });
    expect(planPodAction({ pod: pod(), node: readyNode('True'), addedAtMs })).toEqual({ kind: 'none' });
  });

  it('evicts by the tolerations of the pod', () => {
    const action = planPodAction({ pod: pod({ tolerations: [tolerate(UNREACHABLE, 2)] }), node: readyNode('Unknown', [unreachable]), addedAtMs });
    expect(action).toEqual({ kind: 'evict', atMs: T0 + 2_000, taint: unreachable });
  });

  it('force-deletes a terminating pod at its deletionTimestamp when the node is unreachable or gone', () => {
    const terminating = pod({ deletionTimestamp: stamp(T0 + 30_000) });
    expect(planPodAction({ pod: terminating, node: readyNode('Unknown', [unreachable]), addedAtMs })).toEqual({ kind: 'force-delete', atMs: T0 + 30_000 });
    expect(planPodAction({ pod: terminating, node: undefined, addedAtMs })).toEqual({ kind: 'force-delete', atMs: T0 + 30_000 });
  });

  it('leaves a terminating pod to a kubelet that still reports (Ready True or False)', () => {
    const terminating = pod({ deletionTimestamp: stamp(T0 + 30_000) });
    expect(planPodAction({ pod: terminating, node: readyNode('False', [maintenance]), addedAtMs })).toEqual({ kind: 'none' });
    expect(planPodAction({ pod: terminating, node: readyNode('True'), addedAtMs })).toEqual({ kind: 'none' });
  });
});

describe('TaintClock', () => {
  const nodeWith = (taints: Taint[]): Node => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-2' }, spec: { taints } });
  const manual: Taint = { key: 'example.com/drain', effect: 'NoExecute' };

  it('uses timeAdded when the taint has one', () => {
    const clock = new FakeClock(T0 + 99_000);
    expect(new TaintClock(clock).forNode(nodeWith([unreachable]), 'node-2')(unreachable)).toBe(T0);
  });

  it('remembers when it first saw a taint without timeAdded, until the taint goes', () => {
    const clock = new FakeClock(T0);
    const times = new TaintClock(clock);
    expect(times.forNode(nodeWith([manual]), 'node-2')(manual)).toBe(T0);
    clock.advance(5_000);
    expect(times.forNode(nodeWith([manual]), 'node-2')(manual)).toBe(T0);
    times.forNode(nodeWith([]), 'node-2');
    expect(times.forNode(nodeWith([manual]), 'node-2')(manual)).toBe(T0 + 5_000);
  });
});
