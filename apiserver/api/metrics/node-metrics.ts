/**
 * metrics.k8s.io/v1beta1 NodeMetrics: the CPU and memory a node uses (its pods plus the
 * system around them), as metrics-server reports it. Read-only and computed from the
 * kubelets' reports like PodMetrics (source `virtual`, get and list only).
 */
import { z } from 'zod';
import { TimeSchema, typeMetaFields } from '../meta.js';
import { column, nameColumn } from '../printing.js';
import type { ResourceDefinition } from '../resource-definition.js';
import { METRICS_API_VERSION, METRICS_GROUP, METRICS_SCHEMA_PREFIX, METRICS_VERSION, ResourceUsageSchema, sumUsage } from './usage.js';

/** NodeMetricsSchema is metrics-server's NodeMetrics: a node's usage at `timestamp` over
 * `window`; metadata carries the node's name and labels. */
export const NodeMetricsSchema = z
  .object({
    ...typeMetaFields(METRICS_API_VERSION, 'NodeMetrics'),
    timestamp: TimeSchema.describe('The time the metrics were collected.'),
    window: z.string().describe('The interval over which the usage was measured, a duration such as 15s.'),
    usage: ResourceUsageSchema.describe('The memory and CPU usage of the node.'),
  })
  .meta({ id: `${METRICS_SCHEMA_PREFIX}.NodeMetrics`, description: 'NodeMetrics sets resource usage metrics of a node.' });

export type NodeMetrics = z.infer<typeof NodeMetricsSchema>;

/** nodeMetricsDefinition serves metrics.k8s.io/v1beta1 nodes (kind NodeMetrics), read-only. */
export const nodeMetricsDefinition: ResourceDefinition<NodeMetrics> = {
  group: METRICS_GROUP,
  version: METRICS_VERSION,
  kind: 'NodeMetrics',
  plural: 'nodes',
  singular: 'nodemetrics',
  shortNames: [],
  categories: [],
  namespaced: false,
  schema: NodeMetricsSchema,
  tracksGeneration: false,
  subresources: {},
  printColumns: [
    nameColumn,
    column('CPU', (metrics: NodeMetrics) => sumUsage([metrics.usage], 'cpu'), { description: 'CPU usage of the node.' }),
    column('Memory', (metrics: NodeMetrics) => sumUsage([metrics.usage], 'memory'), { description: 'Memory usage (working set) of the node.' }),
    column('Window', (metrics: NodeMetrics) => metrics.window ?? '', { description: 'The interval over which the usage was measured.' }),
  ],
  verbs: ['get', 'list'],
  source: 'virtual',
  storage: { resource: 'nodes.metrics.k8s.io' },
};
