/**
 * Clocks: the only place in the shared code that touches wall time (with cluster-clock.ts,
 * which the real clock is built on). Logic reads time and waits only through a `Clock`, so a
 * cluster-wide speed factor (`createRealClock`, `createClusterClock`) and deterministic tests
 * (`FakeClock`) apply everywhere.
 */

import type { Clock, TimerHandle } from './clock-types.js';
import { createClusterClock } from './cluster-clock.js';
import { sleepOn } from './sleep.js';
import { TimerQueue } from './timer-queue.js';

export { AbortError, isAbortError, sleepOn } from './sleep.js';

// ─── Real clock ──────────────────────────────────────────────────────────────────────

/** RealClockOptions configures `createRealClock`. */
export interface RealClockOptions {
  /** Cluster time runs this many times faster than wall time (> 0). Default 1. */
  speed?: number;
  /** Wall time (ms since the epoch) at which cluster time equals wall time. Default: creation. */
  originMs?: number;
}

/** RealClock is a Clock over wall time; it exposes its parameters so they can be handed on. */
export interface RealClock extends Clock {
  readonly speed: number;
  readonly originMs: number;
}

/**
 * createRealClock returns a Clock whose cluster time runs `speed` times faster than wall time:
 * `now() = originMs + (wallNow − originMs) × speed`, and `setTimeout`/`sleep` wait
 * `delayMs / speed` of wall time. It is a running cluster clock (cluster-clock.ts) whose
 * pace cannot be changed; use createClusterClock for one that can be paused or advanced.
 *
 * NOTE: every process of one cluster must be given the same `originMs` and `speed`, or their
 * clocks disagree. With the default origin (this call's moment) two processes agree only at
 * speed 1. (`kubesim up` has its components follow the API server's clock instead.)
 *
 * NOTE: timers are not unref'd: a pending requeue or resync is work the process still has to
 * do, so it keeps the event loop alive. Components stop by aborting their signal, which
 * cancels their timers.
 *
 * Throws RangeError when `speed` is not a positive finite number.
 */
export function createRealClock(options: RealClockOptions = {}): RealClock {
  const speed = options.speed ?? 1;
  const originMs = options.originMs ?? Date.now();
  // At wall time originMs, cluster time is originMs too.
  const clock = createClusterClock({ speed, startMs: originMs, atWallMs: originMs });
  return {
    speed,
    originMs,
    now: () => clock.now(),
    setTimeout: (fn, delayMs) => clock.setTimeout(fn, delayMs),
    sleep: (delayMs, signal) => clock.sleep(delayMs, signal),
  };
}

// ─── Fake clock ──────────────────────────────────────────────────────────────────────

/**
 * FakeClock is a Clock for tests: time stands still until `advance` moves it, and timers fire
 * only inside `advance`, synchronously, in order of due time (then creation order). A timer
 * set with delay ≤ 0 is due now and fires at the next `advance(0)` or later.
 */
export class FakeClock implements Clock {
  private currentMs: number;
  private readonly timers = new TimerQueue();

  constructor(startMs = 0) {
    this.currentMs = startMs;
  }

  now(): number {
    return this.currentMs;
  }

  setTimeout(fn: () => void, delayMs: number): TimerHandle {
    return { cancel: this.timers.add(this.currentMs + Math.max(0, delayMs || 0), fn).cancel };
  }

  sleep(delayMs: number, signal?: AbortSignal): Promise<void> {
    return sleepOn(this, delayMs, signal);
  }

  /**
   * advance moves time forward by `ms`, stepping to each due timer in turn (so `now()` inside
   * a callback is its due time) and firing it; timers that callbacks set within the window
   * fire too. Promise continuations of fired sleeps run only after the caller awaits.
   */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`FakeClock.advance needs a non-negative duration, got ${ms}`);
    const targetMs = this.currentMs + ms;
    for (let timer = this.timers.shift(targetMs); timer; timer = this.timers.shift(targetMs)) {
      this.currentMs = Math.max(this.currentMs, timer.dueMs);
      timer.fn();
    }
    this.currentMs = targetMs;
  }

  /** pendingTimers is the number of timers set and neither fired nor cancelled. */
  get pendingTimers(): number {
    return this.timers.size;
  }
}
