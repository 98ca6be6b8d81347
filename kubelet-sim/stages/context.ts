/**
 * EvalContext: one evaluation's view of the pod (its container refs and the observed
 * memory), shared by the guards, delays and actions. Pure helpers only.
 */

import { parseTimeMs } from '../../apiserver/api/machinery/time.js';
import { runsInUserland } from '../main-process/runs-in-userland.js';
import type { ProbeKind, ProbeResult } from '../probes/results.js';
import { backoffFromRestarts } from './backoff.js';
import { type ContainerRef, containerPhase, containerRefs, POD_TARGET } from './classify.js';
import { ContainerPhase } from './stage.js';
import type { BackoffEntry, PodMemory, StageInput } from './types.js';

/** EvalContext is what every guard, delay and action reads. Never mutated. */
export interface EvalContext {
  readonly input: StageInput;
  /** The memory after observing the pod (every target has an entry). */
  readonly memory: PodMemory;
  readonly refs: readonly ContainerRef[];
}

/** createContext builds the context for `input` with already-observed `memory`. */
export function createContext(input: StageInput, memory: PodMemory): EvalContext {
  return { input, memory, refs: containerRefs(input.pod) };
}

/** sinceMs is when the target entered its current state (now when unknown). */
export function sinceMs(ctx: EvalContext, target: string): number {
  return ctx.memory.targets[target]?.sinceMs ?? ctx.input.nowMs;
}

/**
 * clockStartMs is when the target's current stage clock started: its sinceMs, except that a
 * container still to be created cannot start pulling before the containers it waits for
 * (earlier init containers; all init containers for an app container) finished.
 */
export function clockStartMs(ctx: EvalContext, ref: ContainerRef): number {
  const own = sinceMs(ctx, ref.key);
  if (containerPhase(ref.status) !== ContainerPhase.Creating) return own;
  const blockers = ctx.refs.filter((other) => other.init && (!ref.init || other.index < ref.index));
  return Math.max(own, ...blockers.map((other) => sinceMs(ctx, other.key)));
}

/** podSinceMs is sinceMs of the pod-level target. */
export function podSinceMs(ctx: EvalContext): number {
  return sinceMs(ctx, POD_TARGET);
}

/**
 * crashBackoffOf is the container's restart-backoff record: from memory, else rebuilt from
 * its restart count and the start of its last run (see backoffFromRestarts).
 */
export function crashBackoffOf(ctx: EvalContext, ref: ContainerRef): BackoffEntry | undefined {
  const remembered = ctx.memory.backoff[`crash:${ref.key}`];
  if (remembered) return remembered;
  const lastRun = ref.status?.state?.terminated ?? ref.status?.lastState?.terminated;
  return backoffFromRestarts(ref.status?.restartCount ?? 0, parseTimeMs(lastRun?.startedAt));
}

/** pullBackoffOf is the container's image-pull backoff record, if any. */
export function pullBackoffOf(ctx: EvalContext, ref: ContainerRef): BackoffEntry | undefined {
  return ctx.memory.backoff[`pull:${ref.key}`];
}

/** readinessDelayMs: the annotation, else the readinessProbe's initialDelaySeconds, else 0;
 * 0 when the prober decides (its result arriving is what moves the container). */
export function readinessDelayMs(ctx: EvalContext, ref: ContainerRef): number {
  if (probeDecides(ctx, ref, 'Readiness')) return 0;
  return ctx.input.behaviour.readyAfterMs ?? (ref.spec.readinessProbe?.initialDelaySeconds ?? 0) * 1000;
}

const PROBE_FIELDS = { Startup: 'startupProbe', Liveness: 'livenessProbe', Readiness: 'readinessProbe' } as const;

/** probeDecides: a prober runs and the container declares this probe; readiness stays with the
 * kubesim.io readiness annotations when the pod has them, and with the start for sidecars. */
export function probeDecides(ctx: EvalContext, ref: ContainerRef, kind: ProbeKind): boolean {
  if (!ctx.input.probes || !ref.spec[PROBE_FIELDS[kind]]) return false;
  if (kind !== 'Readiness') return true;
  const { behaviour } = ctx.input;
  return !ref.init && behaviour.readyAfterMs === undefined && behaviour.readiness !== 'fail';
}

/** probeResultOf: the prober's result for the container's current run (undefined: none yet). */
export function probeResultOf(ctx: EvalContext, ref: ContainerRef, kind: ProbeKind): ProbeResult | undefined {
  const known = ctx.input.probes?.[ref.name];
  return known && known.containerID === ref.status?.containerID ? known.results[kind] : undefined;
}

/** ExitPlan is how a container's current run will end. */
export interface ExitPlan {
  afterMs: number;
  exitCode: number;
  /** Why, for the container's last log line. */
  reason: string;
  /** The termination's reason and message when it is not Completed/Error (StartError). */
  termination?: { reason: string; message?: string };
}

/** exitPlanOf: init containers finish after initRunMs with 0; app containers crash or
 * complete per the behaviour, whichever comes first; undefined = runs until stopped. */
export function exitPlanOf(ctx: EvalContext, ref: ContainerRef): ExitPlan | undefined {
  const { behaviour } = ctx.input;
  // A kubelet that runs main processes passes their exits; golden tests and simulate() do not.
  if (ctx.input.processExits && runsInUserland(ctx.input.pod, ref.spec)) return processExitPlan(ctx, ref);
  // The pod's behaviour annotations script its own containers, not a debug container.
  if (ref.ephemeral) return undefined;
  if (ref.init) return ref.spec.restartPolicy === 'Always' ? undefined : { afterMs: behaviour.initRunMs, exitCode: 0, reason: 'initialisation finished' };
  const crash = behaviour.crashAfterMs;
  const run = behaviour.runMs;
  if (crash !== undefined && (run === undefined || crash < run)) {
    return { afterMs: crash, exitCode: behaviour.exitCode, reason: `simulated crash after ${crash / 1000}s (kubesim.io/crash-after-seconds)` };
  }
  if (run !== undefined) return { afterMs: run, exitCode: 0, reason: `work finished after ${run / 1000}s` };
  return undefined;
}

/** processExitPlan: a container whose main process runs in the userland exits when (and how)
 * that process ended in its current run; until then it runs. */
function processExitPlan(ctx: EvalContext, ref: ContainerRef): ExitPlan | undefined {
  const exit = ctx.input.processExits?.[ref.name];
  if (!exit || exit.restartCount !== (ref.status?.restartCount ?? 0)) return undefined;
  const termination = exit.reason ? { reason: exit.reason, message: exit.message } : undefined;
  return { afterMs: Math.max(0, exit.atMs - sinceMs(ctx, ref.key)), exitCode: exit.exitCode, reason: 'the main process exited', termination };
}

/** podLabel is `name_namespace(uid)`, the kubelet's way of naming a pod in messages. */
export function podLabel(ctx: EvalContext): string {
  const meta = ctx.input.pod.metadata;
  return `${meta.name}_${meta.namespace}(${meta.uid ?? ''})`;
}
