/**
 * The controller: a work queue drained by N concurrent workers, each handing keys to a
 * Reconciler and turning its outcome into the queue's next step (controller-runtime's
 * reconcileHandler, in our own words).
 */
import { isConflict } from '../../apiserver/api/api-error.js';
import { type ActivitySource, type LastReconcile, type LoopActivity, ReconcileOutcome } from '../../apiserver/api/machinery/activity.js';

import { type Cause, type CauseTrigger, requeueTrigger, runWithCause, withTrigger } from '../../apiserver/api/machinery/cause.js';
import { isAbortError } from '../../apiserver/api/machinery/clock.js';
import { createRandom, type Random } from '../../apiserver/api/machinery/random.js';
import { isTerminalError, parseKey, requestKey, runWithReconcileLogger, terminalError } from './reconciler.js';
import type { Clock, Logger, Reconciler, Request, Result, Runnable, WorkQueue } from './types.js';
import { createWorkQueue, type MeteredWorkQueue } from './workqueue/queue.js';

export { type LastReconcile, ReconcileOutcome } from '../../apiserver/api/machinery/activity.js';

/** ControllerStats is a snapshot of a controller's counters. */
export interface ControllerStats {
  readonly reconciles: Readonly<Record<ReconcileOutcome, number>>;
  /** Reconciles running right now (≤ workers). */
  readonly active: number;
  readonly lastReconcile: LastReconcile | undefined;
}

/** ControllerOptions configures `createController`. */
export interface ControllerOptions {
  /** Names the controller in every log line and counter. */
  name: string;
  reconciler: Reconciler;
  /** Default: createWorkQueue({ clock, name }) with the default controller rate limiter. */
  queue?: WorkQueue;
  /** Concurrent worker loops (integer ≥ 1). Default 1. */
  workers?: number;
  clock: Clock;
  logger: Logger;
  /** Source of reconcile ids; the platform's when absent. */
  random?: Random;
}

/**
 * Controller knows how to run a Reconciler over the keys in its queue. Event handlers feed it
 * through `enqueue` (or `queue.add(keyOf(obj))`); `start` runs the workers.
 */
export interface Controller extends Runnable, ActivitySource {
  readonly name: string;
  readonly queue: WorkQueue;
  /** Adds the request's key to the queue (deduplicated while it waits). */
  enqueue(request: Request): void;
  /** A fresh snapshot on every read. */
  readonly stats: ControllerStats;
}

/**
 * createController returns a Controller whose `start(signal)` runs `workers` concurrent loops
 * until `signal` aborts. Each loop takes a key (never one another loop holds), calls
 * `reconcile(request, signal)` with the reconcileLogger bound to
 * `{ controller, key, reconcileId }` and the same, plus what queued the key, as the current
 * cause (cause.ts: every write it makes says why), and then, by outcome:
 * - throws or rejects (also synchronously) → log, addRateLimited (back off and retry);
 * - throws terminalError(…) → log, forget (no retry until an event enqueues the key again);
 * - `{ requeueAfterMs > 0 }` → forget, addAfter(requeueAfterMs);
 * - anything else → forget;
 * and finally done(key). On abort it shuts the queue down (cancelling delayed adds), lets
 * in-flight reconciles finish, takes no new key, and resolves; it leaves no timers. `start`
 * also resolves if someone else shuts the queue down, and rejects if called twice.
 * Throws RangeError when `workers` is not an integer ≥ 1.
 */
export function createController(options: ControllerOptions): Controller {
  const workers = options.workers ?? 1;
  if (!Number.isInteger(workers) || workers < 1) {
    throw new RangeError(`controller ${options.name}: workers must be an integer ≥ 1, got ${workers}`);
  }
  return new WorkerPoolController({ ...options, workers });
}

type Attempt = { ok: true; result: Result | undefined } | { ok: false; error: unknown };

class WorkerPoolController implements Controller {
  readonly name: string;
  readonly queue: WorkQueue;
  private readonly options: ControllerOptions & { workers: number };
  private readonly logger: Logger;
  private readonly random: Random;
  private isStarted = false;
  private readonly counts: Record<ReconcileOutcome, number> = { success: 0, error: 0, requeueAfter: 0, terminal: 0 };
  private activeCount = 0;
  private last: LastReconcile | undefined;

  constructor(options: ControllerOptions & { workers: number }) {
    this.options = options;
    this.name = options.name;
    this.queue = options.queue ?? createWorkQueue({ clock: options.clock, name: options.name });
    this.logger = options.logger.child({ controller: options.name });
    this.random = options.random ?? createRandom();
  }

  get stats(): ControllerStats {
    return { reconciles: { ...this.counts }, active: this.activeCount, lastReconcile: this.last };
  }

  enqueue(request: Request): void {
    this.queue.add(requestKey(request));
  }

  activity(): LoopActivity {
    const metrics = (this.queue as Partial<MeteredWorkQueue>).metrics;
    return {
      name: this.name,
      queued: this.queue.length,
      active: this.activeCount,
      delayed: metrics?.delayed ?? 0,
      reconciles: { ...this.counts },
      lastReconcile: this.last,
    };
  }

  async start(signal: AbortSignal): Promise<void> {
    if (this.isStarted) throw new Error(`controller ${this.name} was started more than once`);
    this.isStarted = true;
    const stopQueue = (): void => this.queue.shutdown();
    signal.addEventListener('abort', stopQueue, { once: true });
    if (signal.aborted) stopQueue();
    this.logger.info({ workers: this.options.workers }, 'Starting workers');
    try {
      await Promise.all(Array.from({ length: this.options.workers }, () => this.runWorker(signal)));
    } finally {
      signal.removeEventListener('abort', stopQueue);
    }
    this.logger.info({}, 'All workers finished');
  }

  private async runWorker(signal: AbortSignal): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      // After an abort the queue still drains what was waiting; stopping means not taking it.
      if (signal.aborted) {
        this.queue.done(key);
        return;
      }
      await this.processKey(key, signal);
    }
  }

  private async processKey(key: string, signal: AbortSignal): Promise<void> {
    const reconcileId = this.random.hex(4);
    const log = this.logger.child({ key, reconcileId });
    const startedMs = this.options.clock.now();
    this.activeCount++;
    try {
      // The cause rides along with every write the reconcile makes (X-Kubesim-Cause).
      const cause: Cause = { controller: this.name, key, reconcileId, trigger: this.queue.triggerOf?.(key) ?? { kind: 'resync' } };
      const attempt = await runWithCause(cause, () => runWithReconcileLogger(log, () => this.attempt(key, signal)));
      const outcome = classify(attempt);
      this.act(outcome, { key, attempt, log, signal, trigger: cause.trigger });
      const finishedAtMs = this.options.clock.now();
      this.counts[outcome]++;
      this.last = {
        key,
        reconcileId,
        result: outcome,
        durationMs: finishedAtMs - startedMs,
        finishedAtMs,
        ...(attempt.ok ? {} : { error: errorMessage(attempt.error) }),
      };
    } finally {
      this.activeCount--;
      this.queue.done(key);
    }
  }

  /** attempt runs one reconcile and captures how it ended; it never throws. */
  private async attempt(key: string, signal: AbortSignal): Promise<Attempt> {
    let request: Request;
    try {
      request = parseKey(key);
    } catch (err) {
      // Retrying cannot repair a malformed key (one not made by requestKey/keyOf).
      return { ok: false, error: terminalError(err) };
    }
    try {
      return { ok: true, result: await this.options.reconciler.reconcile(request, signal) };
    } catch (error) {
      return { ok: false, error };
    }
  }

  /** act is the four-way result switch: it tells the queue what happens to `key` next. */
  private act(outcome: ReconcileOutcome, context: { key: string; attempt: Attempt; log: Logger; signal: AbortSignal; trigger: CauseTrigger }): void {
    const { key, attempt, log, signal, trigger } = context;
    const err = attempt.ok ? undefined : attempt.error;
    switch (outcome) {
      case ReconcileOutcome.Terminal:
        log.error({ err }, 'Reconciler error (terminal, not retried)');
        this.queue.forget(key);
        return;
      case ReconcileOutcome.Error:
        withTrigger(requeueTrigger('error', trigger), () => this.queue.addRateLimited(key));
        // An abort caused by our own shutdown is expected; the shut-down queue dropped the retry.
        if (signal.aborted && isAbortError(err)) log.debug({ err }, 'Reconcile interrupted by shutdown');
        // A 409 is optimistic concurrency working as designed (the cache was behind our own
        // write): worth a line, not an alarm with a stack trace.
        else if (isConflict(err))
          log.info({ requeues: this.queue.numRequeues(key), reason: err.message }, 'Reconcile hit a conflict; retrying with fresh state');
        else log.error({ err, requeues: this.queue.numRequeues(key) }, 'Reconciler error');
        return;
      case ReconcileOutcome.RequeueAfter: {
        const requeueAfterMs = attempt.ok ? (attempt.result?.requeueAfterMs ?? 0) : 0;
        log.debug({ requeueAfterMs }, 'Reconcile done, requeue scheduled');
        this.queue.forget(key);
        withTrigger(requeueTrigger('after', trigger), () => this.queue.addAfter(key, requeueAfterMs));
        return;
      }
      case ReconcileOutcome.Success:
        log.debug({}, 'Reconcile succeeded');
        this.queue.forget(key);
        return;
      default:
        assertNever(outcome);
    }
  }
}

/** classify maps a reconcile's ending to its outcome (pure). */
function classify(attempt: Attempt): ReconcileOutcome {
  if (!attempt.ok) return isTerminalError(attempt.error) ? ReconcileOutcome.Terminal : ReconcileOutcome.Error;
  // NOTE: JavaScript reconcilers may resolve undefined or a non-number; only a positive delay requeues.
  const requeueAfterMs = attempt.result?.requeueAfterMs;
  return typeof requeueAfterMs === 'number' && requeueAfterMs > 0 ? ReconcileOutcome.RequeueAfter : ReconcileOutcome.Success;
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function assertNever(value: never): never {
  throw new Error(`unhandled reconcile outcome ${String(value)}`);
}
