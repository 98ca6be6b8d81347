/**
 * The cluster clock: the one notion of time every component of a cluster follows, with
 * handles to steer it. The API server owns it (GET/POST /apis/kubesim.io/v1alpha1/clock);
 * component processes follow it (controllers/runtime/remote-clock.ts); in-process clusters share the object.
 *
 *   running:  now() = base + (wall − baseWall) × speed        (mode 'real' starts here)
 *   paused:   now() = base                                      (mode 'virtual' starts here)
 *   jumping:  now() = the due time being fired (advance, apply)
 *
 * Every state change re-bases (base = now(), baseWall = wall now), so now() stays continuous
 * across pause, resume and setSpeed. One wall timer is armed for the earliest cluster timer
 * and re-armed whenever the state or the earliest timer changes. Timers already due fire even
 * while paused (a zero delay needs no time to pass); the rest wait for time to move.
 *
 * NOTE: timers are not unref'd (see createRealClock in clock.ts).
 */

import type { Clock, TimerHandle } from './clock-types.js';
import { sleepOn } from './sleep.js';
import { TimerQueue } from './timer-queue.js';

/** ClockMode is how a cluster clock starts: 'real' runs from the start, 'virtual' stands still until advanced or resumed. */
export type ClockMode = 'real' | 'virtual';

export const CLOCK_MODES: readonly ClockMode[] = ['real', 'virtual'];

/** ClockState is a clock's position and pace: what followers copy. */
export interface ClockState {
  /** Cluster time, ms since the epoch. */
  nowMs: number;
  /** Cluster ms per wall ms while running (> 0). */
  speed: number;
  paused: boolean;
  /** Wall time (ms since the epoch) at which `nowMs` was read. apply() uses it to add the
   * time the state spent in transit while the clock runs; absent, none is added. */
  wallMs?: number;
}

/** ClusterClockOptions configures createClusterClock. */
export interface ClusterClockOptions {
  /** Default 'real'. 'virtual' is a clock created paused. */
  mode?: ClockMode;
  /** Default 1. */
  speed?: number;
  /** Cluster time at creation (ms since the epoch). Default: wall time now. */
  startMs?: number;
  /** Wall time at which cluster time equals `startMs`. Default: now. Lets clocks created
   * apart (createRealClock with a shared origin) agree to the millisecond. */
  atWallMs?: number;
}

/** ClusterClock is a Clock whose time can be paused, resumed, re-paced, advanced and followed. */
export interface ClusterClock extends Clock {
  /** The mode the clock was created in (for display; state() says whether it runs). */
  readonly mode: ClockMode;
  state(): ClockState;
  /**
   * Moves cluster time forward by ms, firing every timer that falls due in due-time order
   * (ties: creation order), with now() == the timer's due time inside its callback. Between
   * successive due times it awaits the step hook (set by whoever hosts the cluster: the
   * embedded test cluster waits for the cluster to settle there), so consequences of one
   * timer happen before the next fires. Works in every mode; time stands still while it
   * steps. Advances (and applies) run one at a time, in call order. Rejects with RangeError
   * for a negative or non-finite ms, and with the step hook's error (time then stays at the
   * step it reached).
   */
  advance(ms: number): Promise<void>;
  /** Freezes time (virtual mode = created paused). No-op when paused. */
  pause(): void;
  /** Lets time run again from where it stood. No-op when running. */
  resume(): void;
  /** Changes the pace (> 0, finite; RangeError otherwise); now() stays continuous. */
  setSpeed(speed: number): void;
  setStepHook(hook: (() => Promise<void>) | undefined): void;
  /**
   * Follows another clock's state (child processes following the API server's clock): a jump
   * forward fires due timers in order as advance() does; a (small, transit-induced) step back
   * just re-bases. Resolves once applied. Rejects with RangeError for an invalid state.
   */
  apply(state: ClockState): Promise<void>;
  /** Calls `listener` after every change (pause, resume, setSpeed, advance, apply); returns unsubscribe. */
  onChange(listener: (state: ClockState) => void): () => void;
  /** Number of pending timers (and the earliest due time), for settle/diagnostics. */
  pending(): { count: number; nextDueMs?: number };
}

/** Node clamps longer delays to 1 ms (with a warning), so longer waits re-arm on the way. */
export const MAX_NODE_TIMER_MS = 2 ** 31 - 1;

/** A state older than this (wall) is not extrapolated: its sender's wall clock may differ. */
const MAX_TRANSIT_MS = 10_000;

/** createClusterClock returns a running ('real') or paused ('virtual') cluster clock.
 * Throws RangeError for an unknown mode, a bad speed or a non-finite start. */
export function createClusterClock(options: ClusterClockOptions = {}): ClusterClock {
  return new TimerClusterClock(options);
}

/** checkSpeed returns `speed` if it is a positive finite number, else throws RangeError. */
export function checkSpeed(speed: number): number {
  if (!(speed > 0) || !Number.isFinite(speed)) throw new RangeError(`clock speed must be a positive number, got ${speed}`);
  return speed;
}

class TimerClusterClock implements ClusterClock {
  readonly mode: ClockMode;
  private baseMs: number;
  private baseWallMs: number;
  private speed: number;
  private paused: boolean;
  /** Set while a jump steps through due times: time stands at it. */
  private holdMs: number | undefined;
  private readonly timers = new TimerQueue();
  private wallTimer: ReturnType<typeof setTimeout> | undefined;
  /** Due time the wall timer is armed for; undefined when none is armed. */
  private armedForMs: number | undefined;
  private stepHook: (() => Promise<void>) | undefined;
  private readonly listeners = new Set<(state: ClockState) => void>();
  /** Tail of the jumps (advance, apply) queue: they run one at a time. */
  private jumps: Promise<void> = Promise.resolve();

  constructor(options: ClusterClockOptions) {
    this.mode = options.mode ?? 'real';
    if (!CLOCK_MODES.includes(this.mode)) throw new RangeError(`clock mode must be real or virtual, got ${JSON.stringify(this.mode)}`);
    this.speed = checkSpeed(options.speed ?? 1);
    const wallMs = Date.now();
    const atWallMs = options.atWallMs ?? wallMs;
    const startMs = options.startMs ?? atWallMs;
    if (!Number.isFinite(startMs) || !Number.isFinite(atWallMs)) throw new RangeError(`clock start must be a finite time, got ${startMs}`);
    this.paused = this.mode === 'virtual';
    this.baseMs = this.paused ? startMs : startMs + (wallMs - atWallMs) * this.speed;
    this.baseWallMs = wallMs;
  }

  now(): number {
    if (this.holdMs !== undefined) return this.holdMs;
    return this.paused ? this.baseMs : this.baseMs + (Date.now() - this.baseWallMs) * this.speed;
  }

  setTimeout(fn: () => void, delayMs: number): TimerHandle {
    // biome-ignore lint/complexity/useMathMinMax: the comparison also turns NaN into 0, as setTimeout does; Math.max would keep NaN
    const { timer, cancel } = this.timers.add(this.now() + (delayMs > 0 ? delayMs : 0), fn);
    if (this.armedForMs === undefined || timer.dueMs < this.armedForMs) this.rearm();
    return {
      cancel: () => {
        cancel();
        if (this.timers.size === 0) this.disarm();
      },
    };
  }

  sleep(delayMs: number, signal?: AbortSignal): Promise<void> {
    return sleepOn(this, delayMs, signal);
  }

  state(): ClockState {
    return { nowMs: this.now(), speed: this.speed, paused: this.paused, wallMs: Date.now() };
  }

  advance(ms: number): Promise<void> {
    if (!(ms >= 0) || !Number.isFinite(ms)) return Promise.reject(new RangeError(`advance needs a non-negative duration in ms, got ${ms}`));
    return this.enqueue(async () => {
      await this.jumpTo(this.now() + ms);
      this.emit();
    });
  }

  pause(): void {
    if (this.paused) return;
    this.rebase();
    this.paused = true;
    this.changed();
  }

  resume(): void {
    if (!this.paused) return;
    this.rebase();
    this.paused = false;
    this.changed();
  }

  setSpeed(speed: number): void {
    checkSpeed(speed);
    if (speed === this.speed) return;
    this.rebase();
    this.speed = speed;
    this.changed();
  }

  setStepHook(hook: (() => Promise<void>) | undefined): void {
    this.stepHook = hook;
  }

  apply(state: ClockState): Promise<void> {
    try {
      checkState(state);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.enqueue(async () => {
      const targetMs = arrivalTime(state);
      if (targetMs > this.now()) await this.jumpTo(targetMs);
      else this.rebase(targetMs);
      this.rebase();
      this.speed = state.speed;
      this.paused = state.paused;
      this.changed();
    });
  }

  onChange(listener: (state: ClockState) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  pending(): { count: number; nextDueMs?: number } {
    const next = this.timers.peek();
    return next ? { count: this.timers.size, nextDueMs: next.dueMs } : { count: 0 };
  }

  /** rebase makes the current moment the base, so a change of pace or pause starts from it. */
  private rebase(nowMs = this.now()): void {
    this.baseMs = nowMs;
    this.baseWallMs = Date.now();
  }

  private changed(): void {
    this.rearm();
    this.emit();
  }

  private emit(): void {
    const state = this.state();
    for (const listener of [...this.listeners]) {
      try {
        listener(state);
      } catch (err) {
        reportLater(err);
      }
    }
  }

  private enqueue(op: () => Promise<void>): Promise<void> {
    const run = this.jumps.then(op);
    this.jumps = run.catch(() => undefined);
    return run;
  }

  /** jumpTo moves time to `targetMs`, one due time at a time: fire that moment's timers,
   * yield so their promise continuations run (and set their next timers), await the step
   * hook, repeat. */
  private async jumpTo(targetMs: number): Promise<void> {
    let atMs = this.now();
    this.holdMs = atMs;
    this.rearm();
    try {
      for (let next = this.timers.peek(); next && next.dueMs <= targetMs; next = this.timers.peek()) {
        atMs = Math.max(atMs, next.dueMs);
        this.holdMs = atMs;
        this.fireDue(atMs);
        await new Promise((resolve) => setImmediate(resolve));
        if (this.stepHook) await this.stepHook();
      }
      atMs = Math.max(atMs, targetMs);
    } finally {
      this.holdMs = undefined;
      this.rebase(atMs);
      this.rearm();
    }
  }

  /** fireDue runs the timers due at or before `limitMs` that exist now, in order; timers
   * their callbacks set wait for the next round. */
  private fireDue(limitMs: number): void {
    const seqLimit = this.timers.nextSeq;
    for (let timer = this.timers.shift(limitMs, seqLimit); timer; timer = this.timers.shift(limitMs, seqLimit)) {
      try {
        timer.fn();
      } catch (err) {
        reportLater(err);
      }
    }
  }

  /** rearm points the one wall timer at the earliest cluster timer: now if it is due, after
   * the wall time its due time is away at this speed if time runs, not at all if it stands. */
  private rearm(): void {
    this.disarm();
    const next = this.timers.peek();
    if (!next) return;
    const aheadMs = next.dueMs - this.now();
    const standing = this.paused || this.holdMs !== undefined;
    if (aheadMs > 0 && standing) return;
    const wallDelayMs = aheadMs <= 0 ? 0 : Math.min(MAX_NODE_TIMER_MS, Math.ceil(aheadMs / this.speed));
    this.armedForMs = next.dueMs;
    this.wallTimer = setTimeout(() => this.onWallTimer(), wallDelayMs);
  }

  private disarm(): void {
    if (this.wallTimer !== undefined) clearTimeout(this.wallTimer);
    this.wallTimer = undefined;
    this.armedForMs = undefined;
  }

  private onWallTimer(): void {
    this.wallTimer = undefined;
    this.armedForMs = undefined;
    // Early (capped at Node's limit, or a hair short of the due time): fires nothing, re-arms.
    this.fireDue(this.now());
    this.rearm();
  }
}

function checkState(state: ClockState): void {
  if (typeof state !== 'object' || state === null) throw new RangeError('clock state must be an object');
  if (!Number.isFinite(state.nowMs)) throw new RangeError(`clock state needs a finite nowMs, got ${state.nowMs}`);
  checkSpeed(state.speed);
  if (typeof state.paused !== 'boolean') throw new RangeError(`clock state needs a boolean paused, got ${String(state.paused)}`);
}

/** arrivalTime is where a running sender's clock stands now: its nowMs plus the transit. */
function arrivalTime(state: ClockState): number {
  if (state.paused || state.wallMs === undefined) return state.nowMs;
  const transitMs = Date.now() - state.wallMs;
  return transitMs > 0 && transitMs < MAX_TRANSIT_MS ? state.nowMs + transitMs * state.speed : state.nowMs;
}

/** reportLater rethrows a callback's error outside the clock's loop: it surfaces as an
 * uncaught exception, as it would from a Node timer, without stopping the other timers. */
function reportLater(err: unknown): void {
  queueMicrotask(() => {
    throw err;
  });
}
