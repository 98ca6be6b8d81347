/**
 * How the Job controller sees a pod: active, terminating, finished (succeeded or failed),
 * tracked by the job-tracking finalizer or not, and which completion index it holds.
 * Kubernetes' job controller predicates (IsPodActive, isPodFailed, getCompletionIndex). Pure.
 */
import type { Pod } from '../../apiserver/api/core/pod.js';
import { indexByControllerOfKind } from '../runtime/indexers.js';
import type { DeepReadonly } from '../runtime/types.js';

/** JOB_TRACKING_FINALIZER keeps a finished pod around until the Job has counted it. */
export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';
/** COMPLETION_INDEX_ANNOTATION (and label) carries an Indexed Job pod's index. */
export const COMPLETION_INDEX_ANNOTATION = 'batch.kubernetes.io/job-completion-index';
/** JOB_COMPLETION_INDEX_ENV is the environment variable exposing the index to containers. */
export const JOB_COMPLETION_INDEX_ENV = 'JOB_COMPLETION_INDEX';

export type ReadonlyPod = DeepReadonly<Pod>;

/** isPodTerminal is true for a pod whose phase is Succeeded or Failed. */
export function isPodTerminal(pod: ReadonlyPod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/** isPodActive is true for a pod that is neither finished nor being deleted. */
export function isPodActive(pod: ReadonlyPod): boolean {
  return !isPodTerminal(pod) && pod.metadata.deletionTimestamp === undefined;
}

/** isPodSucceeded: the pod's containers all exited 0. */
export function isPodSucceeded(pod: ReadonlyPod): boolean {
  return pod.status?.phase === 'Succeeded';
}

/** isPodFailed follows kube's isPodFailed: phase Failed, or — unless the Job replaces only
 * Failed pods — deleted before it succeeded (an orphan that never reaches a terminal phase). */
export function isPodFailed(pod: ReadonlyPod, onlyReplaceFailed: boolean): boolean {
  if (pod.status?.phase === 'Failed') return true;
  if (onlyReplaceFailed) return false;
  return pod.metadata.deletionTimestamp !== undefined && pod.status?.phase !== 'Succeeded';
}

/** hasTrackingFinalizer is true while the Job has not yet accounted for the pod. */
export function hasTrackingFinalizer(pod: ReadonlyPod): boolean {
  return (pod.metadata.finalizers ?? []).includes(JOB_TRACKING_FINALIZER);
}

/** completionIndexOf reads a pod's completion index, or undefined when absent or invalid. */
export function completionIndexOf(pod: ReadonlyPod, completions: number): number | undefined {
  const text = pod.metadata.annotations?.[COMPLETION_INDEX_ANNOTATION];
  if (text === undefined || !/^\d+$/.test(text)) return undefined;
  const index = Number.parseInt(text, 10);
  return index < completions ? index : undefined;
}

/** lastFinishedAtMs is when the pod's last container terminated (undefined if unknown). */
export function lastFinishedAtMs(pod: ReadonlyPod): number | undefined {
  const times = (pod.status?.containerStatuses ?? [])
    .map((status) => status.state?.terminated?.finishedAt)
    .filter((at): at is string => typeof at === 'string')
    .map((at) => Date.parse(at));
  return times.length === 0 ? undefined : Math.max(...times);
}

/** JOB_UID_INDEX files pods under the uid of the Job controlling them (see indexByJobUid). */
export const JOB_UID_INDEX = 'jobControllerUid';

/** indexByJobUid files a pod under its controller's uid when that controller is a Job. */
export const indexByJobUid = indexByControllerOfKind('Job');
