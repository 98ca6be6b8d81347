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

export {
  calculateScaleDownLimit,
  calculateScaleUpLimit,
  DOWNSCALE_STABILIZATION_MS,
  type Normalization,
  type NormalizationInput,
  normalizeDesiredReplicasWithBehaviors,
  resolveScalingRules,
  type ScalingRules,
} from './behavior.js';
export { type ConditionVerdict, findCondition, type HpaConditionType, HpaConditionTypes, setCondition } from './conditions.js';
export {
  HPA_CONTROLLER_NAME,
  HPA_EVENT_SOURCE,
  HPA_SYNC_PERIOD_MS,
  type HpaControllerOptions,
  hpaSpecChanged,
  registerHpaController,
} from './hpa-controller.js';
export { computeReplicasForMetrics, type HpaEvent, type MetricsComputation, type MetricsContext } from './metric-proposals.js';
export {
  createResourceMetricsClient,
  type MetricsSource,
  type PodMetric,
  type PodMetricsInfo,
  parseMetricsWindowMs,
  RESOURCE_METRICS_API,
  type ResourceMetricQuery,
  type ResourceMetrics,
  resourceMetricsFromList,
} from './metrics-client.js';
export { CPU_INITIALIZATION_PERIOD_MS, calculateRequests, groupPods, INITIAL_READINESS_DELAY_MS, type PodGroups, type ReadinessOptions } from './pod-groups.js';
export { createHpaReconciler } from './reconcile.js';
export {
  type AverageValueReplicas,
  DEFAULT_TOLERANCE,
  getRawResourceReplicas,
  getResourceReplicas,
  isWithinTolerance,
  type Tolerances,
  type UtilizationReplicas,
} from './replica-calculator.js';
export { createScaleTargetResolver, type ScaleTargetResolver } from './scale-target.js';
export {
  EMPTY_HISTORY,
  HistoryStore,
  recordScaleEvent,
  type ScaleEvent,
  type ScalingHistory,
  type TimestampedRecommendation,
  withInitialRecommendation,
} from './scaling-history.js';
export { calculateStatus, type HpaStatus, type SyncOutcome, statusNeedsUpdate } from './status.js';
export type { HpaConfig, HpaReconcilerDeps } from './sync.js';
