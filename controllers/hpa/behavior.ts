/**
 * Scaling behavior (Kubernetes' normalizeDesiredReplicasWithBehaviors), pure: turns the
 * metrics' recommendation into the count the HPA will set, in three steps.
 *
 *   1. stabilize: recommendations of the last scaleUp window bound the result from below
 *      (their minimum) and those of the last scaleDown window from above (their maximum), so
 *      the count moves only as far as every recent recommendation agrees;
 *   2. rate-limit: the direction's policies allow, per periodSeconds, Pods (a number) or
 *      Percent (of the count at the period's start, from the scale events), picking the
 *      largest change (selectPolicy Max), the smallest (Min), or none (Disabled);
 *   3. clamp to [minReplicas, maxReplicas].
 *
 * An HPA without spec.behavior gets the defaults: up by max(4 pods, 100%) per 15 s with no
 * window; down by 100% per 15 s after the controller's downscale window (300 s).
 * NOTE: Kubernetes runs an older, equivalent-in-practice algorithm for HPAs without behavior
 * (scale up to max(2×, 4), the same downscale window); kubesim applies the defaults through
 * this one path, so both get identical conditions.
 */

import type { HorizontalPodAutoscalerBehavior, HPAScalingPolicy } from '../../apiserver/api/autoscaling/horizontal-pod-autoscaler-behavior.js';
import { scaleDownRules, scaleUpRules } from '../../apiserver/api/autoscaling/hpa-defaults.js';
import type { ConditionVerdict } from './conditions.js';
import { replicasChangedInPeriod, type ScaleEvent, type ScalingHistory, type TimestampedRecommendation } from './scaling-history.js';

/** DOWNSCALE_STABILIZATION_MS is --horizontal-pod-autoscaler-downscale-stabilization (5 min),
 * the scale-down window of HPAs that do not set one. */
export const DOWNSCALE_STABILIZATION_MS = 5 * 60_000;

/** ScalingRules are one direction's fully defaulted rules. */
export interface ScalingRules {
  stabilizationWindowSeconds: number;
  /** Max (default; also for unknown values), Min or Disabled. */
  selectPolicy: string;
  policies: readonly HPAScalingPolicy[];
  /** Quantity text (e.g. "0.05"), when the HPA sets its own tolerance. */
  tolerance?: string;
}

/** resolveScalingRules defaults both directions of `behavior` (absent means all defaults);
 * a scale-down window left unset is the controller's `downscaleStabilizationMs`. */
export function resolveScalingRules(
  behavior: HorizontalPodAutoscalerBehavior | undefined,
  downscaleStabilizationMs: number,
): { scaleUp: ScalingRules; scaleDown: ScalingRules } {
  const up = scaleUpRules(behavior?.scaleUp);
  const down = scaleDownRules(behavior?.scaleDown);
  return {
    scaleUp: {
      stabilizationWindowSeconds: up.stabilizationWindowSeconds ?? 0,
      selectPolicy: up.selectPolicy ?? 'Max',
      policies: up.policies ?? [],
      tolerance: up.tolerance,
    },
    scaleDown: {
      stabilizationWindowSeconds: down.stabilizationWindowSeconds ?? Math.floor(downscaleStabilizationMs / 1000),
      selectPolicy: down.selectPolicy ?? 'Max',
      policies: down.policies ?? [],
      tolerance: down.tolerance,
    },
  };
}

/** longestPolicyPeriodSeconds is how long scale events can matter to either direction. */
export function longestPolicyPeriodSeconds(rules: { scaleUp: ScalingRules; scaleDown: ScalingRules }): number {
  return Math.max(0, ...[...rules.scaleUp.policies, ...rules.scaleDown.policies].map((policy) => policy.periodSeconds));
}

/** NormalizationInput is one sync's recommendation and what bounds it. */
export interface NormalizationInput {
  currentReplicas: number;
  /** The metrics' recommendation (largest over the metrics), before stabilization. */
  desiredReplicas: number;
  minReplicas: number;
  maxReplicas: number;
  scaleUp: ScalingRules;
  scaleDown: ScalingRules;
  history: ScalingHistory;
  nowMs: number;
}

/** Normalization is the outcome: the count to set, the AbleToScale and ScalingLimited
 * verdicts with Kubernetes' reasons, and the recommendations to remember. */
export interface Normalization {
  desiredReplicas: number;
  ableToScale: ConditionVerdict;
  scalingLimited: ConditionVerdict;
  recommendations: TimestampedRecommendation[];
}

/** normalizeDesiredReplicasWithBehaviors applies the three steps of the module comment. Pure:
 * `history` is read, never changed; the new recommendation list comes back. */
export function normalizeDesiredReplicasWithBehaviors(input: NormalizationInput): Normalization {
  const stabilized = stabilizeRecommendation(input);
  const ableToScale: ConditionVerdict =
    stabilized.replicas === input.desiredReplicas
      ? { status: 'True', reason: 'ReadyForNewScale', message: 'recommended size matches current size' }
      : { status: 'True', reason: stabilized.reason, message: stabilized.message };
  const limited = limitByPolicies({ ...input, desiredReplicas: stabilized.replicas });
  const scalingLimited: ConditionVerdict = {
    status: limited.replicas === stabilized.replicas ? 'False' : 'True',
    reason: limited.reason,
    message: limited.message,
  };
  return { desiredReplicas: limited.replicas, ableToScale, scalingLimited, recommendations: stabilized.recommendations };
}

interface Stabilized {
  replicas: number;
  reason: string;
  message: string;
  recommendations: TimestampedRecommendation[];
}

/**
 * stabilizeRecommendation bounds the recommendation by the recent ones (step 1) and returns
 * the list to remember: this sync's recommendation plus those still inside either window.
 */
export function stabilizeRecommendation(input: NormalizationInput): Stabilized {
  const upCutoffMs = input.nowMs - input.scaleUp.stabilizationWindowSeconds * 1000;
  const downCutoffMs = input.nowMs - input.scaleDown.stabilizationWindowSeconds * 1000;
  let upBound = input.desiredReplicas;
  let downBound = input.desiredReplicas;
  const kept: TimestampedRecommendation[] = [];
  for (const recommendation of input.history.recommendations) {
    if (recommendation.timestampMs > upCutoffMs) upBound = Math.min(upBound, recommendation.replicas);
    if (recommendation.timestampMs > downCutoffMs) downBound = Math.max(downBound, recommendation.replicas);
    if (recommendation.timestampMs > upCutoffMs || recommendation.timestampMs > downCutoffMs) kept.push(recommendation);
  }
  const replicas = Math.min(Math.max(input.currentReplicas, upBound), downBound);
  kept.push({ replicas: input.desiredReplicas, timestampMs: input.nowMs });
  const scalingUp = input.desiredReplicas >= input.currentReplicas;
  return {
    replicas,
    recommendations: kept,
    reason: scalingUp ? 'ScaleUpStabilized' : 'ScaleDownStabilized',
    message: scalingUp
      ? 'recent recommendations were lower than current one, applying the lowest recent recommendation'
      : 'recent recommendations were higher than current one, applying the highest recent recommendation',
  };
}

interface Limited {
  replicas: number;
  reason: string;
  message: string;
}

/** limitByPolicies applies steps 2 and 3 to an already stabilized recommendation. */
function limitByPolicies(input: NormalizationInput): Limited {
  const { currentReplicas, desiredReplicas, history, nowMs } = input;
  const events = { scaleUpEvents: history.scaleUpEvents, scaleDownEvents: history.scaleDownEvents, nowMs };
  if (desiredReplicas > currentReplicas) {
    // A limit below the current count (events still in the period) means "no further up".
    const limit = Math.max(currentReplicas, calculateScaleUpLimit(currentReplicas, input.scaleUp, events));
    const byRate = limit < input.maxReplicas;
    const allowed = byRate ? limit : input.maxReplicas;
    if (desiredReplicas > allowed) {
      return byRate
        ? { replicas: allowed, reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' }
        : { replicas: allowed, reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' };
    }
  } else if (desiredReplicas < currentReplicas) {
    const limit = Math.min(currentReplicas, calculateScaleDownLimit(currentReplicas, input.scaleDown, events));
    const byRate = limit > input.minReplicas;
    const allowed = byRate ? limit : input.minReplicas;
    if (desiredReplicas < allowed) {
      return byRate
        ? { replicas: allowed, reason: 'ScaleDownLimit', message: 'the desired replica count is decreasing faster than the maximum scale rate' }
        : { replicas: allowed, reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' };
    }
  }
  return { replicas: desiredReplicas, reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' };
}

/** ScaleEvents are both directions' recent events, read at `nowMs`. */
export interface ScaleEvents {
  scaleUpEvents: readonly ScaleEvent[];
  scaleDownEvents: readonly ScaleEvent[];
  nowMs: number;
}

/**
 * calculateScaleUpLimit is the highest count the scale-up policies allow now: per policy, the
 * count at the start of its period (current − added + removed within it) plus `value` pods or
 * plus `value`% rounded up (so a small target can always grow), then the largest (Max) or
 * smallest (Min) of those; the current count when Disabled.
 */
export function calculateScaleUpLimit(currentReplicas: number, rules: ScalingRules, events: ScaleEvents): number {
  if (rules.selectPolicy === 'Disabled') return currentReplicas;
  const proposals = rules.policies.flatMap((policy) => {
    const start = periodStartReplicas(currentReplicas, policy.periodSeconds, events);
    if (policy.type === 'Pods') return [start + policy.value];
    if (policy.type === 'Percent') return [Math.ceil(start * (1 + policy.value / 100))];
    return [];
  });
  return rules.selectPolicy === 'Min' ? Math.min(...proposals) : Math.max(...proposals);
}

/**
 * calculateScaleDownLimit is the lowest count the scale-down policies allow now: per policy,
 * the period's starting count minus `value` pods or minus `value`% (truncated), then the
 * lowest (Max: the largest change) or highest (Min); the current count when Disabled.
 */
export function calculateScaleDownLimit(currentReplicas: number, rules: ScalingRules, events: ScaleEvents): number {
  if (rules.selectPolicy === 'Disabled') return currentReplicas;
  const proposals = rules.policies.flatMap((policy) => {
    const start = periodStartReplicas(currentReplicas, policy.periodSeconds, events);
    if (policy.type === 'Pods') return [start - policy.value];
    if (policy.type === 'Percent') return [Math.trunc(start * (1 - policy.value / 100))];
    return [];
  });
  return rules.selectPolicy === 'Min' ? Math.max(...proposals) : Math.min(...proposals);
}

function periodStartReplicas(currentReplicas: number, periodSeconds: number, events: ScaleEvents): number {
  const added = replicasChangedInPeriod(events.scaleUpEvents, periodSeconds, events.nowMs);
  const removed = replicasChangedInPeriod(events.scaleDownEvents, periodSeconds, events.nowMs);
  return currentReplicas - added + removed;
}
