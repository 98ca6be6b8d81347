/**
 * The guards a stage can require (`if`) or exclude (`unless`): small named predicates over
 * one container in an evaluation. Pure.
 */
import { isInBackoffSince } from './backoff.js';
import { type ContainerRef, hasCompleted, isSidecar } from './classify.js';
import { crashBackoffOf, type EvalContext, exitPlanOf, probeDecides, probeResultOf, sinceMs } from './context.js';
import { Guard } from './stage.js';

type GuardFn = (ctx: EvalContext, ref: ContainerRef) => boolean;

/** shouldRestart applies restartPolicy to the container's last exit (kubelet's
 * ShouldContainerBeRestarted): sidecars always restart, plain init containers only after
 * a failure (and never under Never), app containers per the policy. */
function shouldRestart(ctx: EvalContext, ref: ContainerRef): boolean {
  const exitCode = ref.status?.state?.terminated?.exitCode ?? 0;
  const policy = ctx.input.pod.spec.restartPolicy ?? 'Always';
  if (ref.ephemeral) return false;
  if (isSidecar(ref)) return true;
  if (ref.init) return exitCode !== 0 && policy !== 'Never';
  if (policy === 'Always') return true;
  return policy === 'OnFailure' && exitCode !== 0;
}

/** mayStart: init containers start one at a time in order; app containers after all. */
function mayStart(ctx: EvalContext, ref: ContainerRef): boolean {
  const inits = ctx.refs.filter((other) => other.init);
  const before = ref.init ? inits.slice(0, ref.index) : inits;
  return before.every(hasCompleted);
}

/** readinessPasses: the annotation says fail → never; the prober decides → its success once the
 * container started; else always (after the readiness delay). */
function readinessPasses(ctx: EvalContext, ref: ContainerRef): boolean {
  if (ctx.input.behaviour.readiness === 'fail') return false;
  if (!probeDecides(ctx, ref, 'Readiness')) return true;
  return ref.status?.started !== false && probeResultOf(ctx, ref, 'Readiness') === 'success';
}

/** probeFailed: the liveness or startup probe concluded failure for this run. */
function probeFailed(ctx: EvalContext, ref: ContainerRef): boolean {
  const failed = (kind: 'Liveness' | 'Startup') => probeDecides(ctx, ref, kind) && probeResultOf(ctx, ref, kind) === 'failure';
  return failed('Liveness') || failed('Startup');
}

/** GUARDS implements every Guard word. */
export const GUARDS: Record<Guard, GuardFn> = {
  [Guard.App]: (_ctx, ref) => !ref.init && !ref.ephemeral,
  [Guard.MayStart]: mayStart,
  [Guard.PullFails]: (ctx) => ctx.input.behaviour.imagePull === 'error',
  [Guard.ReadinessPasses]: readinessPasses,
  [Guard.WillExit]: (ctx, ref) => exitPlanOf(ctx, ref) !== undefined,
  [Guard.ShouldRestart]: shouldRestart,
  // The exit happened when the container entered Exited; the kubelet waits if a backoff
  // record says so (isInBackoffSince).
  [Guard.InBackoff]: (ctx, ref) => isInBackoffSince(crashBackoffOf(ctx, ref), sinceMs(ctx, ref.key), ctx.input.nowMs),
  [Guard.ReadinessFails]: (ctx, ref) => probeDecides(ctx, ref, 'Readiness') && !readinessPasses(ctx, ref),
  [Guard.StartupPassed]: (ctx, ref) => ref.status?.started === false && probeResultOf(ctx, ref, 'Startup') === 'success',
  [Guard.ProbeFailed]: probeFailed,
  [Guard.Stopping]: (ctx, ref) => ctx.memory.kills?.[ref.key] !== undefined,
};
