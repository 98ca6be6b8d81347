import { describe, expect, it } from 'vitest';
import { buildSnapshot, NodeInfoCache, type SnapshotSource } from './snapshot.js';
import { makeNode, makePod } from './testing/fixtures.js';

describe('buildSnapshot', () => {
  it('orders nodes by name and counts bound plus assumed pods, not finished ones', () => {
    const bound = [makePod('a', { cpu: '1', nodeName: 'n1', ownerUid: 'rs' }), makePod('done', { cpu: '1', nodeName: 'n1', phase: 'Failed' })];
    const assumed = makePod('b', { cpu: '500m', nodeName: 'n1', ownerUid: 'rs' });
    const snapshot = buildSnapshot({
      nodes: [makeNode('n2'), makeNode('n1', { cpu: '2' })],
      boundPods: (name) => bound.filter((p) => p.spec.nodeName === name),
      assumedPods: new Map([['n1', [assumed]]]),
    });
    expect(snapshot.nodes.map((n) => n.name)).toEqual(['n1', 'n2']);
    const n1 = snapshot.get('n1')!;
    expect(n1.pods.map((p) => p.metadata.name)).toEqual(['a', 'b']);
    expect(n1.requested['cpu']).toBe(1500);
    expect(n1.allocatable).toMatchObject({ cpu: 2000, pods: 110 });
    expect(n1.podsByOwner.get('rs')).toBe(2);
    expect(snapshot.get('n2')?.pods).toEqual([]);
  });

  it('uses the non-zero defaults only for nonZeroRequested', () => {
    const snapshot = buildSnapshot({ nodes: [makeNode('n1')], boundPods: () => [makePod('a', { nodeName: 'n1' })], assumedPods: new Map() });
    expect(snapshot.get('n1')).toMatchObject({ requested: {}, nonZeroRequested: { cpu: 100, memory: 200 * 1024 ** 2 } });
  });

  it('leaves terminating pods out of the owner counts', () => {
    const pods = [makePod('a', { nodeName: 'n1', ownerUid: 'rs', deleting: true })];
    const snapshot = buildSnapshot({ nodes: [makeNode('n1')], boundPods: () => pods, assumedPods: new Map() });
    expect(snapshot.get('n1')?.podsByOwner.size).toBe(0);
  });
});

describe('NodeInfoCache', () => {
  const source = (nodes: SnapshotSource['nodes'], bound: ReturnType<typeof makePod>[], assumed = new Map()): SnapshotSource & { reads: string[] } => {
    const reads: string[] = [];
    return {
      nodes,
      boundPods: (name) => {
        reads.push(name);
        return bound.filter((p) => p.spec.nodeName === name);
      },
      assumedPods: assumed,
      reads,
    };
  };

  it('reuses NodeInfos and the name order until a pod on the node changes', () => {
    const cache = new NodeInfoCache();
    const nodes = [makeNode('n2'), makeNode('n1')];
    const a = makePod('a', { cpu: '1', nodeName: 'n1' });
    const first = buildSnapshot(source(nodes, [a]), cache);
    const unchanged = source(nodes, [a]);
    const second = buildSnapshot(unchanged, cache);
    expect(unchanged.reads).toEqual([]);
    expect(second.get('n1')).toBe(first.get('n1'));
    expect(second.nodes.map((n) => n.name)).toEqual(['n1', 'n2']);

    const b = makePod('b', { cpu: '1', nodeName: 'n1' });
    cache.podChanged(b);
    const afterChange = source(nodes, [a, b]);
    const third = buildSnapshot(afterChange, cache);
    expect(afterChange.reads).toEqual(['n1']);
    expect(third.get('n1')?.requested['cpu']).toBe(2000);
    expect(third.get('n2')).toBe(first.get('n2'));
  });

  it('recomputes a node whose assumed pods or node object changed', () => {
    const cache = new NodeInfoCache();
    const nodes = [makeNode('n1', { cpu: '2' })];
    buildSnapshot(source(nodes, []), cache);
    const assumed = makePod('x', { cpu: '500m', nodeName: 'n1' });
    expect(buildSnapshot(source(nodes, [], new Map([['n1', [assumed]]])), cache).get('n1')?.requested['cpu']).toBe(500);
    expect(buildSnapshot(source(nodes, []), cache).get('n1')?.requested['cpu']).toBeUndefined();
    const resized = [makeNode('n1', { cpu: '4' })];
    expect(buildSnapshot(source(resized, []), cache).get('n1')?.allocatable['cpu']).toBe(4000);
  });
});
