import { describe, expect, it } from 'vitest';
import type { Node } from '../apiserver/api/core/node.js';
import type { Pod } from '../apiserver/api/core/pod.js';
import { createDefaultProfile } from './profile.js';
import { type ScheduleResult, schedulePod, tieBreakHash } from './schedule-pod.js';
import { buildSnapshot } from './snapshot.js';
import { makeNode, makePod } from './testing/fixtures.js';

const profile = createDefaultProfile();

/** decide schedules `pod` onto `nodes` with `placed` pods already bound. */
function decide(pod: Pod, nodes: Node[], placed: Pod[] = [], seed = 1): ScheduleResult {
  const snapshot = buildSnapshot({
    nodes,
    boundPods: (name) => placed.filter((p) => p.spec.nodeName === name),
    assumedPods: new Map(),
  });
  return schedulePod(profile, pod, snapshot, { seed });
}

describe('schedulePod', () => {
  it('picks the node with the most room and ranks the others behind it', () => {
    const result = decide(makePod('p', { cpu: '1' }), [makeNode('small', { cpu: '2' }), makeNode('big', { cpu: '8' }), makeNode('mid', { cpu: '4' })]);
    expect(result.kind).toBe('Scheduled');
    if (result.kind !== 'Scheduled') return;
    expect(result.nodeName).toBe('big');
    expect(result.scores.map((s) => s.node)).toEqual(['big', 'mid', 'small']);
    expect(Object.keys(result.scores[0]!.byPlugin).sort()).toEqual([
      'NodeAffinity',
      'NodeResourcesBalancedAllocation',
      'NodeResourcesFit',
      'PodTopologySpread',
      'TaintToleration',
    ]);
  });

  it('records why each rejected node was rejected, by the first filter that said no', () => {
    const nodes = [makeNode('cordoned', { unschedulable: true, cpu: '1' }), makeNode('tiny', { cpu: '500m' }), makeNode('ok')];
    const result = decide(makePod('p', { cpu: '1' }), nodes);
    expect(result).toMatchObject({ kind: 'Scheduled', nodeName: 'ok', scores: [] });
    expect(Object.fromEntries([...result.rejected].map(([node, status]) => [node, status.plugin]))).toEqual({
      cordoned: 'NodeUnschedulable',
      tiny: 'NodeResourcesFit',
    });
  });

  it("explains a pod no node fits with kube's message", () => {
    const result = decide(makePod('p', { cpu: '16' }), [makeNode('a'), makeNode('b')]);
    expect(result).toMatchObject({
      kind: 'Unschedulable',
      message: '0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.',
    });
  });

  it('breaks ties deterministically from the seed', () => {
    const nodes = ['n1', 'n2', 'n3', 'n4'].map((name) => makeNode(name));
    const pick = (seed: number, name: string) => {
      const result = decide(makePod(name), nodes, [], seed);
      return result.kind === 'Scheduled' ? result.nodeName : undefined;
    };
    expect(pick(42, 'p')).toBe(pick(42, 'p'));
    const picks = new Set(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((name) => pick(42, name)));
    expect(picks.size).toBeGreaterThan(1);
    expect(tieBreakHash(1, 'default/p', 'n1')).not.toBe(tieBreakHash(2, 'default/p', 'n1'));
  });

  it('spreads 6 replicas of one owner 2/2/2 over 3 equal nodes', () => {
    const nodes = ['node-1', 'node-2', 'node-3'].map((name) => makeNode(name));
    const placed: Pod[] = [];
    for (let i = 0; i < 6; i++) {
      const pod = makePod(`web-${i}`, { ownerUid: 'rs-1', labels: { app: 'web' } });
      const result = decide(pod, nodes, placed);
      if (result.kind !== 'Scheduled') throw new Error('unschedulable');
      placed.push({ ...pod, spec: { ...pod.spec, nodeName: result.nodeName } });
    }
    const perNode: Record<string, number> = {};
    for (const p of placed) perNode[p.spec.nodeName ?? ''] = (perNode[p.spec.nodeName ?? ''] ?? 0) + 1;
    expect(perNode).toEqual({ 'node-1': 2, 'node-2': 2, 'node-3': 2 });
  });
});
