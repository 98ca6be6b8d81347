/**
 * FailedPodBackoff spaces out the replacement of failed daemon pods per DaemonSet and node
 * (client-go's flowcontrol.Backoff as the DaemonSet controller uses it: 1 s doubling to 15 min,
 * forgotten after twice the maximum without a failure). Kept in memory, as in Kubernetes: a
 * restarted controller replaces the next failed pod at once. Time comes from the caller.
 */

/** FAILED_POD_BACKOFF_INITIAL_MS and FAILED_POD_BACKOFF_MAX_MS are kube's 1 s and 15 min. */
export const FAILED_POD_BACKOFF_INITIAL_MS = 1000;
export const FAILED_POD_BACKOFF_MAX_MS = 15 * 60 * 1000;

interface Entry {
  backoffMs: number;
  lastUpdateMs: number;
}

/** FailedPodBackoff knows, per key (`<ds-uid>/<node>`), whether a replacement must wait. */
export class FailedPodBackoff {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly initialMs = FAILED_POD_BACKOFF_INITIAL_MS,
    private readonly maxMs = FAILED_POD_BACKOFF_MAX_MS,
  ) {}

  /** isInBackoff is true while less than the current backoff has passed since the last failure. */
  isInBackoff(key: string, nowMs: number): boolean {
    const entry = this.entries.get(key);
    return entry !== undefined && nowMs - entry.lastUpdateMs < entry.backoffMs;
  }

  /** remainingMs is how long the key still has to wait (0 when it need not). */
  remainingMs(key: string, nowMs: number): number {
    const entry = this.entries.get(key);
    return entry === undefined ? 0 : Math.max(0, entry.lastUpdateMs + entry.backoffMs - nowMs);
  }

  /** next records a failure at `nowMs`: the first (or first in a long while) waits the
   * initial backoff, each further one twice the last, up to the maximum. */
  next(key: string, nowMs: number): void {
    const entry = this.entries.get(key);
    const expired = entry === undefined || nowMs - entry.lastUpdateMs > 2 * this.maxMs;
    const backoffMs = expired ? this.initialMs : Math.min(entry.backoffMs * 2, this.maxMs);
    this.entries.set(key, { backoffMs, lastUpdateMs: nowMs });
  }

  /** gc forgets keys idle for more than twice the maximum backoff. */
  gc(nowMs: number): void {
    for (const [key, entry] of this.entries) if (nowMs - entry.lastUpdateMs > 2 * this.maxMs) this.entries.delete(key);
  }
}
