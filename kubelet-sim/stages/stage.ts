/**
 * The Stage: one row of pod behaviour as data (after KWOK's Stage, with a closed vocabulary
 * instead of templates). A stage says: for a target (the pod, or one of its containers) in a
 * given phase, when all `if` guards hold and no `unless` guard does, wait `delay` from the
 * moment the target entered that phase, then perform `next`.
 *
 * The words (phases, guards, delays, actions) are defined by classify.ts, guards.ts,
 * delays.ts and actions.ts; the default table is default-pod-stages.ts; engine.ts runs it.
 */
import { z } from 'zod';

/** PodPhaseName classifies a pod from the kubelet's point of view (not status.phase). */
export const PodStagePhase = {
  /** Bound here, but this kubelet has not reported on it yet (no status.startTime). */
  Unacknowledged: 'Unacknowledged',
  /** metadata.deletionTimestamp is set. */
  Deleting: 'Deleting',
  /** Acknowledged, not deleting, not finished: its containers move. */
  Active: 'Active',
  /** Like Active, but its phase or conditions disagree with its containers: someone else
   * wrote them (the node lifecycle controller marks pods of an unreachable node not ready). */
  Drifted: 'Drifted',
  /** Succeeded or Failed: nothing moves any more. */
  Terminal: 'Terminal',
} as const;
export type PodStagePhase = (typeof PodStagePhase)[keyof typeof PodStagePhase];

/** ContainerPhase classifies one container status (init or app). */
export const ContainerPhase = {
  /** Waiting to be created (ContainerCreating / PodInitializing) and never ran. */
  Creating: 'Creating',
  PullFailed: 'PullFailed',
  PullBackOff: 'PullBackOff',
  /** Running, not (yet) ready. */
  Running: 'Running',
  Ready: 'Ready',
  /** Terminated; restarts (or not) from here. */
  Exited: 'Exited',
  /** Waiting in CrashLoopBackOff after a termination. */
  CrashLoop: 'CrashLoop',
} as const;
export type ContainerPhase = (typeof ContainerPhase)[keyof typeof ContainerPhase];

/** Guard names a predicate over a container (see guards.ts). */
export const Guard = {
  /** An app container (not an init container). */
  App: 'app',
  /** The container may start: init containers after every earlier one completed, app
   * containers after every init container did. */
  MayStart: 'mayStart',
  PullFails: 'pullFails',
  ReadinessPasses: 'readinessPasses',
  /** The container exits by itself (init containers, crash-after, run-seconds). */
  WillExit: 'willExit',
  /** restartPolicy and exit code call for a restart. */
  ShouldRestart: 'shouldRestart',
  /** The crash backoff has not expired yet. */
  InBackoff: 'inBackoff',
  /** The prober decides readiness and its result is not success (kubelet-sim/probes). */
  ReadinessFails: 'readinessFails',
  /** The startup probe succeeded for a container not yet marked started. */
  StartupPassed: 'startupPassed',
  /** The liveness or startup probe failed: the kubelet kills the container. */
  ProbeFailed: 'probeFailed',
  /** The kubelet is stopping the container for a failed probe. */
  Stopping: 'stopping',
} as const;
export type Guard = (typeof Guard)[keyof typeof Guard];

/** Delay names how long a stage waits (see delays.ts). */
export const Delay = {
  None: 'none',
  /** The kubelet's next sync of the pod. */
  Sync: 'sync',
  Pull: 'pull',
  PullAndStart: 'pullAndStart',
  Startup: 'startup',
  PullBackoff: 'pullBackoff',
  CrashBackoff: 'crashBackoff',
  Readiness: 'readiness',
  Exit: 'exit',
  /** Until a container killed for a failed probe has stopped. */
  ProbeStop: 'probeStop',
  /** min(grace period, the container's stop time). */
  Stop: 'stop',
} as const;
export type Delay = (typeof Delay)[keyof typeof Delay];

/** Action names what a stage does when its delay has passed (see actions.ts). */
export const Action = {
  Acknowledge: 'acknowledge',
  Start: 'start',
  FailPull: 'failPull',
  BackOffPull: 'backOffPull',
  BecomeReady: 'becomeReady',
  BecomeUnready: 'becomeUnready',
  MarkStarted: 'markStarted',
  /** Stop a container that failed its liveness or startup probe (Killing). */
  KillUnhealthy: 'killUnhealthy',
  /** The container stopped after a probe kill: terminated. */
  StopUnhealthy: 'stopUnhealthy',
  Exit: 'exit',
  BackOffCrash: 'backOffCrash',
  /** Rewrite the pod-level phase and conditions from the container statuses. */
  SyncStatus: 'syncStatus',
  Delete: 'delete',
} as const;
export type Action = (typeof Action)[keyof typeof Action];

const values = <T extends Record<string, string>>(o: T) => Object.values(o) as [T[keyof T], ...T[keyof T][]];

const PodStageSchema = z.object({
  name: z.string().min(1),
  description: z.string(),
  target: z.literal('pod'),
  when: z.array(z.enum(values(PodStagePhase))).min(1),
  delay: z.enum(values(Delay)),
  next: z.enum(values(Action)),
});

const ContainerStageSchema = z.object({
  name: z.string().min(1),
  description: z.string(),
  target: z.literal('container'),
  when: z.array(z.enum(values(ContainerPhase))).min(1),
  if: z.array(z.enum(values(Guard))).default([]),
  unless: z.array(z.enum(values(Guard))).default([]),
  delay: z.enum(values(Delay)),
  /** Added to the delay, scaled by a stable per-container hash in [0, 1). */
  jitterMs: z.number().nonnegative().default(0),
  next: z.enum(values(Action)),
});

/** StageSchema validates one stage row; tables are checked at load (parseStages). */
export const StageSchema = z.discriminatedUnion('target', [PodStageSchema, ContainerStageSchema]);

export type Stage = z.infer<typeof StageSchema>;
export type PodStage = z.infer<typeof PodStageSchema>;
export type ContainerStage = z.infer<typeof ContainerStageSchema>;

/** parseStages validates a stage table (throws a ZodError naming the bad row and field). */
export function parseStages(rows: unknown): Stage[] {
  return z.array(StageSchema).parse(rows);
}
