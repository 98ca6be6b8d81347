/**
 * Activity: what a loop is doing right now — keys waiting, reconciles in flight, work delayed
 * — so a cluster can tell when it is quiescent (`settle`) and the live view can show each
 * loop's queue. Every loop (controllers, the scheduler, the kubelet's pod workers) reports the
 * same shape; a component reports the list of its loops.
 */
/** ReconcileOutcome names how a reconcile ended; the controller counts each. */
export const ReconcileOutcome = {
  Success: 'success',
  Error: 'error',
  RequeueAfter: 'requeueAfter',
  Terminal: 'terminal',
} as const;
/** ReconcileOutcome is one of the four ways a reconcile can end. */
export type ReconcileOutcome = (typeof ReconcileOutcome)[keyof typeof ReconcileOutcome];

/** LastReconcile describes the most recent finished reconcile (for the live view). */
export interface LastReconcile {
  readonly key: string;
  readonly reconcileId: string;
  readonly result: ReconcileOutcome;
  /** Cluster time the reconcile took. */
  readonly durationMs: number;
  /** Cluster time it finished. */
  readonly finishedAtMs: number;
  /** The error's message, for error and terminal outcomes. */
  readonly error?: string;
}

/** LoopActivity is a snapshot of one loop's queue and counters. */
export interface LoopActivity {
  /** The loop's name (controller name, `scheduler`, `kubelet-pods`). */
  readonly name: string;
  /** Keys (pods) waiting for a worker. */
  readonly queued: number;
  /** Reconciles (scheduling attempts, binding writes) in flight. */
  readonly active: number;
  /** Keys waiting for a time to come (requeueAfter, backoff, a kubelet stage's delay). */
  readonly delayed: number;
  /** Delayed keys are work that is due soon rather than periodic re-checks: the kubelet's
   * stage transitions. While the clock runs, such a loop is busy until they are done. */
  readonly delayedIsWork?: boolean;
  readonly reconciles?: Readonly<Record<ReconcileOutcome, number>>;
  readonly lastReconcile?: LastReconcile;
}

/** ActivitySource is implemented by every runnable that has a queue. */
export interface ActivitySource {
  activity(): LoopActivity;
}

/** LoopsActivitySource is implemented by a runnable hosting several loops, each with a queue. */
export interface LoopsActivitySource {
  loopsActivity(): LoopActivity[];
}

/** ComponentActivity is what one component (process or in-process part) reports. */
export interface ComponentActivity {
  readonly component: string;
  readonly loops: readonly LoopActivity[];
}

/** activitiesOf is what a runnable reports: its loop's activity, its loops', or nothing. */
export function activitiesOf(runnable: unknown): LoopActivity[] {
  if (hasActivity(runnable)) return [runnable.activity()];
  const host = runnable as Partial<LoopsActivitySource> | null;
  return typeof host?.loopsActivity === 'function' ? host.loopsActivity() : [];
}

/** hasActivity tells whether a runnable reports activity. */
export function hasActivity<T>(value: T): value is T & ActivitySource {
  return typeof (value as Partial<ActivitySource> | null)?.activity === 'function';
}

/**
 * busyLoops names the loops of `components` that still have work: keys queued or in flight,
 * and — while the cluster clock runs — delayed work of loops whose delays are transitions.
 * Periodic requeues (resyncs, requeueAfter re-checks) never count, or nothing would settle.
 */
export function busyLoops(components: readonly ComponentActivity[], clockRunning: boolean): string[] {
  const busy: string[] = [];
  for (const component of components) {
    for (const loop of component.loops) {
      const delayedWork = clockRunning && loop.delayedIsWork ? loop.delayed : 0;
      if (loop.queued + loop.active + delayedWork === 0) continue;
      const parts = [`${loop.queued} queued`, `${loop.active} in flight`];
      if (delayedWork) parts.push(`${delayedWork} due`);
      busy.push(`${component.component}/${loop.name} (${parts.join(', ')})`);
    }
  }
  return busy;
}
