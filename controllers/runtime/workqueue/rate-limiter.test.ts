import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../../apiserver/api/machinery/clock.js';
import {
  createBucketRateLimiter,
  createDefaultControllerRateLimiter,
  createExponentialRateLimiter,
  createMaxOfRateLimiter,
  type RateLimiter,
} from './rate-limiter.js';

function delays(limiter: RateLimiter, key: string, times: number): number[] {
  return Array.from({ length: times }, () => limiter.when(key));
}

describe('createExponentialRateLimiter', () => {
  it('doubles from 5 ms per key', () => {
    const limiter = createExponentialRateLimiter();
    expect(delays(limiter, 'a', 6)).toEqual([5, 10, 20, 40, 80, 160]);
    expect(limiter.numRequeues('a')).toBe(6);
  });

  it('caps at 1000 s, even after very long failure runs', () => {
    const limiter = createExponentialRateLimiter();
    const all = delays(limiter, 'a', 1_100);
    expect(all[17]).toBe(655_360);
    expect(all[18]).toBe(1_000_000);
    expect(all.at(-1)).toBe(1_000_000);
  });

  it('honours custom base and cap', () => {
    const limiter = createExponentialRateLimiter({ baseDelayMs: 100, maxDelayMs: 500 });
    expect(delays(limiter, 'a', 4)).toEqual([100, 200, 400, 500]);
  });

  it('forget resets one key and leaves the others', () => {
    const limiter = createExponentialRateLimiter();
    delays(limiter, 'a', 3);
    delays(limiter, 'b', 2);
    limiter.forget('a');
    expect(limiter.numRequeues('a')).toBe(0);
    expect(limiter.when('a')).toBe(5);
    expect(limiter.numRequeues('b')).toBe(2);
    expect(limiter.when('b')).toBe(20);
  });
});

describe('createBucketRateLimiter', () => {
  it('lets a burst through, then spaces retries at 1/qps', () => {
    const clock = new FakeClock(0);
    const limiter = createBucketRateLimiter({ qps: 10, burst: 3, clock });
    expect([limiter.when('a'), limiter.when('b'), limiter.when('c')]).toEqual([0, 0, 0]);
    expect([limiter.when('d'), limiter.when('e'), limiter.when('f')]).toEqual([100, 200, 300]);
  });

  it('refills over time, never beyond the burst', () => {
    const clock = new FakeClock(0);
    const limiter = createBucketRateLimiter({ qps: 10, burst: 3, clock });
    delays(limiter, 'a', 4);
    clock.advance(50);
    expect(limiter.when('a')).toBe(150);
    clock.advance(10_000);
    expect(delays(limiter, 'a', 4)).toEqual([0, 0, 0, 100]);
  });

  it('defaults to 10 qps with a burst of 100 and keeps no per-key state', () => {
    const clock = new FakeClock(0);
    const limiter = createBucketRateLimiter({ clock });
    expect(delays(limiter, 'a', 100).every((d) => d === 0)).toBe(true);
    expect(limiter.when('a')).toBe(100);
    limiter.forget('a');
    expect(limiter.numRequeues('a')).toBe(0);
    expect(limiter.when('a')).toBe(200);
  });

  it('rejects nonsensical settings', () => {
    const clock = new FakeClock(0);
    expect(() => createBucketRateLimiter({ qps: 0, clock })).toThrow(RangeError);
    expect(() => createBucketRateLimiter({ burst: 0, clock })).toThrow(RangeError);
  });
});

describe('createMaxOfRateLimiter', () => {
  it('waits the longest delay, counts the most requeues, forgets everywhere', () => {
    const slow = createExponentialRateLimiter({ baseDelayMs: 100 });
    const fast = createExponentialRateLimiter({ baseDelayMs: 1 });
    const limiter = createMaxOfRateLimiter(fast, slow);
    expect(delays(limiter, 'a', 3)).toEqual([100, 200, 400]);
    expect(limiter.numRequeues('a')).toBe(3);
    expect(fast.numRequeues('a')).toBe(3);
    limiter.forget('a');
    expect(slow.numRequeues('a')).toBe(0);
    expect(fast.numRequeues('a')).toBe(0);
  });

  it('with no limiters never waits', () => {
    expect(createMaxOfRateLimiter().when('a')).toBe(0);
  });
});

describe('createDefaultControllerRateLimiter', () => {
  it('backs off per key until the overall bucket is the tighter limit', () => {
    const clock = new FakeClock(0);
    const limiter = createDefaultControllerRateLimiter(clock);
    expect(delays(limiter, 'a', 3)).toEqual([5, 10, 20]);
    for (let i = 0; i < 97; i++) limiter.when(`key-${i}`);
    // 100 tokens spent: a fresh key now waits on the bucket, not on its 5 ms backoff.
    expect(limiter.when('fresh')).toBe(100);
    expect(limiter.numRequeues('a')).toBe(3);
  });
});
