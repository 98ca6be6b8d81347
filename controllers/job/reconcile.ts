/**
 * The Job reconciler (Kubernetes' syncJob): read the Job and its pods from the caches,
 * account for finished pods (track-pods.ts), compute and write the status (status.ts), then
 * act — release counted pods, terminate the remaining pods of a decided or suspended Job, or
 * create the pods still needed (manage-plan.ts). Level-triggered and idempotent: a restart
 * re-derives everything from the Job's status and the pods' finalizers.
 */

import { isNotFound } from '../../apiserver/api/api-error.js';
import type { Job, JobStatus } from '../../apiserver/api/batch/index.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { deepEqual } from '../../apiserver/api/deep-equal.js';
import { requestKey } from '../runtime/reconciler.js';
import type { Clock, DeepReadonly, Lister, Reconciler, Request, ResourceClient, Result } from '../runtime/types.js';
import { findCondition } from './conditions.js';
import { hasTrackingFinalizer, isPodActive, JOB_UID_INDEX, type ReadonlyPod } from './job-pods.js';
import { planPods } from './manage-plan.js';
import { createJobPods, deletePods, type PodActionDeps, releasePods } from './pod-actions.js';
import { computeJobStatus, type JobStatusResult } from './status.js';
import { trackPods } from './track-pods.js';

/** JobReconcilerDeps: the pod lister must carry JOB_UID_INDEX. */
export interface JobReconcilerDeps extends PodActionDeps {
  /** resourceVersion of this process's last status write per Job key (dropped on restart). */
  writtenVersions: Map<string, string>;
  jobLister: Lister<Job>;
  podLister: Lister<Pod>;
  jobs: ResourceClient<Job>;
  clock: Clock;
}

type ReadonlyJob = DeepReadonly<Job>;

/** createJobReconciler returns the Job controller's Reconciler. A reconcile returns {} when
 * the Job is gone (after releasing its orphaned pods) or finished; throws for a retry when a
 * write failed; and asks to be requeued for a pod backoff or the active deadline. */
export function createJobReconciler(deps: JobReconcilerDeps): Reconciler {
  return { reconcile: (request) => syncJob(deps, request) };
}

async function syncJob(deps: JobReconcilerDeps, request: Request): Promise<Result> {
  const key = requestKey(request);
  const job = deps.jobLister.get(request.namespace, request.name);
  if (job === undefined) {
    deps.expectations.delete(key);
    deps.writtenVersions.delete(key);
    await releasePods(deps, orphanedPods(deps, request));
    return {};
  }
  // Our last status write not yet in the cache: counting from the older status would miss
  // pods already folded into it (and create too many). Its watch event re-enqueues the key.
  if (!isStatusObserved(deps.writtenVersions, key, job)) return {};
  const pods = podsOf(deps, job);
  if (isFinished(job)) {
    await releasePods(deps, pods.filter(hasTrackingFinalizer));
    return {};
  }
  const tracking = trackPods({ job, pods, pendingRemovals: deps.pendingRemovals });
  const result = computeJobStatus({ job, pods, tracking, nowMs: deps.clock.now() });
  await writeStatus(deps, job, result.status, key);
  recordTransitions(deps, job, result);
  // Only now that the status records them may the counted pods lose their finalizer.
  await releasePods(deps, tracking.release);
  if (result.finished) return {};
  if (result.outcome || result.suspended) {
    await deletePods(deps, job, pods.filter(isPodActive));
    return {};
  }
  if (!deps.expectations.satisfied(key)) return {};
  const plan = planPods(job, pods, tracking, deps.clock.now());
  if (plan.remove.length > 0) await deletePods(deps, job, plan.remove);
  if (plan.create.length > 0) await createJobPods(deps, job, key, plan.create);
  return nextCheck(job, result.status, plan.requeueAfterMs, deps.clock.now());
}

/** isStatusObserved is false while the cached Job is older than our last status write.
 * kubesim's resourceVersions are the store's global revision, so they compare as numbers. */
function isStatusObserved(written: Map<string, string>, key: string, job: ReadonlyJob): boolean {
  const expected = written.get(key);
  if (expected === undefined) return true;
  const cached = Number(job.metadata.resourceVersion);
  if (Number.isFinite(cached) && cached < Number(expected)) return false;
  written.delete(key);
  return true;
}

function isFinished(job: ReadonlyJob): boolean {
  return findCondition(job.status?.conditions, 'Complete') !== undefined || findCondition(job.status?.conditions, 'Failed') !== undefined;
}

/** podsOf lists the pods the Job controls (by controller uid), in its namespace.
 * NOTE: shared cache objects; never modified downstream. */
function podsOf(deps: JobReconcilerDeps, job: ReadonlyJob): ReadonlyPod[] {
  const uid = job.metadata.uid ?? '';
  return deps.podLister.byIndex(JOB_UID_INDEX, uid).filter((pod) => pod.metadata.namespace === job.metadata.namespace);
}

/** orphanedPods are pods still tracked for a Job of this name that no longer exists: their
 * finalizer would otherwise keep them (and a garbage-collected Job's pods) forever. */
function orphanedPods(deps: JobReconcilerDeps, request: Request): ReadonlyPod[] {
  return deps.podLister
    .list(request.namespace)
    .filter((pod) => hasTrackingFinalizer(pod) && pod.metadata.ownerReferences?.some((r) => r.kind === 'Job' && r.name === request.name && r.controller));
}

/**
 * writeStatus PUTs the status when it changed. A 409 is thrown: the queue retries with a
 * fresher Job, and since the uncounted pods are re-derived from it nothing is counted twice.
 */
async function writeStatus(deps: JobReconcilerDeps, job: ReadonlyJob, status: JobStatus, key: string): Promise<void> {
  if (deepEqual(job.status ?? {}, status)) return;
  const copy = structuredClone(job) as Job;
  copy.status = status;
  try {
    const written = await deps.jobs.updateStatus(copy);
    deps.writtenVersions.set(key, written.metadata.resourceVersion ?? '');
  } catch (err) {
    if (!isNotFound(err)) throw err; // a 409 included: the retry reads a fresher Job.
  }
}

const TRANSITION_EVENTS: Record<string, { type: 'Normal' | 'Warning'; reason: (r: string) => string; message: (m: string) => string }> = {
  Complete: { type: 'Normal', reason: () => 'Completed', message: () => 'Job completed' },
  Failed: { type: 'Warning', reason: (r) => r, message: (m) => m },
  Suspended: { type: 'Normal', reason: () => 'Suspended', message: () => 'Job suspended' },
};

/** recordTransitions emits Kubernetes' events for conditions that just turned True. */
function recordTransitions(deps: JobReconcilerDeps, job: ReadonlyJob, result: JobStatusResult): void {
  for (const [type, event] of Object.entries(TRANSITION_EVENTS)) {
    const now = findCondition(result.status.conditions, type);
    if (!now || findCondition(job.status?.conditions, type)) continue;
    deps.recorder.event(job, event.type, event.reason(now.reason ?? ''), event.message(now.message ?? ''));
  }
}

/** nextCheck asks to look again at the earlier of the pod backoff and the active deadline:
 * no event announces that time has passed. */
function nextCheck(job: ReadonlyJob, status: JobStatus, backoffMs: number | undefined, nowMs: number): Result {
  const deadline = job.spec.activeDeadlineSeconds;
  const deadlineMs = deadline !== undefined && status.startTime ? Date.parse(status.startTime) + deadline * 1000 - nowMs : undefined;
  const candidates = [backoffMs, deadlineMs].filter((ms): ms is number => ms !== undefined && ms >= 0);
  return candidates.length === 0 ? {} : { requeueAfterMs: Math.max(1, Math.min(...candidates)) };
}
