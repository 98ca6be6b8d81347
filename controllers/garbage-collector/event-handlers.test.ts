import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../apiserver/api/resource-definition.js';
import type { DiscoveredResource } from '../runtime/client/discovery.js';
import type { DeepReadonly } from '../runtime/types.js';
import { garbageCollectorHandlers } from './event-handlers.js';
import { gcKey, uidOfKey } from './keys.js';
import type { MonitoredObject } from './monitors.js';

const resource = { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap', namespaced: true, verbs: [] } as unknown as DiscoveredResource;

function object(uid: string, metadata: Partial<KubeObject['metadata']> = {}): DeepReadonly<KubeObject> {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `n-${uid}`, namespace: 'default', uid, resourceVersion: '1', ...metadata } };
}

/** setup returns handlers over a fake cache (`objects`) and the uids they enqueued, in order. */
function setup(objects: Array<DeepReadonly<KubeObject>> = []) {
  const added: string[] = [];
  const monitors = {
    find: (uid: string): MonitoredObject | undefined => {
      const found = objects.find((o) => o.metadata.uid === uid);
      return found ? { resource, object: found } : undefined;
    },
    dependentsOf: (uid: string): MonitoredObject[] =>
      objects.filter((o) => (o.metadata.ownerReferences ?? []).some((r) => r.uid === uid)).map((o) => ({ resource, object: o })),
  };
  const handlers = garbageCollectorHandlers({ queue: { add: (key) => added.push(uidOfKey(key)) }, monitors });
  return { handlers, added };
}

const owned = (uid: string, ownerUid: string, extra: Partial<KubeObject['metadata']> = {}) =>
  object(uid, { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: `n-${ownerUid}`, uid: ownerUid }], ...extra });

describe('garbageCollectorHandlers', () => {
  it('gcKey round-trips a uid', () => {
    expect(uidOfKey(gcKey('1234-abcd'))).toBe('1234-abcd');
    expect(() => gcKey('')).toThrow();
  });

  it('enqueues added objects that have owners, not others', () => {
    const { handlers, added } = setup();
    handlers.onAdd?.(object('plain'));
    handlers.onAdd?.(owned('child', 'parent'));
    expect(added).toEqual(['child']);
  });

  it('enqueues an object and its dependents when its deletion starts', () => {
    const child = owned('child', 'parent');
    const { handlers, added } = setup([child]);
    handlers.onUpdate?.(object('parent'), object('parent', { deletionTimestamp: 'now', finalizers: ['orphan'] }));
    expect(added).toEqual(['parent', 'child']);
  });

  it('enqueues the dependents of a deleted object, and the object itself', () => {
    const { handlers, added } = setup([owned('child', 'parent')]);
    handlers.onDelete?.(object('parent'));
    expect(added).toEqual(['parent', 'child']);
  });

  it('wakes an owner waiting in the foreground when a dependent goes', () => {
    const parent = object('parent', { deletionTimestamp: 'now', finalizers: ['foregroundDeletion'] });
    const { handlers, added } = setup([parent]);
    handlers.onDelete?.(owned('child', 'parent'));
    expect(added).toEqual(['child', 'parent']);
  });

  it('does not wake owners that are not waiting', () => {
    const { handlers, added } = setup([object('parent')]);
    handlers.onDelete?.(owned('child', 'parent'));
    expect(added).toEqual(['child']);
  });

  it('treats a name reused under a new uid as the old object gone and a new one added', () => {
    const { handlers, added } = setup([owned('old-child', 'old')]);
    handlers.onUpdate?.(object('old'), object('new'));
    expect(added).toEqual(['old', 'old-child']);
  });
});
