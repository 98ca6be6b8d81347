/**
 * A minimal work queue in the style of client-go's: informer handlers add keys, one worker
 * takes them. A key is queued at most once however often it is added, and never handed out
 * while it is being processed (added meanwhile, it comes back once `done`). Delays (requeues,
 * error backoff) run on the operator's clock, so a test's virtual clock controls them.
 *
 *   add ─► dirty+queue ─► next() ─► processing ─► done() ─► (dirty again? back to queue)
 *   addAfter ─► delayed (a clock timer) ─► add
 */

/** OperatorClock is the time the operator reads and waits on. Wall time by default; a kubesim
 * test passes the cluster clock (`cluster.clock` has this shape). */
export interface OperatorClock {
  now(): number;
  setTimeout(fn: () => void, delayMs: number): { cancel(): void };
}

/** wallClock is Node's own time. */
export const wallClock: OperatorClock = {
  now: () => Date.now(),
  setTimeout(fn, delayMs) {
    const timer = setTimeout(fn, delayMs);
    return { cancel: () => clearTimeout(timer) };
  },
};

/** QueueActivity is what the queue holds right now (the shape kubesim's settle reads). */
export interface QueueActivity {
  name: string;
  queued: number;
  active: number;
  delayed: number;
}

const BASE_BACKOFF_MS = 10;
const MAX_BACKOFF_MS = 30_000;

export class WorkQueue {
  private readonly queue: string[] = [];
  /** Keys waiting to be processed (in `queue`, or to re-enter it when their processing ends). */
  private readonly dirty = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly delayed = new Map<string, { dueMs: number; cancel(): void }>();
  private readonly failures = new Map<string, number>();
  private wake: (() => void) | undefined;
  private stopped = false;

  constructor(
    private readonly name: string,
    private readonly clock: OperatorClock,
  ) {}

  /** add queues `key` unless it is already waiting. */
  add(key: string): void {
    if (this.stopped || this.dirty.has(key)) return;
    this.dirty.add(key);
    if (this.processing.has(key)) return;
    this.queue.push(key);
    this.wake?.();
  }

  /** addAfter adds `key` after `delayMs` of clock time; an earlier pending add wins. */
  addAfter(key: string, delayMs: number): void {
    if (this.stopped) return;
    const dueMs = this.clock.now() + delayMs;
    const pending = this.delayed.get(key);
    if (pending && pending.dueMs <= dueMs) return;
    pending?.cancel();
    const timer = this.clock.setTimeout(() => {
      this.delayed.delete(key);
      this.add(key);
    }, delayMs);
    this.delayed.set(key, { dueMs, cancel: () => timer.cancel() });
  }

  /** retry adds `key` again after an exponential backoff (10 ms, 20 ms, … 30 s). */
  retry(key: string): void {
    const failures = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, failures);
    this.addAfter(key, Math.min(BASE_BACKOFF_MS * 2 ** (failures - 1), MAX_BACKOFF_MS));
  }

  /** forget resets `key`'s backoff (it succeeded). */
  forget(key: string): void {
    this.failures.delete(key);
  }

  /** next resolves with the next key to process, or undefined once the queue is stopped. */
  async next(): Promise<string | undefined> {
    while (!this.stopped) {
      const key = this.queue.shift();
      if (key !== undefined) {
        this.dirty.delete(key);
        this.processing.add(key);
        return key;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
    return undefined;
  }

  /** done ends the processing of `key`; if it was added meanwhile, it is queued again. */
  done(key: string): void {
    this.processing.delete(key);
    if (this.dirty.has(key) && !this.stopped) {
      this.queue.push(key);
      this.wake?.();
    }
  }

  /** stop drops every waiting key and timer and ends next(). */
  stop(): void {
    this.stopped = true;
    for (const pending of this.delayed.values()) pending.cancel();
    this.delayed.clear();
    this.queue.length = 0;
    this.dirty.clear();
    this.wake?.();
  }

  activity(): QueueActivity {
    return { name: this.name, queued: this.queue.length, active: this.processing.size, delayed: this.delayed.size };
  }
}
