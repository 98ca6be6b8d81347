/**
 * autoscaling: HorizontalPodAutoscalers (v2 stored and preferred, v1 served by conversion)
 * and the autoscaling/v1 Scale that every `/scale` subresource speaks.
 *
 * Role: schemas, defaults, validation, v1 ⇄ v2 conversion and table columns of the group.
 * May import only from apiserver/api/ (meta, printing, validation, api-error, core/quantity)
 * and zod. See docs/api-conventions.md.
 */
import type { AnyResourceDefinition } from '../resource-definition.js';
import { horizontalPodAutoscalerDefinition } from './horizontal-pod-autoscaler.js';
import { horizontalPodAutoscalerV1Definition } from './horizontal-pod-autoscaler-v1.js';

export { formatHpaMetrics } from './format-hpa-metrics.js';
export {
  defaultHorizontalPodAutoscaler,
  type HorizontalPodAutoscaler,
  type HorizontalPodAutoscalerCondition,
  HorizontalPodAutoscalerConditionSchema,
  HorizontalPodAutoscalerSchema,
  HorizontalPodAutoscalerSpecSchema,
  HorizontalPodAutoscalerStatusSchema,
  horizontalPodAutoscalerColumns,
  horizontalPodAutoscalerDefinition,
  validateHorizontalPodAutoscaler,
} from './horizontal-pod-autoscaler.js';
export {
  type HorizontalPodAutoscalerBehavior,
  HorizontalPodAutoscalerBehaviorSchema,
  type HPAScalingPolicy,
  HPAScalingPolicySchema,
  type HPAScalingRules,
  HPAScalingRulesSchema,
} from './horizontal-pod-autoscaler-behavior.js';
export {
  defaultHorizontalPodAutoscalerV1,
  type HorizontalPodAutoscalerV1,
  HorizontalPodAutoscalerV1Schema,
  HpaRoundTripAnnotations,
  horizontalPodAutoscalerV1Definition,
  hpaV1ToV2,
  hpaV2ToV1,
  validateHorizontalPodAutoscalerV1,
} from './horizontal-pod-autoscaler-v1.js';
export { cpuUtilizationMetric, DEFAULT_CPU_UTILIZATION, defaultBehavior, scaleDownRules, scaleUpRules } from './hpa-defaults.js';
export {
  type CrossVersionObjectReference,
  CrossVersionObjectReferenceSchema,
  type MetricSourceType,
  MetricSourceTypes,
  type MetricSpec,
  MetricSpecSchema,
  type MetricTarget,
  MetricTargetSchema,
} from './metric-spec.js';
export { type MetricStatus, MetricStatusSchema, type MetricValueStatus, MetricValueStatusSchema } from './metric-status.js';
export { type Scale, ScaleSchema, ScaleSpecSchema, ScaleStatusSchema } from './scale.js';

/** autoscalingDefinitions lists the group's served kinds in preference order: v2 (stored)
 * before v1, which is served by conversion. */
export const autoscalingDefinitions: AnyResourceDefinition[] = [horizontalPodAutoscalerDefinition, horizontalPodAutoscalerV1Definition];
