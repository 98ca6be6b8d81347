/**
 * metrics.k8s.io/v1beta1 PodMetrics: the CPU and memory each running container of a pod
 * uses, as metrics-server reports it. Read-only and never stored: the API server computes
 * the objects from what it scraped from the kubelets (apiserver/metrics/), so the
 * definition's source is `virtual` and it serves get and list only.
 */
import { z } from 'zod';
import { TimeSchema, typeMetaFields } from '../meta.js';
import { column, nameColumn } from '../printing.js';
import type { ResourceDefinition } from '../resource-definition.js';
import { METRICS_API_VERSION, METRICS_GROUP, METRICS_SCHEMA_PREFIX, METRICS_VERSION, ResourceUsageSchema, sumUsage } from './usage.js';

/** ContainerMetricsSchema is one container's usage inside a PodMetrics. */
export const ContainerMetricsSchema = z
  .object({
    name: z.string().describe('Container name corresponding to the one from pod.spec.containers.'),
    usage: ResourceUsageSchema.describe('The memory and CPU usage of the container.'),
  })
  .meta({ id: `${METRICS_SCHEMA_PREFIX}.ContainerMetrics`, description: 'ContainerMetrics sets resource usage metrics of a container.' });

export type ContainerMetrics = z.infer<typeof ContainerMetricsSchema>;

/** PodMetricsSchema is metrics-server's PodMetrics: a pod's containers' usage at `timestamp`
 * over `window`; metadata carries the pod's name, namespace and labels. */
export const PodMetricsSchema = z
  .object({
    ...typeMetaFields(METRICS_API_VERSION, 'PodMetrics'),
    timestamp: TimeSchema.describe('The time the metrics were collected.'),
    window: z.string().describe('The interval over which the usage was measured, a duration such as 15s.'),
    containers: z.array(ContainerMetricsSchema).describe('Metrics for all containers are collected within the same time window.'),
  })
  .meta({ id: `${METRICS_SCHEMA_PREFIX}.PodMetrics`, description: 'PodMetrics sets resource usage metrics of a pod.' });

export type PodMetrics = z.infer<typeof PodMetricsSchema>;

const podUsage = (resource: string) => (metrics: PodMetrics) =>
  sumUsage(
    (metrics.containers ?? []).map((c) => c.usage),
    resource,
  );

/** podMetricsDefinition serves metrics.k8s.io/v1beta1 pods (kind PodMetrics), read-only. */
export const podMetricsDefinition: ResourceDefinition<PodMetrics> = {
  group: METRICS_GROUP,
  version: METRICS_VERSION,
  kind: 'PodMetrics',
  plural: 'pods',
  singular: 'podmetrics',
  shortNames: [],
  categories: [],
  namespaced: true,
  schema: PodMetricsSchema,
  tracksGeneration: false,
  subresources: {},
  printColumns: [
    nameColumn,
    column('CPU', podUsage('cpu'), { description: 'CPU usage of all containers together.' }),
    column('Memory', podUsage('memory'), { description: 'Memory usage (working set) of all containers together.' }),
    column('Window', (metrics: PodMetrics) => metrics.window ?? '', { description: 'The interval over which the usage was measured.' }),
  ],
  verbs: ['get', 'list'],
  source: 'virtual',
  storage: { resource: 'pods.metrics.k8s.io' },
};
