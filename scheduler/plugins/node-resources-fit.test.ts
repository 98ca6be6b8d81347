import { describe, expect, it } from 'vitest';
import { CycleState } from '../framework.js';
import { makeNode, makeNodeInfo, makePod } from '../testing/fixtures.js';
import { createNodeResourcesFitScorer, insufficientResources, leastAllocatedScore, nodeResourcesFitFilter } from './node-resources-fit.js';

describe('NodeResourcesFit filter', () => {
  const filter = (pod: ReturnType<typeof makePod>, info: ReturnType<typeof makeNodeInfo>) => {
    const state = new CycleState();
    nodeResourcesFitFilter.preFilter?.(state, pod, [info]);
    return nodeResourcesFitFilter.filter(state, pod, info);
  };

  it('fits a pod whose requests fit beside the pods already there', () => {
    const info = makeNodeInfo(makeNode('n', { cpu: '2' }), [makePod('a', { cpu: '1' })]);
    expect(filter(makePod('p', { cpu: '1' }), info)).toBeUndefined();
  });

  it('reports every insufficient resource, cpu before memory, as Unschedulable', () => {
    const info = makeNodeInfo(makeNode('n', { cpu: '2', memory: '1Gi' }), [makePod('a', { cpu: '1500m', memory: '512Mi' })]);
    expect(filter(makePod('p', { cpu: '1', memory: '1Gi' }), info)).toEqual({
      code: 'Unschedulable',
      reasons: ['Insufficient cpu', 'Insufficient memory'],
      plugin: 'NodeResourcesFit',
    });
  });

  it('counts pods against allocatable pods, even for pods that request nothing', () => {
    const info = makeNodeInfo(makeNode('n', { pods: '1' }), [makePod('a')]);
    expect(filter(makePod('p'), info)?.reasons).toEqual(['Too many pods']);
  });

  it('checks extended resources by name', () => {
    const pod = makePod('p', { spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { 'nvidia.com/gpu': '1' } } }] } });
    expect(insufficientResources({ 'nvidia.com/gpu': 1 }, makeNodeInfo(makeNode('n')))).toEqual(['Insufficient nvidia.com/gpu']);
    expect(filter(pod, makeNodeInfo(makeNode('n', { extra: { 'nvidia.com/gpu': '2' } })))).toBeUndefined();
  });

  it('does not count finished pods', () => {
    const info = makeNodeInfo(makeNode('n', { cpu: '1' }), [makePod('done', { cpu: '1', phase: 'Succeeded' })]);
    expect(filter(makePod('p', { cpu: '1' }), info)).toBeUndefined();
  });
});

describe('NodeResourcesFit scorer (LeastAllocated)', () => {
  it('averages the free share of cpu and memory after placing the pod', () => {
    const info = makeNodeInfo(makeNode('n', { cpu: '4', memory: '8Gi' }), [makePod('a', { cpu: '1', memory: '2Gi' })]);
    // cpu: (4000 − 2000) × 100 / 4000 = 50; memory: (8 − 4) × 100 / 8 = 50.
    expect(leastAllocatedScore({ cpu: 1000, memory: 2 * 1024 ** 3 }, info)).toBe(50);
  });

  it('gives requestless pods the non-zero defaults (100m, 200Mi), so emptier nodes win', () => {
    const scorer = createNodeResourcesFitScorer();
    const empty = makeNodeInfo(makeNode('empty'));
    const busy = makeNodeInfo(makeNode('busy'), [makePod('a'), makePod('b')]);
    const pod = makePod('p');
    expect(scorer.score(new CycleState(), pod, empty)).toBeGreaterThan(scorer.score(new CycleState(), pod, busy));
  });

  it('scores 0 for a resource that would be overcommitted or that the node lacks', () => {
    expect(leastAllocatedScore({ cpu: 8000, memory: 1 }, makeNodeInfo(makeNode('n', { cpu: '4', memory: '8Gi' })))).toBe(49);
    expect(leastAllocatedScore({ cpu: 100, memory: 1 }, makeNodeInfo(makeNode('n', { cpu: '0', memory: '0' })))).toBe(0);
  });
});
