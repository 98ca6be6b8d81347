/**
 * autoscaling/v2 MetricSpec and its sources: what an HPA scales on (a resource such as cpu,
 * a per-pod custom metric, a metric of another object, or an external metric) and the
 * target value for it. Source and target types are plain strings here, as in
 * k8s.io/api/autoscaling/v2; horizontal-pod-autoscaler.ts checks them with
 * Kubernetes' own messages.
 */
import { z } from 'zod';
import { LabelSelectorSchema, QuantitySchema } from '../meta.js';

/** AUTOSCALING_V2 is the OpenAPI definition prefix of autoscaling/v2 types. */
export const AUTOSCALING_V2 = 'io.k8s.api.autoscaling.v2';

/** MetricSourceTypes are the valid `type` values of a MetricSpec/MetricStatus (sorted). */
export const MetricSourceTypes = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'] as const;
export type MetricSourceType = (typeof MetricSourceTypes)[number];

/** MetricTargetTypes are the valid `type` values of a MetricTarget. */
export const MetricTargetTypes = ['Utilization', 'Value', 'AverageValue'] as const;
export type MetricTargetType = (typeof MetricTargetTypes)[number];

export const CrossVersionObjectReferenceSchema = z
  .object({
    kind: z.string().describe('kind is the kind of the referent, e.g. Deployment.'),
    name: z.string().describe("name is the name of the referent, in the autoscaler's namespace."),
    apiVersion: z.string().optional().describe('apiVersion is the API version of the referent, e.g. apps/v1.'),
  })
  .meta({
    id: `${AUTOSCALING_V2}.CrossVersionObjectReference`,
    description: 'CrossVersionObjectReference contains enough information to identify the referred resource.',
  });

export type CrossVersionObjectReference = z.infer<typeof CrossVersionObjectReferenceSchema>;

export const MetricIdentifierSchema = z
  .object({
    name: z.string().describe('name is the name of the given metric.'),
    selector: LabelSelectorSchema.optional().describe(
      'selector narrows the metric down to some of its series; passed to the metrics server as an extra parameter. Unset means the metric name alone is used.',
    ),
  })
  .meta({ id: `${AUTOSCALING_V2}.MetricIdentifier`, description: 'MetricIdentifier names a metric and optionally a selector over its series.' });

export const MetricTargetSchema = z
  .object({
    type: z.string().describe('type says which of the fields below is the target: Utilization, Value or AverageValue.'),
    value: QuantitySchema.optional().describe('value is the target value of the metric (as a quantity).'),
    averageValue: QuantitySchema.optional().describe('averageValue is the target value of the metric averaged over all relevant pods (as a quantity).'),
    averageUtilization: z
      .number()
      .int()
      .optional()
      .describe(
        "averageUtilization is the target average of the resource metric over all relevant pods, as a percentage of the pods' requested value. Only for Resource and ContainerResource metrics.",
      ),
  })
  .meta({
    id: `${AUTOSCALING_V2}.MetricTarget`,
    description: 'MetricTarget is the target value, average value or average utilization of a metric.',
  });

export type MetricTarget = z.infer<typeof MetricTargetSchema>;

export const ResourceMetricSourceSchema = z
  .object({
    name: z.string().describe('name is the name of the resource in question (cpu, memory).'),
    target: MetricTargetSchema.describe('target is the target value for the resource metric.'),
  })
  .meta({
    id: `${AUTOSCALING_V2}.ResourceMetricSource`,
    description: 'ResourceMetricSource scales on a resource known to Kubernetes (as in requests and limits), averaged over the pods of the scale target.',
  });

export const ContainerResourceMetricSourceSchema = z
  .object({
    name: z.string().describe('name is the name of the resource in question (cpu, memory).'),
    target: MetricTargetSchema.describe('target is the target value for the resource metric.'),
    container: z.string().describe('container is the name of the container in the pods of the scale target.'),
  })
  .meta({
    id: `${AUTOSCALING_V2}.ContainerResourceMetricSource`,
    description: 'ContainerResourceMetricSource scales on a resource metric of one container in each pod of the scale target.',
  });

export const PodsMetricSourceSchema = z
  .object({
    metric: MetricIdentifierSchema.describe('metric identifies the target metric by name and selector.'),
    target: MetricTargetSchema.describe('target is the target value for the metric (an averageValue).'),
  })
  .meta({
    id: `${AUTOSCALING_V2}.PodsMetricSource`,
    description: 'PodsMetricSource scales on a custom metric of each pod of the scale target, averaged before comparison.',
  });

export const ObjectMetricSourceSchema = z
  .object({
    describedObject: CrossVersionObjectReferenceSchema.describe('describedObject is the object the metric describes.'),
    target: MetricTargetSchema.describe('target is the target value for the metric (value or averageValue).'),
    metric: MetricIdentifierSchema.describe('metric identifies the target metric by name and selector.'),
  })
  .meta({
    id: `${AUTOSCALING_V2}.ObjectMetricSource`,
    description: 'ObjectMetricSource scales on a metric of a single Kubernetes object (for example requests per second on an Ingress).',
  });

export const ExternalMetricSourceSchema = z
  .object({
    metric: MetricIdentifierSchema.describe('metric identifies the target metric by name and selector.'),
    target: MetricTargetSchema.describe('target is the target value for the metric (value or averageValue).'),
  })
  .meta({
    id: `${AUTOSCALING_V2}.ExternalMetricSource`,
    description: 'ExternalMetricSource scales on a metric not tied to any Kubernetes object (for example a queue length in a cloud service).',
  });

export const MetricSpecSchema = z
  .object({
    type: z
      .string()
      .describe('type is the metric source type: ContainerResource, External, Object, Pods or Resource. Exactly the matching field below must be set.'),
    object: ObjectMetricSourceSchema.optional().describe('object is a metric describing a single Kubernetes object.'),
    pods: PodsMetricSourceSchema.optional().describe('pods is a metric describing each pod of the scale target, averaged.'),
    resource: ResourceMetricSourceSchema.optional().describe('resource is a resource metric (cpu, memory) of each pod of the scale target.'),
    containerResource: ContainerResourceMetricSourceSchema.optional().describe(
      'containerResource is a resource metric of one container in each pod of the scale target.',
    ),
    external: ExternalMetricSourceSchema.optional().describe('external is a metric from outside the cluster.'),
  })
  .meta({
    id: `${AUTOSCALING_V2}.MetricSpec`,
    description: 'MetricSpec specifies how to scale based on a single metric (only `type` and the one matching field should be set).',
  });

export type MetricSpec = z.infer<typeof MetricSpecSchema>;
