import { horizontalPodAutoscalerV1Definition } from './horizontal-pod-autoscaler-v1.js';
import { horizontalPodAutoscalerDefinition } from './horizontal-pod-autoscaler.js';
export { cpuUtilizationMetric, DEFAULT_CPU_UTILIZATION, defaultHorizontalPodAutoscaler, horizontalPodAutoscalerColumns, horizontalPodAutoscalerDefinition, HorizontalPodAutoscalerConditionSchema, HorizontalPodAutoscalerSchema, HorizontalPodAutoscalerSpecSchema, HorizontalPodAutoscalerStatusSchema, } from './horizontal-pod-autoscaler.js';
export { defaultBehavior, HorizontalPodAutoscalerBehaviorSchema, HPAScalingPolicySchema, HPAScalingRulesSchema, scaleDownRules, scaleUpRules, } from './horizontal-pod-autoscaler-behavior.js';
export { defaultHorizontalPodAutoscalerV1, horizontalPodAutoscalerV1Definition, HorizontalPodAutoscalerV1Schema, validateHorizontalPodAutoscalerV1, } from './horizontal-pod-autoscaler-v1.js';
export { hpaV1ToV2, hpaV2ToV1, HpaRoundTripAnnotations } from './horizontal-pod-autoscaler-conversion.js';
export { validateHorizontalPodAutoscaler } from './horizontal-pod-autoscaler-validation.js';
export { formatHpaMetrics } from './format-hpa-metrics.js';
export { CrossVersionObjectReferenceSchema, MetricSourceTypes, MetricSpecSchema, MetricTargetSchema, } from './metric-spec.js';
export { MetricStatusSchema, MetricValueStatusSchema } from './metric-status.js';
export { ScaleSchema, ScaleSpecSchema, ScaleStatusSchema } from './scale.js';
/** autoscalingDefinitions lists the group's served kinds in preference order: v2 (stored)
 * before v1, which is served by conversion. */
export const autoscalingDefinitions = [horizontalPodAutoscalerDefinition, horizontalPodAutoscalerV1Definition];
//# sourceMappingURL=index.js.map