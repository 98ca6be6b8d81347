/**
 * autoscaling: HorizontalPodAutoscalers (v2 stored and preferred, v1 served by conversion)
 * and the autoscaling/v1 Scale that every `/scale` subresource speaks.
 *
 * Role: schemas, defaults, validation, v1 ⇄ v2 conversion and table columns of the group.
 * May import only from apiserver/api/ (meta, printing, validation, api-error, core/quantity)
 * and zod. See docs/api-conventions.md.
 */
import type { ResourceDefinition } from '../resource-definition.js';
import { horizontalPodAutoscalerV1Definition } from './horizontal-pod-autoscaler-v1.js';
import { horizontalPodAutoscalerDefinition } from './horizontal-pod-autoscaler.js';

export {
  cpuUtilizationMetric,
  DEFAULT_CPU_UTILIZATION,
  defaultHorizontalPodAutoscaler,
  horizontalPodAutoscalerColumns,
  horizontalPodAutoscalerDefinition,
  HorizontalPodAutoscalerConditionSchema,
  HorizontalPodAutoscalerSchema,
  HorizontalPodAutoscalerSpecSchema,
  HorizontalPodAutoscalerStatusSchema,
  type HorizontalPodAutoscaler,
  type HorizontalPodAutoscalerCondition,
} from './horizontal-pod-autoscaler.js';
export {
  defaultBehavior,
  HorizontalPodAutoscalerBehaviorSchema,
  HPAScalingPolicySchema,
  HPAScalingRulesSchema,
  scaleDownRules,
  scaleUpRules,
  type HorizontalPodAutoscalerBehavior,
  type HPAScalingPolicy,
  type HPAScalingRules,
} from './horizontal-pod-autoscaler-behavior.js';
export {
  defaultHorizontalPodAutoscalerV1,
  horizontalPodAutoscalerV1Definition,
  HorizontalPodAutoscalerV1Schema,
  validateHorizontalPodAutoscalerV1,
  type HorizontalPodAutoscalerV1,
} from './horizontal-pod-autoscaler-v1.js';
export { hpaV1ToV2, hpaV2ToV1, HpaRoundTripAnnotations } from './horizontal-pod-autoscaler-v1.js';
export { validateHorizontalPodAutoscaler } from './horizontal-pod-autoscaler.js';
export { formatHpaMetrics } from './format-hpa-metrics.js';
export {
  CrossVersionObjectReferenceSchema,
  MetricSourceTypes,
  MetricSpecSchema,
  MetricTargetSchema,
  type CrossVersionObjectReference,
  type MetricSourceType,
  type MetricSpec,
  type MetricTarget,
} from './metric-spec.js';
export { MetricStatusSchema, MetricValueStatusSchema, type MetricStatus, type MetricValueStatus } from './metric-status.js';
export { ScaleSchema, ScaleSpecSchema, ScaleStatusSchema, type Scale } from './scale.js';

/** autoscalingDefinitions lists the group's served kinds in preference order: v2 (stored)
 * before v1, which is served by conversion. */
export const autoscalingDefinitions: ResourceDefinition<any>[] = [horizontalPodAutoscalerDefinition, horizontalPodAutoscalerV1Definition];
