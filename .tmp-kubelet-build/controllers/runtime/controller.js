/**
 * The controller: a work queue drained by N concurrent workers, each handing keys to a
 * Reconciler and turning its outcome into the queue's next step (controller-runtime's
 * reconcileHandler, in our own words).
 */
import { isConflict } from '../../apiserver/api/api-error.js';
import { randomBytes } from 'node:crypto';
import { isAbortError } from './clock.js';
import { isTerminalError, parseKey, requestKey, runWithReconcileLogger, terminalError } from './reconciler.js';
import { createWorkQueue } from './workqueue/queue.js';
/** ReconcileOutcome names how a reconcile ended; the controller counts each. */
export const ReconcileOutcome = {
    Success: 'success',
    Error: 'error',
    RequeueAfter: 'requeueAfter',
    Terminal: 'terminal',
};
/**
 * createController returns a Controller whose `start(signal)` runs `workers` concurrent loops
 * until `signal` aborts. Each loop takes a key (never one another loop holds), calls
 * `reconcile(request, signal)` with the reconcileLogger bound to
 * `{ controller, key, reconcileId }`, and then, by outcome:
 * - throws or rejects (also synchronously) → log, addRateLimited (back off and retry);
 * - throws terminalError(…) → log, forget (no retry until an event enqueues the key again);
 * - `{ requeueAfterMs > 0 }` → forget, addAfter(requeueAfterMs);
 * - anything else → forget;
 * and finally done(key). On abort it shuts the queue down (cancelling delayed adds), lets
 * in-flight reconciles finish, takes no new key, and resolves; it leaves no timers. `start`
 * also resolves if someone else shuts the queue down, and rejects if called twice.
 * Throws RangeError when `workers` is not an integer ≥ 1.
 */
export function createController(options) {
    const workers = options.workers ?? 1;
    if (!Number.isInteger(workers) || workers < 1) {
        throw new RangeError(`controller ${options.name}: workers must be an integer ≥ 1, got ${workers}`);
    }
    return new WorkerPoolController({ ...options, workers });
}
class WorkerPoolController {
    name;
    queue;
    options;
    logger;
    isStarted = false;
    counts = { success: 0, error: 0, requeueAfter: 0, terminal: 0 };
    activeCount = 0;
    last;
    constructor(options) {
        this.options = options;
        this.name = options.name;
        this.queue = options.queue ?? createWorkQueue({ clock: options.clock, name: options.name });
        this.logger = options.logger.child({ controller: options.name });
    }
    get stats() {
        return { reconciles: { ...this.counts }, active: this.activeCount, lastReconcile: this.last };
    }
    enqueue(request) {
        this.queue.add(requestKey(request));
    }
    async start(signal) {
        if (this.isStarted)
            throw new Error(`controller ${this.name} was started more than once`);
        this.isStarted = true;
        const stopQueue = () => this.queue.shutdown();
        signal.addEventListener('abort', stopQueue, { once: true });
        if (signal.aborted)
            stopQueue();
        this.logger.info({ workers: this.options.workers }, 'Starting workers');
        try {
            await Promise.all(Array.from({ length: this.options.workers }, () => this.runWorker(signal)));
        }
        finally {
            signal.removeEventListener('abort', stopQueue);
        }
        this.logger.info({}, 'All workers finished');
    }
    async runWorker(signal) {
        for (;;) {
            const key = await this.queue.get();
            if (key === undefined)
                return;
            // After an abort the queue still drains what was waiting; stopping means not taking it.
            if (signal.aborted) {
                this.queue.done(key);
                return;
            }
            await this.processKey(key, signal);
        }
    }
    async processKey(key, signal) {
        const reconcileId = randomBytes(4).toString('hex');
        const log = this.logger.child({ key, reconcileId });
        const startedMs = this.options.clock.now();
        this.activeCount++;
        try {
            const attempt = await runWithReconcileLogger(log, () => this.attempt(key, signal));
            const outcome = classify(attempt);
            this.act(outcome, { key, attempt, log, signal });
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
        }
        finally {
            this.activeCount--;
            this.queue.done(key);
        }
    }
    /** attempt runs one reconcile and captures how it ended; it never throws. */
    async attempt(key, signal) {
        let request;
        try {
            request = parseKey(key);
        }
        catch (err) {
            // Retrying cannot repair a malformed key (one not made by requestKey/keyOf).
            return { ok: false, error: terminalError(err) };
        }
        try {
            return { ok: true, result: await this.options.reconciler.reconcile(request, signal) };
        }
        catch (error) {
            return { ok: false, error };
        }
    }
    /** act is the four-way result switch: it tells the queue what happens to `key` next. */
    act(outcome, context) {
        const { key, attempt, log, signal } = context;
        const err = attempt.ok ? undefined : attempt.error;
        switch (outcome) {
            case ReconcileOutcome.Terminal:
                log.error({ err }, 'Reconciler error (terminal, not retried)');
                this.queue.forget(key);
                return;
            case ReconcileOutcome.Error:
                this.queue.addRateLimited(key);
                // An abort caused by our own shutdown is expected; the shut-down queue dropped the retry.
                if (signal.aborted && isAbortError(err))
                    log.debug({ err }, 'Reconcile interrupted by shutdown');
                // A 409 is optimistic concurrency working as designed (the cache was behind our own
                // write): worth a line, not an alarm with a stack trace.
                else if (isConflict(err))
                    log.info({ requeues: this.queue.numRequeues(key), reason: err.message }, 'Reconcile hit a conflict; retrying with fresh state');
                else
                    log.error({ err, requeues: this.queue.numRequeues(key) }, 'Reconciler error');
                return;
            case ReconcileOutcome.RequeueAfter: {
                const requeueAfterMs = attempt.ok ? (attempt.result?.requeueAfterMs ?? 0) : 0;
                log.debug({ requeueAfterMs }, 'Reconcile done, requeue scheduled');
                this.queue.forget(key);
                this.queue.addAfter(key, requeueAfterMs);
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
function classify(attempt) {
    if (!attempt.ok)
        return isTerminalError(attempt.error) ? ReconcileOutcome.Terminal : ReconcileOutcome.Error;
    // NOTE: JavaScript reconcilers may resolve undefined or a non-number; only a positive delay requeues.
    const requeueAfterMs = attempt.result?.requeueAfterMs;
    return typeof requeueAfterMs === 'number' && requeueAfterMs > 0 ? ReconcileOutcome.RequeueAfter : ReconcileOutcome.Success;
}
function errorMessage(err) {
    return err instanceof Error ? err.message : String(err);
}
function assertNever(value) {
    throw new Error(`unhandled reconcile outcome ${String(value)}`);
}
//# sourceMappingURL=controller.js.map