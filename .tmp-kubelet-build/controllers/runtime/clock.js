/** AbortError is what an aborted wait rejects with; `cause` is the signal's reason. */
export class AbortError extends Error {
    name = 'AbortError';
    constructor(reason) {
        super('The operation was aborted', reason === undefined ? undefined : { cause: reason });
    }
}
/**
 * isAbortError reports whether `err` is an abort (ours, a DOMException from fetch, or Node's
 * own): anything whose `name` is 'AbortError'. Callers use it to tell shutdown from failure.
 */
export function isAbortError(err) {
    return typeof err === 'object' && err !== null && err.name === 'AbortError';
}
/**
 * sleepOn is the sleep shared by every Clock: resolves when the clock's timer fires, or rejects with
 * an AbortError as soon as `signal` aborts (at once if it already has), cancelling the timer
 * so nothing is left behind either way.
 */
function sleepOn(clock, delayMs, signal) {
    if (signal?.aborted)
        return Promise.reject(new AbortError(signal.reason));
    return new Promise((resolve, reject) => {
        const onAbort = () => {
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
// ─── Real clock ──────────────────────────────────────────────────────────────────────
/** Node clamps longer delays to 1 ms (with a warning), so longer waits are chained. */
const MAX_NODE_TIMER_MS = 2 ** 31 - 1;
/**
 * createRealClock returns a Clock whose cluster time runs `speed` times faster than wall time:
 * `now() = originMs + (wallNow − originMs) × speed`, and `setTimeout`/`sleep` wait
 * `delayMs / speed` of wall time.
 *
 * NOTE: every process of one cluster must be given the same `originMs` and `speed`, or their
 * clocks disagree (`kubesim up` passes both to each component). With the default origin
 * (this call's moment) two processes agree only at speed 1.
 *
 * NOTE: timers are not unref'd: a pending requeue or resync is work the process still has to
 * do, so it keeps the event loop alive. Components stop by aborting their signal, which
 * cancels their timers.
 *
 * Throws RangeError when `speed` is not a positive finite number.
 */
export function createRealClock(options = {}) {
    const speed = options.speed ?? 1;
    if (!(speed > 0) || !Number.isFinite(speed))
        throw new RangeError(`clock speed must be a positive number, got ${speed}`);
    const originMs = options.originMs ?? Date.now();
    const clock = {
        speed,
        originMs,
        now: () => originMs + (Date.now() - originMs) * speed,
        setTimeout: (fn, delayMs) => setWallTimeout(fn, Math.max(0, delayMs) / speed),
        sleep: (delayMs, signal) => sleepOn(clock, delayMs, signal),
    };
    return clock;
}
/** setWallTimeout calls `fn` after `wallDelayMs` of wall time, chaining timers past Node's limit. */
function setWallTimeout(fn, wallDelayMs) {
    const dueMs = Date.now() + wallDelayMs;
    let handle;
    const arm = () => {
        const remainingMs = dueMs - Date.now();
        handle = remainingMs > MAX_NODE_TIMER_MS ? setTimeout(arm, MAX_NODE_TIMER_MS) : setTimeout(fn, Math.max(0, remainingMs));
    };
    arm();
    return { cancel: () => clearTimeout(handle) };
}
/**
 * FakeClock is a Clock for tests: time stands still until `advance` moves it, and timers fire
 * only inside `advance`, synchronously, in order of due time (then creation order). A timer
 * set with delay ≤ 0 is due now and fires at the next `advance(0)` or later.
 */
export class FakeClock {
    currentMs;
    nextSeq = 0;
    /** Pending timers, unordered; `advance` picks the earliest each step. */
    timers = new Set();
    constructor(startMs = 0) {
        this.currentMs = startMs;
    }
    now() {
        return this.currentMs;
    }
    setTimeout(fn, delayMs) {
        const timer = { dueMs: this.currentMs + Math.max(0, delayMs || 0), seq: this.nextSeq++, fn };
        this.timers.add(timer);
        return { cancel: () => this.timers.delete(timer) };
    }
    sleep(delayMs, signal) {
        return sleepOn(this, delayMs, signal);
    }
    /**
     * advance moves time forward by `ms`, stepping to each due timer in turn (so `now()` inside
     * a callback is its due time) and firing it; timers that callbacks set within the window
     * fire too. Promise continuations of fired sleeps run only after the caller awaits.
     */
    advance(ms) {
        if (!(ms >= 0))
            throw new RangeError(`FakeClock.advance needs a non-negative duration, got ${ms}`);
        const targetMs = this.currentMs + ms;
        for (let timer = this.earliest(targetMs); timer; timer = this.earliest(targetMs)) {
            this.timers.delete(timer);
            this.currentMs = Math.max(this.currentMs, timer.dueMs);
            timer.fn();
        }
        this.currentMs = targetMs;
    }
    /** pendingTimers is the number of timers set and neither fired nor cancelled. */
    get pendingTimers() {
        return this.timers.size;
    }
    earliest(limitMs) {
        let best;
        for (const timer of this.timers) {
            if (timer.dueMs > limitMs)
                continue;
            if (!best || timer.dueMs < best.dueMs || (timer.dueMs === best.dueMs && timer.seq < best.seq))
                best = timer;
        }
        return best;
    }
}
//# sourceMappingURL=clock.js.map