import { describe, expect, it } from 'vitest';
import { CycleState, type NodeScore } from '../framework.js';
import { makeNode, makeNodeInfo, makePod } from '../testing/fixtures.js';
import { createTaintTolerationScorer, taintTolerationFilter } from './taint-toleration.js';
import { toleratesTaint } from './tolerations.js';

const gpu = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' as const };

describe('toleratesTaint', () => {
  const cases: Array<[string, Parameters<typeof toleratesTaint>[0], boolean]> = [
    ['Equal with key, value and effect', { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }, true],
    ['Equal is the default operator', { key: 'dedicated', value: 'gpu' }, true],
    ['Equal with another value', { key: 'dedicated', value: 'cpu' }, false],
    ['Exists ignores the value', { key: 'dedicated', operator: 'Exists' }, true],
    ['another effect', { key: 'dedicated', operator: 'Exists', effect: 'NoExecute' }, false],
    ['empty key with Exists tolerates everything', { operator: 'Exists' }, true],
    ['another key', { key: 'other', operator: 'Exists' }, false],
  ];
  it.each(cases)('%s', (_name, toleration, expected) => {
    expect(toleratesTaint(toleration, gpu)).toBe(expected);
  });
});

describe('TaintToleration filter', () => {
  it('rejects a NoSchedule or NoExecute taint the pod does not tolerate, naming it as kube does', () => {
    for (const effect of ['NoSchedule', 'NoExecute'] as const) {
      const node = makeNodeInfo(makeNode('n', { taints: [{ ...gpu, effect }] }));
      expect(taintTolerationFilter.filter(new CycleState(), makePod('p'), node)).toEqual({
        code: 'UnschedulableAndUnresolvable',
        reasons: ['node(s) had untolerated taint {dedicated: gpu}'],
        plugin: 'TaintToleration',
      });
    }
  });

  it('ignores PreferNoSchedule taints and tolerated ones', () => {
    const node = makeNodeInfo(makeNode('n', { taints: [{ key: 'soft', effect: 'PreferNoSchedule' }, gpu] }));
    const tolerant = makePod('p', { spec: { tolerations: [{ key: 'dedicated', operator: 'Exists' }] } });
    expect(taintTolerationFilter.filter(new CycleState(), tolerant, node)).toBeUndefined();
  });

  it('prints an empty value as kube does', () => {
    const node = makeNodeInfo(makeNode('n', { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] }));
    expect(taintTolerationFilter.filter(new CycleState(), makePod('p'), node)?.reasons).toEqual([
      'node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }',
    ]);
  });
});

describe('TaintToleration scorer', () => {
  it('prefers nodes with fewer untolerated PreferNoSchedule taints', () => {
    const scorer = createTaintTolerationScorer();
    const soft = (key: string) => ({ key, effect: 'PreferNoSchedule' as const });
    const nodes = [makeNode('clean'), makeNode('one', { taints: [soft('a')] }), makeNode('two', { taints: [soft('a'), soft('b')] })].map((n) =>
      makeNodeInfo(n),
    );
    const pod = makePod('p');
    const scores: NodeScore[] = nodes.map((n) => ({ name: n.name, score: scorer.score(new CycleState(), pod, n) }));
    scorer.normalize?.(new CycleState(), pod, scores);
    expect(scores.map((s) => s.score)).toEqual([100, 50, 0]);
    expect(scorer.weight).toBe(3);
  });
});
