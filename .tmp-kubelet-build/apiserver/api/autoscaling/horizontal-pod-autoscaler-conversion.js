import { badRequest } from '../api-error.js';
import { AlphaMetricSpecsSchema, AlphaMetricStatusesSchema, fromAlphaMetricSpec, fromAlphaMetricStatus, toAlphaMetricSpec, toAlphaMetricStatus, withoutUndefined, } from './alpha-metrics.js';
import { decodeBehavior, encodeBehavior } from './behavior-annotation.js';
import { cpuUtilizationMetric, DEFAULT_CPU_UTILIZATION, HorizontalPodAutoscalerConditionSchema, } from './horizontal-pod-autoscaler.js';
/** The annotations that carry v2-only fields through autoscaling/v1. */
export const HpaRoundTripAnnotations = {
    metrics: 'autoscaling.alpha.kubernetes.io/metrics',
    currentMetrics: 'autoscaling.alpha.kubernetes.io/current-metrics',
    conditions: 'autoscaling.alpha.kubernetes.io/conditions',
    behavior: 'autoscaling.alpha.kubernetes.io/behavior',
};
const isCpu = (name) => name === 'cpu';
const isCpuUtilization = (m) => m.type === 'Resource' && isCpu(m.resource?.name) && m.resource?.target.averageUtilization !== undefined;
/** hpaV1ToV2 converts an autoscaling/v1 HPA into the stored v2 shape. Does not mutate its
 * input. Throws a BadRequest ApiError for a malformed metrics, current-metrics or
 * conditions annotation (a malformed behavior annotation is ignored, as in Kubernetes). */
export function hpaV1ToV2(v1, options = {}) {
    const annotations = { ...v1.metadata.annotations };
    const spec = v1.spec;
    const target = spec.targetCPUUtilizationPercentage;
    const annotated = readAnnotation(annotations, HpaRoundTripAnnotations.metrics, AlphaMetricSpecsSchema, options)?.map(fromAlphaMetricSpec);
    let metrics = [...(annotated ?? []), ...(target === undefined ? [] : [cpuUtilizationMetric(target)])];
    if (metrics.length === 0)
        metrics = [cpuUtilizationMetric(DEFAULT_CPU_UTILIZATION)];
    const v2 = {
        apiVersion: 'autoscaling/v2',
        kind: 'HorizontalPodAutoscaler',
        metadata: { ...v1.metadata },
        spec: {
            scaleTargetRef: { ...spec.scaleTargetRef },
            minReplicas: spec.minReplicas,
            maxReplicas: spec.maxReplicas,
            metrics,
            behavior: decodeBehavior(annotations[HpaRoundTripAnnotations.behavior]),
        },
        status: statusV1ToV2(v1, annotations, options),
    };
    for (const key of Object.values(HpaRoundTripAnnotations))
        delete annotations[key];
    v2.metadata.annotations = Object.keys(annotations).length > 0 ? annotations : undefined;
    return withoutUndefined(v2);
}
function statusV1ToV2(v1, annotations, options) {
    const status = v1.status;
    const annotated = readAnnotation(annotations, HpaRoundTripAnnotations.currentMetrics, AlphaMetricStatusesSchema, options);
    const cpu = status?.currentCPUUtilizationPercentage;
    const fromField = cpu === undefined ? undefined : [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: cpu } } }];
    const conditions = readAnnotation(annotations, HpaRoundTripAnnotations.conditions, ConditionsSchema, options);
    if (!status && !annotated && !conditions)
        return undefined;
    return {
        observedGeneration: status?.observedGeneration,
        lastScaleTime: status?.lastScaleTime,
        currentReplicas: status?.currentReplicas,
        desiredReplicas: status?.desiredReplicas,
        // The annotation wins: it has the raw values behind the percentage as well.
        currentMetrics: annotated?.map(fromAlphaMetricStatus) ?? fromField,
        conditions,
    };
}
/** hpaV2ToV1 converts a stored v2 HPA into autoscaling/v1, moving what v1 cannot express
 * into the round-trip annotations. Does not mutate its input. */
export function hpaV2ToV1(v2) {
    const { spec, status } = v2;
    const annotations = roundTripAnnotations(v2);
    const v1 = {
        apiVersion: 'autoscaling/v1',
        kind: 'HorizontalPodAutoscaler',
        metadata: { ...v2.metadata, annotations: Object.keys(annotations).length > 0 ? annotations : undefined },
        spec: {
            scaleTargetRef: { ...spec.scaleTargetRef },
            minReplicas: spec.minReplicas,
            maxReplicas: spec.maxReplicas,
            targetCPUUtilizationPercentage: cpuTarget(spec.metrics ?? []),
        },
        status: {
            observedGeneration: status?.observedGeneration,
            lastScaleTime: status?.lastScaleTime,
            currentReplicas: status?.currentReplicas ?? 0,
            desiredReplicas: status?.desiredReplicas ?? 0,
            currentCPUUtilizationPercentage: cpuCurrent(status?.currentMetrics ?? []),
        },
    };
    return withoutUndefined(v1);
}
// roundTripAnnotations is the v1 object's annotation map: the user's annotations without
// stale round-trip keys, plus freshly encoded ones for what v1 cannot express. The metric
// statuses are all kept, CPU included, for the raw values behind the percentage.
function roundTripAnnotations(v2) {
    const { spec, status } = v2;
    const annotations = { ...v2.metadata.annotations };
    for (const key of Object.values(HpaRoundTripAnnotations))
        delete annotations[key];
    const others = (spec.metrics ?? []).filter((m) => !isCpuUtilization(m));
    if (others.length > 0)
        annotations[HpaRoundTripAnnotations.metrics] = JSON.stringify(others.map(toAlphaMetricSpec));
    if (status?.currentMetrics?.length) {
        annotations[HpaRoundTripAnnotations.currentMetrics] = JSON.stringify(status.currentMetrics.map(toAlphaMetricStatus));
    }
    if (status?.conditions?.length)
        annotations[HpaRoundTripAnnotations.conditions] = JSON.stringify(status.conditions);
    if (spec.behavior)
        annotations[HpaRoundTripAnnotations.behavior] = encodeBehavior(spec.behavior);
    return annotations;
}
// The first cpu Resource metric decides, even when its target is not a utilization.
function cpuTarget(metrics) {
    return metrics.find((m) => m.type === 'Resource' && isCpu(m.resource?.name))?.resource?.target.averageUtilization;
}
// The last cpu Resource status with a utilization wins, as in Kubernetes' loop.
function cpuCurrent(statuses) {
    let current;
    for (const s of statuses) {
        if (s.type === 'Resource' && isCpu(s.resource?.name) && s.resource?.current.averageUtilization !== undefined) {
            current = s.resource.current.averageUtilization;
        }
    }
    return current;
}
const ConditionsSchema = HorizontalPodAutoscalerConditionSchema.array();
function readAnnotation(annotations, key, schema, options) {
    const text = annotations[key];
    if (text === undefined)
        return undefined;
    const parsed = schema.safeParse(parseJson(text));
    if (parsed.success)
        return parsed.data;
    if (options.lenient)
        return undefined;
    throw badRequest(`unable to convert autoscaling/v1 HorizontalPodAutoscaler: annotation ${key} is not valid: ${text}`);
}
// Text that is not JSON yields undefined, which the schema check then reports.
function parseJson(text) {
    try {
        return JSON.parse(text);
    }
    catch {
        return undefined;
    }
}
/** hpaV1ToStorage is hpaV1ToV2 typed for StorageMapping.toStorage (throws as it does). */
export const hpaV1ToStorage = (object) => hpaV1ToV2(object);
/** hpaV1FromStorage is hpaV2ToV1 typed for StorageMapping.fromStorage. */
export const hpaV1FromStorage = (object) => hpaV2ToV1(object);
//# sourceMappingURL=horizontal-pod-autoscaler-conversion.js.map