/**
 * autoscaling/v2 HorizontalPodAutoscaler, the storage version of HPAs (autoscaling/v1 is
 * served by conversion, see horizontal-pod-autoscaler-v1.ts). An HPA reads metrics of the
 * pods of its scale target and sets the target's replica count through its /scale
 * subresource; the HPA controller is the only writer of `status`.
 */

import { z } from 'zod';
import { KIND_IDS } from '../kind-refs.js';
import { kindConditionSchema, TimeSchema, typeMetaFields } from '../meta.js';
import { mergeByKey } from '../patch-meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import { quantityError, tryParseQuantity } from '../quantity.js';
import type { FieldError, PrintColumn, ResourceDefinition } from '../resource-definition.js';
import { forbidden, invalid, isDns1123Label, isValidPathSegmentName, notSupported, required } from '../validation.js';
import { formatHpaMetrics } from './format-hpa-metrics.js';
import {
  type HorizontalPodAutoscalerBehavior,
  HorizontalPodAutoscalerBehaviorSchema,
  type HPAScalingPolicy,
  HPAScalingPolicyTypes,
  type HPAScalingRules,
  ScalingPolicySelects,
} from './horizontal-pod-autoscaler-behavior.js';
import { HorizontalPodAutoscalerMessage } from './horizontal-pod-autoscaler-protobuf.js';
import { cpuUtilizationMetric, DEFAULT_CPU_UTILIZATION, defaultBehavior } from './hpa-defaults.js';
import {
  AUTOSCALING_V2,
  type CrossVersionObjectReference,
  CrossVersionObjectReferenceSchema,
  MetricSourceTypes,
  type MetricSpec,
  MetricSpecSchema,
  type MetricTarget,
} from './metric-spec.js';
import { MetricStatusSchema } from './metric-status.js';

export const HorizontalPodAutoscalerSpecSchema = z
  .object({
    scaleTargetRef: CrossVersionObjectReferenceSchema.describe(
      'scaleTargetRef points to the resource to scale (a Deployment, ReplicaSet, StatefulSet or anything with a /scale subresource); its pods are where metrics are read.',
    ),
    minReplicas: z.int32().optional().describe('minReplicas is the lower limit of the replica count. Defaults to 1.'),
    maxReplicas: z.int32().describe('maxReplicas is the upper limit of the replica count; it cannot be less than minReplicas.'),
    metrics: z
      .array(MetricSpecSchema)
      .optional()
      .meta({ 'x-kubernetes-list-type': 'atomic' })
      .describe(
        'metrics are what the desired replica count is computed from: for each, current replicas × current value / target value; the largest result wins. Defaults to 80% average CPU utilization.',
      ),
    behavior: HorizontalPodAutoscalerBehaviorSchema.optional().describe(
      'behavior configures how fast the target is scaled up and down. If not set, the default rules for both directions apply.',
    ),
  })
  .meta({
    id: `${AUTOSCALING_V2}.HorizontalPodAutoscalerSpec`,
    description: 'HorizontalPodAutoscalerSpec describes the desired functionality of the HorizontalPodAutoscaler.',
  });

export const HorizontalPodAutoscalerConditionSchema = kindConditionSchema(
  `${AUTOSCALING_V2}.HorizontalPodAutoscalerCondition`,
  'HorizontalPodAutoscalerCondition describes the state of a HorizontalPodAutoscaler at a certain point.',
  'type of the condition: AbleToScale, ScalingActive or ScalingLimited.',
);

export type HorizontalPodAutoscalerCondition = z.infer<typeof HorizontalPodAutoscalerConditionSchema>;

export const HorizontalPodAutoscalerStatusSchema = z
  .object({
    observedGeneration: z.number().int().optional().describe('observedGeneration is the most recent generation observed by this autoscaler.'),
    lastScaleTime: TimeSchema.optional().describe('lastScaleTime is the last time the autoscaler changed the replica count.'),
    currentReplicas: z.int32().optional().describe('currentReplicas is the replica count of the target as last seen by the autoscaler.'),
    desiredReplicas: z.int32().optional().describe('desiredReplicas is the replica count the autoscaler last computed.'),
    currentMetrics: z
      .array(MetricStatusSchema)
      .optional()
      .meta({ 'x-kubernetes-list-type': 'atomic' })
      .describe('currentMetrics is the last read state of each metric, in the order of spec.metrics.'),
    conditions: z
      .array(HorizontalPodAutoscalerConditionSchema)
      .optional()
      .meta(mergeByKey('type'))
      .describe('conditions say whether the autoscaler can scale its target and whether it is limited.'),
  })
  .meta({
    id: `${AUTOSCALING_V2}.HorizontalPodAutoscalerStatus`,
    description: 'HorizontalPodAutoscalerStatus describes the current status of a horizontal pod autoscaler.',
  });

export const HorizontalPodAutoscalerSchema = z
  .object({
    ...typeMetaFields('autoscaling/v2', 'HorizontalPodAutoscaler'),
    spec: HorizontalPodAutoscalerSpecSchema.describe('spec is the desired behaviour of the autoscaler.'),
    status: HorizontalPodAutoscalerStatusSchema.optional().describe('status is the current information about the autoscaler.'),
  })
  .meta({
    id: `${AUTOSCALING_V2}.HorizontalPodAutoscaler`,
    description: 'HorizontalPodAutoscaler automatically manages the replica count of any resource with a scale subresource, based on the metrics specified.',
  });

export type HorizontalPodAutoscaler = z.infer<typeof HorizontalPodAutoscalerSchema>;

/** defaultHorizontalPodAutoscaler applies SetDefaults_HorizontalPodAutoscaler in place:
 * minReplicas 1, the 80% CPU metric when there are no metrics, and behavior defaults when a
 * behavior is given. Idempotent. */
export function defaultHorizontalPodAutoscaler(hpa: HorizontalPodAutoscaler): void {
  const spec = hpa.spec;
  spec.minReplicas ??= 1;
  if (!spec.metrics?.length) spec.metrics = [cpuUtilizationMetric(DEFAULT_CPU_UTILIZATION)];
  defaultBehavior(spec.behavior);
}

/** horizontalPodAutoscalerColumns are kube's HPA columns; autoscaling/v1 reuses them. */
export const horizontalPodAutoscalerColumns: PrintColumn[] = [
  nameColumn,
  column('Reference', (h: HorizontalPodAutoscaler) => `${h.spec?.scaleTargetRef?.kind ?? ''}/${h.spec?.scaleTargetRef?.name ?? ''}`, {
    description: 'scaleTargetRef points to the target resource to scale.',
  }),
  column('Targets', (h: HorizontalPodAutoscaler) => formatHpaMetrics(h.spec?.metrics ?? [], h.status?.currentMetrics ?? []), {
    description: 'metrics contains the specifications for which to use to calculate the desired replica count.',
  }),
  column('MinPods', (h: HorizontalPodAutoscaler) => (h.spec?.minReplicas === undefined ? '<unset>' : String(h.spec.minReplicas)), {
    description: 'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.',
  }),
  column('MaxPods', (h: HorizontalPodAutoscaler) => h.spec?.maxReplicas ?? 0, {
    type: 'integer',
    description: 'maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up.',
  }),
  column('Replicas', (h: HorizontalPodAutoscaler) => h.status?.currentReplicas ?? 0, {
    type: 'integer',
    description: 'currentReplicas is current number of replicas of pods managed by this autoscaler.',
  }),
  ageColumn,
];

/*
 * HorizontalPodAutoscaler validation after Kubernetes' autoscaling validation: replica
 * bounds, the scale target reference, every metric (exactly one source, matching its type,
 * with a sane target) and the scaling behavior. Messages are Kubernetes' own.
 */

const MAX_PERIOD_SECONDS = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS = 3600;

const requiredWith = (field: string, detail: string): FieldError => ({ type: 'FieldValueRequired', field, detail });

/** validateHorizontalPodAutoscaler checks an HPA's spec (pure). minReplicas may be 0 only if
 * it already was (the HPAScaleToZero gate is off, as by default in Kubernetes). */
export function validateHorizontalPodAutoscaler(hpa: HorizontalPodAutoscaler, old?: HorizontalPodAutoscaler): FieldError[] {
  const spec = hpa.spec;
  const lowerBound = old?.spec.minReplicas === 0 ? 0 : 1;
  const errors: FieldError[] = [];
  if (spec.minReplicas !== undefined && spec.minReplicas < lowerBound) {
    errors.push(invalid('spec.minReplicas', spec.minReplicas, `must be greater than or equal to ${lowerBound}`));
  }
  if (spec.maxReplicas < 1) errors.push(invalid('spec.maxReplicas', spec.maxReplicas, 'must be greater than 0'));
  if (spec.minReplicas !== undefined && spec.maxReplicas < spec.minReplicas) {
    errors.push(invalid('spec.maxReplicas', spec.maxReplicas, 'must be greater than or equal to `minReplicas`'));
  }
  errors.push(...validateCrossVersionObjectReference(spec.scaleTargetRef, 'spec.scaleTargetRef'));
  errors.push(...validateMetrics(spec.metrics ?? [], 'spec.metrics', spec.minReplicas));
  errors.push(...validateBehavior(spec.behavior, 'spec.behavior'));
  return errors;
}

/** validateCrossVersionObjectReference requires a kind and a name usable as path segments. */
export function validateCrossVersionObjectReference(ref: CrossVersionObjectReference, field: string): FieldError[] {
  return [...validatePathSegment(ref.kind, `${field}.kind`), ...validatePathSegment(ref.name, `${field}.name`)];
}

function validatePathSegment(value: string | undefined, field: string, requiredDetail?: string): FieldError[] {
  if (!value) return [requiredDetail ? requiredWith(field, requiredDetail) : required(field)];
  return isValidPathSegmentName(value).map((detail) => invalid(field, value, detail));
}

function validateMetrics(metrics: readonly MetricSpec[], field: string, minReplicas: number | undefined): FieldError[] {
  const errors = metrics.flatMap((metric, i) => validateMetricSpec(metric, `${field}[${i}]`));
  const scalesOnObjects = metrics.some((m) => m.type === 'Object' || m.type === 'External');
  if (minReplicas === 0 && !scalesOnObjects) {
    errors.push(forbidden(field, 'must specify at least one Object or External metric to support scaling to zero replicas'));
  }
  return errors;
}

type SourceField = 'object' | 'external' | 'pods' | 'resource' | 'containerResource';

// The order in which Kubernetes looks at the source fields; only the first one present is
// validated in depth.
const SOURCE_FIELDS: readonly SourceField[] = ['object', 'external', 'pods', 'resource', 'containerResource'];

const FIELD_OF_TYPE: Record<string, SourceField> = {
  Object: 'object',
  External: 'external',
  Pods: 'pods',
  Resource: 'resource',
  ContainerResource: 'containerResource',
};

function validateMetricSpec(metric: MetricSpec, field: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!metric.type) errors.push(requiredWith(`${field}.type`, 'must specify a metric source type'));
  if (!(MetricSourceTypes as readonly string[]).includes(metric.type)) {
    errors.push(notSupported(`${field}.type`, metric.type, MetricSourceTypes));
  }
  const present = SOURCE_FIELDS.filter((source) => metric[source] !== undefined);
  if (present[0]) errors.push(...SOURCE_VALIDATORS[present[0]](metric, `${field}.${present[0]}`));
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

const SOURCE_VALIDATORS: Record<SourceField, (metric: MetricSpec, field: string) => FieldError[]> = {
  object: validateObjectSource,
  external: validateExternalSource,
  pods: validatePodsSource,
  resource: (metric, field) => validateResourceSource(metric.resource!.name, metric.resource!.target, field),
  containerResource: validateContainerResourceSource,
};

function validateObjectSource(metric: MetricSpec, field: string): FieldError[] {
  const object = metric.object!;
  const errors = validateCrossVersionObjectReference(object.describedObject, `${field}.describedObject`);
  errors.push(...validateMetricName(object.metric.name, `${field}.metric.name`), ...validateMetricTarget(object.target, `${field}.target`));
  if (object.target.value === undefined && object.target.averageValue === undefined) {
    errors.push(requiredWith(`${field}.target.averageValue`, 'must set either a target value or averageValue'));
  }
  return errors;
}

function validatePodsSource(metric: MetricSpec, field: string): FieldError[] {
  const pods = metric.pods!;
  const errors = [...validateMetricName(pods.metric.name, `${field}.metric.name`), ...validateMetricTarget(pods.target, `${field}.target`)];
  if (pods.target.averageValue === undefined) {
    errors.push(requiredWith(`${field}.target.averageValue`, 'must specify a positive target averageValue'));
  }
  return errors;
}

function validateExternalSource(metric: MetricSpec, field: string): FieldError[] {
  const external = metric.external!;
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

function validateContainerResourceSource(metric: MetricSpec, field: string): FieldError[] {
  const source = metric.containerResource!;
  const errors = validateResourceSource(source.name, source.target, field);
  if (!source.container) errors.push(requiredWith(`${field}.container`, 'must specify a container'));
  else errors.push(...isDns1123Label(source.container).map((detail) => invalid(`${field}.container`, source.container, detail)));
  return errors;
}

function validateResourceSource(name: string, target: MetricTarget, field: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!name) errors.push(requiredWith(`${field}.name`, 'must specify a resource name'));
  errors.push(...validateMetricTarget(target, `${field}.target`));
  if (target.averageUtilization === undefined && target.averageValue === undefined) {
    errors.push(requiredWith(`${field}.target.averageUtilization`, 'must set either a target raw value or a target utilization'));
  }
  if (target.averageUtilization !== undefined && target.averageValue !== undefined) {
    errors.push(forbidden(`${field}.target.averageValue`, 'may not set both a target raw value and a target utilization'));
  }
  return errors;
}

function validateMetricTarget(target: MetricTarget, field: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!target.type) errors.push(requiredWith(`${field}.type`, 'must specify a metric target type'));
  if (!['Utilization', 'Value', 'AverageValue'].includes(target.type)) {
    errors.push(invalid(`${field}.type`, target.type, 'must be either Utilization, Value, or AverageValue'));
  }
  for (const key of ['value', 'averageValue'] as const) {
    const quantity = target[key];
    if (quantity === undefined) continue;
    // Kubernetes rejects a malformed quantity while decoding; here the schema keeps the text.
    const malformed = quantityError(quantity);
    if (malformed) errors.push(invalid(`${field}.${key}`, quantity, malformed));
    else if (tryParseQuantity(quantity)?.sign() !== 1) errors.push(invalid(`${field}.${key}`, quantity, 'must be positive'));
  }
  if (target.averageUtilization !== undefined && target.averageUtilization < 1) {
    errors.push(invalid(`${field}.averageUtilization`, target.averageUtilization, 'must be greater than 0'));
  }
  return errors;
}

function validateMetricName(name: string, field: string): FieldError[] {
  return validatePathSegment(name, field, 'must specify a metric name');
}

function validateBehavior(behavior: HorizontalPodAutoscalerBehavior | undefined, field: string): FieldError[] {
  if (!behavior) return [];
  return [...validateScalingRules(behavior.scaleUp, `${field}.scaleUp`), ...validateScalingRules(behavior.scaleDown, `${field}.scaleDown`)];
}

function validateScalingRules(rules: HPAScalingRules | undefined, field: string): FieldError[] {
  if (!rules) return [];
  const errors: FieldError[] = [];
  const window = rules.stabilizationWindowSeconds;
  if (window !== undefined && window < 0) {
    errors.push(invalid(`${field}.stabilizationWindowSeconds`, window, 'must be greater than or equal to zero'));
  }
  if (window !== undefined && window > MAX_STABILIZATION_WINDOW_SECONDS) {
    errors.push(invalid(`${field}.stabilizationWindowSeconds`, window, `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`));
  }
  if (rules.selectPolicy !== undefined && !(ScalingPolicySelects as readonly string[]).includes(rules.selectPolicy)) {
    errors.push(notSupported(`${field}.selectPolicy`, rules.selectPolicy, ScalingPolicySelects));
  }
  if (!rules.policies?.length) errors.push(requiredWith(`${field}.policies`, 'must specify at least one Policy'));
  (rules.policies ?? []).forEach((policy, i) => errors.push(...validateScalingPolicy(policy, `${field}.policies[${i}]`)));
  return errors;
}

function validateScalingPolicy(policy: HPAScalingPolicy, field: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!(HPAScalingPolicyTypes as readonly string[]).includes(policy.type)) {
    errors.push(notSupported(`${field}.type`, policy.type, HPAScalingPolicyTypes));
  }
  if (policy.value <= 0) errors.push(invalid(`${field}.value`, policy.value, 'must be greater than zero'));
  if (policy.periodSeconds <= 0) errors.push(invalid(`${field}.periodSeconds`, policy.periodSeconds, 'must be greater than zero'));
  if (policy.periodSeconds > MAX_PERIOD_SECONDS) {
    errors.push(invalid(`${field}.periodSeconds`, policy.periodSeconds, `must be less than or equal to ${MAX_PERIOD_SECONDS}`));
  }
  return errors;
}

/** horizontalPodAutoscalerDefinition serves autoscaling/v2 HPAs (hpa), the stored version. */
export const horizontalPodAutoscalerDefinition: ResourceDefinition<HorizontalPodAutoscaler> = {
  ...KIND_IDS.horizontalPodAutoscaler,
  singular: 'horizontalpodautoscaler',
  shortNames: ['hpa'],
  categories: ['all'],
  schema: HorizontalPodAutoscalerSchema,
  defaults: defaultHorizontalPodAutoscaler,
  validate: validateHorizontalPodAutoscaler,
  tracksGeneration: true,
  subresources: { status: true },
  printColumns: horizontalPodAutoscalerColumns,
  protobuf: HorizontalPodAutoscalerMessage,
  liveView: 'hpas',
  storage: { resource: 'horizontalpodautoscalers.autoscaling' },
};
