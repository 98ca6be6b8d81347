/** Protobuf tables of horizontal-pod-autoscaler.ts and its behavior
 * (k8s.io/api/autoscaling/v2 generated.proto). */
import { kindConditionMessage, ObjectMetaMessage, QuantityMessage, TimeMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';
import { AUTOSCALING_V2 } from './metric-spec.js';
import { CrossVersionObjectReferenceMessage, MetricSpecMessage, MetricStatusMessage } from './metric-spec-protobuf.js';

export const HPAScalingPolicyMessage = message(`${AUTOSCALING_V2}.HPAScalingPolicy`, {
  1: field.string('type', KEEP_ZERO),
  2: field.int32('value', KEEP_ZERO),
  3: field.int32('periodSeconds', KEEP_ZERO),
});

export const HPAScalingRulesMessage = message(`${AUTOSCALING_V2}.HPAScalingRules`, {
  1: field.string('selectPolicy', KEEP_ZERO),
  2: field.repeated('policies', HPAScalingPolicyMessage),
  3: field.int32('stabilizationWindowSeconds', KEEP_ZERO),
  4: field.message('tolerance', QuantityMessage),
});

export const HorizontalPodAutoscalerBehaviorMessage = message(`${AUTOSCALING_V2}.HorizontalPodAutoscalerBehavior`, {
  1: field.message('scaleUp', HPAScalingRulesMessage),
  2: field.message('scaleDown', HPAScalingRulesMessage),
});

export const HorizontalPodAutoscalerSpecMessage = message(`${AUTOSCALING_V2}.HorizontalPodAutoscalerSpec`, {
  1: field.message('scaleTargetRef', CrossVersionObjectReferenceMessage),
  2: field.int32('minReplicas', KEEP_ZERO),
  3: field.int32('maxReplicas', KEEP_ZERO),
  4: field.repeated('metrics', MetricSpecMessage),
  5: field.message('behavior', HorizontalPodAutoscalerBehaviorMessage),
});

export const HorizontalPodAutoscalerConditionMessage = kindConditionMessage(`${AUTOSCALING_V2}.HorizontalPodAutoscalerCondition`);

export const HorizontalPodAutoscalerStatusMessage = message(`${AUTOSCALING_V2}.HorizontalPodAutoscalerStatus`, {
  1: field.int64('observedGeneration', KEEP_ZERO),
  2: field.message('lastScaleTime', TimeMessage),
  3: field.int32('currentReplicas'),
  4: field.int32('desiredReplicas', KEEP_ZERO),
  5: field.repeated('currentMetrics', MetricStatusMessage),
  6: field.repeated('conditions', HorizontalPodAutoscalerConditionMessage),
});

export const HorizontalPodAutoscalerMessage = message(`${AUTOSCALING_V2}.HorizontalPodAutoscaler`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message('spec', HorizontalPodAutoscalerSpecMessage),
  3: field.message('status', HorizontalPodAutoscalerStatusMessage),
});
