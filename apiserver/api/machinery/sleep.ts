/**
 * Aborts and the sleep every Clock shares. Kept apart from the clocks themselves so each
 * clock module (clock.ts, cluster-clock.ts) can use them without importing the other.
 */
import type { Clock } from './clock-types.js';

/** AbortError is what an aborted wait rejects with; `cause` is the signal's reason. */
export class AbortError extends Error {
  override readonly name = 'AbortError';

  constructor(reason?: unknown) {
    super('The operation was aborted', reason === undefined ? undefined : { cause: reason });
  }
}

/**
 * isAbortError reports whether `err` is an abort (ours, a DOMException from fetch, or Node's
 * own): anything whose `name` is 'AbortError'. Callers use it to tell shutdown from failure.
 */
export function isAbortError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'AbortError';
}

/**
 * sleepOn is the sleep shared by every Clock: resolves when the clock's timer fires, or rejects with
 * an AbortError as soon as `signal` aborts (at once if it already has), cancelling the timer
 * so nothing is left behind either way.
 */
export function sleepOn(clock: Pick<Clock, 'setTimeout'>, delayMs: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(new AbortError(signal.reason));
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      timer.cancel();
      reject(new AbortError(signal?.reason));
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, delayMs);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
