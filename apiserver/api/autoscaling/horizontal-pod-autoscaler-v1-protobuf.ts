/** Protobuf tables of horizontal-pod-autoscaler-v1.ts and scale.ts (k8s.io/api/autoscaling/v1
 * generated.proto): what `kubectl autoscale` 1.32 sends. */
import { ObjectMetaMessage, TimeMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';

const V1 = 'io.k8s.api.autoscaling.v1';

export const CrossVersionObjectReferenceV1Message = message(`${V1}.CrossVersionObjectReference`, {
  1: field.string('kind', KEEP_ZERO),
  2: field.string('name', KEEP_ZERO),
  3: field.string('apiVersion'),
});

export const HorizontalPodAutoscalerSpecV1Message = message(`${V1}.HorizontalPodAutoscalerSpec`, {
  1: field.message('scaleTargetRef', CrossVersionObjectReferenceV1Message),
  2: field.int32('minReplicas', KEEP_ZERO),
  3: field.int32('maxReplicas', KEEP_ZERO),
  4: field.int32('targetCPUUtilizationPercentage', KEEP_ZERO),
});

export const HorizontalPodAutoscalerStatusV1Message = message(`${V1}.HorizontalPodAutoscalerStatus`, {
  1: field.int64('observedGeneration', KEEP_ZERO),
  2: field.message('lastScaleTime', TimeMessage),
  3: field.int32('currentReplicas', KEEP_ZERO),
  4: field.int32('desiredReplicas', KEEP_ZERO),
  5: field.int32('currentCPUUtilizationPercentage', KEEP_ZERO),
});

export const HorizontalPodAutoscalerV1Message = message(`${V1}.HorizontalPodAutoscaler`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message('spec', HorizontalPodAutoscalerSpecV1Message),
  3: field.message('status', HorizontalPodAutoscalerStatusV1Message),
});

/** ScaleMessage is autoscaling/v1 Scale, the body of PUT …/scale from typed clients.
 * `spec.replicas` keeps 0: a Go Scale always has a replica count, and scaling to zero must
 * not read as "no replica count given". */
export const ScaleMessage = message(`${V1}.Scale`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message('spec', message(`${V1}.ScaleSpec`, { 1: field.int32('replicas', KEEP_ZERO) })),
  3: field.message('status', message(`${V1}.ScaleStatus`, { 1: field.int32('replicas', KEEP_ZERO), 2: field.string('selector') })),
});
