/**
 * autoscaling/v1 HorizontalPodAutoscaler: the CPU-only HPA that `kubectl autoscale` (≤ 1.32)
 * creates. It is served by conversion from the stored autoscaling/v2 object (see
 * the conversion below for what travels in annotations), so both
 * versions always show the same HPA.
 */

import { z } from 'zod';
import { badRequest } from '../api-error.js';
import { TimeSchema, typeMetaFields } from '../meta.js';
import type { FieldError, KubeObject, PrintColumn, ResourceDefinition } from '../resource-definition.js';
import {
  AlphaMetricSpecsSchema,
  AlphaMetricStatusesSchema,
  fromAlphaMetricSpec,
  fromAlphaMetricStatus,
  toAlphaMetricSpec,
  toAlphaMetricStatus,
  withoutUndefined,
} from './alpha-metrics.js';
import { decodeBehavior, encodeBehavior } from './behavior-annotation.js';
import {
  type HorizontalPodAutoscaler,
  HorizontalPodAutoscalerConditionSchema,
  horizontalPodAutoscalerColumns,
  validateHorizontalPodAutoscaler,
} from './horizontal-pod-autoscaler.js';
import { HorizontalPodAutoscalerV1Message } from './horizontal-pod-autoscaler-v1-protobuf.js';
import { cpuUtilizationMetric, DEFAULT_CPU_UTILIZATION } from './hpa-defaults.js';
import type { MetricSpec } from './metric-spec.js';
import type { MetricStatus } from './metric-status.js';

const V1 = 'io.k8s.api.autoscaling.v1';

export const CrossVersionObjectReferenceV1Schema = z
  .object({
    kind: z.string().describe('kind is the kind of the referent, e.g. Deployment.'),
    name: z.string().describe("name is the name of the referent, in the autoscaler's namespace."),
    apiVersion: z.string().optional().describe('apiVersion is the API version of the referent, e.g. apps/v1.'),
  })
  .meta({
    id: `${V1}.CrossVersionObjectReference`,
    description: 'CrossVersionObjectReference contains enough information to identify the referred resource.',
    'x-kubernetes-map-type': 'atomic',
  });

export const HorizontalPodAutoscalerSpecV1Schema = z
  .object({
    scaleTargetRef: CrossVersionObjectReferenceV1Schema.describe(
      "scaleTargetRef is the resource to scale; the autoscaler reads its pods' CPU usage and sets its replica count through its scale subresource.",
    ),
    minReplicas: z.int32().optional().describe('minReplicas is the lower limit of the replica count. Defaults to 1.'),
    maxReplicas: z.int32().describe('maxReplicas is the upper limit of the replica count; it cannot be less than minReplicas.'),
    targetCPUUtilizationPercentage: z
      .int32()
      .optional()
      .describe('targetCPUUtilizationPercentage is the target average CPU utilization over all pods, as a percentage of requested CPU. Defaults to 80.'),
  })
  .meta({ id: `${V1}.HorizontalPodAutoscalerSpec`, description: 'HorizontalPodAutoscalerSpec is the specification of a horizontal pod autoscaler.' });

export const HorizontalPodAutoscalerStatusV1Schema = z
  .object({
    observedGeneration: z.number().int().optional().describe('observedGeneration is the most recent generation observed by this autoscaler.'),
    lastScaleTime: TimeSchema.optional().describe('lastScaleTime is the last time the autoscaler changed the replica count.'),
    currentReplicas: z.int32().optional().describe('currentReplicas is the current number of replicas of pods managed by this autoscaler.'),
    desiredReplicas: z.int32().optional().describe('desiredReplicas is the desired number of replicas of pods managed by this autoscaler.'),
    currentCPUUtilizationPercentage: z
      .int32()
      .optional()
      .describe('currentCPUUtilizationPercentage is the current average CPU utilization over all pods, as a percentage of requested CPU.'),
  })
  .meta({ id: `${V1}.HorizontalPodAutoscalerStatus`, description: 'HorizontalPodAutoscalerStatus is the current status of a horizontal pod autoscaler.' });

export const HorizontalPodAutoscalerV1Schema = z
  .object({
    ...typeMetaFields('autoscaling/v1', 'HorizontalPodAutoscaler'),
    spec: HorizontalPodAutoscalerSpecV1Schema.describe('spec is the desired behaviour of the autoscaler.'),
    status: HorizontalPodAutoscalerStatusV1Schema.optional().describe('status is the current information about the autoscaler.'),
  })
  .meta({
    id: `${V1}.HorizontalPodAutoscaler`,
    description: "HorizontalPodAutoscaler keeps the replica count of a scalable resource at the level its pods' CPU utilization calls for.",
  });

export type HorizontalPodAutoscalerV1 = z.infer<typeof HorizontalPodAutoscalerV1Schema>;

/** defaultHorizontalPodAutoscalerV1 applies autoscaling/v1's only default, minReplicas 1;
 * the implicit 80% CPU target is added by conversion, as in Kubernetes. Idempotent. */
export function defaultHorizontalPodAutoscalerV1(hpa: HorizontalPodAutoscalerV1): void {
  hpa.spec.minReplicas ??= 1;
}

/** validateHorizontalPodAutoscalerV1 validates the v2 form of the object, so errors name the
 * fields Kubernetes names (`spec.metrics[0].resource.target.averageUtilization`). Throws a
 * BadRequest ApiError when the round-trip annotations cannot be read (see hpaV1ToV2). */
export function validateHorizontalPodAutoscalerV1(hpa: HorizontalPodAutoscalerV1, old?: HorizontalPodAutoscalerV1): FieldError[] {
  return validateHorizontalPodAutoscaler(hpaV1ToV2(hpa), old && hpaV1ToV2(old, { lenient: true }));
}

// The v1 table is the v2 table of the converted object, as kube-apiserver prints HPAs from
// their internal form whatever the version asked for.
const columnsV1: PrintColumn[] = horizontalPodAutoscalerColumns.map((c) => ({
  ...c,
  cell: (object, context) => c.cell(object?.spec ? hpaV1ToV2(object as HorizontalPodAutoscalerV1, { lenient: true }) : object, context),
}));

/*
 * Conversion between autoscaling/v1 and the stored autoscaling/v2 HorizontalPodAutoscaler,
 * after Kubernetes' pkg/apis/autoscaling/v1/conversion.go:
 *
 * - `targetCPUUtilizationPercentage` ⇔ the first Resource metric named cpu with a
 *   Utilization target; `currentCPUUtilizationPercentage` ⇔ the cpu status's utilization.
 * - Everything v1 cannot express travels in annotations, which v1 clients store and send
 *   back untouched: other metrics (`autoscaling.alpha.kubernetes.io/metrics`), all metric
 *   statuses (`.../current-metrics`), conditions (`.../conditions`) and the behavior
 *   (`.../behavior`, JSON of Kubernetes' internal type, i.e. Go field names).
 * - v1 → v2 reads and removes those annotations; metrics from the annotation come first and
 *   the CPU metric last (Kubernetes' order), and an HPA left without metrics gets the
 *   implicit 80% CPU target. v2 → v1 drops stale round-trip annotations before writing.
 */

/** The annotations that carry v2-only fields through autoscaling/v1. */
export const HpaRoundTripAnnotations = {
  metrics: 'autoscaling.alpha.kubernetes.io/metrics',
  currentMetrics: 'autoscaling.alpha.kubernetes.io/current-metrics',
  conditions: 'autoscaling.alpha.kubernetes.io/conditions',
  behavior: 'autoscaling.alpha.kubernetes.io/behavior',
} as const;

/** ConversionOptions: `lenient` ignores malformed round-trip annotations instead of
 * throwing (used where a failure must not surface, e.g. table cells). */
export interface ConversionOptions {
  lenient?: boolean;
}

const isCpu = (name: string | undefined) => name === 'cpu';
const isCpuUtilization = (m: MetricSpec) => m.type === 'Resource' && isCpu(m.resource?.name) && m.resource?.target.averageUtilization !== undefined;

/** hpaV1ToV2 converts an autoscaling/v1 HPA into the stored v2 shape. Does not mutate its
 * input. Throws a BadRequest ApiError for a malformed metrics, current-metrics or
 * conditions annotation (a malformed behavior annotation is ignored, as in Kubernetes). */
export function hpaV1ToV2(v1: HorizontalPodAutoscalerV1, options: ConversionOptions = {}): HorizontalPodAutoscaler {
  const annotations = { ...v1.metadata.annotations };
  const spec = v1.spec;
  const target = spec.targetCPUUtilizationPercentage;
  const annotated = readAnnotation(annotations, HpaRoundTripAnnotations.metrics, AlphaMetricSpecsSchema, options)?.map(fromAlphaMetricSpec);
  let metrics = [...(annotated ?? []), ...(target === undefined ? [] : [cpuUtilizationMetric(target)])];
  if (metrics.length === 0) metrics = [cpuUtilizationMetric(DEFAULT_CPU_UTILIZATION)];
  const v2: HorizontalPodAutoscaler = {
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
  for (const key of Object.values(HpaRoundTripAnnotations)) delete annotations[key];
  v2.metadata.annotations = Object.keys(annotations).length > 0 ? annotations : undefined;
  return withoutUndefined(v2);
}

function statusV1ToV2(v1: HorizontalPodAutoscalerV1, annotations: Record<string, string>, options: ConversionOptions): HorizontalPodAutoscaler['status'] {
  const status = v1.status;
  const annotated = readAnnotation(annotations, HpaRoundTripAnnotations.currentMetrics, AlphaMetricStatusesSchema, options);
  const cpu = status?.currentCPUUtilizationPercentage;
  const fromField: MetricStatus[] | undefined =
    cpu === undefined ? undefined : [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: cpu } } }];
  const conditions = readAnnotation(annotations, HpaRoundTripAnnotations.conditions, ConditionsSchema, options);
  if (!status && !annotated && !conditions) return undefined;
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
export function hpaV2ToV1(v2: HorizontalPodAutoscaler): HorizontalPodAutoscalerV1 {
  const { spec, status } = v2;
  const annotations = roundTripAnnotations(v2);
  const v1: HorizontalPodAutoscalerV1 = {
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
function roundTripAnnotations(v2: HorizontalPodAutoscaler): Record<string, string> {
  const { spec, status } = v2;
  const annotations: Record<string, string> = { ...v2.metadata.annotations };
  for (const key of Object.values(HpaRoundTripAnnotations)) delete annotations[key];
  const others = (spec.metrics ?? []).filter((m) => !isCpuUtilization(m));
  if (others.length > 0) annotations[HpaRoundTripAnnotations.metrics] = JSON.stringify(others.map(toAlphaMetricSpec));
  if (status?.currentMetrics?.length) {
    annotations[HpaRoundTripAnnotations.currentMetrics] = JSON.stringify(status.currentMetrics.map(toAlphaMetricStatus));
  }
  if (status?.conditions?.length) annotations[HpaRoundTripAnnotations.conditions] = JSON.stringify(status.conditions);
  if (spec.behavior) annotations[HpaRoundTripAnnotations.behavior] = encodeBehavior(spec.behavior);
  return annotations;
}

// The first cpu Resource metric decides, even when its target is not a utilization.
function cpuTarget(metrics: readonly MetricSpec[]): number | undefined {
  return metrics.find((m) => m.type === 'Resource' && isCpu(m.resource?.name))?.resource?.target.averageUtilization;
}

// The last cpu Resource status with a utilization wins, as in Kubernetes' loop.
function cpuCurrent(statuses: readonly MetricStatus[]): number | undefined {
  let current: number | undefined;
  for (const s of statuses) {
    if (s.type === 'Resource' && isCpu(s.resource?.name) && s.resource?.current.averageUtilization !== undefined) {
      current = s.resource.current.averageUtilization;
    }
  }
  return current;
}

const ConditionsSchema = HorizontalPodAutoscalerConditionSchema.array();

function readAnnotation<T>(annotations: Record<string, string>, key: string, schema: z.ZodType<T>, options: ConversionOptions): T | undefined {
  const text = annotations[key];
  if (text === undefined) return undefined;
  const parsed = schema.safeParse(parseJson(text));
  if (parsed.success) return parsed.data;
  if (options.lenient) return undefined;
  throw badRequest(`unable to convert autoscaling/v1 HorizontalPodAutoscaler: annotation ${key} is not valid: ${text}`);
}

// Text that is not JSON yields undefined, which the schema check then reports.
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** hpaV1ToStorage is hpaV1ToV2 typed for StorageMapping.toStorage (throws as it does). */
export const hpaV1ToStorage = (object: KubeObject): KubeObject => hpaV1ToV2(object as HorizontalPodAutoscalerV1) as KubeObject;
/** hpaV1FromStorage is hpaV2ToV1 typed for StorageMapping.fromStorage. */
export const hpaV1FromStorage = (object: KubeObject): KubeObject => hpaV2ToV1(object as HorizontalPodAutoscaler) as KubeObject;

/** horizontalPodAutoscalerV1Definition serves autoscaling/v1 HPAs by conversion from the
 * stored v2 objects (StorageMapping toStorage/fromStorage). */
export const horizontalPodAutoscalerV1Definition: ResourceDefinition<HorizontalPodAutoscalerV1> = {
  group: 'autoscaling',
  version: 'v1',
  kind: 'HorizontalPodAutoscaler',
  plural: 'horizontalpodautoscalers',
  singular: 'horizontalpodautoscaler',
  shortNames: ['hpa'],
  categories: ['all'],
  namespaced: true,
  schema: HorizontalPodAutoscalerV1Schema,
  defaults: defaultHorizontalPodAutoscalerV1,
  validate: validateHorizontalPodAutoscalerV1,
  tracksGeneration: true,
  subresources: { status: true },
  printColumns: columnsV1,
  protobuf: HorizontalPodAutoscalerV1Message,
  storage: { resource: 'horizontalpodautoscalers.autoscaling', toStorage: hpaV1ToStorage, fromStorage: hpaV1FromStorage },
};
