import { describe, expect, it } from 'vitest';
import { controllerRefOf, isControlledBy } from './owner-references.js';

const ref = (uid: string, controller?: boolean) => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  name: uid,
  uid,
  ...(controller === undefined ? {} : { controller }),
});

describe('controllerRefOf', () => {
  it('picks the reference marked controller=true, wherever it stands', () => {
    expect(controllerRefOf({ metadata: { ownerReferences: [ref('a'), ref('b', false), ref('c', true)] } })?.uid).toBe('c');
  });

  it('is undefined without a controller reference, references or metadata', () => {
    expect(controllerRefOf({ metadata: { ownerReferences: [ref('a'), ref('b', false)] } })).toBeUndefined();
    expect(controllerRefOf({ metadata: {} })).toBeUndefined();
    expect(controllerRefOf({})).toBeUndefined();
  });
});

describe('isControlledBy', () => {
  const owned = { metadata: { ownerReferences: [ref('a'), ref('c', true)] } };
  it('is true only for the controller uid', () => {
    expect(isControlledBy(owned, 'c')).toBe(true);
    expect(isControlledBy(owned, 'a')).toBe(false);
    expect(isControlledBy(owned, undefined)).toBe(false);
  });
});
