/**
 * The work queue between event handlers and workers: client-go's rate-limiting, delaying,
 * deduplicating queue (util/workqueue) as one small structure, with JavaScript promises in
 * place of a condition variable.
 */

import { performance } from 'node:perf_hooks';
import { type CauseTrigger, currentTrigger } from '../../../apiserver/api/machinery/cause.js';
import type { HistogramSeries } from '../../../apiserver/api/machinery/metric-series.js';
import { signalActivity } from '../activity-signal.js';
import { processMetrics } from '../metrics/process-metrics.js';
import type { Clock, TimerHandle, WorkQueue } from '../types.js';
import { createDefaultControllerRateLimiter, type RateLimiter } from './rate-limiter.js';

/** WorkQueueOptions configures `createWorkQueue`. */
export interface WorkQueueOptions {
  /** Drives addAfter/addRateLimited waits (and the default rate limiter's bucket). */
  clock: Clock;
  /** Default: createDefaultControllerRateLimiter(clock). */
  rateLimiter?: RateLimiter;
  /** For logs and the live view; usually the controller's name. */
  name?: string;
}

/**
 * WorkQueueMetrics are read-only counters for observability, read live from the queue
 * (client-go's workqueue metrics, minus latencies).
 */
export interface WorkQueueMetrics {
  /** Keys accepted by add (after dedup) since creation. */
  readonly adds: number;
  /** addRateLimited calls since creation. */
  readonly retries: number;
  /** Keys waiting for a worker (= length). */
  readonly depth: number;
  /** Keys waiting for their addAfter time. */
  readonly delayed: number;
  /** Keys handed to a worker and not yet done. */
  readonly processing: number;
}

/** MeteredWorkQueue is a WorkQueue with a name and live counters. */
export interface MeteredWorkQueue extends WorkQueue {
  readonly name: string;
  readonly metrics: WorkQueueMetrics;
  triggerOf(key: string): CauseTrigger | undefined;
}

/**
 * createWorkQueue returns a WorkQueue with exactly the guarantees of the contract in types.ts:
 * - add dedups while a key waits (one entry per key, first-in first-out);
 * - get hands a key to one worker at a time; a key added meanwhile waits until done(key);
 * - addAfter waits on the clock, and a second addAfter of a waiting key keeps the earlier time;
 *   a delay ≤ 0 adds at once;
 * - addRateLimited is addAfter(key, rateLimiter.when(key)); forget/numRequeues ask the limiter;
 * - shutdown drops later adds and cancels every delayed add (no timer survives it); get keeps
 *   returning the keys still waiting, then undefined, and waiting get()s resolve undefined;
 * - every add notes the current trigger (cause.ts) for the key, the latest noted winning while
 *   it waits; a delayed add notes the trigger of its call, and its timer firing does not
 *   replace a trigger noted after that call (a pod marked for deletion while a start-up stage
 *   timer was pending is deleted because of the marking, not the start-up); triggerOf(key)
 *   answers it while a worker holds the key.
 * done() of a key that is not being processed is ignored. Never throws.
 */
export function createWorkQueue(options: WorkQueueOptions): MeteredWorkQueue {
  return new DeduplicatingQueue(options);
}

interface DelayedAdd {
  readyAtMs: number;
  timer: TimerHandle;
  trigger: NotedTrigger | undefined;
}

/** A trigger and when it was noted (the queue's own counter: order, not time). */
interface NotedTrigger {
  trigger: CauseTrigger;
  noted: number;
}

class DeduplicatingQueue implements MeteredWorkQueue {
  readonly name: string;
  readonly metrics: WorkQueueMetrics;
  private readonly clock: Clock;
  private readonly rateLimiter: RateLimiter;

  // Invariants, true between any two calls:
  //  - `ready` ⊆ `dirty` and `ready` ∩ `processing` = ∅: a key waits at most once, and never
  //    while a worker holds it.
  //  - `dirty` \ `processing` = `ready`: every key that needs work and is not held is waiting.
  //  - `dirty` ∩ `processing`: keys re-added while held; done() moves them to `ready`.
  //  - `waiters` non-empty ⇒ `ready` empty (add hands a key straight to a waiting get).
  //  - each `delayed` entry owns exactly one live timer; a delayed key may also be dirty (the
  //    add when its timer fires then dedups).
  //  - shut down ⇒ `delayed` and `waiters` empty and nothing new enters `dirty`.
  private readonly dirty = new Set<string>();
  /** FIFO of waiting keys: a Set iterates in insertion order. */
  private readonly ready = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly delayed = new Map<string, DelayedAdd>();
  // What queued each key: `waitingTriggers` ⊆ dirty keys, `heldTriggers` ⊆ `processing`.
  private readonly waitingTriggers = new Map<string, NotedTrigger>();
  private notes = 0;
  private readonly heldTriggers = new Map<string, CauseTrigger>();
  private readonly waiters: Array<(key: string | undefined) => void> = [];
  private isShutDown = false;
  private addCount = 0;
  private retryCount = 0;
  // For workqueue_* (process-metrics.ts), in wall-clock ms (performance.now), as client-go
  // measures them: when each dirty key was added, when each held key was handed out.
  private readonly addedAt = new Map<string, number>();
  private readonly heldSince = new Map<string, number>();
  private readonly timings: { queueDuration: HistogramSeries; workDuration: HistogramSeries; remove(): void };

  constructor(options: WorkQueueOptions) {
    this.clock = options.clock;
    this.rateLimiter = options.rateLimiter ?? createDefaultControllerRateLimiter(options.clock);
    this.name = options.name ?? '';
    this.metrics = this.createMetrics();
    this.timings = processMetrics.addQueue({
      name: this.name,
      adds: () => this.addCount,
      retries: () => this.retryCount,
      depth: () => this.ready.size,
      heldForSeconds: () => {
        const now = performance.now();
        return [...this.heldSince.values()].map((since) => (now - since) / 1000);
      },
    });
  }

  get length(): number {
    return this.ready.size;
  }

  get shuttingDown(): boolean {
    return this.isShutDown;
  }

  add(key: string): void {
    this.addWith(key, this.note(currentTrigger()));
  }

  /** note stamps a trigger with the order it was noted in. */
  private note(trigger: CauseTrigger | undefined): NotedTrigger | undefined {
    return trigger && { trigger, noted: ++this.notes };
  }

  private addWith(key: string, noted: NotedTrigger | undefined): void {
    if (this.isShutDown) return;
    const waiting = this.waitingTriggers.get(key);
    if (noted !== undefined && (waiting === undefined || noted.noted > waiting.noted)) this.waitingTriggers.set(key, noted);
    if (this.dirty.has(key)) return;
    this.addCount++;
    this.dirty.add(key);
    this.addedAt.set(key, performance.now());
    signalActivity();
    // A held key runs again after done(); queuing it now would let a second worker take it.
    if (this.processing.has(key)) return;
    this.makeReady(key);
  }

  addAfter(key: string, delayMs: number): void {
    if (this.isShutDown) return;
    const trigger = this.note(currentTrigger());
    if (!(delayMs > 0)) {
      this.addWith(key, trigger);
      return;
    }
    const readyAtMs = this.clock.now() + delayMs;
    const existing = this.delayed.get(key);
    if (existing && existing.readyAtMs <= readyAtMs) {
      existing.trigger = trigger ?? existing.trigger;
      return;
    }
    existing?.timer.cancel();
    const timer = this.clock.setTimeout(() => {
      const fired = this.delayed.get(key);
      this.delayed.delete(key);
      this.addWith(key, fired?.trigger);
    }, delayMs);
    this.delayed.set(key, { readyAtMs, timer, trigger: trigger ?? existing?.trigger });
    // Delayed keys are work in some loops (the kubelet's stage transitions: delayedIsWork).
    signalActivity();
  }

  addRateLimited(key: string): void {
    if (this.isShutDown) return;
    this.retryCount++;
    this.addAfter(key, this.rateLimiter.when(key));
  }

  forget(key: string): void {
    this.rateLimiter.forget(key);
  }

  numRequeues(key: string): number {
    return this.rateLimiter.numRequeues(key);
  }

  get(): Promise<string | undefined> {
    const key = this.takeReady();
    if (key !== undefined || this.isShutDown) return Promise.resolve(key);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  done(key: string): void {
    if (!this.processing.delete(key)) return;
    const since = this.heldSince.get(key);
    this.heldSince.delete(key);
    if (since !== undefined) this.timings.workDuration.observe((performance.now() - since) / 1000);
    this.heldTriggers.delete(key);
    if (this.dirty.has(key)) this.makeReady(key);
  }

  triggerOf(key: string): CauseTrigger | undefined {
    return this.heldTriggers.get(key);
  }

  shutdown(): void {
    if (this.isShutDown) return;
    this.isShutDown = true;
    this.timings.remove();
    for (const { timer } of this.delayed.values()) timer.cancel();
    this.delayed.clear();
    // Waiters exist only while nothing is ready, so they have nothing left to drain.
    for (const wake of this.waiters.splice(0)) wake(undefined);
  }

  /** makeReady queues a dirty, unheld key, or hands it straight to the longest-waiting get. */
  private makeReady(key: string): void {
    const waiter = this.waiters.shift();
    if (waiter === undefined) {
      this.ready.add(key);
      return;
    }
    this.hold(key);
    waiter(key);
  }

  private takeReady(): string | undefined {
    const next = this.ready.values().next();
    if (next.done) return undefined;
    this.ready.delete(next.value);
    this.hold(next.value);
    return next.value;
  }

  /** hold marks `key` as given to a worker: it stops being dirty until added again. */
  private hold(key: string): void {
    this.dirty.delete(key);
    this.processing.add(key);
    const now = performance.now();
    const added = this.addedAt.get(key);
    this.addedAt.delete(key);
    if (added !== undefined) this.timings.queueDuration.observe((now - added) / 1000);
    this.heldSince.set(key, now);
    const waiting = this.waitingTriggers.get(key);
    this.waitingTriggers.delete(key);
    if (waiting === undefined) this.heldTriggers.delete(key);
    else this.heldTriggers.set(key, waiting.trigger);
  }

  private createMetrics(): WorkQueueMetrics {
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
