/**
 * Rate limiters decide how long a failed key waits before its next try (client-go's
 * util/workqueue rate limiters, in our own words). They only compute delays; the work queue
 * does the waiting, through its clock.
 */
import type { Clock } from '../types.js';

/**
 * RateLimiter knows how long a key should wait before it is retried. `when` records a retry
 * (so it is not a pure query); `forget` clears a key's history once it has succeeded.
 */
export interface RateLimiter {
  /** Records one more retry of `key` and returns how long (ms, ≥ 0) it should wait. */
  when(key: string): number;
  /** Forgets `key`'s retry history; its next `when` starts from scratch. */
  forget(key: string): void;
  /** Retries recorded for `key` since its last `forget`. */
  numRequeues(key: string): number;
}

/** ExponentialRateLimiterOptions configures `createExponentialRateLimiter`. */
export interface ExponentialRateLimiterOptions {
  /** Delay of a key's first retry. Default 5 ms. */
  baseDelayMs?: number;
  /** Ceiling of any delay. Default 1 000 000 ms (1000 s). */
  maxDelayMs?: number;
}

/**
 * createExponentialRateLimiter returns a per-key RateLimiter: the n-th retry of a key since
 * its last forget waits `baseDelayMs × 2^(n−1)`, capped at `maxDelayMs` (5, 10, 20, … ms up
 * to 1000 s by default, as client-go's ItemExponentialFailureRateLimiter). Keys are
 * independent; memory grows with keys that failed and were never forgotten.
 */
export function createExponentialRateLimiter(options: ExponentialRateLimiterOptions = {}): RateLimiter {
  const baseDelayMs = options.baseDelayMs ?? 5;
  const maxDelayMs = options.maxDelayMs ?? 1_000_000;
  const failures = new Map<string, number>();
  return {
    when(key) {
      const exponent = failures.get(key) ?? 0;
      failures.set(key, exponent + 1);
      // NOTE: 2 ** exponent becomes Infinity for long failure runs; min() keeps it at the cap.
      return Math.min(baseDelayMs * 2 ** exponent, maxDelayMs);
    },
    forget: (key) => void failures.delete(key),
    numRequeues: (key) => failures.get(key) ?? 0,
  };
}

/** BucketRateLimiterOptions configures `createBucketRateLimiter`. */
export interface BucketRateLimiterOptions {
  /** Tokens added per second of cluster time. Default 10. */
  qps?: number;
  /** Bucket capacity: how many retries may pass at once. Default 100. */
  burst?: number;
  clock: Clock;
}

/**
 * createBucketRateLimiter returns an overall RateLimiter shared by all keys: a token bucket
 * that starts full (`burst` tokens) and refills at `qps`. Each `when` takes one token,
 * going into debt when the bucket is empty, and returns the time until that debt is repaid
 * — so the k-th retry beyond the burst waits k/qps seconds. It keeps no per-key state:
 * `forget` does nothing and `numRequeues` is always 0.
 */
export function createBucketRateLimiter(options: BucketRateLimiterOptions): RateLimiter {
  const qps = options.qps ?? 10;
  const burst = options.burst ?? 100;
  if (!(qps > 0) || !(burst >= 1)) throw new RangeError(`bucket rate limiter needs qps > 0 and burst ≥ 1, got ${qps}/${burst}`);
  const { clock } = options;
  let tokens = burst;
  let lastMs = clock.now();
  return {
    when() {
      const nowMs = clock.now();
      // Time never runs backwards for the bucket, even if a clock does.
      tokens = Math.min(burst, tokens + (Math.max(0, nowMs - lastMs) * qps) / 1000);
      lastMs = Math.max(lastMs, nowMs);
      tokens -= 1;
      return tokens >= 0 ? 0 : (-tokens * 1000) / qps;
    },
    forget: () => undefined,
    numRequeues: () => 0,
  };
}

/**
 * createMaxOfRateLimiter returns a RateLimiter that asks every limiter (each records the
 * retry) and waits the longest of their delays; `numRequeues` is the largest count and
 * `forget` forgets in all of them.
 */
export function createMaxOfRateLimiter(...limiters: RateLimiter[]): RateLimiter {
  return {
    when: (key) => limiters.reduce((longest, limiter) => Math.max(longest, limiter.when(key)), 0),
    forget: (key) => limiters.forEach((limiter) => limiter.forget(key)),
    numRequeues: (key) => limiters.reduce((most, limiter) => Math.max(most, limiter.numRequeues(key)), 0),
  };
}

/**
 * createDefaultControllerRateLimiter returns client-go's DefaultControllerRateLimiter: per-key
 * exponential backoff (5 ms doubling to 1000 s) within an overall bucket of 10 qps, burst 100.
 * Each call makes fresh state: give every queue its own.
 */
export function createDefaultControllerRateLimiter(clock: Clock): RateLimiter {
  return createMaxOfRateLimiter(createExponentialRateLimiter(), createBucketRateLimiter({ clock }));
}
