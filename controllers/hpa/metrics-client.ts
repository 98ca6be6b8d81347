/**
 * The HPA's reader of the resource metrics API (metrics.k8s.io/v1beta1 PodMetrics, fed by
 * kubelet-sim): the usage of one resource per pod, in milli-units, for the pods a label
 * selector matches — Kubernetes' resourceMetricsClient, reduced to what the HPA reads.
 * MetricsSource is the seam: unit tests feed metrics through it without a server.
 *
 * Wire shape read (GET /apis/metrics.k8s.io/v1beta1/namespaces/{ns}/pods?labelSelector=…):
 *   { kind: 'PodMetricsList', items: [{ metadata: { name, namespace, labels }, timestamp,
 *     window: '15s', containers: [{ name, usage: { cpu: '250m', memory: '12Mi' } }] }] }
 */

import { parseDuration } from '../../apiserver/api/machinery/duration.js';
import { parseTimeMs } from '../../apiserver/api/machinery/time.js';
import { tryParseQuantity } from '../../apiserver/api/quantity.js';
import type { KubeClient } from '../runtime/client/http-client.js';

/** PodMetric is one pod's usage sample: the value in milli-units (millicores, milli-bytes),
 * measured over `windowMs` ending at `timestampMs`. */
export interface PodMetric {
  timestampMs: number;
  windowMs: number;
  valueMilli: number;
}

/** PodMetricsInfo maps pod names to their samples. */
export type PodMetricsInfo = ReadonlyMap<string, PodMetric>;

/** ResourceMetricQuery names what to read: one resource (cpu, memory) of the pods matching
 * `selector` (label-selector text) in `namespace`, optionally of one container only. */
export interface ResourceMetricQuery {
  namespace: string;
  selector: string;
  resource: string;
  /** Only this container's usage (ContainerResource metrics); every container's sum when absent. */
  container?: string;
  signal?: AbortSignal;
}

/** ResourceMetrics is what a query returned: samples by pod, and the timestamp of the first. */
export interface ResourceMetrics {
  metrics: PodMetricsInfo;
  timestampMs: number;
}

/**
 * MetricsSource knows how to read resource usage of pods. getResourceMetric rejects with an
 * Error worded as Kubernetes' metrics client ("no metrics returned from resource metrics API",
 * "unable to fetch metrics from resource metrics API: …"); pods lacking the resource (or the
 * container) are left out of the result, which the replica calculator then treats as missing.
 */
export interface MetricsSource {
  getResourceMetric(query: ResourceMetricQuery): Promise<ResourceMetrics>;
}

/** RESOURCE_METRICS_API is the group/version of the resource metrics API. */
export const RESOURCE_METRICS_API = 'metrics.k8s.io/v1beta1';

/**
 * createResourceMetricsClient returns a MetricsSource reading PodMetrics through `client.raw`
 * (the metrics API is not a kind the client's registry knows). Rejects as MetricsSource says.
 */
export function createResourceMetricsClient(client: Pick<KubeClient, 'raw'>): MetricsSource {
  return {
    async getResourceMetric(query) {
      let body: unknown;
      try {
        const path = `/apis/${RESOURCE_METRICS_API}/namespaces/${encodeURIComponent(query.namespace)}/pods`;
        body = await client.raw({ method: 'GET', path, query: { labelSelector: query.selector || undefined }, signal: query.signal });
      } catch (err) {
        throw new Error(`unable to fetch metrics from resource metrics API: ${messageOf(err)}`, { cause: err });
      }
      return resourceMetricsFromList(body, query);
    },
  };
}

interface WirePodMetrics {
  metadata?: { name?: unknown };
  timestamp?: unknown;
  window?: unknown;
  containers?: Array<{ name?: unknown; usage?: Record<string, unknown> }>;
}

/**
 * resourceMetricsFromList turns a PodMetricsList body into ResourceMetrics for `query`'s
 * resource and container. Pure. Throws "no metrics returned from resource metrics API" for
 * an empty list. As in Kubernetes, a pod whose containers do not all report the resource
 * (or without the named container, or with none at all) is left out.
 */
export function resourceMetricsFromList(body: unknown, query: Pick<ResourceMetricQuery, 'resource' | 'container'>): ResourceMetrics {
  const items = ((body as { items?: unknown } | undefined)?.items ?? []) as WirePodMetrics[];
  if (!Array.isArray(items) || items.length === 0) throw new Error('no metrics returned from resource metrics API');
  const metrics = new Map<string, PodMetric>();
  for (const item of items) {
    const name = item.metadata?.name;
    if (typeof name !== 'string') continue;
    const valueMilli = query.container ? containerUsage(item, query.resource, query.container) : podUsage(item, query.resource);
    if (valueMilli === undefined) continue;
    metrics.set(name, { timestampMs: timeOf(item.timestamp), windowMs: parseMetricsWindowMs(item.window), valueMilli });
  }
  return { metrics, timestampMs: timeOf(items[0]?.timestamp) };
}

/** podUsage sums the resource over every container; undefined when one lacks it or none report. */
function podUsage(item: WirePodMetrics, resource: string): number | undefined {
  const containers = item.containers ?? [];
  if (containers.length === 0) return undefined;
  let sum = 0;
  for (const container of containers) {
    const value = usageOf(container.usage?.[resource]);
    if (value === undefined) return undefined;
    sum += value;
  }
  return sum;
}

function containerUsage(item: WirePodMetrics, resource: string, containerName: string): number | undefined {
  const container = (item.containers ?? []).find((c) => c.name === containerName);
  return container ? usageOf(container.usage?.[resource]) : undefined;
}

function usageOf(value: unknown): number | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  return tryParseQuantity(String(value))?.milliValue();
}

// A sample without a readable timestamp counts as infinitely old (Go's zero time), which
// makes the CPU readiness check treat it as taken before the pod became ready.
function timeOf(value: unknown): number {
  return (typeof value === 'string' ? parseTimeMs(value) : undefined) ?? Number.NEGATIVE_INFINITY;
}

/**
 * parseMetricsWindowMs reads a metav1.Duration as metrics-server writes it (`15s`, `1m0s`,
 * `500ms`, `1h2m3.5s`) into milliseconds. Absent or unreadable text gives 0: a window the
 * readiness check cannot use simply does not delay a pod's first sample.
 */
export function parseMetricsWindowMs(value: unknown): number {
  if (typeof value !== 'string') return 0;
  try {
    return parseDuration(value);
  } catch {
    return 0;
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
