import { describe, expect, it } from 'vitest';
import type { NodeSelectorRequirement } from '../../apiserver/api/core/affinity.js';
import { CycleState, type NodeScore } from '../framework.js';
import { makeNode, makeNodeInfo, makePod, type PodOptions } from '../testing/fixtures.js';
import { createNodeAffinityScorer, ERR_REASON_NODE_AFFINITY, nodeAffinityFilter } from './node-affinity.js';
import { requirementMatches, termMatches } from './node-selector.js';

describe('node selector requirements', () => {
  const labels = { zone: 'a', cores: '8' };
  const cases: Array<[NodeSelectorRequirement, boolean]> = [
    [{ key: 'zone', operator: 'In', values: ['a', 'b'] }, true],
    [{ key: 'zone', operator: 'In', values: ['b'] }, false],
    [{ key: 'zone', operator: 'NotIn', values: ['b'] }, true],
    [{ key: 'missing', operator: 'NotIn', values: ['b'] }, true],
    [{ key: 'zone', operator: 'Exists' }, true],
    [{ key: 'missing', operator: 'DoesNotExist' }, true],
    [{ key: 'cores', operator: 'Gt', values: ['4'] }, true],
    [{ key: 'cores', operator: 'Lt', values: ['4'] }, false],
    [{ key: 'zone', operator: 'Gt', values: ['4'] }, false],
    [{ key: 'missing', operator: 'Lt', values: ['4'] }, false],
  ];
  it.each(cases)('%j → %s', (requirement, expected) => {
    expect(requirementMatches(requirement, labels)).toBe(expected);
  });

  it('matches metadata.name through matchFields, and an empty term matches nothing', () => {
    const node = makeNode('node-7');
    expect(termMatches({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-7'] }] }, node)).toBe(true);
    expect(termMatches({}, node)).toBe(false);
  });
});

describe('NodeAffinity filter', () => {
  const ssd = makeNodeInfo(makeNode('ssd', { labels: { disk: 'ssd', zone: 'a' } }));
  const hdd = makeNodeInfo(makeNode('hdd', { labels: { disk: 'hdd', zone: 'b' } }));
  const filter = (spec: PodOptions['spec'], node = ssd) => nodeAffinityFilter.filter(new CycleState(), makePod('p', { spec }), node);

  it('requires every nodeSelector label', () => {
    expect(filter({ nodeSelector: { disk: 'ssd' } })).toBeUndefined();
    expect(filter({ nodeSelector: { disk: 'ssd' } }, hdd)).toEqual({
      code: 'UnschedulableAndUnresolvable',
      reasons: [ERR_REASON_NODE_AFFINITY],
      plugin: 'NodeAffinity',
    });
  });

  it('ORs required terms and ANDs them with nodeSelector', () => {
    const terms = [
      { matchExpressions: [{ key: 'zone', operator: 'In' as const, values: ['x'] }] },
      { matchExpressions: [{ key: 'zone', operator: 'In' as const, values: ['b'] }] },
    ];
    const affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } };
    expect(filter({ affinity }, hdd)).toBeUndefined();
    expect(filter({ affinity }, ssd)).toBeDefined();
    expect(filter({ affinity, nodeSelector: { disk: 'ssd' } }, hdd)).toBeDefined();
  });
});

describe('NodeAffinity scorer', () => {
  it('sums matching preferred weights and normalizes to the best node', () => {
    const scorer = createNodeAffinityScorer();
    const preferred = [
      { weight: 10, preference: { matchExpressions: [{ key: 'zone', operator: 'In' as const, values: ['a'] }] } },
      { weight: 30, preference: { matchExpressions: [{ key: 'disk', operator: 'In' as const, values: ['ssd'] }] } },
    ];
    const pod = makePod('p', { spec: { affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: preferred } } } });
    const nodes = [makeNode('both', { labels: { zone: 'a', disk: 'ssd' } }), makeNode('zone', { labels: { zone: 'a' } }), makeNode('none')].map((n) =>
      makeNodeInfo(n),
    );
    const scores: NodeScore[] = nodes.map((n) => ({ name: n.name, score: scorer.score(new CycleState(), pod, n) }));
    expect(scores.map((s) => s.score)).toEqual([40, 10, 0]);
    scorer.normalize?.(new CycleState(), pod, scores);
    expect(scores.map((s) => s.score)).toEqual([100, 25, 0]);
  });
});
