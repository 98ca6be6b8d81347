/**
 * Pure questions about a pod that the workload controllers ask over and over (Kubernetes'
 * podutil.IsPodReady / IsPodAvailable and controller.IsPodActive). They read cached objects
 * only and never mutate them.
 */
import type { Pod } from '../../../apiserver/api/core/pod.js';
import type { DeepReadonly } from '../types.js';
import { parseTimeMs } from '../../../apiserver/api/machinery/time.js';

/** ReadonlyPod is a pod as the informer cache hands it out: shared, never to be edited. */
export type ReadonlyPod = DeepReadonly<Pod>;

/** isPodActive is true for a pod that still counts as a replica: not Succeeded or Failed and
 * not being deleted (controller.IsPodActive). */
export function isPodActive(pod: ReadonlyPod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && pod.metadata.deletionTimestamp === undefined;
}

/** isPodTerminating is true for a pod being deleted that has not yet reached a terminal phase
 * (controller.FilterTerminatingPods). */
export function isPodTerminating(pod: ReadonlyPod): boolean {
  const phase = pod.status?.phase;
  return pod.metadata.deletionTimestamp !== undefined && phase !== 'Succeeded' && phase !== 'Failed';
}

/** readyCondition returns the pod's Ready condition, if any. */
function readyCondition(pod: ReadonlyPod) {
  return pod.status?.conditions?.find((condition) => condition.type === 'Ready');
}

/** isPodReady is true when the pod's Ready condition is True. */
export function isPodReady(pod: ReadonlyPod): boolean {
  return readyCondition(pod)?.status === 'True';
}

/** podReadySinceMs is when a ready pod last became Ready (its Ready condition's
 * lastTransitionTime); undefined when the pod is not ready or the time is unknown. */
export function podReadySinceMs(pod: ReadonlyPod): number | undefined {
  const condition = readyCondition(pod);
  return condition?.status === 'True' ? parseTimeMs(condition.lastTransitionTime) : undefined;
}

/**
 * isPodAvailable is true when the pod is ready and has been ready for at least
 * `minReadySeconds` at `nowMs` (podutil.IsPodAvailable). With minReadySeconds 0 every ready
 * pod is available; otherwise a ready pod whose transition time is unknown is not.
 */
export function isPodAvailable(pod: ReadonlyPod, minReadySeconds: number, nowMs: number): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds <= 0) return true;
  const since = podReadySinceMs(pod);
  return since !== undefined && since + minReadySeconds * 1000 < nowMs;
}

/** maxContainerRestarts is the highest restartCount among the pod's containers (0 if none). */
export function maxContainerRestarts(pod: ReadonlyPod): number {
  return Math.max(0, ...(pod.status?.containerStatuses ?? []).map((status) => status.restartCount));
}
