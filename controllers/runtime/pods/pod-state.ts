/**
 * Pure questions about a pod that the workload controllers ask over and over (Kubernetes'
 * controller.IsPodActive and friends; readiness and availability, which the server and the
 * kubelet ask too, are in apiserver/api/core/pod-conditions.ts). They read cached objects
 * only and never mutate them.
 */
import type { Pod } from '../../../apiserver/api/core/pod.js';
import type { DeepReadonly } from '../types.js';

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

/** maxContainerRestarts is the highest restartCount among the pod's containers (0 if none). */
export function maxContainerRestarts(pod: ReadonlyPod): number {
  return Math.max(0, ...(pod.status?.containerStatuses ?? []).map((status) => status.restartCount));
}
