import { describe, expect, it } from 'vitest';
import { slowStartBatch, slowStartBatchSizes } from './slow-start.js';

describe('slowStartBatchSizes', () => {
  it.each([
    { count: 0, sizes: [] },
    { count: 1, sizes: [1] },
    { count: 2, sizes: [1, 1] },
    { count: 3, sizes: [1, 2] },
    { count: 5, sizes: [1, 2, 2] },
    { count: 7, sizes: [1, 2, 4] },
    { count: 10, sizes: [1, 2, 4, 3] },
    { count: 100, sizes: [1, 2, 4, 8, 16, 32, 37] },
  ])('$count calls → $sizes', ({ count, sizes }) => {
    expect(slowStartBatchSizes(count)).toEqual(sizes);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(count);
  });

  it('starts from a larger initial batch when asked', () => {
    expect(slowStartBatchSizes(10, 3)).toEqual([3, 6, 1]);
  });
});

describe('slowStartBatch', () => {
  it('makes every call when all succeed', async () => {
    let calls = 0;
    const result = await slowStartBatch({ count: 10 }, async () => {
      calls++;
    });
    expect(result).toEqual({ successes: 10 });
    expect(calls).toBe(10);
  });

  it('stops after the first batch with a failure and reports the first error', async () => {
    let calls = 0;
    const result = await slowStartBatch({ count: 100 }, async () => {
      calls++;
      // Calls 1..3 (batches [1], [2]) succeed; the 4th call, in the batch of 4, fails.
      if (calls === 4) throw new Error('quota exceeded');
    });
    expect(calls).toBe(7); // the whole failing batch of 4 ran, nothing after it
    expect(result.successes).toBe(6);
    expect(result.error).toEqual(new Error('quota exceeded'));
  });

  it('runs the calls of one batch concurrently', async () => {
    let running = 0;
    let peak = 0;
    await slowStartBatch({ count: 7 }, async () => {
      running++;
      peak = Math.max(peak, running);
      await Promise.resolve();
      running--;
    });
    expect(peak).toBe(4);
  });

  it('makes no further batch once the signal aborted', async () => {
    const controller = new AbortController();
    let calls = 0;
    const result = await slowStartBatch({ count: 10, signal: controller.signal }, async () => {
      calls++;
      controller.abort(new Error('stopping'));
    });
    expect(calls).toBe(1);
    expect(result.successes).toBe(1);
    expect(result.error).toEqual(new Error('stopping'));
  });
});
