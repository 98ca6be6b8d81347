/**
 * The scheduling queue (kube-scheduler's PriorityQueue): where unscheduled pods wait.
 *
 *            add / update                      pop                    done (bound or gone)
 *   (new) ─────────────────► active ───────────────────► in flight ─────────────────► (forgotten)
 *                              ▲   ▲                        │   │
 *           backoff expired    │   │ cluster event,          │   │ error (bind failed, ...)
 *                 ┌────────────┘   │ backoff already over    │   ▼
 *                 │                │                         │  backoff (1 s doubling to 10 s)
 *              backoff ◄───────────┴─── unschedulable ◄──────┘     unschedulable
 *                     cluster event,     (waits for a node/pod event, or at most
 *                     still backing off   POD_MAX_IN_UNSCHEDULABLE_MS)
 *
 * Active pods come out by priority (spec.priority, higher first), then by the time they
 * became active. An unschedulable pod is retried only when something that could help
 * happens (moveAllToActiveOrBackoff: a node added or changed, an assigned pod deleted), or
 * after a minute regardless. If such an event happens while a pod is in flight, a failure of
 * that attempt goes to backoff rather than unschedulable, so the event is not missed.
 *
 * The queue holds keys and bookkeeping only; the scheduling cycle reads the pod itself from
 * the informer cache. All methods are synchronous and never throw, so informer handlers may
 * call them; timers run on the injected clock.
 */
import { type CauseTrigger, currentTrigger } from '../apiserver/api/machinery/cause.js';
import { signalActivity } from '../controllers/runtime/activity-signal.js';
import { keyOf } from '../controllers/runtime/reconciler.js';
import type { Clock, TimerHandle } from '../controllers/runtime/types.js';
import type { ReadonlyPod } from './framework.js';
import { Heap } from './heap.js';

export const POD_INITIAL_BACKOFF_MS = 1_000;
export const POD_MAX_BACKOFF_MS = 10_000;
export const UNSCHEDULABLE_FLUSH_INTERVAL_MS = 30_000;
export const POD_MAX_IN_UNSCHEDULABLE_MS = 60_000;

/** QueuedPodInfo is one pod's queue bookkeeping, handed to the scheduling cycle by pop(). */
export interface QueuedPodInfo {
  readonly key: string;
  /** Scheduling attempts so far, including the one in flight. */
  readonly attempts: number;
  /** The latest informer event that queued or retried the pod (cause.ts), if known. */
  readonly trigger?: CauseTrigger;
}

/** QueueStats counts pods per state (for logs, the bench and tests). */
export interface QueueStats {
  active: number;
  backoff: number;
  unschedulable: number;
  inFlight: number;
}

type Where = keyof QueueStats;

interface Entry extends QueuedPodInfo {
  attempts: number;
  trigger?: CauseTrigger;
  where: Where;
  priority: number;
  /** When it last became active: the order among equal priorities. */
  activeSinceMs: number;
  /** Bumped on every push to the active heap; older heap items for the entry are stale. */
  activeSeq: number;
  lastAttemptEndMs: number;
  unschedulableSinceMs: number;
  /** The scheduling cycle of the current attempt. */
  cycle: number;
  /** A relevant event arrived while the pod was in flight. */
  changedInFlight: boolean;
  timer: TimerHandle | undefined;
}

/** HeapItem freezes the order fields at push time, so later changes to the entry cannot
 * break the heap's ordering. */
interface HeapItem {
  readonly entry: Entry;
  readonly seq: number;
  readonly priority: number;
  readonly sinceMs: number;
}

/** SchedulingQueueOptions configures a SchedulingQueue. */
export interface SchedulingQueueOptions {
  clock: Clock;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
}

/** SchedulingQueue: see the module comment. */
export class SchedulingQueue {
  // Invariants: every Entry is in `entries` under its key; `where` says which structure owns
  // it: 'active' ⇒ a heap item with its activeSeq exists; 'backoff' ⇒ `timer` is armed;
  // 'unschedulable' ⇒ it is in `unschedulable`; 'inFlight' ⇒ it is in `inFlight` (held by the
  // scheduling cycle or its binding).
  private readonly entries = new Map<string, Entry>();
  private readonly unschedulable = new Set<Entry>();
  private readonly inFlight = new Set<Entry>();
  private readonly active = new Heap<HeapItem>(activeBefore);
  private readonly waiters: Array<() => void> = [];
  private readonly clock: Clock;
  private readonly initialBackoffMs: number;
  private readonly maxBackoffMs: number;
  private schedulingCycle = 0;
  private moveRequestCycle = -1;
  private nextSeq = 0;
  private flushTimer: TimerHandle | undefined;
  private closed = false;

  constructor(options: SchedulingQueueOptions) {
    this.clock = options.clock;
    this.initialBackoffMs = options.initialBackoffMs ?? POD_INITIAL_BACKOFF_MS;
    this.maxBackoffMs = options.maxBackoffMs ?? POD_MAX_BACKOFF_MS;
  }

  /** add queues a pod the queue does not know yet (known pods are left where they are). */
  add(pod: ReadonlyPod): void {
    if (this.closed || this.entries.has(keyOf(pod))) return;
    const entry: Entry = {
      key: keyOf(pod),
      attempts: 0,
      where: 'active',
      priority: pod.spec.priority ?? 0,
      activeSinceMs: 0,
      activeSeq: 0,
      lastAttemptEndMs: 0,
      unschedulableSinceMs: 0,
      cycle: 0,
      changedInFlight: false,
      timer: undefined,
      trigger: currentTrigger(),
    };
    this.entries.set(entry.key, entry);
    this.makeActive(entry);
  }

  /** update reacts to a change of the pod that could affect where it fits: an unschedulable
   * pod is retried, an in-flight one is marked; an unknown one is added. */
  update(pod: ReadonlyPod): void {
    const entry = this.entries.get(keyOf(pod));
    if (!entry) return this.add(pod);
    entry.priority = pod.spec.priority ?? 0;
    entry.trigger = currentTrigger() ?? entry.trigger;
    if (entry.where === 'inFlight') entry.changedInFlight = true;
    else if (entry.where === 'unschedulable') this.moveToActiveOrBackoff(entry);
  }

  /** delete forgets a pod (deleted, bound, or no longer ours). */
  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry) this.remove(entry);
  }

  /**
   * moveAllToActiveOrBackoff retries unschedulable pods after a cluster event that may have
   * made room (`accept` narrows which); pods still backing off wait out their backoff.
   */
  moveAllToActiveOrBackoff(accept?: (key: string) => boolean): void {
    // A broad event concerns every attempt under way; a narrow one only those it accepts.
    if (!accept) this.moveRequestCycle = this.schedulingCycle;
    else for (const entry of this.inFlight) if (accept(entry.key)) entry.changedInFlight = true;
    for (const entry of [...this.unschedulable]) if (!accept || accept(entry.key)) this.moveToActiveOrBackoff(entry);
  }

  /** pop waits for the next active pod and marks it in flight; undefined once closed (pods
   * still waiting are abandoned: a restarted scheduler lists them again). */
  async pop(): Promise<QueuedPodInfo | undefined> {
    for (;;) {
      if (this.closed) return undefined;
      const entry = this.takeActive();
      if (entry) return entry;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** done ends an in-flight pod's time in the queue (it was bound, or is gone). */
  done(info: QueuedPodInfo): void {
    const entry = this.owned(info);
    if (entry) this.remove(entry);
  }

  /** requeueUnschedulable parks a pod no node fits until a cluster event (see above). */
  requeueUnschedulable(info: QueuedPodInfo): void {
    const entry = this.owned(info);
    if (!entry) return;
    entry.lastAttemptEndMs = this.clock.now();
    if (entry.changedInFlight || this.moveRequestCycle >= entry.cycle) return this.toBackoff(entry);
    this.inFlight.delete(entry);
    entry.where = 'unschedulable';
    entry.unschedulableSinceMs = this.clock.now();
    this.unschedulable.add(entry);
  }

  /** requeueBackoff retries a pod whose attempt failed for another reason after its backoff. */
  requeueBackoff(info: QueuedPodInfo): void {
    const entry = this.owned(info);
    if (!entry) return;
    entry.lastAttemptEndMs = this.clock.now();
    this.toBackoff(entry);
  }

  /** start arms the periodic flush of long-unschedulable pods; close() disarms it. */
  start(): void {
    if (this.closed || this.flushTimer) return;
    const arm = () => {
      this.flushTimer = this.clock.setTimeout(() => {
        this.flushUnschedulableLeftover();
        arm();
      }, UNSCHEDULABLE_FLUSH_INTERVAL_MS);
    };
    arm();
  }

  /** flushUnschedulableLeftover retries pods unschedulable for POD_MAX_IN_UNSCHEDULABLE_MS. */
  flushUnschedulableLeftover(): void {
    const nowMs = this.clock.now();
    for (const entry of [...this.unschedulable]) {
      if (nowMs - entry.unschedulableSinceMs >= POD_MAX_IN_UNSCHEDULABLE_MS) this.moveToActiveOrBackoff(entry);
    }
  }

  /** close cancels every timer and wakes pop() callers with undefined. Idempotent. */
  close(): void {
    this.closed = true;
    this.flushTimer?.cancel();
    for (const entry of this.entries.values()) entry.timer?.cancel();
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** stats counts the pods in each state. */
  stats(): QueueStats {
    const stats: QueueStats = { active: 0, backoff: 0, unschedulable: 0, inFlight: 0 };
    for (const entry of this.entries.values()) stats[entry.where] += 1;
    return stats;
  }

  /** backoffMs is the wait after `attempts` failed attempts: initial × 2^(attempts−1), capped. */
  backoffMs(attempts: number): number {
    return Math.min(this.initialBackoffMs * 2 ** Math.max(0, attempts - 1), this.maxBackoffMs);
  }

  private owned(info: QueuedPodInfo): Entry | undefined {
    const entry = this.entries.get(info.key);
    // A pod deleted (or re-added) while in flight has a different entry now, or none.
    return entry === info && entry.where === 'inFlight' ? entry : undefined;
  }

  private takeActive(): Entry | undefined {
    for (let item = this.active.pop(); item; item = this.active.pop()) {
      const { entry, seq } = item;
      if (entry.where !== 'active' || entry.activeSeq !== seq || this.entries.get(entry.key) !== entry) continue;
      entry.where = 'inFlight';
      this.inFlight.add(entry);
      entry.attempts += 1;
      entry.cycle = ++this.schedulingCycle;
      entry.changedInFlight = false;
      return entry;
    }
    return undefined;
  }

  private moveToActiveOrBackoff(entry: Entry): void {
    this.unschedulable.delete(entry);
    entry.trigger = currentTrigger() ?? entry.trigger;
    const remainingMs = entry.lastAttemptEndMs + this.backoffMs(entry.attempts) - this.clock.now();
    if (remainingMs > 0) this.toBackoff(entry);
    else this.makeActive(entry);
  }

  private toBackoff(entry: Entry): void {
    this.unschedulable.delete(entry);
    this.inFlight.delete(entry);
    entry.where = 'backoff';
    entry.timer?.cancel();
    const remainingMs = entry.lastAttemptEndMs + this.backoffMs(entry.attempts) - this.clock.now();
    entry.timer = this.clock.setTimeout(
      () => {
        entry.timer = undefined;
        if (this.entries.get(entry.key) === entry && entry.where === 'backoff') this.makeActive(entry);
      },
      Math.max(0, remainingMs),
    );
  }

  private makeActive(entry: Entry): void {
    if (this.closed) return;
    entry.where = 'active';
    entry.activeSinceMs = this.clock.now();
    entry.activeSeq = ++this.nextSeq;
    this.active.push({ entry, seq: entry.activeSeq, priority: entry.priority, sinceMs: entry.activeSinceMs });
    signalActivity();
    this.waiters.shift()?.();
  }

  private remove(entry: Entry): void {
    entry.timer?.cancel();
    this.unschedulable.delete(entry);
    this.inFlight.delete(entry);
    this.entries.delete(entry.key);
  }
}

/** activeBefore orders the active heap: higher priority, then earlier activation. */
function activeBefore(a: HeapItem, b: HeapItem): boolean {
  if (a.priority !== b.priority) return a.priority > b.priority;
  if (a.sinceMs !== b.sinceMs) return a.sinceMs < b.sinceMs;
  return a.seq < b.seq;
}
