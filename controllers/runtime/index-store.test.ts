import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../apiserver/api/resource-definition.js';
import { cacheKey, IndexStore, NAMESPACE_INDEX } from './index-store.js';
import { indexByNodeName, indexByOwnerUid, NODE_NAME_INDEX, OWNER_UID_INDEX } from './indexers.js';

function pod(namespace: string, name: string, extra: { owners?: string[]; node?: string; rv?: string } = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      namespace,
      name,
      resourceVersion: extra.rv ?? '1',
      ownerReferences: (extra.owners ?? []).map((uid) => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `rs-${uid}`, uid })),
    },
    spec: extra.node ? { nodeName: extra.node } : {},
  };
}

const names = (objects: readonly { metadata: { name?: string } }[]) => objects.map((o) => o.metadata.name).sort();

function storeWithIndexers(): IndexStore<KubeObject> {
  const store = new IndexStore<KubeObject>();
  store.addIndexer(OWNER_UID_INDEX, indexByOwnerUid);
  store.addIndexer(NODE_NAME_INDEX, indexByNodeName);
  return store;
}

describe('IndexStore', () => {
  it('keys objects as namespace/name, and cluster-scoped ones by name', () => {
    expect(cacheKey(pod('ns', 'a'))).toBe('ns/a');
    expect(cacheKey({ metadata: { name: 'node-1' } })).toBe('node-1');
  });

  it('files objects under the built-in namespace index and custom indexes', () => {
    const store = storeWithIndexers();
    store.upsert(pod('a', 'p1', { owners: ['u1'], node: 'n1' }));
    store.upsert(pod('a', 'p2', { owners: ['u1', 'u2'] }));
    store.upsert(pod('b', 'p3', { owners: ['u2'], node: 'n1' }));
    expect(names(store.byIndex(NAMESPACE_INDEX, 'a'))).toEqual(['p1', 'p2']);
    expect(names(store.byIndex(OWNER_UID_INDEX, 'u2'))).toEqual(['p2', 'p3']);
    expect(names(store.byIndex(NODE_NAME_INDEX, 'n1'))).toEqual(['p1', 'p3']);
    expect(store.byIndex(NODE_NAME_INDEX, 'nowhere')).toEqual([]);
  });

  it('moves an updated object out of the index values it no longer has', () => {
    const store = storeWithIndexers();
    store.upsert(pod('a', 'p1', { owners: ['u1'], node: 'n1' }));
    const old = store.upsert(pod('a', 'p1', { owners: ['u2'], rv: '2' }));
    expect(old?.metadata.resourceVersion).toBe('1');
    expect(store.byIndex(OWNER_UID_INDEX, 'u1')).toEqual([]);
    expect(names(store.byIndex(OWNER_UID_INDEX, 'u2'))).toEqual(['p1']);
    expect(store.byIndex(NODE_NAME_INDEX, 'n1')).toEqual([]);
    expect(store.size).toBe(1);
  });

  it('removes a deleted object from every index and returns it', () => {
    const store = storeWithIndexers();
    store.upsert(pod('a', 'p1', { owners: ['u1'], node: 'n1' }));
    expect(store.delete('a/p1')?.metadata.name).toBe('p1');
    expect(store.delete('a/p1')).toBeUndefined();
    expect(store.byIndex(OWNER_UID_INDEX, 'u1')).toEqual([]);
    expect(store.byIndex(NAMESPACE_INDEX, 'a')).toEqual([]);
    expect(store.list()).toEqual([]);
  });

  it('indexes objects already stored when an indexer is added later', () => {
    const store = new IndexStore<KubeObject>();
    store.upsert(pod('a', 'p1', { node: 'n1' }));
    store.addIndexer(NODE_NAME_INDEX, indexByNodeName);
    expect(names(store.byIndex(NODE_NAME_INDEX, 'n1'))).toEqual(['p1']);
  });

  it('rejects a duplicate indexer name and reading an unknown index', () => {
    const store = new IndexStore<KubeObject>();
    expect(() => store.addIndexer(NAMESPACE_INDEX, () => [])).toThrow(/already exists/);
    expect(() => store.byIndex('missing', 'x')).toThrow(/no indexer named "missing"/);
  });

  it('files an object once even when its index function repeats a value', () => {
    const store = new IndexStore<KubeObject>();
    store.addIndexer('twice', () => ['x', 'x']);
    store.upsert(pod('a', 'p1'));
    expect(store.byIndex('twice', 'x')).toHaveLength(1);
  });

  it('reports a throwing index function and still stores the object', () => {
    const errors: string[] = [];
    const store = new IndexStore<KubeObject>((indexName) => errors.push(indexName));
    store.addIndexer('broken', () => {
      throw new Error('boom');
    });
    store.upsert(pod('a', 'p1'));
    expect(errors).toEqual(['broken']);
    expect(store.get('a/p1')?.metadata.name).toBe('p1');
    expect(store.delete('a/p1')).toBeDefined();
  });
});

describe('indexers', () => {
  it('indexByOwnerUid lists every owner uid', () => {
    expect(indexByOwnerUid(pod('a', 'p', { owners: ['u1', 'u2'] }))).toEqual(['u1', 'u2']);
    expect(indexByOwnerUid({ metadata: { name: 'x' } })).toEqual([]);
  });

  it('indexByNodeName files scheduled pods only', () => {
    expect(indexByNodeName(pod('a', 'p', { node: 'n1' }))).toEqual(['n1']);
    expect(indexByNodeName(pod('a', 'p'))).toEqual([]);
    expect(indexByNodeName({ metadata: { name: 'x' }, spec: { nodeName: '' } })).toEqual([]);
  });
});
