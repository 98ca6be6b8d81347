import { describe, expect, it } from 'vitest';
import { CycleState } from '../framework.js';
import { makeNode, makeNodeInfo, makePod } from '../testing/fixtures.js';
import { balancedAllocationScore, createBalancedAllocationScorer } from './balanced-allocation.js';

describe('NodeResourcesBalancedAllocation', () => {
  it('scores (1 − |cpu fraction − memory fraction| / 2) × 100', () => {
    const info = makeNodeInfo(makeNode('n', { cpu: '4', memory: '8Gi' }));
    // cpu 2/4 = 0.5, memory 2/8 = 0.25: std 0.125 → 87.
    expect(balancedAllocationScore({ cpu: 2000, memory: 2 * 1024 ** 3 }, info)).toBe(87);
    expect(balancedAllocationScore({ cpu: 2000, memory: 4 * 1024 ** 3 }, info)).toBe(100);
  });

  it('prefers the node where the pod evens out usage', () => {
    const scorer = createBalancedAllocationScorer();
    const cpuHeavy = makeNodeInfo(makeNode('cpu-heavy', { cpu: '4', memory: '8Gi' }), [makePod('a', { cpu: '3' })]);
    const memHeavy = makeNodeInfo(makeNode('mem-heavy', { cpu: '4', memory: '8Gi' }), [makePod('b', { memory: '6Gi' })]);
    const cpuPod = makePod('p', { cpu: '1' });
    expect(scorer.score(new CycleState(), cpuPod, memHeavy)).toBeGreaterThan(scorer.score(new CycleState(), cpuPod, cpuHeavy));
  });

  it('does not score best-effort pods', () => {
    expect(createBalancedAllocationScorer().score(new CycleState(), makePod('p'), makeNodeInfo(makeNode('n')))).toBe(0);
  });
});
