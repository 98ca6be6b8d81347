import { describe, expect, it } from 'vitest';
import { deepEqual } from './deep-equal.js';

describe('deepEqual', () => {
  it('ignores key order and keys whose value is undefined', () => {
    expect(deepEqual({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe(true);
    expect(deepEqual({ a: 1, gone: undefined }, { a: 1 })).toBe(true);
    expect(deepEqual({ a: 1 }, { a: 1, gone: undefined })).toBe(true);
  });

  it('tells apart what JSON tells apart', () => {
    expect(deepEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(deepEqual({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(deepEqual({ a: 1, b: undefined }, { a: 1, c: 2 })).toBe(false);
    expect(deepEqual({ a: [] }, { a: {} })).toBe(false);
    expect(deepEqual({ a: [] }, {})).toBe(false);
    expect(deepEqual([1, 2], [2, 1])).toBe(false);
    expect(deepEqual([1], [1, 1])).toBe(false);
    expect(deepEqual({ a: null }, { a: {} })).toBe(false);
    expect(deepEqual({ a: { b: { c: 'x' } } }, { a: { b: { c: 'y' } } })).toBe(false);
    expect(deepEqual('1', 1)).toBe(false);
  });
});
