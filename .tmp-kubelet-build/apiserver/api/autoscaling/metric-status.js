/**
 * autoscaling/v2 MetricStatus: the last value the HPA controller read for each metric of
 * `spec.metrics`, at the same index. Written only by the controller through /status.
 */
import { z } from 'zod';
import { QuantitySchema } from '../meta.js';
import { AUTOSCALING_V2, CrossVersionObjectReferenceSchema, MetricIdentifierSchema } from './metric-spec.js';
export const MetricValueStatusSchema = z
    .object({
    value: QuantitySchema.optional().describe('value is the current value of the metric (as a quantity).'),
    averageValue: QuantitySchema.optional().describe('averageValue is the current value of the metric averaged over the relevant pods.'),
    averageUtilization: z
        .number()
        .int()
        .optional()
        .describe('averageUtilization is the current average of the resource metric over the relevant pods, as a percentage of their requests.'),
})
    .meta({ id: `${AUTOSCALING_V2}.MetricValueStatus`, description: 'MetricValueStatus holds the current value of a metric.' });
const current = () => MetricValueStatusSchema.describe('current is the current value of the metric.');
const metric = () => MetricIdentifierSchema.describe('metric identifies the metric by name and selector.');
export const ResourceMetricStatusSchema = z
    .object({
    name: z.string().describe('name is the name of the resource in question.'),
    current: current(),
})
    .meta({ id: `${AUTOSCALING_V2}.ResourceMetricStatus`, description: 'ResourceMetricStatus is the current value of a resource metric.' });
export const ContainerResourceMetricStatusSchema = z
    .object({
    name: z.string().describe('name is the name of the resource in question.'),
    current: current(),
    container: z.string().describe('container is the name of the container in the pods of the scale target.'),
})
    .meta({
    id: `${AUTOSCALING_V2}.ContainerResourceMetricStatus`,
    description: 'ContainerResourceMetricStatus is the current value of a resource metric of one container of each pod.',
});
export const PodsMetricStatusSchema = z
    .object({ metric: metric(), current: current() })
    .meta({ id: `${AUTOSCALING_V2}.PodsMetricStatus`, description: 'PodsMetricStatus is the current value of a per-pod metric.' });
export const ObjectMetricStatusSchema = z
    .object({
    metric: metric(),
    current: current(),
    describedObject: CrossVersionObjectReferenceSchema.describe('describedObject is the object the metric describes.'),
})
    .meta({ id: `${AUTOSCALING_V2}.ObjectMetricStatus`, description: 'ObjectMetricStatus is the current value of a metric of one object.' });
export const ExternalMetricStatusSchema = z
    .object({ metric: metric(), current: current() })
    .meta({ id: `${AUTOSCALING_V2}.ExternalMetricStatus`, description: 'ExternalMetricStatus is the current value of an external metric.' });
export const MetricStatusSchema = z
    .object({
    type: z.string().describe('type is the metric source type: ContainerResource, External, Object, Pods or Resource.'),
    object: ObjectMetricStatusSchema.optional().describe('object is the status of a metric describing a single object.'),
    pods: PodsMetricStatusSchema.optional().describe('pods is the status of a per-pod metric.'),
    resource: ResourceMetricStatusSchema.optional().describe('resource is the status of a resource metric.'),
    containerResource: ContainerResourceMetricStatusSchema.optional().describe('containerResource is the status of a container resource metric.'),
    external: ExternalMetricStatusSchema.optional().describe('external is the status of an external metric.'),
})
    .meta({ id: `${AUTOSCALING_V2}.MetricStatus`, description: 'MetricStatus describes the last-read state of a single metric.' });
//# sourceMappingURL=metric-status.js.map