/**
 * The default pod stages: the whole simulated pod lifecycle as a table. Rows are data
 * (validated by StageSchema at load); the engine picks, among the rows whose target, phase
 * and guards match, the one due first (ties: earlier row, then earlier container).
 *
 * A TypeScript constant rather than a YAML file: tsc does not copy data files into dist/,
 * and a constant costs nothing at start-up. docs/kubelet-sim.md shows the same table.
 */
import { Action, ContainerPhase as C, Delay, Guard, PodStagePhase as P, parseStages } from './stage.js';

/** DEFAULT_POD_STAGES is the stage table kubelet-sim runs unless told otherwise. */
export const DEFAULT_POD_STAGES = parseStages([
  {
    name: 'pod-delete',
    description: 'A deleted pod: containers get SIGTERM; once stopped the kubelet confirms with a delete of grace period 0.',
    target: 'pod',
    when: [P.Deleting],
    delay: Delay.Stop,
    next: Action.Delete,
  },
  {
    name: 'pod-acknowledge',
    description: 'First report of a pod bound here: Pending, hostIP, startTime, containers waiting.',
    target: 'pod',
    when: [P.Unacknowledged],
    delay: Delay.None,
    next: Action.Acknowledge,
  },
  {
    name: 'pod-status-sync',
    description: 'Someone else changed the phase or conditions the kubelet owns: report them again.',
    target: 'pod',
    when: [P.Drifted],
    delay: Delay.None,
    next: Action.SyncStatus,
  },
  {
    name: 'container-start',
    description: 'Pull the image and start the container (init containers one by one, then the app containers).',
    target: 'container',
    when: [C.Creating],
    if: [Guard.MayStart],
    unless: [Guard.PullFails],
    delay: Delay.PullAndStart,
    jitterMs: 100,
    next: Action.Start,
  },
  {
    name: 'image-pull-error',
    description: 'The image pull fails: ErrImagePull.',
    target: 'container',
    when: [C.Creating],
    if: [Guard.MayStart, Guard.PullFails],
    delay: Delay.Pull,
    next: Action.FailPull,
  },
  {
    name: 'image-pull-backoff',
    description: 'After a failed pull the kubelet backs off: ImagePullBackOff.',
    target: 'container',
    when: [C.PullFailed],
    delay: Delay.Sync,
    next: Action.BackOffPull,
  },
  {
    name: 'image-pull-retry',
    description: 'The pull backoff expired and the pull fails again.',
    target: 'container',
    when: [C.PullBackOff],
    if: [Guard.PullFails],
    delay: Delay.PullBackoff,
    next: Action.FailPull,
  },
  {
    name: 'image-pull-recover',
    description: 'The pull backoff expired and the pull now works (the annotation was changed).',
    target: 'container',
    when: [C.PullBackOff],
    unless: [Guard.PullFails],
    delay: Delay.PullBackoff,
    next: Action.Start,
  },
  {
    name: 'container-ready',
    description: 'The readiness probe passes (after initialDelaySeconds or kubesim.io/ready-after-seconds).',
    target: 'container',
    when: [C.Running],
    if: [Guard.App, Guard.ReadinessPasses],
    delay: Delay.Readiness,
    next: Action.BecomeReady,
  },
  {
    name: 'container-exit',
    description: 'The container exits by itself: an init container finishes, or an app container crashes or completes.',
    target: 'container',
    when: [C.Running, C.Ready],
    if: [Guard.WillExit],
    delay: Delay.Exit,
    next: Action.Exit,
  },
  {
    name: 'container-restart',
    description: 'First exit (or first after 10 quiet minutes): restart without backoff.',
    target: 'container',
    when: [C.Exited],
    if: [Guard.ShouldRestart],
    unless: [Guard.InBackoff],
    delay: Delay.Startup,
    next: Action.Start,
  },
  {
    name: 'container-crash-loop',
    description: 'Exited again within the backoff: CrashLoopBackOff.',
    target: 'container',
    when: [C.Exited],
    if: [Guard.ShouldRestart, Guard.InBackoff],
    delay: Delay.None,
    next: Action.BackOffCrash,
  },
  {
    name: 'container-backoff-restart',
    description: 'The crash backoff (10s, doubling, at most 5m) expired: restart.',
    target: 'container',
    when: [C.CrashLoop],
    delay: Delay.CrashBackoff,
    next: Action.Start,
  },
]);
