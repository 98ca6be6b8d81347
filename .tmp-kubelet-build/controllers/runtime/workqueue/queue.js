import { createDefaultControllerRateLimiter } from './rate-limiter.js';
/**
 * createWorkQueue returns a WorkQueue with exactly the guarantees of the contract in types.ts:
 * - add dedups while a key waits (one entry per key, first-in first-out);
 * - get hands a key to one worker at a time; a key added meanwhile waits until done(key);
 * - addAfter waits on the clock, and a second addAfter of a waiting key keeps the earlier time;
 *   a delay ≤ 0 adds at once;
 * - addRateLimited is addAfter(key, rateLimiter.when(key)); forget/numRequeues ask the limiter;
 * - shutdown drops later adds and cancels every delayed add (no timer survives it); get keeps
 *   returning the keys still waiting, then undefined, and waiting get()s resolve undefined.
 * done() of a key that is not being processed is ignored. Never throws.
 */
export function createWorkQueue(options) {
    return new DeduplicatingQueue(options);
}
class DeduplicatingQueue {
    name;
    metrics;
    clock;
    rateLimiter;
    // Invariants, true between any two calls:
    //  - `ready` ⊆ `dirty` and `ready` ∩ `processing` = ∅: a key waits at most once, and never
    //    while a worker holds it.
    //  - `dirty` \ `processing` = `ready`: every key that needs work and is not held is waiting.
    //  - `dirty` ∩ `processing`: keys re-added while held; done() moves them to `ready`.
    //  - `waiters` non-empty ⇒ `ready` empty (add hands a key straight to a waiting get).
    //  - each `delayed` entry owns exactly one live timer; a delayed key may also be dirty (the
    //    add when its timer fires then dedups).
    //  - shut down ⇒ `delayed` and `waiters` empty and nothing new enters `dirty`.
    dirty = new Set();
    /** FIFO of waiting keys: a Set iterates in insertion order. */
    ready = new Set();
    processing = new Set();
    delayed = new Map();
    waiters = [];
    isShutDown = false;
    addCount = 0;
    retryCount = 0;
    constructor(options) {
        this.clock = options.clock;
        this.rateLimiter = options.rateLimiter ?? createDefaultControllerRateLimiter(options.clock);
        this.name = options.name ?? '';
        this.metrics = this.createMetrics();
    }
    get length() {
        return this.ready.size;
    }
    get shuttingDown() {
        return this.isShutDown;
    }
    add(key) {
        if (this.isShutDown || this.dirty.has(key))
            return;
        this.addCount++;
        this.dirty.add(key);
        // A held key runs again after done(); queuing it now would let a second worker take it.
        if (this.processing.has(key))
            return;
        this.makeReady(key);
    }
    addAfter(key, delayMs) {
        if (this.isShutDown)
            return;
        if (!(delayMs > 0)) {
            this.add(key);
            return;
        }
        const readyAtMs = this.clock.now() + delayMs;
        const existing = this.delayed.get(key);
        if (existing && existing.readyAtMs <= readyAtMs)
            return;
        existing?.timer.cancel();
        const timer = this.clock.setTimeout(() => {
            this.delayed.delete(key);
            this.add(key);
        }, delayMs);
        this.delayed.set(key, { readyAtMs, timer });
    }
    addRateLimited(key) {
        if (this.isShutDown)
            return;
        this.retryCount++;
        this.addAfter(key, this.rateLimiter.when(key));
    }
    forget(key) {
        this.rateLimiter.forget(key);
    }
    numRequeues(key) {
        return this.rateLimiter.numRequeues(key);
    }
    get() {
        const key = this.takeReady();
        if (key !== undefined || this.isShutDown)
            return Promise.resolve(key);
        return new Promise((resolve) => this.waiters.push(resolve));
    }
    done(key) {
        if (!this.processing.delete(key))
            return;
        if (this.dirty.has(key))
            this.makeReady(key);
    }
    shutdown() {
        if (this.isShutDown)
            return;
        this.isShutDown = true;
        for (const { timer } of this.delayed.values())
            timer.cancel();
        this.delayed.clear();
        // Waiters exist only while nothing is ready, so they have nothing left to drain.
        for (const wake of this.waiters.splice(0))
            wake(undefined);
    }
    /** makeReady queues a dirty, unheld key, or hands it straight to the longest-waiting get. */
    makeReady(key) {
        const waiter = this.waiters.shift();
        if (waiter === undefined) {
            this.ready.add(key);
            return;
        }
        this.hold(key);
        waiter(key);
    }
    takeReady() {
        const next = this.ready.values().next();
        if (next.done)
            return undefined;
        this.ready.delete(next.value);
        this.hold(next.value);
        return next.value;
    }
    /** hold marks `key` as given to a worker: it stops being dirty until added again. */
    hold(key) {
        this.dirty.delete(key);
        this.processing.add(key);
    }
    createMetrics() {
        // Getters over the live state: the view never goes stale and costs nothing until read.
        const queue = this;
        return {
            get adds() {
                return queue.addCount;
            },
            get retries() {
                return queue.retryCount;
            },
            get depth() {
                return queue.ready.size;
            },
            get delayed() {
                return queue.delayed.size;
            },
            get processing() {
                return queue.processing.size;
            },
        };
    }
}
//# sourceMappingURL=queue.js.map