/**
 * spec.podFailurePolicy, the basic rules: the first rule whose onExitCodes or onPodConditions
 * matches a failed pod decides its fate — FailJob fails the whole Job at once, Ignore does not
 * count the failure against backoffLimit, Count (and FailIndex, without per-index backoff)
 * counts it as usual. Kubernetes' matchPodFailurePolicy, pure.
 */
import type { Job, PodFailurePolicyRule } from '../../apiserver/api/batch/index.js';
import type { DeepReadonly } from '../runtime/types.js';
import type { ReadonlyPod } from './job-pods.js';

/** FailurePolicyOutcome is what a failed pod means for its Job. */
export interface FailurePolicyOutcome {
  action: 'FailJob' | 'Ignore' | 'Count';
  /** For FailJob, the Failed condition's message (Kubernetes' wording). */
  message?: string;
}

type ReadonlyRule = DeepReadonly<PodFailurePolicyRule>;

/** matchPodFailurePolicy returns the action for a failed pod; Count when no rule matches or
 * the Job has no policy. */
export function matchPodFailurePolicy(job: DeepReadonly<Job>, pod: ReadonlyPod): FailurePolicyOutcome {
  const rules = job.spec.podFailurePolicy?.rules ?? [];
  for (const [index, rule] of rules.entries()) {
    const exit = rule.onExitCodes ? matchingExitCode(rule, pod) : undefined;
    const matched = exit !== undefined || (rule.onPodConditions !== undefined && matchesConditions(rule, pod));
    if (!matched) continue;
    if (rule.action === 'Ignore') return { action: 'Ignore' };
    if (rule.action !== 'FailJob') return { action: 'Count' };
    const podName = `${pod.metadata.namespace}/${pod.metadata.name}`;
    const message = exit
      ? `Container ${exit.container} for pod ${podName} failed with exit code ${exit.code} matching FailJob rule at index ${index}`
      : `Pod ${podName} has condition matching FailJob rule at index ${index}`;
    return { action: 'FailJob', message };
  }
  return { action: 'Count' };
}

function matchingExitCode(rule: ReadonlyRule, pod: ReadonlyPod): { container: string; code: number } | undefined {
  const requirement = rule.onExitCodes;
  if (!requirement) return undefined;
  for (const status of pod.status?.containerStatuses ?? []) {
    if (requirement.containerName && requirement.containerName !== status.name) continue;
    const code = status.state?.terminated?.exitCode;
    if (code === undefined || code === 0) continue;
    const listed = requirement.values.includes(code);
    if (requirement.operator === 'In' ? listed : !listed) return { container: status.name, code };
  }
  return undefined;
}

function matchesConditions(rule: ReadonlyRule, pod: ReadonlyPod): boolean {
  return (rule.onPodConditions ?? []).some((pattern) =>
    (pod.status?.conditions ?? []).some((c) => c.type === pattern.type && c.status === (pattern.status ?? 'True')),
  );
}
