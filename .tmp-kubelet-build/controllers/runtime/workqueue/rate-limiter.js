/**
 * createExponentialRateLimiter returns a per-key RateLimiter: the n-th retry of a key since
 * its last forget waits `baseDelayMs × 2^(n−1)`, capped at `maxDelayMs` (5, 10, 20, … ms up
 * to 1000 s by default, as client-go's ItemExponentialFailureRateLimiter). Keys are
 * independent; memory grows with keys that failed and were never forgotten.
 */
export function createExponentialRateLimiter(options = {}) {
    const baseDelayMs = options.baseDelayMs ?? 5;
    const maxDelayMs = options.maxDelayMs ?? 1_000_000;
    const failures = new Map();
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
/**
 * createBucketRateLimiter returns an overall RateLimiter shared by all keys: a token bucket
 * that starts full (`burst` tokens) and refills at `qps`. Each `when` takes one token,
 * going into debt when the bucket is empty, and returns the time until that debt is repaid
 * — so the k-th retry beyond the burst waits k/qps seconds. It keeps no per-key state:
 * `forget` does nothing and `numRequeues` is always 0.
 */
export function createBucketRateLimiter(options) {
    const qps = options.qps ?? 10;
    const burst = options.burst ?? 100;
    if (!(qps > 0) || !(burst >= 1))
        throw new RangeError(`bucket rate limiter needs qps > 0 and burst ≥ 1, got ${qps}/${burst}`);
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
export function createMaxOfRateLimiter(...limiters) {
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
export function createDefaultControllerRateLimiter(clock) {
    return createMaxOfRateLimiter(createExponentialRateLimiter(), createBucketRateLimiter({ clock }));
}
//# sourceMappingURL=rate-limiter.js.map