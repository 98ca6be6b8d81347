import { describe, expect, it } from 'vitest';
import {
  decideOwnerAction,
  deletionPhase,
  groupOfApiVersion,
  isBlockingReference,
  type OwnerReference,
  type OwnerState,
  referencesWithout,
} from './decisions.js';

const ref = (uid: string, extra: Partial<OwnerReference> = {}): OwnerReference => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  name: `owner-${uid}`,
  uid,
  ...extra,
});
const deleting = '2024-01-01T00:00:00Z';

describe('deletionPhase', () => {
  it.each([
    [{}, 'live'],
    [{ finalizers: ['orphan'] }, 'live'],
    [{ deletionTimestamp: deleting }, 'deleting'],
    [{ deletionTimestamp: deleting, finalizers: ['example.com/hold'] }, 'deleting'],
    [{ deletionTimestamp: deleting, finalizers: ['foregroundDeletion'] }, 'foreground'],
    [{ deletionTimestamp: deleting, finalizers: ['orphan'] }, 'orphan'],
    // Orphaning first: dependents are released before anything waits on them.
    [{ deletionTimestamp: deleting, finalizers: ['foregroundDeletion', 'orphan'] }, 'orphan'],
  ] as const)('%j → %s', (metadata, phase) => {
    expect(deletionPhase({ metadata })).toBe(phase);
  });
});

describe('decideOwnerAction', () => {
  const decide = (references: OwnerReference[], states: OwnerState[], hasDependents = false) => decideOwnerAction({ references, states, hasDependents });

  it('keeps an object without references', () => {
    expect(decide([], [])).toEqual({ type: 'keep', recheck: false });
  });

  it('keeps an object whose owners all exist', () => {
    expect(decide([ref('a'), ref('b')], ['present', 'present'])).toEqual({ type: 'keep', recheck: false });
  });

  it('deletes in the background when every owner is absent', () => {
    expect(decide([ref('a'), ref('b')], ['absent', 'absent'])).toEqual({ type: 'delete', propagationPolicy: 'Background' });
  });

  it('drops only the dangling references when one owner is alive', () => {
    expect(decide([ref('a'), ref('b'), ref('c')], ['absent', 'present', 'absent'])).toEqual({
      type: 'removeReferences',
      ownerUids: ['a', 'c'],
      recheck: false,
    });
  });

  it('drops the reference to a foreground-deleting owner when another owner keeps the object', () => {
    expect(decide([ref('a', { blockOwnerDeletion: true }), ref('b')], ['waiting', 'present'])).toEqual({
      type: 'removeReferences',
      ownerUids: ['a'],
      recheck: false,
    });
  });

  it('deletes in the foreground when it blocks a waiting owner', () => {
    expect(decide([ref('a', { blockOwnerDeletion: true })], ['waiting'])).toEqual({ type: 'delete', propagationPolicy: 'Foreground' });
  });

  it('deletes in the foreground when a waiting owner must also wait for its own dependents', () => {
    expect(decide([ref('a')], ['waiting'], true)).toEqual({ type: 'delete', propagationPolicy: 'Foreground' });
  });

  it('deletes in the background when its waiting owner need not wait for it', () => {
    expect(decide([ref('a', { blockOwnerDeletion: false })], ['waiting'])).toEqual({ type: 'delete', propagationPolicy: 'Background' });
  });

  it('never deletes because of an owner whose kind is unknown, and asks to look again', () => {
    expect(decide([ref('a', { kind: 'Widget' })], ['unresolvable'])).toEqual({ type: 'keep', recheck: true });
    expect(decide([ref('a', { kind: 'Widget' }), ref('b')], ['unresolvable', 'absent'])).toEqual({ type: 'removeReferences', ownerUids: ['b'], recheck: true });
  });
});

describe('reference helpers', () => {
  it('referencesWithout returns fresh copies of the references it keeps', () => {
    const references = [ref('a'), ref('b')];
    const kept = referencesWithout(references, ['a']);
    expect(kept).toEqual([ref('b')]);
    expect(kept[0]).not.toBe(references[1]);
  });

  it('isBlockingReference needs the owner uid and blockOwnerDeletion true', () => {
    expect(isBlockingReference(ref('a', { blockOwnerDeletion: true }), 'a')).toBe(true);
    expect(isBlockingReference(ref('a'), 'a')).toBe(false);
    expect(isBlockingReference(ref('a', { blockOwnerDeletion: true }), 'b')).toBe(false);
  });

  it('groupOfApiVersion reads the group, empty for the core group', () => {
    expect(groupOfApiVersion('apps/v1')).toBe('apps');
    expect(groupOfApiVersion('v1')).toBe('');
    expect(groupOfApiVersion('coordination.k8s.io/v1')).toBe('coordination.k8s.io');
  });
});
