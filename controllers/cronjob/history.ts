/**
 * The CronJob's view of its Jobs (Kubernetes' cronjob controller helpers): which are still
 * active, when one last succeeded, and which finished ones fall outside the history limits.
 * Pure.
 */
import type { CronJob, Job } from '../../apiserver/api/batch/index.js';
import type { ObjectReference } from '../../apiserver/api/core/object-reference.js';
import type { DeepReadonly } from '../runtime/types.js';

type ReadonlyJob = DeepReadonly<Job>;

/** finishedType is Complete or Failed for a finished Job, else undefined. */
export function finishedType(job: ReadonlyJob): 'Complete' | 'Failed' | undefined {
  for (const c of job.status?.conditions ?? []) {
    if ((c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') return c.type;
  }
  return undefined;
}

/** jobReference is how status.active names a Job. */
export function jobReference(job: ReadonlyJob): ObjectReference {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    name: job.metadata.name ?? '',
    namespace: job.metadata.namespace ?? '',
    uid: job.metadata.uid ?? '',
    resourceVersion: job.metadata.resourceVersion ?? '',
  };
}

/** activeReferences lists the unfinished Jobs, sorted by name (so the status is stable). */
export function activeReferences(jobs: readonly ReadonlyJob[]): ObjectReference[] {
  return jobs
    .filter((job) => finishedType(job) === undefined && !job.metadata.deletionTimestamp)
    .map(jobReference)
    .sort((a, b) => ((a.name ?? '') < (b.name ?? '') ? -1 : 1));
}

/** lastSuccessfulTime is the latest completionTime of a Complete Job, or `previous`. */
export function lastSuccessfulTime(jobs: readonly ReadonlyJob[], previous: string | undefined): string | undefined {
  let latest = previous;
  for (const job of jobs) {
    const at = job.status?.completionTime;
    if (finishedType(job) === 'Complete' && at && (!latest || Date.parse(at) > Date.parse(latest))) latest = at;
  }
  return latest;
}

/** jobsBeyondHistory returns the finished Jobs to delete: the oldest successful ones beyond
 * successfulJobsHistoryLimit and the oldest failed ones beyond failedJobsHistoryLimit. */
export function jobsBeyondHistory(cronJob: DeepReadonly<CronJob>, jobs: readonly ReadonlyJob[]): ReadonlyJob[] {
  const live = jobs.filter((job) => !job.metadata.deletionTimestamp);
  const surplus = (type: 'Complete' | 'Failed', limit: number | undefined) => {
    const finished = live.filter((job) => finishedType(job) === type).sort(byStartTime);
    return limit === undefined ? [] : finished.slice(0, Math.max(0, finished.length - limit));
  };
  return [...surplus('Complete', cronJob.spec.successfulJobsHistoryLimit), ...surplus('Failed', cronJob.spec.failedJobsHistoryLimit)];
}

function byStartTime(a: ReadonlyJob, b: ReadonlyJob): number {
  const time = (job: ReadonlyJob) => Date.parse(job.status?.startTime ?? job.metadata.creationTimestamp ?? '') || 0;
  return time(a) - time(b) || ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1);
}
