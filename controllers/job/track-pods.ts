/**
 * Finished-pod accounting with the job-tracking finalizer, as Kubernetes does it: a finished
 * pod still carrying the finalizer is first recorded in status.uncountedTerminatedPods (in
 * the same status write that may decide the Job's outcome), then its finalizer is removed,
 * and only once the pod is seen without it (or gone) is it folded into succeeded/failed.
 * A crash between any two steps loses nothing and counts nothing twice. Pure.
 */
import type { Job, JobStatus } from '../../apiserver/api/batch/index.js';
import type { DeepReadonly } from '../runtime/types.js';
import { parseIndexes } from './indexes.js';
import { completionIndexOf, hasTrackingFinalizer, isPodFailed, isPodSucceeded, type ReadonlyPod } from './job-pods.js';
import { matchPodFailurePolicy } from './pod-failure-policy.js';

/** Tracking is the counted state after one pass over the pods. */
export interface Tracking {
  succeeded: number;
  failed: number;
  uncountedSucceeded: Set<string>;
  uncountedFailed: Set<string>;
  /** Indexed Jobs: the indexes with a succeeded pod. */
  completed: Set<number>;
  /** Pods whose finalizer may be removed now (recorded, or failures the policy ignores). */
  release: ReadonlyPod[];
  /** Set when a pod failure matched a FailJob rule. */
  failJobMessage?: string;
}

/** TrackingInput: the Job, its pods, and the uids whose finalizer removal this process has
 * already asked for but the cache does not show yet (so they are not recorded twice). */
export interface TrackingInput {
  job: DeepReadonly<Job>;
  pods: readonly ReadonlyPod[];
  pendingRemovals: ReadonlySet<string>;
}

/** trackPods folds counted pods, records newly finished ones, and lists pods to release. */
export function trackPods({ job, pods, pendingRemovals }: TrackingInput): Tracking {
  const status = (job.status ?? {}) as DeepReadonly<JobStatus>;
  const byUid = new Map(pods.map((pod) => [pod.metadata.uid ?? '', pod]));
  const tracking: Tracking = {
    succeeded: status.succeeded ?? 0,
    failed: status.failed ?? 0,
    uncountedSucceeded: new Set(status.uncountedTerminatedPods?.succeeded ?? []),
    uncountedFailed: new Set(status.uncountedTerminatedPods?.failed ?? []),
    completed: parseIndexes(status.completedIndexes, job.spec.completions ?? 0),
    release: [],
  };
  fold(tracking, byUid);
  for (const pod of pods) recordFinished(tracking, job, pod, pendingRemovals);
  return tracking;
}

/** fold moves uncounted uids whose pod lost its finalizer (or is gone) into the counters. */
function fold(tracking: Tracking, byUid: ReadonlyMap<string, ReadonlyPod>): void {
  const counted = (uid: string) => {
    const pod = byUid.get(uid);
    return pod === undefined || !hasTrackingFinalizer(pod);
  };
  for (const uid of [...tracking.uncountedSucceeded].filter(counted)) {
    tracking.uncountedSucceeded.delete(uid);
    tracking.succeeded++;
  }
  for (const uid of [...tracking.uncountedFailed].filter(counted)) {
    tracking.uncountedFailed.delete(uid);
    tracking.failed++;
  }
}

function recordFinished(tracking: Tracking, job: DeepReadonly<Job>, pod: ReadonlyPod, pendingRemovals: ReadonlySet<string>): void {
  const uid = pod.metadata.uid ?? '';
  if (!hasTrackingFinalizer(pod) || pendingRemovals.has(uid)) return;
  if (tracking.uncountedSucceeded.has(uid) || tracking.uncountedFailed.has(uid)) {
    tracking.release.push(pod);
    return;
  }
  if (isPodSucceeded(pod)) {
    tracking.uncountedSucceeded.add(uid);
    const index = job.spec.completionMode === 'Indexed' ? completionIndexOf(pod, job.spec.completions ?? 0) : undefined;
    if (index !== undefined) tracking.completed.add(index);
    tracking.release.push(pod);
  } else if (isPodFailed(pod, job.spec.podReplacementPolicy === 'Failed')) {
    recordFailed(tracking, job, pod);
  }
}

function recordFailed(tracking: Tracking, job: DeepReadonly<Job>, pod: ReadonlyPod): void {
  const outcome = matchPodFailurePolicy(job, pod);
  tracking.release.push(pod);
  if (outcome.action === 'Ignore') return;
  tracking.uncountedFailed.add(pod.metadata.uid ?? '');
  if (outcome.action === 'FailJob') tracking.failJobMessage ??= outcome.message;
}

/** hasUncounted is true while some finished pod is recorded but not yet folded. */
export function hasUncounted(tracking: Tracking): boolean {
  return tracking.uncountedSucceeded.size + tracking.uncountedFailed.size > 0;
}
