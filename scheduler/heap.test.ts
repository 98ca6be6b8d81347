import { describe, expect, it } from 'vitest';
import { Heap } from './heap.js';

describe('Heap', () => {
  it('pops in comparator order', () => {
    const heap = new Heap<number>((a, b) => a < b);
    for (const n of [5, 1, 4, 1, 3, 9, 2, 6]) heap.push(n);
    const out: number[] = [];
    for (let n = heap.pop(); n !== undefined; n = heap.pop()) out.push(n);
    expect(out).toEqual([1, 1, 2, 3, 4, 5, 6, 9]);
    expect(heap.size).toBe(0);
  });
});
