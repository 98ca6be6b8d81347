/**
 * autoscaling/v2 HorizontalPodAutoscaler, the storage version of HPAs (autoscaling/v1 is
 * served by conversion, see horizontal-pod-autoscaler-v1.ts). An HPA reads metrics of the
 * pods of its scale target and sets the target's replica count through its /scale
 * subresource; the HPA controller is the only writer of `status`.
 */
import { z } from 'zod';
import { TimeSchema, typeMetaFields } from '../meta.js';
import { mergeByKey } from '../patch-meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { PrintColumn, ResourceDefinition } from '../resource-definition.js';
import { formatHpaMetrics } from './format-hpa-metrics.js';
import { defaultBehavior, HorizontalPodAutoscalerBehaviorSchema } from './horizontal-pod-autoscaler-behavior.js';
import { validateHorizontalPodAutoscaler } from './horizontal-pod-autoscaler-validation.js';
import { AUTOSCALING_V2, CrossVersionObjectReferenceSchema, type MetricSpec, MetricSpecSchema } from './metric-spec.js';
import { MetricStatusSchema } from './metric-status.js';

/** DEFAULT_CPU_UTILIZATION is the target of the implicit metric of an HPA without metrics. */
export const DEFAULT_CPU_UTILIZATION = 80;

export const HorizontalPodAutoscalerSpecSchema = z
  .object({
    scaleTargetRef: CrossVersionObjectReferenceSchema.describe(
      'scaleTargetRef points to the resource to scale (a Deployment, ReplicaSet, StatefulSet or anything with a /scale subresource); its pods are where metrics are read.',
    ),
    minReplicas: z.number().int().optional().describe('minReplicas is the lower limit of the replica count. Defaults to 1.'),
    maxReplicas: z.number().int().describe('maxReplicas is the upper limit of the replica count; it cannot be less than minReplicas.'),
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

export const HorizontalPodAutoscalerConditionSchema = z
  .object({
    type: z.string().describe('type of the condition: AbleToScale, ScalingActive or ScalingLimited.'),
    status: z.enum(['True', 'False', 'Unknown']).describe('status of the condition: True, False or Unknown.'),
    lastTransitionTime: TimeSchema.optional().describe('lastTransitionTime is the last time the condition changed status.'),
    reason: z.string().optional().describe('reason is a CamelCase word for the last transition.'),
    message: z.string().optional().describe('message is a human-readable explanation of the last transition.'),
  })
  .meta({
    id: `${AUTOSCALING_V2}.HorizontalPodAutoscalerCondition`,
    description: 'HorizontalPodAutoscalerCondition describes the state of a HorizontalPodAutoscaler at a certain point.',
  });

export type HorizontalPodAutoscalerCondition = z.infer<typeof HorizontalPodAutoscalerConditionSchema>;

export const HorizontalPodAutoscalerStatusSchema = z
  .object({
    observedGeneration: z.number().int().optional().describe('observedGeneration is the most recent generation observed by this autoscaler.'),
    lastScaleTime: TimeSchema.optional().describe('lastScaleTime is the last time the autoscaler changed the replica count.'),
    currentReplicas: z.number().int().optional().describe('currentReplicas is the replica count of the target as last seen by the autoscaler.'),
    desiredReplicas: z.number().int().optional().describe('desiredReplicas is the replica count the autoscaler last computed.'),
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

/** cpuUtilizationMetric is a Resource metric targeting `percent`% average CPU utilization. */
export function cpuUtilizationMetric(percent: number): MetricSpec {
  return { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: percent } } };
}

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

/** horizontalPodAutoscalerDefinition serves autoscaling/v2 HPAs (hpa), the stored version. */
export const horizontalPodAutoscalerDefinition: ResourceDefinition<HorizontalPodAutoscaler> = {
  group: 'autoscaling',
  version: 'v2',
  kind: 'HorizontalPodAutoscaler',
  plural: 'horizontalpodautoscalers',
  singular: 'horizontalpodautoscaler',
  shortNames: ['hpa'],
  categories: ['all'],
  namespaced: true,
  schema: HorizontalPodAutoscalerSchema,
  defaults: defaultHorizontalPodAutoscaler,
  validate: validateHorizontalPodAutoscaler,
  tracksGeneration: true,
  subresources: { status: true },
  printColumns: horizontalPodAutoscalerColumns,
  storage: { resource: 'horizontalpodautoscalers.autoscaling' },
};
