import { describe, expect, it } from 'vitest';
import { CycleState } from '../framework.js';
import { makeNode, makeNodeInfo, makePod } from '../testing/fixtures.js';
import { ERR_REASON_CONSTRAINTS_NOT_MATCH, ERR_REASON_NODE_LABEL_NOT_MATCH, podTopologySpreadFilter } from './pod-topology-spread.js';

const db = { app: 'db' };
const zoneSpread = (maxSkew = 1, extra: Record<string, unknown> = {}) => [
  { maxSkew, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' as const, labelSelector: { matchLabels: db }, ...extra },
];

/** cluster: zone a has a-1 and a-2, zone b has b-1; `placed` maps node → db pods on it. */
function cluster(placed: Record<string, number>, extraNodes: ReturnType<typeof makeNode>[] = []) {
  const nodes = [
    makeNode('a-1', { labels: { zone: 'a' } }),
    makeNode('a-2', { labels: { zone: 'a' } }),
    makeNode('b-1', { labels: { zone: 'b' } }),
    ...extraNodes,
  ];
  return nodes.map((node) => {
    const name = node.metadata.name ?? '';
    const pods = Array.from({ length: placed[name] ?? 0 }, (_, i) => makePod(`${name}-db-${i}`, { labels: db, nodeName: name }));
    return makeNodeInfo(node, pods);
  });
}

function feasibility(pod: ReturnType<typeof makePod>, infos: ReturnType<typeof cluster>) {
  const state = new CycleState();
  podTopologySpreadFilter.preFilter?.(state, pod, infos);
  return Object.fromEntries(infos.map((info) => [info.name, podTopologySpreadFilter.filter(state, pod, info)?.reasons[0] ?? 'fits']));
}

describe('PodTopologySpread filter', () => {
  it('lets a pod without DoNotSchedule constraints go anywhere', () => {
    const pod = makePod('p', { labels: db, spec: { topologySpreadConstraints: zoneSpread(1, { whenUnsatisfiable: 'ScheduleAnyway' }) } });
    expect(Object.values(feasibility(pod, cluster({ 'a-1': 3 })))).toEqual(['fits', 'fits', 'fits']);
  });

  it('rejects the domain that would exceed maxSkew', () => {
    const pod = makePod('p', { labels: db, spec: { topologySpreadConstraints: zoneSpread(1) } });
    // zone a holds 1, zone b 0: a → 1 + 1 − 0 = 2 > 1.
    expect(feasibility(pod, cluster({ 'a-1': 1 }))).toEqual({
      'a-1': ERR_REASON_CONSTRAINTS_NOT_MATCH,
      'a-2': ERR_REASON_CONSTRAINTS_NOT_MATCH,
      'b-1': 'fits',
    });
    expect(Object.values(feasibility(pod, cluster({ 'a-1': 1, 'b-1': 1 })))).toEqual(['fits', 'fits', 'fits']);
  });

  it('does not add the pod itself when it does not match the selector', () => {
    const pod = makePod('p', { labels: { app: 'web' }, spec: { topologySpreadConstraints: zoneSpread(1) } });
    expect(Object.values(feasibility(pod, cluster({ 'a-1': 1 })))).toEqual(['fits', 'fits', 'fits']);
  });

  it('rejects nodes without the topology key as unresolvable', () => {
    const pod = makePod('p', { labels: db, spec: { topologySpreadConstraints: zoneSpread(1) } });
    const state = new CycleState();
    const infos = cluster({}, [makeNode('no-zone')]);
    podTopologySpreadFilter.preFilter?.(state, pod, infos);
    expect(podTopologySpreadFilter.filter(state, pod, infos[3]!)).toMatchObject({
      code: 'UnschedulableAndUnresolvable',
      reasons: [ERR_REASON_NODE_LABEL_NOT_MATCH],
    });
  });

  it('treats the global minimum as 0 below minDomains', () => {
    const pod = makePod('p', { labels: db, spec: { topologySpreadConstraints: zoneSpread(1, { minDomains: 3 }) } });
    // Two domains < 3: min is 0, so zone a (1 + 1 − 0) is out and zone b (1 + 1 − 0) too.
    expect(Object.values(feasibility(pod, cluster({ 'a-1': 1, 'b-1': 1 })))).toEqual([
      ERR_REASON_CONSTRAINTS_NOT_MATCH,
      ERR_REASON_CONSTRAINTS_NOT_MATCH,
      ERR_REASON_CONSTRAINTS_NOT_MATCH,
    ]);
  });

  it('counts only domains the pod could use under its node affinity (nodeAffinityPolicy Honor)', () => {
    const pod = makePod('p', { labels: db, spec: { nodeSelector: { zone: 'a' }, topologySpreadConstraints: zoneSpread(1) } });
    // Zone b is not eligible, so zone a's 1 pod is the minimum: a → 1 + 1 − 1 = 1 fits.
    expect(feasibility(pod, cluster({ 'a-1': 1 }))['a-2']).toBe('fits');
  });

  it('ignores pods in other namespaces and terminating pods', () => {
    const pod = makePod('p', { labels: db, spec: { topologySpreadConstraints: zoneSpread(1) } });
    const others = [makePod('x', { labels: db, nodeName: 'a-1', namespace: 'other' }), makePod('y', { labels: db, nodeName: 'a-1', deleting: true })];
    const infos = cluster({});
    infos[0] = makeNodeInfo(makeNode('a-1', { labels: { zone: 'a' } }), others);
    expect(Object.values(feasibility(pod, infos))).toEqual(['fits', 'fits', 'fits']);
  });
});
