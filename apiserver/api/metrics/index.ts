/**
 * metrics.k8s.io: the resource metrics API (PodMetrics, NodeMetrics) that `kubectl top` and
 * the HorizontalPodAutoscaler read. In Kubernetes metrics-server serves it through API
 * aggregation; kubesim's API server serves it itself, from what it scrapes from the
 * kubelets (apiserver/metrics/). Both kinds are virtual: computed, never stored, read-only.
 *
 * Role: schemas, definitions and table columns of the group. May import only from
 * apiserver/api/ and zod. See docs/kubelet-sim.md ("Load and usage").
 */
import type { AnyResourceDefinition } from '../resource-definition.js';
import { nodeMetricsDefinition } from './node-metrics.js';
import { podMetricsDefinition } from './pod-metrics.js';

export { type NodeMetrics, NodeMetricsSchema, nodeMetricsDefinition } from './node-metrics.js';
export { type ContainerMetrics, ContainerMetricsSchema, type PodMetrics, PodMetricsSchema, podMetricsDefinition } from './pod-metrics.js';
export * from './stats-summary.js';
export {
  METRICS_API_VERSION,
  METRICS_GROUP,
  METRICS_VERSION,
  METRICS_WINDOW,
  type ResourceUsage,
  ResourceUsageSchema,
  sumUsage,
} from './usage.js';

/** metricsDefinitions lists the group's served kinds. */
export const metricsDefinitions: AnyResourceDefinition[] = [podMetricsDefinition, nodeMetricsDefinition];
