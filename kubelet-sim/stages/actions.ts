/**
 * The actions a stage can perform: each edits a draft of the pod's status (and the
 * simulated runtime's memory) the way the kubelet's status manager would after that step,
 * and lists the Events and container starts/exits it causes. Pure apart from editing the
 * draft it is given.
 */
import type { ContainerStatus, PodStatus } from '../../apiserver/api/core/pod-status.js';
import { rfc3339 } from '../../apiserver/api/machinery/time.js';
import { nextBackoff } from './backoff.js';
import { type ContainerRef, hasRun } from './classify.js';
import { crashLoopStatus, runningStatus, terminatedStatus, waitingStatus } from './container-status.js';
import {
  crashBackoffOf,
  type EvalContext,
  type ExitPlan,
  exitPlanOf,
  podLabel,
  probeDecides,
  probeResultOf,
  pullBackoffOf,
  readinessDelayMs,
  sinceMs,
} from './context.js';
import { DEFAULT_GRACE_SECONDS } from './delays.js';
import { GUARDS } from './guards.js';
import { Action, Guard } from './stage.js';
import type { ContainerChange, PodMemory, StageEvent } from './types.js';

/** Draft is the result being built by one action. */
export interface Draft {
  status: PodStatus;
  memory: PodMemory;
  events: StageEvent[];
  changes: ContainerChange[];
  delete: boolean;
}

type ActionFn = (ctx: EvalContext, ref: ContainerRef | undefined, draft: Draft) => void;

/** formatDuration writes a duration as Go's time.Duration does (300ms, 10s, 1m20s, 5m0s). */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const totalSeconds = ms / 1000;
  if (totalSeconds < 60) return `${+totalSeconds.toFixed(3)}s`;
  const minutes = Math.floor(totalSeconds / 60);
  return `${minutes}m${+(totalSeconds - minutes * 60).toFixed(3)}s`;
}

/** setContainer replaces (or adds) the container's entry in the right status list. */
function setContainer(draft: Draft, ref: ContainerRef, status: ContainerStatus): void {
  const list = ref.ephemeral
    ? (draft.status.ephemeralContainerStatuses ??= [])
    : ref.init
      ? (draft.status.initContainerStatuses ??= [])
      : (draft.status.containerStatuses ??= []);
  const index = list.findIndex((entry) => entry.name === ref.name);
  if (index >= 0) list[index] = status;
  else list.push(status);
}

const event = (type: StageEvent['type'], reason: string, message: string): StageEvent => ({ type, reason, message });

/** acknowledge is the kubelet's first report: Pending, host IP, start time, every container
 * waiting (PodInitializing when init containers come first, else ContainerCreating). */
function acknowledge(ctx: EvalContext, _ref: ContainerRef | undefined, draft: Draft): void {
  const { node, nowMs } = ctx.input;
  const reason = ctx.refs.some((ref) => ref.init) ? 'PodInitializing' : 'ContainerCreating';
  draft.status.hostIP = node.hostIP;
  draft.status.hostIPs = [{ ip: node.hostIP }];
  draft.status.startTime = rfc3339(nowMs);
  for (const ref of ctx.refs) setContainer(draft, ref, waitingStatus({ ...ref, status: undefined }, reason));
}

/** start runs the container: its first run after the image pull, or a restart (which
 * advances the crash backoff, as the kubelet's backOff.Next does). */
function start(ctx: EvalContext, ref: ContainerRef, draft: Draft): void {
  const { pod, node, nowMs } = ctx.input;
  const restart = hasRun(ref.status);
  // A container the prober watches starts unready: its readiness probe has not run yet.
  const ready =
    !ref.ephemeral &&
    (!ref.init || ref.spec.restartPolicy === 'Always') &&
    !probeDecides(ctx, ref, 'Readiness') &&
    GUARDS[Guard.ReadinessPasses](ctx, ref) &&
    readinessDelayMs(ctx, ref) === 0;
  const running = runningStatus(ref, { podUid: pod.metadata.uid ?? '', nowMs, ready });
  // A startup probe holds `started` (and so the other probes) until it succeeds.
  if (probeDecides(ctx, ref, 'Startup')) running.started = false;
  setContainer(draft, ref, running);
  draft.status.podIP ??= node.podIP;
  draft.status.podIPs ??= [{ ip: draft.status.podIP }];
  delete draft.memory.backoff[`pull:${ref.key}`];
  if (restart) draft.memory.backoff[`crash:${ref.key}`] = nextBackoff(crashBackoffOf(ctx, ref), sinceMs(ctx, ref.key), nowMs);
  const image = ref.spec.image ?? '';
  const pullMs = ctx.input.behaviour.imagePullMs;
  const pulled = restart
    ? [event('Normal', 'Pulled', `Container image "${image}" already present on machine`)]
    : [
        event('Normal', 'Pulling', `Pulling image "${image}"`),
        event('Normal', 'Pulled', `Successfully pulled image "${image}" in ${formatDuration(pullMs)} (${formatDuration(pullMs)} including waiting)`),
      ];
  draft.events.push(...pulled, event('Normal', 'Created', `Created container ${ref.name}`), event('Normal', 'Started', `Started container ${ref.name}`));
  draft.changes.push({ container: ref.name, change: 'started' });
}

function failPull(ctx: EvalContext, ref: ContainerRef, draft: Draft): void {
  const image = ref.spec.image ?? '';
  const message = `failed to pull and unpack image "${image}": simulated pull failure (kubesim.io/image-pull=error)`;
  setContainer(draft, ref, waitingStatus(ref, 'ErrImagePull', message));
  const key = `pull:${ref.key}`;
  draft.memory.backoff[key] = nextBackoff(pullBackoffOf(ctx, ref), ctx.input.nowMs, ctx.input.nowMs);
  draft.events.push(
    event('Normal', 'Pulling', `Pulling image "${image}"`),
    event('Warning', 'Failed', `Failed to pull image "${image}": ${message}`),
    event('Warning', 'Failed', 'Error: ErrImagePull'),
  );
}

function backOffPull(_ctx: EvalContext, ref: ContainerRef, draft: Draft): void {
  const message = `Back-off pulling image "${ref.spec.image ?? ''}"`;
  setContainer(draft, ref, waitingStatus(ref, 'ImagePullBackOff', message));
  draft.events.push(event('Normal', 'BackOff', message), event('Warning', 'Failed', 'Error: ImagePullBackOff'));
}

function becomeReady(_ctx: EvalContext, ref: ContainerRef, draft: Draft): void {
  setContainer(draft, ref, { ...(structuredClone(ref.status) as ContainerStatus), ready: true });
}

function becomeUnready(_ctx: EvalContext, ref: ContainerRef, draft: Draft): void {
  setContainer(draft, ref, { ...(structuredClone(ref.status) as ContainerStatus), ready: false });
}

function markStarted(_ctx: EvalContext, ref: ContainerRef, draft: Draft): void {
  setContainer(draft, ref, { ...(structuredClone(ref.status) as ContainerStatus), started: true });
}

/** killUnhealthy: the kubelet sends SIGTERM to a container whose liveness (or startup) probe
 * failed. A process that honours it (a server: exit 0) stops after its stop time; one that
 * ignores it is killed (137) when the grace period ends — the probe's
 * terminationGracePeriodSeconds, else the pod's. */
function killUnhealthy(ctx: EvalContext, ref: ContainerRef, draft: Draft): void {
  const probe = probeDecides(ctx, ref, 'Liveness') && probeResultOf(ctx, ref, 'Liveness') === 'failure' ? 'liveness' : 'startup';
  const exitCode = ctx.input.probes?.[ref.name]?.stopExitCode ?? 137;
  const { pod, behaviour, nowMs } = ctx.input;
  const spec = probe === 'liveness' ? ref.spec.livenessProbe : ref.spec.startupProbe;
  const graceMs = (spec?.terminationGracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS) * 1000;
  const stopMs = exitCode === 0 ? Math.min(graceMs, behaviour.stopMs) : graceMs;
  draft.memory.kills = { ...draft.memory.kills, [ref.key]: { atMs: nowMs, stopMs, exitCode, probe } };
  const restart = pod.spec.restartPolicy !== 'Never';
  draft.events.push(event('Normal', 'Killing', `Container ${ref.name} failed ${probe} probe${restart ? ', will be restarted' : ''}`));
}

/** stopUnhealthy: the killed container has exited; the restart stages then apply
 * restartPolicy and the crash backoff. */
function stopUnhealthy(ctx: EvalContext, ref: ContainerRef, draft: Draft): void {
  const kill = ctx.memory.kills?.[ref.key];
  const exitCode = kill?.exitCode ?? 137;
  setContainer(draft, ref, terminatedStatus(ref, { nowMs: ctx.input.nowMs, exitCode }));
  if (draft.memory.kills) delete draft.memory.kills[ref.key];
  draft.changes.push({ container: ref.name, change: 'exited', exitCode, reason: `stopped: failed ${kill?.probe ?? 'liveness'} probe` });
}

function exit(ctx: EvalContext, ref: ContainerRef, draft: Draft): void {
  const plan: Omit<ExitPlan, 'afterMs'> = exitPlanOf(ctx, ref) ?? { exitCode: 0, reason: 'exited' };
  setContainer(draft, ref, terminatedStatus(ref, { nowMs: ctx.input.nowMs, exitCode: plan.exitCode, ...plan.termination }));
  draft.changes.push({ container: ref.name, change: 'exited', exitCode: plan.exitCode, reason: plan.reason });
}

function backOffCrash(ctx: EvalContext, ref: ContainerRef, draft: Draft): void {
  const backoff = formatDuration(crashBackoffOf(ctx, ref)?.durationMs ?? 0);
  setContainer(draft, ref, crashLoopStatus(ref, `back-off ${backoff} restarting failed container=${ref.name} pod=${podLabel(ctx)}`));
  draft.events.push(event('Warning', 'BackOff', `Back-off restarting failed container ${ref.name} in pod ${podLabel(ctx)}`));
}

/** remove: the containers stopped (SIGTERM honoured); the kubelet confirms the deletion. */
function remove(ctx: EvalContext, _ref: ContainerRef | undefined, draft: Draft): void {
  draft.delete = true;
  for (const ref of ctx.refs.filter((r) => r.status?.state?.running)) {
    draft.events.push(event('Normal', 'Killing', `Stopping container ${ref.name}`));
    draft.changes.push({ container: ref.name, change: 'exited', exitCode: 0, reason: 'stopped: the pod was deleted (SIGTERM)' });
  }
}

const forContainer =
  (fn: (ctx: EvalContext, ref: ContainerRef, draft: Draft) => void): ActionFn =>
  (ctx, ref, draft) => {
    if (!ref) throw new Error('a container action needs a container target');
    fn(ctx, ref, draft);
  };

/** ACTIONS implements every Action word. */
export const ACTIONS: Record<Action, ActionFn> = {
  [Action.Acknowledge]: acknowledge,
  [Action.Start]: forContainer(start),
  [Action.FailPull]: forContainer(failPull),
  [Action.BackOffPull]: forContainer(backOffPull),
  [Action.BecomeReady]: forContainer(becomeReady),
  [Action.BecomeUnready]: forContainer(becomeUnready),
  [Action.MarkStarted]: forContainer(markStarted),
  [Action.KillUnhealthy]: forContainer(killUnhealthy),
  [Action.StopUnhealthy]: forContainer(stopUnhealthy),
  [Action.Exit]: forContainer(exit),
  [Action.BackOffCrash]: forContainer(backOffCrash),
  // Nothing to change in the containers: applyPlan recomputes phase and conditions anyway.
  [Action.SyncStatus]: () => undefined,
  [Action.Delete]: remove,
};
