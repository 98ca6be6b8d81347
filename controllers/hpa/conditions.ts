/**
 * HPA status conditions: the three types the controller reports and the rule for writing one
 * (Kubernetes' setConditionInList). Pure.
 *
 *   AbleToScale     can the HPA read and write the target's scale, and may it act now?
 *                   SucceededGetScale, FailedGetScale, SucceededRescale, FailedUpdateScale,
 *                   ReadyForNewScale, ScaleUpStabilized, ScaleDownStabilized
 *   ScalingActive   could a replica count be computed from the metrics?
 *                   ValidMetricFound, FailedGetResourceMetric, FailedGetContainerResourceMetric,
 *                   InvalidSelector, ScalingDisabled, ...
 *   ScalingLimited  was the count clamped? TooFewReplicas, TooManyReplicas, ScaleUpLimit,
 *                   ScaleDownLimit, DesiredWithinRange (False)
 */
import type { HorizontalPodAutoscalerCondition } from '../../apiserver/api/autoscaling/horizontal-pod-autoscaler.js';
import { rfc3339 } from '../../apiserver/api/machinery/time.js';

/** HpaConditionTypes are the condition types the HPA controller writes. */
export const HpaConditionTypes = {
  AbleToScale: 'AbleToScale',
  ScalingActive: 'ScalingActive',
  ScalingLimited: 'ScalingLimited',
} as const;
/** HpaConditionType is one of HpaConditionTypes. */
export type HpaConditionType = (typeof HpaConditionTypes)[keyof typeof HpaConditionTypes];

/** ConditionVerdict is a condition's new state, before it is placed in the list. */
export interface ConditionVerdict {
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
}

/**
 * setCondition returns `conditions` with `type` set to `verdict`: an existing entry is
 * replaced in place (its lastTransitionTime moves to `nowMs` only when the status changes), a
 * new one is appended. Never mutates `conditions`.
 */
export function setCondition(
  conditions: readonly HorizontalPodAutoscalerCondition[] | undefined,
  type: HpaConditionType,
  verdict: ConditionVerdict,
  nowMs: number,
): HorizontalPodAutoscalerCondition[] {
  const list = [...(conditions ?? [])];
  const index = list.findIndex((condition) => condition.type === type);
  const existing = index >= 0 ? list[index] : undefined;
  const lastTransitionTime = existing && existing.status === verdict.status ? existing.lastTransitionTime : rfc3339(nowMs);
  const updated: HorizontalPodAutoscalerCondition = { type, status: verdict.status, lastTransitionTime, reason: verdict.reason, message: verdict.message };
  if (index >= 0) list[index] = updated;
  else list.push(updated);
  return list;
}

/** findCondition returns the condition of `type`, if any. */
export function findCondition(
  conditions: readonly HorizontalPodAutoscalerCondition[] | undefined,
  type: HpaConditionType,
): HorizontalPodAutoscalerCondition | undefined {
  return conditions?.find((condition) => condition.type === type);
}
