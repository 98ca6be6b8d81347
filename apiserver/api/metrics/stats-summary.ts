/**
 * The kubelet's Summary API (stats/v1alpha1, `GET /stats/summary`), reduced to what the
 * resource metrics pipeline reads: instantaneous CPU (nanocores) and memory working set
 * (bytes) per node, pod and container, each with the time it was measured. kubelet-sim
 * writes it; the API server's metrics scraper (the metrics-server role) reads it. The types
 * live here because both sides must agree on them, as k8s.io/kubelet's stats API is shared.
 *
 * One kubelet-sim process hosts many nodes, so besides the per-node Summary its server
 * answers a SummaryList of every node it runs (see docs/kubelet-sim.md).
 */
import { z } from 'zod';

/** CpuStatsSchema is a CPU sample: cores in use, in nanocores. */
export const CpuStatsSchema = z.object({
  time: z.string().describe('When the sample was taken (RFC 3339).'),
  usageNanoCores: z.number().nonnegative().optional().describe('CPU in use, in billionths of a core.'),
});

/** MemoryStatsSchema is a memory sample, in bytes. */
export const MemoryStatsSchema = z.object({
  time: z.string().describe('When the sample was taken (RFC 3339).'),
  workingSetBytes: z.number().nonnegative().optional().describe('Memory in use that cannot be reclaimed: what limits and evictions act on.'),
  usageBytes: z.number().nonnegative().optional().describe('All memory in use, including reclaimable cache.'),
  availableBytes: z.number().nonnegative().optional().describe('Memory still available (nodes).'),
});

/** ContainerStatsSchema is one running container's usage. */
export const ContainerStatsSchema = z.object({
  name: z.string(),
  startTime: z.string().optional(),
  cpu: CpuStatsSchema.optional(),
  memory: MemoryStatsSchema.optional(),
});

/** PodStatsSchema is one pod's usage: its running containers and their sum. */
export const PodStatsSchema = z.object({
  podRef: z.object({ name: z.string(), namespace: z.string(), uid: z.string() }),
  startTime: z.string().optional(),
  containers: z.array(ContainerStatsSchema),
  cpu: CpuStatsSchema.optional(),
  memory: MemoryStatsSchema.optional(),
});

/** NodeStatsSchema is a node's own usage: its pods plus the system around them. */
export const NodeStatsSchema = z.object({
  nodeName: z.string(),
  startTime: z.string().optional(),
  cpu: CpuStatsSchema.optional(),
  memory: MemoryStatsSchema.optional(),
});

/** SummarySchema is one node's report: the node's own usage and its pods'. */
export const SummarySchema = z.object({
  node: NodeStatsSchema,
  pods: z.array(PodStatsSchema),
});

/** SummaryListSchema is the report of every node one kubelet-sim process runs. */
export const SummaryListSchema = z.object({
  kind: z.literal('SummaryList').optional(),
  items: z.array(SummarySchema),
});

export type CpuStats = z.infer<typeof CpuStatsSchema>;
export type MemoryStats = z.infer<typeof MemoryStatsSchema>;
export type ContainerStats = z.infer<typeof ContainerStatsSchema>;
export type PodStats = z.infer<typeof PodStatsSchema>;
export type NodeStats = z.infer<typeof NodeStatsSchema>;
export type Summary = z.infer<typeof SummarySchema>;
export type SummaryList = z.infer<typeof SummaryListSchema>;
