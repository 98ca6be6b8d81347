import { describe, expect, it } from 'vitest';
import type { Toleration } from '../../apiserver/api/core/affinity.js';
import type { Node, NodeCondition, Taint } from '../../apiserver/api/core/node.js';
import { desiredTaints, toleratesTaint } from './taints.js';

const NOW = Date.parse('2026-03-01T12:01:00Z');
const STAMP = '2026-03-01T12:01:00Z';

function node(ready: NodeCondition['status'] | undefined, taints?: Taint[], extra: Partial<NonNullable<Node['spec']>> = {}): Node {
  const conditions: NodeCondition[] = ready ? [{ type: 'Ready', status: ready }] : [];
  return { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-2' }, spec: { taints, ...extra }, status: { conditions } };
}

const unreachable: Taint[] = [
  { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: STAMP },
];

describe('desiredTaints', () => {
  it('adds the unreachable taints to an Unknown node, stamping only NoExecute', () => {
    expect(desiredTaints(node('Unknown'), NOW)).toEqual(unreachable);
  });

  it('adds the not-ready taints when the kubelet reports Ready=False', () => {
    expect(desiredTaints(node('False'), NOW)).toEqual([
      { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute', timeAdded: STAMP },
    ]);
  });

  it('swaps unreachable for not-ready when an Unknown node reports Ready=False', () => {
    const result = desiredTaints(node('False', unreachable), NOW + 5_000);
    expect(result?.map((t) => `${t.key}:${t.effect}`)).toEqual(['node.kubernetes.io/not-ready:NoSchedule', 'node.kubernetes.io/not-ready:NoExecute']);
  });

  it('keeps taints that are already right, with their timeAdded (no change → undefined)', () => {
    expect(desiredTaints(node('Unknown', unreachable), NOW + 30_000)).toBeUndefined();
  });

  it('removes its taints when the node is Ready again, leaving foreign taints alone', () => {
    const foreign: Taint = { key: 'example.com/gpu', value: 'true', effect: 'NoExecute' };
    expect(desiredTaints(node('True', [foreign, ...unreachable]), NOW)).toEqual([foreign]);
    expect(desiredTaints(node('True', [foreign]), NOW)).toBeUndefined();
  });

  it('gives a node that never reported no readiness taint', () => {
    expect(desiredTaints(node(undefined), NOW)).toBeUndefined();
  });

  it('mirrors pressure conditions and cordoning as NoSchedule taints', () => {
    const pressured = node('True', undefined, { unschedulable: true });
    pressured.status?.conditions?.push({ type: 'MemoryPressure', status: 'True' }, { type: 'DiskPressure', status: 'False' });
    expect(desiredTaints(pressured, NOW)).toEqual([
      { key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' },
    ]);
  });
});

describe('toleratesTaint', () => {
  const taint: Taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };
  it.each<{ name: string; toleration: Toleration; expected: boolean }>([
    { name: 'Exists with the key and effect', toleration: { key: taint.key, operator: 'Exists', effect: 'NoExecute' }, expected: true },
    { name: 'Exists with the key, any effect', toleration: { key: taint.key, operator: 'Exists' }, expected: true },
    { name: 'Exists without a key (tolerates everything)', toleration: { operator: 'Exists' }, expected: true },
    { name: 'another effect', toleration: { key: taint.key, operator: 'Exists', effect: 'NoSchedule' }, expected: false },
    { name: 'another key', toleration: { key: 'node.kubernetes.io/not-ready', operator: 'Exists' }, expected: false },
    { name: 'Equal (default operator) with the same empty value', toleration: { key: taint.key, effect: 'NoExecute' }, expected: true },
    { name: 'Equal with another value', toleration: { key: taint.key, operator: 'Equal', value: 'x' }, expected: false },
  ])('$name → $expected', ({ toleration, expected }) => {
    expect(toleratesTaint(toleration, taint)).toBe(expected);
  });
});
