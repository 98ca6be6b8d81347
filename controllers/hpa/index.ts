/**
 * controllers/hpa — the HorizontalPodAutoscaler controller (kube-controller-manager's
 * podautoscaler): every sync period it reads each HPA's target through /scale, proposes a
 * replica count per metric from the resource metrics API (largest wins), smooths it with the
 * behavior's stabilization windows and rate policies, writes the new count to /scale, and
 * reports currentMetrics, desired/current replicas and the AbleToScale, ScalingActive and
 * ScalingLimited conditions in status.
 *
 * registerHpaController wires it into a Manager; reconcile.ts and plan.ts are the loop;
 * replica-calculator.ts, behavior.ts, metric-proposals.ts, conditions.ts and status.ts are its
 * decisions; metrics-client.ts reads metrics.k8s.io.
 *
 * May import: controllers/runtime/** and apiserver/api/** only (test/architecture.test.ts).
 * Docs: docs/controllers.md.
 */
export { registerHpaController, hpaSpecChanged, HPA_CONTROLLER_NAME, HPA_EVENT_SOURCE, HPA_SYNC_PERIOD_MS, type HpaControllerOptions } from './hpa-controller.js';
export { createHpaReconciler } from './reconcile.js';
export type { HpaConfig, HpaReconcilerDeps } from './sync.js';
export {
  createResourceMetricsClient,
  resourceMetricsFromList,
  parseMetricsWindowMs,
  RESOURCE_METRICS_API,
  type MetricsSource,
  type PodMetric,
  type PodMetricsInfo,
  type ResourceMetricQuery,
  type ResourceMetrics,
} from './metrics-client.js';
export { getResourceReplicas, getRawResourceReplicas, isWithinTolerance, DEFAULT_TOLERANCE, type Tolerances, type UtilizationReplicas, type AverageValueReplicas } from './replica-calculator.js';
export { groupPods, calculateRequests, CPU_INITIALIZATION_PERIOD_MS, INITIAL_READINESS_DELAY_MS, type PodGroups, type ReadinessOptions } from './pod-groups.js';
export {
  normalizeDesiredReplicasWithBehaviors,
  resolveScalingRules,
  calculateScaleUpLimit,
  calculateScaleDownLimit,
  DOWNSCALE_STABILIZATION_MS,
  type ScalingRules,
  type Normalization,
  type NormalizationInput,
} from './behavior.js';
export { HistoryStore, recordScaleEvent, withInitialRecommendation, EMPTY_HISTORY, type ScalingHistory, type ScaleEvent, type TimestampedRecommendation } from './scaling-history.js';
export { computeReplicasForMetrics, type MetricsComputation, type MetricsContext, type HpaEvent } from './metric-proposals.js';
export { setCondition, findCondition, HpaConditionTypes, type ConditionVerdict, type HpaConditionType } from './conditions.js';
export { calculateStatus, statusNeedsUpdate, type HpaStatus, type SyncOutcome } from './status.js';
export { createScaleTargetResolver, type ScaleTargetResolver } from './scale-target.js';
