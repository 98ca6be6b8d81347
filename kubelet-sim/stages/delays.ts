/**
 * The delays a stage can wait, each measured from the moment its target entered the
 * current state. Pure.
 */
import { KUBELET_BACKOFF } from './backoff.js';
import type { ContainerRef } from './classify.js';
import { clockStartMs, crashBackoffOf, type EvalContext, exitPlanOf, pullBackoffOf, readinessDelayMs } from './context.js';
import { Delay } from './stage.js';

/** SYNC_DELAY_MS stands for the kubelet's next look at a pod after it reported a failure. */
export const SYNC_DELAY_MS = 1000;

/** DEFAULT_GRACE_SECONDS is terminationGracePeriodSeconds when the pod does not say. */
export const DEFAULT_GRACE_SECONDS = 30;

type DelayFn = (ctx: EvalContext, ref: ContainerRef | undefined) => number;

/** stopDelayMs: containers get SIGTERM and stop after their stop time, but never later than
 * the grace period allows. */
function stopDelayMs(ctx: EvalContext): number {
  const { pod, behaviour } = ctx.input;
  const graceSeconds = pod.metadata.deletionGracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS;
  return Math.min(graceSeconds * 1000, behaviour.stopMs);
}

const needsRef =
  (fn: (ctx: EvalContext, ref: ContainerRef) => number): DelayFn =>
  (ctx, ref) =>
    ref ? fn(ctx, ref) : 0;

/** DELAYS implements every Delay word. */
export const DELAYS: Record<Delay, DelayFn> = {
  [Delay.None]: () => 0,
  [Delay.Sync]: () => SYNC_DELAY_MS,
  [Delay.Pull]: (ctx) => ctx.input.behaviour.imagePullMs,
  [Delay.PullAndStart]: (ctx) => ctx.input.behaviour.imagePullMs + ctx.input.behaviour.startupMs,
  [Delay.Startup]: (ctx) => ctx.input.behaviour.startupMs,
  [Delay.PullBackoff]: needsRef((ctx, ref) => pullBackoffOf(ctx, ref)?.durationMs ?? KUBELET_BACKOFF.initialMs),
  [Delay.CrashBackoff]: needsRef((ctx, ref) => crashBackoffOf(ctx, ref)?.durationMs ?? 0),
  [Delay.Readiness]: needsRef(readinessDelayMs),
  [Delay.Exit]: needsRef((ctx, ref) => exitPlanOf(ctx, ref)?.afterMs ?? 0),
  [Delay.ProbeStop]: needsRef((ctx, ref) => {
    const kill = ctx.memory.kills?.[ref.key];
    return kill ? kill.atMs + kill.stopMs - clockStartMs(ctx, ref) : 0;
  }),
  [Delay.Stop]: stopDelayMs,
};
