/**
 * Slow-start batching (Kubernetes' slowStartBatch): issue many similar calls in batches of
 * 1, 2, 4, 8 … and stop at the first batch with a failure.
 *
 * Why: creating 500 pods that will all fail for the same reason (a quota, an invalid template,
 * a webhook) would otherwise send 500 doomed requests and record 500 identical events. A
 * failing first call stops the whole attempt after one request; a healthy one reaches full
 * speed after a few round trips.
 */

/** SLOW_START_INITIAL_BATCH_SIZE is Kubernetes' SlowStartInitialBatchSize. */
export const SLOW_START_INITIAL_BATCH_SIZE = 1;

/** SlowStartOptions configures slowStartBatch. */
export interface SlowStartOptions {
  /** How many calls to make in all. */
  count: number;
  /** Size of the first batch; each fully successful batch doubles it. Default 1. */
  initialBatchSize?: number;
  /** Stops before the next batch once aborted (calls already started run to completion). */
  signal?: AbortSignal;
}

/** SlowStartResult says how far slowStartBatch got. */
export interface SlowStartResult {
  /** Calls that succeeded. count − successes calls either failed or were never made. */
  successes: number;
  /** The first failure (or the abort reason), when not every call succeeded. */
  error?: unknown;
}

/**
 * slowStartBatchSizes returns the batch sizes slowStartBatch uses for `count` calls: starting
 * at `initialBatchSize`, doubling, the last one cut to what remains, e.g. 10 → [1, 2, 4, 3].
 * Pure.
 */
export function slowStartBatchSizes(count: number, initialBatchSize = SLOW_START_INITIAL_BATCH_SIZE): number[] {
  const sizes: number[] = [];
  let remaining = count;
  for (let size = Math.min(remaining, initialBatchSize); size > 0; size = Math.min(2 * size, remaining)) {
    sizes.push(size);
    remaining -= size;
  }
  return sizes;
}

/**
 * slowStartBatch calls `fn` `count` times, the calls of one batch concurrently, batch after
 * batch (see slowStartBatchSizes). After a batch with any failure it makes no further calls
 * and reports the first failure. Never rejects: errors are returned in the result.
 */
export async function slowStartBatch(options: SlowStartOptions, fn: () => Promise<void>): Promise<SlowStartResult> {
  let successes = 0;
  for (const size of slowStartBatchSizes(options.count, options.initialBatchSize)) {
    if (options.signal?.aborted) return { successes, error: options.signal.reason };
    const outcomes = await Promise.allSettled(Array.from({ length: size }, () => fn()));
    const failures = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    successes += size - failures.length;
    if (failures.length > 0) return { successes, error: failures[0]?.reason };
  }
  return { successes };
}
