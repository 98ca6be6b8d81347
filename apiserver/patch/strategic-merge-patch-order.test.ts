import { describe, expect, it } from 'vitest';
import { keyIdentity, orderByReference, scalarIdentity } from './strategic-merge-patch-order.js';

const orderScalars = (merged: readonly unknown[], patchOrder: unknown[], serverOrder: readonly unknown[]) =>
  orderByReference(merged, { patchOrder, serverOrder, identify: scalarIdentity });

describe('orderByReference', () => {
  it('sorts patched items by the patch order and server-only items by the live order', () => {
    const live = ['a', 'b', 'c', 'd'];
    // c stood before d live, so it still precedes d; d and b follow the patch order.
    expect(orderScalars(live, ['d', 'b'], live)).toEqual(['a', 'c', 'd', 'b']);
    expect(orderScalars(live, ['d', 'a'], live)).toEqual(['b', 'c', 'd', 'a']);
  });

  it('puts an item the live list lacks as soon as it comes up in patch order', () => {
    expect(orderScalars(['a', 'b', 'new'], ['new'], ['a', 'b'])).toEqual(['new', 'a', 'b']);
    expect(orderScalars(['a', 'b', 'new'], ['b', 'new'], ['a', 'b'])).toEqual(['a', 'b', 'new']);
  });

  it('identifies keyed items by their merge key and keeps duplicates together', () => {
    const merged = [{ name: 1 }, { name: 2, v: 'x' }, { name: 2, v: 'y' }, { name: '1' }];
    const ordered = orderByReference(merged, {
      patchOrder: [{ name: 2 }, { name: 1 }],
      serverOrder: merged,
      identify: keyIdentity('name'),
    });
    expect(ordered).toEqual([{ name: 2, v: 'x' }, { name: 2, v: 'y' }, { name: 1 }, { name: '1' }]);
  });

  it('returns a new array and leaves its inputs alone', () => {
    const merged = Object.freeze(['b', 'a']);
    const result = orderScalars(merged, ['a', 'b'], merged);
    expect(result).toEqual(['a', 'b']);
    expect(result).not.toBe(merged);
  });
});
