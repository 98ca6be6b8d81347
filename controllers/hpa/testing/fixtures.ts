/**
 * Builders for the HPA controller's unit tests: pods in the states the replica calculator
 * distinguishes (ready, unready, pending, failed, being deleted, warming up), their samples,
 * a MetricsSource that serves them, and a minimal pod lister. Test-only; nothing in the
 * controller imports it.
 */
import type { HorizontalPodAutoscaler } from '../../../apiserver/api/autoscaling/horizontal-pod-autoscaler.js';
import type { Pod } from '../../../apiserver/api/core/pod.js';
import { parseLabelSelector } from '../../../apiserver/api/labels.js';
import { rfc3339 } from '../../../apiserver/api/machinery/time.js';
import type { DeepReadonly, Lister } from '../../runtime/types.js';
import type { MetricsSource, PodMetric, ResourceMetrics } from '../metrics-client.js';

/** NOW_MS is the fixtures' "now": 2024-05-01T12:00:00Z. */
export const NOW_MS = Date.parse('2024-05-01T12:00:00Z');
/** LONG_AGO_MS is well before any warm-up period (one hour before NOW_MS). */
export const LONG_AGO_MS = NOW_MS - 3_600_000;

/** PodFixtureOptions shape podFixture. */
export interface PodFixtureOptions {
  /** CPU request per container (quantity text); `null` leaves the container without one. */
  cpu?: string | null;
  memory?: string;
  /** Extra containers (name → cpu request). */
  containers?: Record<string, string | null>;
  phase?: 'Pending' | 'Running' | 'Failed' | 'Succeeded';
  /** The Ready condition's status; `null` means no Ready condition at all. */
  ready?: 'True' | 'False' | null;
  startMs?: number;
  readyTransitionMs?: number;
  deleting?: boolean;
  labels?: Record<string, string>;
}

/** podFixture is a Running, Ready pod `name` (app=web) started long ago with one container
 * `app` requesting 1 CPU, unless options say otherwise. */
export function podFixture(name: string, options: PodFixtureOptions = {}): Pod {
  const startMs = options.startMs ?? LONG_AGO_MS;
  const ready = options.ready === undefined ? 'True' : options.ready;
  const containerOf = (containerName: string, cpu: string | null) => ({
    name: containerName,
    image: 'nginx',
    resources: { requests: { ...(cpu === null ? {} : { cpu }), ...(options.memory ? { memory: options.memory } : {}) } },
  });
  const extra = Object.entries(options.containers ?? {}).map(([containerName, cpu]) => containerOf(containerName, cpu));
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: options.labels ?? { app: 'web' }, ...(options.deleting ? { deletionTimestamp: rfc3339(NOW_MS) } : {}) },
    spec: { containers: [containerOf('app', options.cpu === undefined ? '1' : options.cpu), ...extra] },
    status: {
      phase: options.phase ?? 'Running',
      startTime: rfc3339(startMs),
      conditions: ready === null ? [] : [{ type: 'Ready', status: ready, lastTransitionTime: rfc3339(options.readyTransitionMs ?? startMs) }],
    },
  };
}

/** sample is a PodMetric of `valueMilli`, taken at NOW_MS over a 15 s window unless given. */
export function sample(valueMilli: number, options: { timestampMs?: number; windowMs?: number } = {}): PodMetric {
  return { valueMilli, timestampMs: options.timestampMs ?? NOW_MS, windowMs: options.windowMs ?? 15_000 };
}

/** metricsOf builds ResourceMetrics from pod name → milli-value (samples at NOW_MS). */
export function metricsOf(values: Record<string, number | PodMetric>): ResourceMetrics {
  const metrics = new Map<string, PodMetric>();
  for (const [pod, value] of Object.entries(values)) metrics.set(pod, typeof value === 'number' ? sample(value) : value);
  return { metrics, timestampMs: NOW_MS };
}

/** FakeMetricsSource serves per-resource metrics from memory, or fails with `error`. */
export class FakeMetricsSource implements MetricsSource {
  readonly queries: Array<{ resource: string; container?: string; selector: string }> = [];
  byResource: Record<string, ResourceMetrics> = {};
  error: string | undefined;

  async getResourceMetric(query: { resource: string; container?: string; selector: string }): Promise<ResourceMetrics> {
    this.queries.push({ resource: query.resource, container: query.container, selector: query.selector });
    if (this.error !== undefined) throw new Error(this.error);
    const found = this.byResource[query.container ? `${query.resource}/${query.container}` : query.resource];
    if (!found || found.metrics.size === 0) throw new Error('no metrics returned from resource metrics API');
    return found;
  }
}

/** listerOf is a Lister over `items` (namespace and label selector honoured; no indexes). */
export function listerOf<T extends { metadata: { namespace?: string; name?: string; labels?: Record<string, string> } }>(items: readonly T[]): Lister<T> {
  return {
    get: (namespace, name) => items.find((o) => o.metadata.namespace === namespace && o.metadata.name === name) as DeepReadonly<T> | undefined,
    list: (namespace, selector) => {
      const query = parseLabelSelector(selector ?? '');
      return items.filter((o) => (namespace === undefined || o.metadata.namespace === namespace) && query.matches(o.metadata.labels)) as DeepReadonly<T>[];
    },
    byIndex: () => [],
  };
}

/** podListerOf is listerOf for pods. */
export function podListerOf(pods: readonly Pod[]): Lister<Pod> {
  return listerOf(pods);
}

/** hpaFixture is an autoscaling/v2 HPA `web` on Deployment web, 1–10 replicas, 50% CPU,
 * as the API server stores it (defaults applied), with `patch` merged into its spec. */
export function hpaFixture(patch: Partial<HorizontalPodAutoscaler['spec']> = {}): HorizontalPodAutoscaler {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'default', uid: 'uid-web', generation: 1 },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 1,
      maxReplicas: 10,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }],
      ...patch,
    },
  };
}
