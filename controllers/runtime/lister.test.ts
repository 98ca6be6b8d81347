import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../apiserver/api/resource-definition.js';
import { IndexStore } from './index-store.js';
import { createLister } from './lister.js';

function object(namespace: string | undefined, name: string, labels: Record<string, string> = {}): KubeObject {
  return { metadata: namespace === undefined ? { name, labels } : { namespace, name, labels } };
}

function lister() {
  const store = new IndexStore<KubeObject>();
  store.addIndexer('team', (o) => (o.metadata.labels?.['team'] ? [o.metadata.labels['team']] : []));
  for (const o of [
    object('a', 'web-1', { app: 'web', tier: 'front', team: 'x' }),
    object('a', 'web-2', { app: 'web', tier: 'back' }),
    object('b', 'web-3', { app: 'web', tier: 'front', team: 'x' }),
    object('b', 'db-1', { app: 'db' }),
  ]) {
    store.upsert(o);
  }
  store.upsert(object(undefined, 'node-1', { zone: 'z1' }));
  return createLister(store);
}

const names = (objects: readonly { metadata: { name?: string } }[]) => objects.map((o) => o.metadata.name).sort();

describe('createLister', () => {
  it('gets by namespace and name, and cluster-scoped objects with an empty namespace', () => {
    const l = lister();
    expect(l.get('a', 'web-1')?.metadata.name).toBe('web-1');
    expect(l.get('b', 'web-1')).toBeUndefined();
    expect(l.get('', 'node-1')?.metadata.name).toBe('node-1');
  });

  it('lists everything, one namespace, or the cluster scope', () => {
    const l = lister();
    expect(l.list()).toHaveLength(5);
    expect(names(l.list('a'))).toEqual(['web-1', 'web-2']);
    expect(names(l.list(''))).toEqual(['node-1']);
    expect(l.list('nowhere')).toEqual([]);
  });

  it('filters by label selector text, as ?labelSelector= does', () => {
    const l = lister();
    expect(names(l.list(undefined, 'app=web'))).toEqual(['web-1', 'web-2', 'web-3']);
    expect(names(l.list('a', 'app=web,tier!=back'))).toEqual(['web-1']);
    expect(names(l.list(undefined, 'app in (db),!tier'))).toEqual(['db-1']);
    expect(names(l.list(undefined, 'zone'))).toEqual(['node-1']);
    expect(l.list(undefined, '')).toHaveLength(5);
  });

  it('throws on an invalid selector (a programming error)', () => {
    expect(() => lister().list(undefined, 'app in (')).toThrow();
  });

  it('reads custom indexes', () => {
    expect(names(lister().byIndex('team', 'x'))).toEqual(['web-1', 'web-3']);
  });

  it('returns the cached objects themselves (shared, read-only)', () => {
    const l = lister();
    expect(l.get('a', 'web-1')).toBe(l.list('a', 'tier=front')[0]);
  });
});
