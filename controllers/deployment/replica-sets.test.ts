import { describe, expect, it } from 'vitest';
import { POD_TEMPLATE_HASH_LABEL } from '../runtime/pods/pod-template-hash.js';
import { equalIgnoreHash, findActiveOrLatest, findNewReplicaSet, findOldReplicaSets, semanticEqual } from './replica-sets.js';
import { deploymentFixture, replicaSetFixture } from './testing/fixtures.js';

const template = (name: string, node: string, annotations: Record<string, string>, labels: Record<string, string>) => ({
  metadata: { name, annotations, labels },
  spec: { nodeName: node, containers: [] },
});
const H = POD_TEMPLATE_HASH_LABEL;

describe('equalIgnoreHash (TestEqualIgnoreHash)', () => {
  it.each([
    { name: 'same spec, same labels', a: template('foo', 'n', {}, { [H]: 'v1', x: 'y' }), b: template('foo', 'n', {}, { [H]: 'v1', x: 'y' }), want: true },
    { name: 'only the hash differs', a: template('foo', 'n', {}, { [H]: 'v1', x: 'y' }), b: template('foo', 'n', {}, { [H]: 'v2', x: 'y' }), want: true },
    { name: 'one has no hash', a: template('foo', 'n', {}, { x: 'y' }), b: template('foo', 'n', {}, { [H]: 'v2', x: 'y' }), want: true },
    { name: 'labels differ, one count', a: template('foo', 'n', {}, { x: 'y' }), b: template('foo', 'n', {}, { [H]: 'v2' }), want: false },
    { name: 'same hash, other labels differ', a: template('foo', 'n', {}, { [H]: 'v1' }), b: template('foo', 'n', {}, { [H]: 'v1', x: 'y' }), want: false },
    { name: 'annotations differ', a: template('foo', 'n', { a: 'v' }, { [H]: 'v1' }), b: template('foo', 'n', { b: 'v' }, { [H]: 'v1' }), want: false },
    { name: 'spec differs', a: template('foo', 'n1', {}, { x: 'y' }), b: template('foo', 'n2', {}, { [H]: 'v2', x: 'y' }), want: false },
  ])('$name', ({ a, b, want }) => {
    expect(equalIgnoreHash(a, b)).toBe(want);
    expect(equalIgnoreHash(b, a)).toBe(want);
  });

  it('treats absent, empty and null alike, as Semantic.DeepEqual treats nil and empty', () => {
    expect(semanticEqual({ a: [], b: {}, c: null }, {})).toBe(true);
    expect(semanticEqual({ a: [1] }, {})).toBe(false);
  });
});

describe('finding the new and old replica sets', () => {
  const d = deploymentFixture({ image: 'nginx:1.25' });
  const newRS = replicaSetFixture('foo-new', { replicas: 1, created: '2016-05-20T02:00:00Z', image: 'nginx:1.25' });
  const newRSDup = replicaSetFixture('foo-dup', { replicas: 0, created: '2016-05-20T01:00:00Z', image: 'nginx:1.25' });
  const oldRS = replicaSetFixture('foo-old', { replicas: 0, created: '2016-05-20T00:00:00Z', image: 'nginx:1.24' });
  newRS.spec.template!.metadata!.labels = { app: 'foo', [H]: 'hash' };
  newRSDup.spec.template!.metadata!.labels = { app: 'foo', [H]: 'different-hash' };

  it('finds the replica set with the same template, ignoring the hash (TestFindNewReplicaSet)', () => {
    expect(findNewReplicaSet(d, [newRS, oldRS])?.metadata.name).toBe('foo-new');
    expect(findNewReplicaSet(d, [newRS, oldRS, newRSDup])?.metadata.name).toBe('foo-dup');
    expect(findNewReplicaSet(d, [oldRS])).toBeUndefined();
  });

  it('splits the rest into all and those with replicas (TestFindOldReplicaSets)', () => {
    const names = (rss: { metadata: { name?: string } }[]) => rss.map((rs) => rs.metadata.name);
    expect(names(findOldReplicaSets(d, [newRS, oldRS]).all)).toEqual(['foo-old']);
    const { all, withReplicas } = findOldReplicaSets(d, [oldRS, newRS, newRSDup]);
    expect(names(all)).toEqual(['foo-old', 'foo-new']);
    expect(names(withReplicas)).toEqual(['foo-new']);
    expect(findOldReplicaSets(d, [newRS]).all).toEqual([]);
  });
});

describe('findActiveOrLatest', () => {
  const rs = (name: string, replicas: number, created: string) => replicaSetFixture(name, { replicas, created });
  const older = rs('v1', 0, '2016-05-20T00:00:00Z');
  const old = rs('v2', 0, '2016-05-20T01:00:00Z');
  it('returns the only active one', () => {
    expect(findActiveOrLatest(undefined, [older, rs('v2', 3, '2016-05-20T01:00:00Z')])?.metadata.name).toBe('v2');
  });
  it('returns the new one, else the newest old one, when none is active', () => {
    expect(findActiveOrLatest(rs('v3', 0, '2016-05-20T02:00:00Z'), [older, old])?.metadata.name).toBe('v3');
    expect(findActiveOrLatest(undefined, [older, old])?.metadata.name).toBe('v2');
  });
  it('returns nothing when several are active or there are none', () => {
    expect(findActiveOrLatest(rs('v3', 1, '2016-05-20T02:00:00Z'), [rs('v2', 1, '2016-05-20T01:00:00Z')])).toBeUndefined();
    expect(findActiveOrLatest(undefined, [])).toBeUndefined();
  });
});
