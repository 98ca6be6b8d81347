import { describe, expect, it } from 'vitest';
import { CycleState, type NodeInfo, type NodeScore } from '../framework.js';
import { makeNode, makeNodeInfo, makePod } from '../testing/fixtures.js';
import { createPodTopologySpreadScorer } from './pod-topology-spread-score.js';

function scoresFor(pod: ReturnType<typeof makePod>, infos: NodeInfo[]): Record<string, number> {
  const scorer = createPodTopologySpreadScorer();
  const state = new CycleState();
  scorer.preScore?.(state, pod, infos, infos);
  const scores: NodeScore[] = infos.map((info) => ({ name: info.name, score: scorer.score(state, pod, info) }));
  scorer.normalize?.(state, pod, scores);
  return Object.fromEntries(scores.map((s) => [s.name, s.score]));
}

const replicas = (node: string, count: number, ownerUid = 'rs-1') =>
  Array.from({ length: count }, (_, i) => makePod(`${node}-${i}`, { nodeName: node, ownerUid }));

describe('PodTopologySpread scorer', () => {
  it('by default prefers nodes with fewer pods of the same owner', () => {
    const infos = [makeNodeInfo(makeNode('n1'), replicas('n1', 2)), makeNodeInfo(makeNode('n2'), replicas('n2', 1)), makeNodeInfo(makeNode('n3'))];
    const scores = scoresFor(makePod('p', { ownerUid: 'rs-1' }), infos);
    expect(scores['n3']).toBe(100);
    expect(scores['n1']).toBeLessThan(scores['n2']!);
    expect(scores['n2']).toBeLessThan(100);
  });

  it('ignores pods of other owners', () => {
    const infos = [makeNodeInfo(makeNode('n1'), replicas('n1', 3, 'other')), makeNodeInfo(makeNode('n2'))];
    expect(scoresFor(makePod('p', { ownerUid: 'rs-1' }), infos)).toEqual({ n1: 100, n2: 100 });
  });

  it('scores nothing for a bare pod (no owner, no constraints)', () => {
    const infos = [makeNodeInfo(makeNode('n1'), replicas('n1', 3)), makeNodeInfo(makeNode('n2'))];
    expect(scoresFor(makePod('p'), infos)).toEqual({ n1: 0, n2: 0 });
  });

  it('treats a node without the hostname label as its own domain', () => {
    const bare = makeNode('n2');
    delete bare.metadata.labels;
    const infos = [makeNodeInfo(makeNode('n1'), replicas('n1', 2)), makeNodeInfo(bare)];
    const scores = scoresFor(makePod('p', { ownerUid: 'rs-1' }), infos);
    expect(scores['n2']).toBeGreaterThan(scores['n1']!);
  });

  it('uses ScheduleAnyway constraints by zone, leaving nodes without the key unscored', () => {
    const soft = [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway' as const, labelSelector: { matchLabels: { app: 'db' } } }];
    const dbPod = (name: string, node: string) => makePod(name, { nodeName: node, labels: { app: 'db' } });
    const infos = [
      makeNodeInfo(makeNode('a-1', { labels: { zone: 'a' } }), [dbPod('x', 'a-1'), dbPod('y', 'a-1')]),
      makeNodeInfo(makeNode('b-1', { labels: { zone: 'b' } })),
      makeNodeInfo(makeNode('none')),
    ];
    const scores = scoresFor(makePod('p', { labels: { app: 'db' }, spec: { topologySpreadConstraints: soft } }), infos);
    expect(scores).toEqual({ 'a-1': expect.any(Number), 'b-1': 100, none: 0 });
    expect(scores['a-1']).toBeLessThan(100);
  });
});
