/**
 * Job conditions as Kubernetes reports them: FailureTarget / SuccessCriteriaMet when the
 * outcome is decided (the controller then terminates the remaining pods), Failed / Complete
 * once no pod is left running or uncounted, Suspended while spec.suspend holds. Pure.
 */
import type { JobCondition } from '../../apiserver/api/batch/index.js';

/** JobOutcome is a decided (target) result: the reason and message its conditions carry. */
export interface JobOutcome {
  type: 'FailureTarget' | 'SuccessCriteriaMet';
  reason: string;
  message: string;
}

export const BACKOFF_LIMIT_EXCEEDED: JobOutcome = {
  type: 'FailureTarget',
  reason: 'BackoffLimitExceeded',
  message: 'Job has reached the specified backoff limit',
};
export const DEADLINE_EXCEEDED: JobOutcome = { type: 'FailureTarget', reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' };
export const COMPLETIONS_REACHED: JobOutcome = {
  type: 'SuccessCriteriaMet',
  reason: 'CompletionsReached',
  message: 'Reached expected number of succeeded pods',
};

/** findCondition returns the condition of `type` with status True, if any. */
export function findCondition(conditions: readonly JobCondition[] | undefined, type: string): JobCondition | undefined {
  return conditions?.find((c) => c.type === type && c.status === 'True');
}

/** targetOf returns the outcome already recorded on a Job (FailureTarget wins). */
export function targetOf(conditions: readonly JobCondition[] | undefined): JobOutcome | undefined {
  for (const type of ['FailureTarget', 'SuccessCriteriaMet'] as const) {
    const found = findCondition(conditions, type);
    if (found) return { type, reason: found.reason ?? '', message: found.message ?? '' };
  }
  return undefined;
}

/** setCondition returns `conditions` with `type` set to `status`/reason/message. An unchanged
 * condition is kept as is; lastTransitionTime moves only when the status changes. */
export function setCondition(
  conditions: readonly JobCondition[],
  wanted: { type: string; status: JobCondition['status']; reason: string; message: string },
  now: string,
): JobCondition[] {
  const existing = conditions.find((c) => c.type === wanted.type);
  if (existing && existing.status === wanted.status && existing.reason === wanted.reason && existing.message === wanted.message) {
    return [...conditions];
  }
  const transition = existing && existing.status === wanted.status ? (existing.lastTransitionTime ?? now) : now;
  const next: JobCondition = { ...wanted, lastProbeTime: now, lastTransitionTime: transition };
  return existing ? conditions.map((c) => (c === existing ? next : c)) : [...conditions, next];
}

/** terminalConditionOf maps a decided outcome to its final condition type. */
export function terminalConditionOf(outcome: JobOutcome): 'Failed' | 'Complete' {
  return outcome.type === 'FailureTarget' ? 'Failed' : 'Complete';
}
