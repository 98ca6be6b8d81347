/**
 * The Job's next status from its pods (Kubernetes' syncJob status half): counters, the
 * uncounted pods, completedIndexes, startTime/completionTime and the conditions. Pure: the
 * reconciler writes the result and acts on `outcome`/`suspended`.
 */
import type { Job, JobCondition, JobStatus } from '../../apiserver/api/batch/index.js';
import { isPodReady } from '../../apiserver/api/core/pod-conditions.js';
import { rfc3339 } from '../../apiserver/api/machinery/time.js';
import type { DeepReadonly } from '../runtime/types.js';
import {
  BACKOFF_LIMIT_EXCEEDED,
  COMPLETIONS_REACHED,
  DEADLINE_EXCEEDED,
  findCondition,
  type JobOutcome,
  setCondition,
  targetOf,
  terminalConditionOf,
} from './conditions.js';
import { formatIndexes } from './indexes.js';
import { hasTrackingFinalizer, isPodActive, isPodTerminal, type ReadonlyPod } from './job-pods.js';
import { hasUncounted, type Tracking } from './track-pods.js';

/** StatusInputs are what computeJobStatus reads. */
export interface StatusInputs {
  job: DeepReadonly<Job>;
  pods: readonly ReadonlyPod[];
  tracking: Tracking;
  nowMs: number;
}

/** JobStatusResult is the status to write and what it means for the pods. */
export interface JobStatusResult {
  status: JobStatus;
  /** The decided outcome, if any: remaining active pods are to be terminated. */
  outcome?: JobOutcome;
  /** Complete or Failed is set: nothing more to do. */
  finished: boolean;
  suspended: boolean;
}

/** computeJobStatus returns the Job's status after `tracking`, deciding its outcome. */
export function computeJobStatus(inputs: StatusInputs): JobStatusResult {
  const { job, pods, tracking, nowMs } = inputs;
  const now = rfc3339(nowMs);
  const status = countersOf(job, pods, tracking);
  let conditions = [...((job.status?.conditions ?? []) as JobCondition[])];
  const suspended = job.spec.suspend === true;
  ({ conditions, startTime: status.startTime } = applySuspend({ conditions, startTime: job.status?.startTime, suspended, now }));
  const outcome = targetOf(conditions) ?? decideOutcome(inputs, status);
  if (outcome) conditions = setCondition(conditions, { ...outcome, status: 'True' }, now);
  const finished =
    outcome !== undefined && (status.active ?? 0) === 0 && status.terminating === 0 && !hasUncounted(tracking) && !pods.some(hasTrackingFinalizer);
  if (outcome && finished) {
    conditions = setCondition(conditions, { ...outcome, type: terminalConditionOf(outcome), status: 'True' }, now);
    if (outcome.type === 'SuccessCriteriaMet') status.completionTime = job.status?.completionTime ?? now;
  }
  if (conditions.length > 0) status.conditions = conditions;
  return { status, outcome, finished, suspended };
}

function countersOf(job: DeepReadonly<Job>, pods: readonly ReadonlyPod[], tracking: Tracking): JobStatus {
  const active = pods.filter(isPodActive);
  // Kubernetes omits active/succeeded/failed when zero (omitempty) but always reports
  // ready and terminating; empty uncounted lists show as `uncountedTerminatedPods: {}`.
  const status: JobStatus = {
    ...nonZero('active', active.length),
    ...nonZero('succeeded', tracking.succeeded),
    ...nonZero('failed', tracking.failed),
    ready: active.filter(isPodReady).length,
    terminating: pods.filter((pod) => pod.metadata.deletionTimestamp !== undefined && !isPodTerminal(pod)).length,
    uncountedTerminatedPods: {
      ...(tracking.uncountedSucceeded.size > 0 ? { succeeded: [...tracking.uncountedSucceeded].sort() } : {}),
      ...(tracking.uncountedFailed.size > 0 ? { failed: [...tracking.uncountedFailed].sort() } : {}),
    },
  };
  if (job.status?.completionTime) status.completionTime = job.status.completionTime;
  if (job.spec.completionMode === 'Indexed') status.completedIndexes = formatIndexes(tracking.completed);
  return status;
}

function nonZero<K extends 'active' | 'succeeded' | 'failed'>(key: K, value: number): Partial<Record<K, number>> {
  return value > 0 ? ({ [key]: value } as Partial<Record<K, number>>) : {};
}

interface SuspendState {
  conditions: JobCondition[];
  startTime: string | undefined;
  suspended: boolean;
  now: string;
}

/** applySuspend sets Suspended True while suspended; on resume it turns False and the
 * startTime restarts (activeDeadlineSeconds counts from it); a running Job gets a startTime. */
function applySuspend({ conditions, startTime, suspended, now }: SuspendState): { conditions: JobCondition[]; startTime: string | undefined } {
  if (suspended) {
    return { conditions: setCondition(conditions, { type: 'Suspended', status: 'True', reason: 'JobSuspended', message: 'Job suspended' }, now), startTime };
  }
  if (findCondition(conditions, 'Suspended')) {
    const resumed = setCondition(conditions, { type: 'Suspended', status: 'False', reason: 'JobResumed', message: 'Job resumed' }, now);
    return { conditions: resumed, startTime: now };
  }
  return { conditions, startTime: startTime ?? now };
}

/** decideOutcome checks, in Kubernetes' order, a FailJob rule, the backoff limit, the active
 * deadline and then the success criteria. */
function decideOutcome({ job, tracking, nowMs }: StatusInputs, status: JobStatus): JobOutcome | undefined {
  if (tracking.failJobMessage) return { type: 'FailureTarget', reason: 'PodFailurePolicy', message: tracking.failJobMessage };
  const failed = tracking.failed + tracking.uncountedFailed.size;
  if (failed > (job.spec.backoffLimit ?? 6)) return BACKOFF_LIMIT_EXCEEDED;
  if (isPastActiveDeadline(job, status.startTime, nowMs)) return DEADLINE_EXCEEDED;
  return isSuccessful(job, tracking, status.active ?? 0) ? COMPLETIONS_REACHED : undefined;
}

/** isPastActiveDeadline: a running (not suspended) Job has been active for activeDeadlineSeconds. */
export function isPastActiveDeadline(job: DeepReadonly<Job>, startTime: string | undefined, nowMs: number): boolean {
  const deadline = job.spec.activeDeadlineSeconds;
  if (deadline === undefined || startTime === undefined || job.spec.suspend) return false;
  return nowMs - Date.parse(startTime) >= deadline * 1000;
}

function isSuccessful(job: DeepReadonly<Job>, tracking: Tracking, active: number): boolean {
  const succeeded = tracking.succeeded + tracking.uncountedSucceeded.size;
  const completions = job.spec.completions;
  if (completions === undefined) return succeeded > 0 && active === 0;
  if (job.spec.completionMode === 'Indexed') return tracking.completed.size >= completions;
  return succeeded >= completions;
}
