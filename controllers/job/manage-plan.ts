/**
 * Which pods a running Job still needs (Kubernetes' manageJob arithmetic): NonIndexed Jobs
 * keep min(parallelism, completions − succeeded) pods active; Indexed Jobs start the lowest
 * missing indexes; after failures new pods wait out an exponential backoff (10 s doubling,
 * at most 6 min) from the last failure. Pure.
 */
import type { Job } from '../../apiserver/api/batch/index.js';
import type { DeepReadonly } from '../runtime/types.js';
import { missingIndexes } from './indexes.js';
import { completionIndexOf, isPodActive, isPodFailed, lastFinishedAtMs, type ReadonlyPod } from './job-pods.js';
import type { Tracking } from './track-pods.js';

export const POD_BACKOFF_BASE_MS = 10_000;
export const POD_BACKOFF_MAX_MS = 6 * 60_000;

/** ManagePlan: pods to create (one entry per pod: its index, or undefined for NonIndexed),
 * surplus active pods to delete, and when to look again (backoff). */
export interface ManagePlan {
  create: Array<number | undefined>;
  remove: ReadonlyPod[];
  requeueAfterMs?: number;
}

/** planPods computes the plan for a Job that is neither decided nor suspended. */
export function planPods(job: DeepReadonly<Job>, pods: readonly ReadonlyPod[], tracking: Tracking, nowMs: number): ManagePlan {
  const active = pods.filter(isPodActive);
  const parallelism = job.spec.parallelism ?? 1;
  const wanted = wantedActive(job, tracking, parallelism);
  if (active.length > wanted) return { create: [], remove: active.slice(wanted) };
  const missing =
    job.spec.completionMode === 'Indexed' ? indexedMissing(job, active, tracking, wanted) : Array<undefined>(wanted - active.length).fill(undefined);
  if (missing.length === 0) return { create: [], remove: [] };
  const waitMs = backoffRemainingMs(job, pods, tracking, nowMs);
  return waitMs > 0 ? { create: [], remove: [], requeueAfterMs: waitMs } : { create: missing, remove: [] };
}

function wantedActive(job: DeepReadonly<Job>, tracking: Tracking, parallelism: number): number {
  const succeeded = tracking.succeeded + tracking.uncountedSucceeded.size;
  const completions = job.spec.completions;
  if (completions === undefined) return succeeded > 0 ? 0 : parallelism;
  const remaining = job.spec.completionMode === 'Indexed' ? completions - tracking.completed.size : completions - succeeded;
  return Math.max(0, Math.min(parallelism, remaining));
}

function indexedMissing(job: DeepReadonly<Job>, active: readonly ReadonlyPod[], tracking: Tracking, wanted: number): number[] {
  const completions = job.spec.completions ?? 0;
  const activeIndexes = new Set(active.map((pod) => completionIndexOf(pod, completions)).filter((i): i is number => i !== undefined));
  return missingIndexes({ completions, completed: tracking.completed, active: activeIndexes, limit: wanted - active.length });
}

/** backoffDelayMs is the wait before the next pod after `failures` failures. */
export function backoffDelayMs(failures: number): number {
  if (failures <= 0) return 0;
  return Math.min(POD_BACKOFF_BASE_MS * 2 ** Math.min(failures - 1, 30), POD_BACKOFF_MAX_MS);
}

function backoffRemainingMs(job: DeepReadonly<Job>, pods: readonly ReadonlyPod[], tracking: Tracking, nowMs: number): number {
  const failures = tracking.failed + tracking.uncountedFailed.size;
  const onlyFailed = job.spec.podReplacementPolicy === 'Failed';
  const finishedAt = pods.filter((pod) => isPodFailed(pod, onlyFailed)).map((pod) => lastFinishedAtMs(pod) ?? 0);
  if (failures === 0 || finishedAt.length === 0) return 0;
  return Math.max(0, Math.max(...finishedAt) + backoffDelayMs(failures) - nowMs);
}
