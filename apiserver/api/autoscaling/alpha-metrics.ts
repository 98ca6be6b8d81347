/**
 * The "alpha" metric shapes autoscaling/v1 uses to carry what it cannot express (every
 * metric but CPU utilization, and all metric statuses) in the annotations
 * `autoscaling.alpha.kubernetes.io/metrics` and `.../current-metrics`. They are the
 * v2beta1-style MetricSpec/MetricStatus of k8s.io/api/autoscaling/v1 (targetAverageValue,
 * metricName, ...), so annotations written by a real cluster read back here and vice versa.
 *
 * Go writes zero quantities ("0") for the non-pointer fields it cannot leave empty; here an
 * absent value stays absent both ways, so an HPA survives a v1 round trip unchanged.
 */
import { z } from 'zod';
import { LabelSelectorSchema, QuantitySchema } from '../meta.js';
import type { MetricSpec, MetricTarget } from './metric-spec.js';
import type { MetricStatus } from './metric-status.js';

const ReferenceSchema = z.object({ kind: z.string(), name: z.string(), apiVersion: z.string().optional() });
const quantity = QuantitySchema.optional();
const selector = LabelSelectorSchema.optional();
const resourceFields = { name: z.string(), container: z.string().optional() };

/** AlphaMetricSpecsSchema parses the `autoscaling.alpha.kubernetes.io/metrics` annotation. */
export const AlphaMetricSpecsSchema = z.array(
  z.object({
    type: z.string(),
    object: z.object({ target: ReferenceSchema, metricName: z.string(), targetValue: quantity, selector, averageValue: quantity }).optional(),
    pods: z.object({ metricName: z.string(), targetAverageValue: quantity, selector }).optional(),
    resource: z.object({ ...resourceFields, targetAverageUtilization: z.int32().optional(), targetAverageValue: quantity }).optional(),
    containerResource: z.object({ ...resourceFields, targetAverageUtilization: z.int32().optional(), targetAverageValue: quantity }).optional(),
    external: z.object({ metricName: z.string(), metricSelector: selector, targetValue: quantity, targetAverageValue: quantity }).optional(),
  }),
);

/** AlphaMetricStatusesSchema parses the `autoscaling.alpha.kubernetes.io/current-metrics` annotation. */
export const AlphaMetricStatusesSchema = z.array(
  z.object({
    type: z.string(),
    object: z.object({ target: ReferenceSchema, metricName: z.string(), currentValue: quantity, selector, averageValue: quantity }).optional(),
    pods: z.object({ metricName: z.string(), currentAverageValue: quantity, selector }).optional(),
    resource: z.object({ ...resourceFields, currentAverageUtilization: z.int32().optional(), currentAverageValue: quantity }).optional(),
    containerResource: z.object({ ...resourceFields, currentAverageUtilization: z.int32().optional(), currentAverageValue: quantity }).optional(),
    external: z.object({ metricName: z.string(), metricSelector: selector, currentValue: quantity, currentAverageValue: quantity }).optional(),
  }),
);

type AlphaMetricSpec = z.infer<typeof AlphaMetricSpecsSchema>[number];
type AlphaMetricStatus = z.infer<typeof AlphaMetricStatusesSchema>[number];

/** toAlphaMetricSpec converts a v2 metric into its annotation form. */
export function toAlphaMetricSpec(m: MetricSpec): AlphaMetricSpec {
  const out: AlphaMetricSpec = { type: m.type };
  if (m.object) {
    const { describedObject, metric, target } = m.object;
    out.object = { target: describedObject, metricName: metric.name, targetValue: target.value, selector: metric.selector, averageValue: target.averageValue };
  }
  if (m.pods) out.pods = { metricName: m.pods.metric.name, targetAverageValue: m.pods.target.averageValue, selector: m.pods.metric.selector };
  for (const key of ['resource', 'containerResource'] as const) {
    const source = m[key];
    if (source) {
      const { name, target } = source;
      const container = key === 'containerResource' ? m.containerResource?.container : undefined;
      out[key] = { name, container, targetAverageUtilization: target.averageUtilization, targetAverageValue: target.averageValue };
    }
  }
  if (m.external) {
    const { metric, target } = m.external;
    out.external = { metricName: metric.name, metricSelector: metric.selector, targetValue: target.value, targetAverageValue: target.averageValue };
  }
  return out;
}

/** fromAlphaMetricSpec converts an annotation metric back into a v2 metric, choosing the
 * target type from which value is set, as Kubernetes' conversion does. */
export function fromAlphaMetricSpec(a: AlphaMetricSpec): MetricSpec {
  const out: MetricSpec = { type: a.type };
  if (a.object) {
    const { target, metricName, targetValue, selector, averageValue } = a.object;
    const type = averageValue === undefined ? 'Value' : 'AverageValue';
    out.object = { describedObject: target, target: { type, value: targetValue, averageValue }, metric: { name: metricName, selector } };
  }
  if (a.pods) {
    const { metricName, targetAverageValue, selector } = a.pods;
    out.pods = { metric: { name: metricName, selector }, target: { type: 'AverageValue', averageValue: targetAverageValue } };
  }
  if (a.resource) out.resource = { name: a.resource.name, target: resourceTarget(a.resource) };
  if (a.containerResource) {
    const { name, container } = a.containerResource;
    out.containerResource = { name, container: container ?? '', target: resourceTarget(a.containerResource) };
  }
  if (a.external) {
    const { metricName, metricSelector, targetValue, targetAverageValue } = a.external;
    const type = targetValue === undefined ? 'AverageValue' : 'Value';
    out.external = { metric: { name: metricName, selector: metricSelector }, target: { type, value: targetValue, averageValue: targetAverageValue } };
  }
  return withoutUndefined(out);
}

function resourceTarget(source: { targetAverageUtilization?: number; targetAverageValue?: string }): MetricTarget {
  const { targetAverageUtilization: averageUtilization, targetAverageValue: averageValue } = source;
  return { type: averageUtilization === undefined ? 'AverageValue' : 'Utilization', averageValue, averageUtilization };
}

/** toAlphaMetricStatus converts a v2 metric status into its annotation form. */
export function toAlphaMetricStatus(m: MetricStatus): AlphaMetricStatus {
  const out: AlphaMetricStatus = { type: m.type };
  if (m.object) {
    const { describedObject, metric, current } = m.object;
    out.object = {
      target: describedObject,
      metricName: metric.name,
      currentValue: current.value,
      selector: metric.selector,
      averageValue: current.averageValue,
    };
  }
  if (m.pods) out.pods = { metricName: m.pods.metric.name, currentAverageValue: m.pods.current.averageValue, selector: m.pods.metric.selector };
  for (const key of ['resource', 'containerResource'] as const) {
    const source = m[key];
    if (source) {
      const container = key === 'containerResource' ? m.containerResource?.container : undefined;
      const { averageUtilization, averageValue } = source.current;
      out[key] = { name: source.name, container, currentAverageUtilization: averageUtilization, currentAverageValue: averageValue };
    }
  }
  if (m.external) {
    const { metric, current } = m.external;
    out.external = { metricName: metric.name, metricSelector: metric.selector, currentValue: current.value, currentAverageValue: current.averageValue };
  }
  return out;
}

/** fromAlphaMetricStatus converts an annotation metric status back into a v2 one. */
export function fromAlphaMetricStatus(a: AlphaMetricStatus): MetricStatus {
  const out: MetricStatus = { type: a.type };
  if (a.object) {
    const { target, metricName, currentValue, selector, averageValue } = a.object;
    out.object = { metric: { name: metricName, selector }, current: { value: currentValue, averageValue }, describedObject: target };
  }
  if (a.pods) out.pods = { metric: { name: a.pods.metricName, selector: a.pods.selector }, current: { averageValue: a.pods.currentAverageValue } };
  if (a.resource) out.resource = { name: a.resource.name, current: resourceCurrent(a.resource) };
  if (a.containerResource) {
    const { name, container } = a.containerResource;
    out.containerResource = { name, container: container ?? '', current: resourceCurrent(a.containerResource) };
  }
  if (a.external) {
    const { metricName, metricSelector, currentValue, currentAverageValue } = a.external;
    out.external = { metric: { name: metricName, selector: metricSelector }, current: { value: currentValue, averageValue: currentAverageValue } };
  }
  return withoutUndefined(out);
}

function resourceCurrent(source: { currentAverageUtilization?: number; currentAverageValue?: string }) {
  return { averageValue: source.currentAverageValue, averageUtilization: source.currentAverageUtilization };
}

/** withoutUndefined drops keys whose value is undefined, recursively, so converted objects
 * compare and serialise like parsed ones. */
export function withoutUndefined<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
