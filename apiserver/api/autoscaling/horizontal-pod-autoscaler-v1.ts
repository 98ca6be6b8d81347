/**
 * autoscaling/v1 HorizontalPodAutoscaler: the CPU-only HPA that `kubectl autoscale` (≤ 1.32)
 * creates. It is served by conversion from the stored autoscaling/v2 object (see
 * horizontal-pod-autoscaler-conversion.ts for what travels in annotations), so both
 * versions always show the same HPA.
 */
import { z } from 'zod';
import { TimeSchema, typeMetaFields } from '../meta.js';
import type { FieldError, PrintColumn, ResourceDefinition } from '../resource-definition.js';
import { horizontalPodAutoscalerColumns } from './horizontal-pod-autoscaler.js';
import { hpaV1FromStorage, hpaV1ToStorage, hpaV1ToV2 } from './horizontal-pod-autoscaler-conversion.js';
import { validateHorizontalPodAutoscaler } from './horizontal-pod-autoscaler-validation.js';

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
    minReplicas: z.number().int().optional().describe('minReplicas is the lower limit of the replica count. Defaults to 1.'),
    maxReplicas: z.number().int().describe('maxReplicas is the upper limit of the replica count; it cannot be less than minReplicas.'),
    targetCPUUtilizationPercentage: z
      .number()
      .int()
      .optional()
      .describe('targetCPUUtilizationPercentage is the target average CPU utilization over all pods, as a percentage of requested CPU. Defaults to 80.'),
  })
  .meta({ id: `${V1}.HorizontalPodAutoscalerSpec`, description: 'HorizontalPodAutoscalerSpec is the specification of a horizontal pod autoscaler.' });

export const HorizontalPodAutoscalerStatusV1Schema = z
  .object({
    observedGeneration: z.number().int().optional().describe('observedGeneration is the most recent generation observed by this autoscaler.'),
    lastScaleTime: TimeSchema.optional().describe('lastScaleTime is the last time the autoscaler changed the replica count.'),
    currentReplicas: z.number().int().optional().describe('currentReplicas is the current number of replicas of pods managed by this autoscaler.'),
    desiredReplicas: z.number().int().optional().describe('desiredReplicas is the desired number of replicas of pods managed by this autoscaler.'),
    currentCPUUtilizationPercentage: z
      .number()
      .int()
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
  storage: { resource: 'horizontalpodautoscalers.autoscaling', toStorage: hpaV1ToStorage, fromStorage: hpaV1FromStorage },
};
