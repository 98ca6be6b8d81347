/**
 * Deciding the replica count of one sync (the middle of Kubernetes' reconcileAutoscaler):
 * a target scaled to zero is left alone, a count outside [minReplicas, maxReplicas] is brought
 * back at once, and otherwise the metrics propose and the behavior normalizes.
 */
import type { MetricStatus } from '../../apiserver/api/autoscaling/metric-status.js';
import { tryParseQuantity } from '../../apiserver/api/quantity.js';
import { normalizeDesiredReplicasWithBehaviors, type ScalingRules } from './behavior.js';
import { computeReplicasForMetrics, type MetricsComputation } from './metric-proposals.js';
import type { Tolerances } from './replica-calculator.js';
import type { Sync } from './sync.js';

/**
 * Plan is a sync's decision:
 * - failed: no count could be computed (reported on the HPA): leave the target alone;
 * - hold: the count stays as it is;
 * - scale: set the target to desiredReplicas, for `reason` (the SuccessfulRescale text).
 */
export type Plan =
  | { kind: 'failed'; currentMetrics: MetricStatus[] | undefined }
  | { kind: 'hold'; currentMetrics: MetricStatus[] | undefined }
  | { kind: 'scale'; desiredReplicas: number; reason: string; currentMetrics: MetricStatus[] | undefined };

/** PlanInput is what the Scale said. */
export interface PlanInput {
  /** The Scale's spec.replicas. */
  currentReplicas: number;
  /** The Scale's status.selector. */
  selector: string | undefined;
}

/** planReplicas decides the sync's Plan, setting ScalingActive (and, when the metrics
 * decide, AbleToScale and ScalingLimited) on `sync` and recording its events. */
export async function planReplicas(sync: Sync, { currentReplicas, selector }: PlanInput): Promise<Plan> {
  const spec = sync.hpa.spec;
  const minReplicas = spec.minReplicas ?? 1;
  if (currentReplicas === 0 && minReplicas !== 0) {
    // Someone scaled the target to zero on purpose: autoscaling pauses until they scale it up.
    sync.setCondition('ScalingActive', {
      status: 'False',
      reason: 'ScalingDisabled',
      message: 'scaling is disabled since the replica count of the target is zero',
    });
    return { kind: 'hold', currentMetrics: undefined };
  }
  if (currentReplicas > spec.maxReplicas) {
    return { kind: 'scale', desiredReplicas: spec.maxReplicas, reason: 'Current number of replicas above Spec.MaxReplicas', currentMetrics: undefined };
  }
  if (currentReplicas < minReplicas) {
    return { kind: 'scale', desiredReplicas: minReplicas, reason: 'Current number of replicas below Spec.MinReplicas', currentMetrics: undefined };
  }
  const computed = await computeMetrics(sync, currentReplicas, selector);
  if (computed.replicas === -1) return { kind: 'failed', currentMetrics: computed.statuses };
  return normalize(sync, { currentReplicas, minReplicas, computed });
}

async function computeMetrics(sync: Sync, currentReplicas: number, selector: string | undefined): Promise<MetricsComputation> {
  const { config, podLister, metrics } = sync.deps;
  const computed = await computeReplicasForMetrics({
    hpa: sync.hpa,
    specReplicas: currentReplicas,
    selector,
    podLister,
    metrics,
    nowMs: sync.nowMs,
    tolerances: tolerancesOf(sync.rules, config.tolerance),
    readiness: { cpuInitializationPeriodMs: config.cpuInitializationPeriodMs, initialReadinessDelayMs: config.initialReadinessDelayMs },
    signal: sync.signal,
  });
  sync.setCondition('ScalingActive', computed.scalingActive);
  for (const event of computed.events) sync.event(event.type, event.reason, event.message);
  if (computed.replicas === -1) {
    sync.event('Warning', 'FailedComputeMetricsReplicas', computed.error ?? 'failed to compute the desired replica count');
    sync.log.warn({ target: sync.reference, error: computed.error }, 'failed to compute desired number of replicas based on listed metrics');
  } else if (computed.error) {
    // Some metrics failed but the rest ask for more pods: scale on them, as Kubernetes does.
    sync.log.warn({ target: sync.reference, error: computed.error }, 'scaling on the metrics that could be read');
  }
  return computed;
}

interface NormalizeStep {
  currentReplicas: number;
  minReplicas: number;
  computed: MetricsComputation;
}

/** normalize applies the behavior to the metrics' proposal and remembers the recommendation. */
function normalize(sync: Sync, { currentReplicas, minReplicas, computed }: NormalizeStep): Plan {
  const proposed = Math.max(0, computed.replicas);
  const reason = proposed > currentReplicas ? `${computed.metricName} above target` : 'All metrics below target';
  const normalized = normalizeDesiredReplicasWithBehaviors({
    currentReplicas,
    desiredReplicas: proposed,
    minReplicas,
    maxReplicas: sync.hpa.spec.maxReplicas,
    scaleUp: sync.rules.scaleUp,
    scaleDown: sync.rules.scaleDown,
    history: sync.history,
    nowMs: sync.nowMs,
  });
  sync.history = { ...sync.history, recommendations: normalized.recommendations };
  sync.setCondition('AbleToScale', normalized.ableToScale);
  sync.setCondition('ScalingLimited', normalized.scalingLimited);
  sync.log.debug({ target: sync.reference, proposed, desired: normalized.desiredReplicas, metric: computed.metricName }, 'proposing desired replicas');
  if (normalized.desiredReplicas === currentReplicas) return { kind: 'hold', currentMetrics: computed.statuses };
  return { kind: 'scale', desiredReplicas: normalized.desiredReplicas, reason, currentMetrics: computed.statuses };
}

/**
 * tolerancesOf is each direction's tolerance: the HPA's own (behavior.scaleUp/scaleDown
 * .tolerance, a quantity such as "0.05") or the controller default.
 */
export function tolerancesOf(rules: { scaleUp: ScalingRules; scaleDown: ScalingRules }, fallback: number): Tolerances {
  return { scaleUp: toleranceOf(rules.scaleUp, fallback), scaleDown: toleranceOf(rules.scaleDown, fallback) };
}

function toleranceOf(rules: ScalingRules, fallback: number): number {
  const quantity = rules.tolerance === undefined ? undefined : tryParseQuantity(rules.tolerance);
  return quantity === undefined ? fallback : Number(quantity.scaledValue(-9)) / 1e9;
}
