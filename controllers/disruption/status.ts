/**
 * The disruption controller's pure decisions (Kubernetes' disruption controller:
 * getExpectedPodCount, countHealthyPods, buildDisruptedPodMap, updatePdbStatus and
 * UpdateDisruptionAllowedCondition). They read cached objects and never mutate them.
 */
import type { Pod } from '../../apiserver/api/core/pod.js';
import { isPodReady } from '../../apiserver/api/core/pod-conditions.js';
import { scaledValue } from '../../apiserver/api/machinery/int-or-percent.js';
import { rfc3339 } from '../../apiserver/api/machinery/time.js';
import { DISRUPTION_ALLOWED_CONDITION, type PodDisruptionBudget, type PodDisruptionBudgetStatus } from '../../apiserver/api/policy/pod-disruption-budget.js';
import type { DeepReadonly } from '../runtime/types.js';

/** DELETION_TIMEOUT_MS is how long an evicted pod may take to disappear before the controller
 * counts it again (DeletionTimeout, 2 minutes). */
export const DELETION_TIMEOUT_MS = 2 * 60 * 1000;

type ReadonlyPod = DeepReadonly<Pod>;
type ReadonlyBudget = DeepReadonly<PodDisruptionBudget>;
type Spec = ReadonlyBudget['spec'];

/** needsControllerScale: percentages and maxUnavailable are relative to the pods the owning
 * controllers want (their /scale), an integer minAvailable only to the pods that exist. */
export function needsControllerScale(spec: Spec): boolean {
  return spec.maxUnavailable !== undefined || typeof spec.minAvailable === 'string';
}

/** desiredHealthyOf is how many healthy pods the budget requires of `expectedCount` (≥ 0). */
export function desiredHealthyOf(spec: Spec, expectedCount: number): number {
  if (spec.maxUnavailable !== undefined) return Math.max(0, expectedCount - scaledValue(spec.maxUnavailable, expectedCount, true));
  if (spec.minAvailable !== undefined) return scaledValue(spec.minAvailable, expectedCount, true);
  return 0;
}

/** DisruptedPods is what stays of status.disruptedPods, and when to look again. */
export interface DisruptedPods {
  pods: Record<string, string>;
  /** When the earliest remaining entry expires (ms), undefined when none remains. */
  recheckAtMs?: number;
}

/** activeDisruptedPods keeps the entries of pods that still exist, are not yet terminating
 * and were evicted less than DELETION_TIMEOUT_MS ago (buildDisruptedPodMap). */
export function activeDisruptedPods(pods: readonly ReadonlyPod[], disrupted: Readonly<Record<string, string>> | undefined, nowMs: number): DisruptedPods {
  const result: DisruptedPods = { pods: {} };
  for (const pod of pods) {
    const name = pod.metadata.name ?? '';
    const at = disrupted?.[name];
    if (at === undefined || pod.metadata.deletionTimestamp !== undefined) continue;
    const expiresMs = Date.parse(at) + DELETION_TIMEOUT_MS;
    if (Number.isNaN(expiresMs) || expiresMs < nowMs) continue;
    result.pods[name] = at;
    result.recheckAtMs = Math.min(result.recheckAtMs ?? expiresMs, expiresMs);
  }
  return result;
}

/** countHealthy counts Ready pods that are neither terminating nor just evicted. */
export function countHealthy(pods: readonly ReadonlyPod[], disrupted: Readonly<Record<string, string>>): number {
  return pods.filter((pod) => pod.metadata.deletionTimestamp === undefined && disrupted[pod.metadata.name ?? ''] === undefined && isPodReady(pod)).length;
}

/** BudgetInputs are what computeBudgetStatus needs besides the budget. */
export interface BudgetInputs {
  /** Pods the budget selects. */
  pods: readonly ReadonlyPod[];
  /** Pods the owning controllers want (the sum of their scales), or the pod count. */
  expectedCount: number;
  nowMs: number;
}

/** BudgetStatus is the computed status and when it must be recomputed (a disruptedPods entry expiring). */
export interface BudgetStatus {
  status: PodDisruptionBudgetStatus;
  recheckAtMs?: number;
}

/** computeBudgetStatus is the budget's next status (updatePdbStatus): disruptionsAllowed =
 * currentHealthy − desiredHealthy, never negative, 0 when no pods are expected. */
export function computeBudgetStatus(pdb: ReadonlyBudget, { pods, expectedCount, nowMs }: BudgetInputs): BudgetStatus {
  const disrupted = activeDisruptedPods(pods, pdb.status?.disruptedPods, nowMs);
  const currentHealthy = countHealthy(pods, disrupted.pods);
  const desiredHealthy = desiredHealthyOf(pdb.spec, expectedCount);
  const allowed = expectedCount <= 0 ? 0 : Math.max(0, currentHealthy - desiredHealthy);
  const observedGeneration = pdb.metadata.generation ?? 0;
  const status: PodDisruptionBudgetStatus = {
    observedGeneration,
    disruptionsAllowed: allowed,
    currentHealthy,
    desiredHealthy,
    expectedPods: expectedCount,
    ...(Object.keys(disrupted.pods).length > 0 ? { disruptedPods: disrupted.pods } : {}),
  };
  const reason = allowed > 0 ? 'SufficientPods' : 'InsufficientPods';
  status.conditions = withAllowedCondition(pdb, { status: allowed > 0 ? 'True' : 'False', reason, message: '', observedGeneration, nowMs });
  return { status, recheckAtMs: disrupted.recheckAtMs };
}

/** syncFailedStatus is the fail-safe status of a budget whose expected pods are unknown:
 * no disruption allowed, DisruptionAllowed=False/SyncFailed with the error (failSafe). */
export function syncFailedStatus(pdb: ReadonlyBudget, message: string, nowMs: number): PodDisruptionBudgetStatus {
  const old = pdb.status;
  const observedGeneration = old?.observedGeneration ?? 0;
  const condition = { status: 'False' as const, reason: 'SyncFailed', message, observedGeneration, nowMs };
  return {
    ...(structuredClone(old) as PodDisruptionBudgetStatus | undefined),
    currentHealthy: old?.currentHealthy ?? 0,
    desiredHealthy: old?.desiredHealthy ?? 0,
    expectedPods: old?.expectedPods ?? 0,
    disruptionsAllowed: 0,
    conditions: withAllowedCondition(pdb, condition),
  };
}

interface AllowedCondition {
  status: 'True' | 'False';
  reason: string;
  message: string;
  observedGeneration: number;
  nowMs: number;
}

/** withAllowedCondition sets DisruptionAllowed as meta.SetStatusCondition does: the
 * transition time changes only when the status does. */
function withAllowedCondition(pdb: ReadonlyBudget, { nowMs, ...wanted }: AllowedCondition): PodDisruptionBudgetStatus['conditions'] {
  const conditions = (structuredClone(pdb.status?.conditions) ?? []) as NonNullable<PodDisruptionBudgetStatus['conditions']>;
  const old = conditions.find((c) => c.type === DISRUPTION_ALLOWED_CONDITION);
  const transitioned = old?.status !== wanted.status;
  const lastTransitionTime = transitioned || !old?.lastTransitionTime ? rfc3339(nowMs) : old.lastTransitionTime;
  const condition = { type: DISRUPTION_ALLOWED_CONDITION, ...wanted, lastTransitionTime };
  return [...conditions.filter((c) => c !== old), condition];
}
