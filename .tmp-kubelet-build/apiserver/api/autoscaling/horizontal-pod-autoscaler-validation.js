/**
 * HorizontalPodAutoscaler validation after Kubernetes' autoscaling validation: replica
 * bounds, the scale target reference, every metric (exactly one source, matching its type,
 * with a sane target) and the scaling behavior. Messages are Kubernetes' own.
 */
import { quantityError, tryParseQuantity } from '../core/quantity.js';
import { forbidden, invalid, isDns1123Label, isValidPathSegmentName, notSupported, required } from '../validation.js';
import { HPAScalingPolicyTypes, ScalingPolicySelects, } from './horizontal-pod-autoscaler-behavior.js';
import { MetricSourceTypes } from './metric-spec.js';
const MAX_PERIOD_SECONDS = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS = 3600;
const requiredWith = (field, detail) => ({ type: 'FieldValueRequired', field, detail });
/** validateHorizontalPodAutoscaler checks an HPA's spec (pure). minReplicas may be 0 only if
 * it already was (the HPAScaleToZero gate is off, as by default in Kubernetes). */
export function validateHorizontalPodAutoscaler(hpa, old) {
    const spec = hpa.spec;
    const lowerBound = old?.spec.minReplicas === 0 ? 0 : 1;
    const errors = [];
    if (spec.minReplicas !== undefined && spec.minReplicas < lowerBound) {
        errors.push(invalid('spec.minReplicas', spec.minReplicas, `must be greater than or equal to ${lowerBound}`));
    }
    if (spec.maxReplicas < 1)
        errors.push(invalid('spec.maxReplicas', spec.maxReplicas, 'must be greater than 0'));
    if (spec.minReplicas !== undefined && spec.maxReplicas < spec.minReplicas) {
        errors.push(invalid('spec.maxReplicas', spec.maxReplicas, 'must be greater than or equal to `minReplicas`'));
    }
    errors.push(...validateCrossVersionObjectReference(spec.scaleTargetRef, 'spec.scaleTargetRef'));
    errors.push(...validateMetrics(spec.metrics ?? [], 'spec.metrics', spec.minReplicas));
    errors.push(...validateBehavior(spec.behavior, 'spec.behavior'));
    return errors;
}
/** validateCrossVersionObjectReference requires a kind and a name usable as path segments. */
export function validateCrossVersionObjectReference(ref, field) {
    return [...validatePathSegment(ref.kind, `${field}.kind`), ...validatePathSegment(ref.name, `${field}.name`)];
}
function validatePathSegment(value, field, requiredDetail) {
    if (!value)
        return [requiredDetail ? requiredWith(field, requiredDetail) : required(field)];
    return isValidPathSegmentName(value).map((detail) => invalid(field, value, detail));
}
function validateMetrics(metrics, field, minReplicas) {
    const errors = metrics.flatMap((metric, i) => validateMetricSpec(metric, `${field}[${i}]`));
    const scalesOnObjects = metrics.some((m) => m.type === 'Object' || m.type === 'External');
    if (minReplicas === 0 && !scalesOnObjects) {
        errors.push(forbidden(field, 'must specify at least one Object or External metric to support scaling to zero replicas'));
    }
    return errors;
}
// The order in which Kubernetes looks at the source fields; only the first one present is
// validated in depth.
const SOURCE_FIELDS = ['object', 'external', 'pods', 'resource', 'containerResource'];
const FIELD_OF_TYPE = {
    Object: 'object',
    External: 'external',
    Pods: 'pods',
    Resource: 'resource',
    ContainerResource: 'containerResource',
};
function validateMetricSpec(metric, field) {
    const errors = [];
    if (!metric.type)
        errors.push(requiredWith(`${field}.type`, 'must specify a metric source type'));
    if (!MetricSourceTypes.includes(metric.type)) {
        errors.push(notSupported(`${field}.type`, metric.type, MetricSourceTypes));
    }
    const present = SOURCE_FIELDS.filter((source) => metric[source] !== undefined);
    if (present[0])
        errors.push(...SOURCE_VALIDATORS[present[0]](metric, `${field}.${present[0]}`));
    const expected = FIELD_OF_TYPE[metric.type];
    if (expected && metric[expected] === undefined) {
        errors.push(requiredWith(`${field}.${expected}`, 'must populate information for the given metric source'));
    }
    if (present.length > 1) {
        for (const extra of present.filter((source) => source !== expected)) {
            errors.push(forbidden(`${field}.${extra}`, 'must populate the given metric source only'));
        }
    }
    return errors;
}
const SOURCE_VALIDATORS = {
    object: validateObjectSource,
    external: validateExternalSource,
    pods: validatePodsSource,
    resource: (metric, field) => validateResourceSource(metric.resource.name, metric.resource.target, field),
    containerResource: validateContainerResourceSource,
};
function validateObjectSource(metric, field) {
    const object = metric.object;
    const errors = validateCrossVersionObjectReference(object.describedObject, `${field}.describedObject`);
    errors.push(...validateMetricName(object.metric.name, `${field}.metric.name`), ...validateMetricTarget(object.target, `${field}.target`));
    if (object.target.value === undefined && object.target.averageValue === undefined) {
        errors.push(requiredWith(`${field}.target.averageValue`, 'must set either a target value or averageValue'));
    }
    return errors;
}
function validatePodsSource(metric, field) {
    const pods = metric.pods;
    const errors = [...validateMetricName(pods.metric.name, `${field}.metric.name`), ...validateMetricTarget(pods.target, `${field}.target`)];
    if (pods.target.averageValue === undefined) {
        errors.push(requiredWith(`${field}.target.averageValue`, 'must specify a positive target averageValue'));
    }
    return errors;
}
function validateExternalSource(metric, field) {
    const external = metric.external;
    const errors = [...validateMetricName(external.metric.name, `${field}.metric.name`), ...validateMetricTarget(external.target, `${field}.target`)];
    const { value, averageValue } = external.target;
    if (value === undefined && averageValue === undefined) {
        errors.push(requiredWith(`${field}.target.averageValue`, 'must set either a target value for metric or a per-pod target'));
    }
    if (value !== undefined && averageValue !== undefined) {
        errors.push(forbidden(`${field}.target.value`, 'may not set both a target value for metric and a per-pod target'));
    }
    return errors;
}
function validateContainerResourceSource(metric, field) {
    const source = metric.containerResource;
    const errors = validateResourceSource(source.name, source.target, field);
    if (!source.container)
        errors.push(requiredWith(`${field}.container`, 'must specify a container'));
    else
        errors.push(...isDns1123Label(source.container).map((detail) => invalid(`${field}.container`, source.container, detail)));
    return errors;
}
function validateResourceSource(name, target, field) {
    const errors = [];
    if (!name)
        errors.push(requiredWith(`${field}.name`, 'must specify a resource name'));
    errors.push(...validateMetricTarget(target, `${field}.target`));
    if (target.averageUtilization === undefined && target.averageValue === undefined) {
        errors.push(requiredWith(`${field}.target.averageUtilization`, 'must set either a target raw value or a target utilization'));
    }
    if (target.averageUtilization !== undefined && target.averageValue !== undefined) {
        errors.push(forbidden(`${field}.target.averageValue`, 'may not set both a target raw value and a target utilization'));
    }
    return errors;
}
function validateMetricTarget(target, field) {
    const errors = [];
    if (!target.type)
        errors.push(requiredWith(`${field}.type`, 'must specify a metric target type'));
    if (!['Utilization', 'Value', 'AverageValue'].includes(target.type)) {
        errors.push(invalid(`${field}.type`, target.type, 'must be either Utilization, Value, or AverageValue'));
    }
    for (const key of ['value', 'averageValue']) {
        const quantity = target[key];
        if (quantity === undefined)
            continue;
        // Kubernetes rejects a malformed quantity while decoding; here the schema keeps the text.
        const malformed = quantityError(quantity);
        if (malformed)
            errors.push(invalid(`${field}.${key}`, quantity, malformed));
        else if (tryParseQuantity(quantity)?.sign() !== 1)
            errors.push(invalid(`${field}.${key}`, quantity, 'must be positive'));
    }
    if (target.averageUtilization !== undefined && target.averageUtilization < 1) {
        errors.push(invalid(`${field}.averageUtilization`, target.averageUtilization, 'must be greater than 0'));
    }
    return errors;
}
function validateMetricName(name, field) {
    return validatePathSegment(name, field, 'must specify a metric name');
}
function validateBehavior(behavior, field) {
    if (!behavior)
        return [];
    return [...validateScalingRules(behavior.scaleUp, `${field}.scaleUp`), ...validateScalingRules(behavior.scaleDown, `${field}.scaleDown`)];
}
function validateScalingRules(rules, field) {
    if (!rules)
        return [];
    const errors = [];
    const window = rules.stabilizationWindowSeconds;
    if (window !== undefined && window < 0) {
        errors.push(invalid(`${field}.stabilizationWindowSeconds`, window, 'must be greater than or equal to zero'));
    }
    if (window !== undefined && window > MAX_STABILIZATION_WINDOW_SECONDS) {
        errors.push(invalid(`${field}.stabilizationWindowSeconds`, window, `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`));
    }
    if (rules.selectPolicy !== undefined && !ScalingPolicySelects.includes(rules.selectPolicy)) {
        errors.push(notSupported(`${field}.selectPolicy`, rules.selectPolicy, ScalingPolicySelects));
    }
    if (!rules.policies?.length)
        errors.push(requiredWith(`${field}.policies`, 'must specify at least one Policy'));
    (rules.policies ?? []).forEach((policy, i) => errors.push(...validateScalingPolicy(policy, `${field}.policies[${i}]`)));
    return errors;
}
function validateScalingPolicy(policy, field) {
    const errors = [];
    if (!HPAScalingPolicyTypes.includes(policy.type)) {
        errors.push(notSupported(`${field}.type`, policy.type, HPAScalingPolicyTypes));
    }
    if (policy.value <= 0)
        errors.push(invalid(`${field}.value`, policy.value, 'must be greater than zero'));
    if (policy.periodSeconds <= 0)
        errors.push(invalid(`${field}.periodSeconds`, policy.periodSeconds, 'must be greater than zero'));
    if (policy.periodSeconds > MAX_PERIOD_SECONDS) {
        errors.push(invalid(`${field}.periodSeconds`, policy.periodSeconds, `must be less than or equal to ${MAX_PERIOD_SECONDS}`));
    }
    return errors;
}
//# sourceMappingURL=horizontal-pod-autoscaler-validation.js.map