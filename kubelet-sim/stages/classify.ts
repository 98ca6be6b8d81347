/**
 * Classification: which phase the pod and each of its containers are in, as the stage table
 * sees them, and the "signature" of each target's current state (a change of signature is a
 * transition; the engine times stages from it). Pure.
 */
import type { Container } from '../../apiserver/api/core/container.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { ContainerStatus } from '../../apiserver/api/core/pod-status.js';
import { parseTimeMs } from '../../apiserver/api/machinery/time.js';
import type { DeepReadonly } from '../../controllers/runtime/types.js';
import { isPodLevelStatusCurrent } from './pod-status.js';
import { ContainerPhase, PodStagePhase } from './stage.js';

/** POD_TARGET is the target key of pod-level stages. */
export const POD_TARGET = 'pod';

/** ContainerRef is one container of the pod with its spec and current status. */
export interface ContainerRef {
  /** `init:<name>`, `app:<name>` or `ephemeral:<name>`. */
  key: string;
  name: string;
  init: boolean;
  /** A debug container added through pods/ephemeralcontainers: started once, never restarted,
   * never ready, reported in status.ephemeralContainerStatuses. */
  ephemeral?: boolean;
  /** Position within its list (init or app containers). */
  index: number;
  spec: DeepReadonly<Container>;
  status: DeepReadonly<ContainerStatus> | undefined;
}

/** containerRefs lists init containers in order, then app containers, then ephemeral ones. */
export function containerRefs(pod: DeepReadonly<Pod>): ContainerRef[] {
  const refs = (specs: readonly DeepReadonly<Container>[] | undefined, statuses: readonly DeepReadonly<ContainerStatus>[] | undefined, init: boolean) =>
    (specs ?? []).map((spec, index) => ({
      key: `${init ? 'init' : 'app'}:${spec.name}`,
      name: spec.name,
      init,
      index,
      spec,
      status: statuses?.find((status) => status.name === spec.name),
    }));
  const ephemeral = refs(pod.spec.ephemeralContainers as readonly DeepReadonly<Container>[] | undefined, pod.status?.ephemeralContainerStatuses, false).map(
    (ref) => ({ ...ref, key: `ephemeral:${ref.name}`, ephemeral: true }),
  );
  return [
    ...refs(pod.spec.initContainers, pod.status?.initContainerStatuses, true),
    ...refs(pod.spec.containers, pod.status?.containerStatuses, false),
    ...ephemeral,
  ];
}

/** isSidecar: an init container with restartPolicy Always keeps running beside the app. */
export function isSidecar(ref: Pick<ContainerRef, 'init' | 'spec'>): boolean {
  return ref.init && ref.spec.restartPolicy === 'Always';
}

/** podStagePhase classifies the pod (deletion first: it overrides everything). */
export function podStagePhase(pod: DeepReadonly<Pod>): PodStagePhase {
  if (pod.metadata.deletionTimestamp) return PodStagePhase.Deleting;
  if (!pod.status?.startTime) return PodStagePhase.Unacknowledged;
  const phase = pod.status.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return PodStagePhase.Terminal;
  return isPodLevelStatusCurrent(pod) ? PodStagePhase.Active : PodStagePhase.Drifted;
}

/** containerPhase classifies one container; a container without status is Creating. */
export function containerPhase(status: DeepReadonly<ContainerStatus> | undefined): ContainerPhase {
  const state = status?.state;
  if (state?.running) return status?.ready ? ContainerPhase.Ready : ContainerPhase.Running;
  if (state?.terminated) return ContainerPhase.Exited;
  switch (state?.waiting?.reason) {
    case 'ErrImagePull':
      return ContainerPhase.PullFailed;
    case 'ImagePullBackOff':
      return ContainerPhase.PullBackOff;
    case 'CrashLoopBackOff':
      return ContainerPhase.CrashLoop;
    default:
      return status?.lastState?.terminated ? ContainerPhase.CrashLoop : ContainerPhase.Creating;
  }
}

/** hasRun: the container ran at least once (it has a current or previous termination). */
export function hasRun(status: DeepReadonly<ContainerStatus> | undefined): boolean {
  return !!(status?.state?.terminated || status?.lastState?.terminated);
}

/** hasCompleted: a plain init container that exited 0 (its successors may start). */
export function hasCompleted(ref: ContainerRef): boolean {
  if (isSidecar(ref)) return !!ref.status?.started;
  return ref.status?.state?.terminated?.exitCode === 0;
}

/**
 * containerSignature names the container's current state. Running and Ready share one
 * signature on purpose: readiness does not restart the clock that crash timings run on.
 */
export function containerSignature(status: DeepReadonly<ContainerStatus> | undefined): string {
  const state = status?.state;
  const kind = state?.running ? 'running' : state?.terminated ? 'terminated' : 'waiting';
  return `${kind}:${state?.waiting?.reason ?? ''}:${status?.restartCount ?? 0}`;
}

/** podSignature names the pod-level state. */
export function podSignature(pod: DeepReadonly<Pod>): string {
  const phase = podStagePhase(pod);
  return phase === PodStagePhase.Deleting ? `${phase}:${pod.metadata.deletionTimestamp}` : phase;
}

/** containerSinceFallbackMs is when the status says the container entered its state, for
 * when the kubelet has no memory of it (after a restart); undefined when it cannot say. */
export function containerSinceFallbackMs(status: DeepReadonly<ContainerStatus> | undefined): number | undefined {
  const state = status?.state;
  if (state?.running) return parseTimeMs(state.running.startedAt);
  if (state?.terminated) return parseTimeMs(state.terminated.finishedAt);
  if (state?.waiting?.reason === 'CrashLoopBackOff') return parseTimeMs(status?.lastState?.terminated?.finishedAt);
  return undefined;
}

/** podSinceFallbackMs: a deletion started at deletionTimestamp − grace period. */
export function podSinceFallbackMs(pod: DeepReadonly<Pod>): number | undefined {
  const deletion = parseTimeMs(pod.metadata.deletionTimestamp);
  if (deletion === undefined) return undefined;
  return deletion - (pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
}
