import { describe, expect, it } from 'vitest';
import { CycleState } from '../framework.js';
import { makeNode, makeNodeInfo, makePod } from '../testing/fixtures.js';
import { nodeUnschedulablePlugin } from './node-unschedulable.js';

describe('NodeUnschedulable', () => {
  const cordoned = makeNodeInfo(makeNode('node-1', { unschedulable: true }));

  it('rejects a cordoned node as unresolvable', () => {
    expect(nodeUnschedulablePlugin.filter(new CycleState(), makePod('p'), cordoned)).toMatchObject({
      code: 'UnschedulableAndUnresolvable',
      reasons: ['node(s) were unschedulable'],
    });
  });

  it('accepts a schedulable node', () => {
    expect(nodeUnschedulablePlugin.filter(new CycleState(), makePod('p'), makeNodeInfo(makeNode('n')))).toBeUndefined();
  });

  it('lets pods that tolerate node.kubernetes.io/unschedulable through (DaemonSet pods)', () => {
    const tolerations = [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists' as const, effect: 'NoSchedule' as const }];
    expect(nodeUnschedulablePlugin.filter(new CycleState(), makePod('p', { spec: { tolerations } }), cordoned)).toBeUndefined();
    const everything = [{ operator: 'Exists' as const }];
    expect(nodeUnschedulablePlugin.filter(new CycleState(), makePod('p', { spec: { tolerations: everything } }), cordoned)).toBeUndefined();
  });
});
