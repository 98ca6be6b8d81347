/**
 * The metrics.k8s.io objects, computed at read time from the scraper's latest snapshot and
 * the store — the metrics-server storage layer. A sample is served only while its object
 * still exists (a pod with the same uid, a node of that name): metrics of deleted pods
 * vanish at once, not at the next scrape. As in metrics-server, labels come from the pod or
 * node, creationTimestamp is the time of the read, and a GET of an object without metrics
 * answers `pods "x" not found` when the pod does not exist and `podmetrics.metrics.k8s.io
 * "default/x" not found` when it has no metrics (yet) — the two messages `kubectl top` shows.
 */
import { isNotFound, type Store } from '../../store/index.js';
import { notFound } from '../api/api-error.js';
import { rfc3339 } from '../api/machinery/time.js';
import { METRICS_API_VERSION, METRICS_GROUP, METRICS_WINDOW } from '../api/metrics/usage.js';
import { formatCpuMillis, formatMemoryBytes } from '../api/quantity.js';
import type { Registry } from '../api/registry.js';
import type { KubeObject } from '../api/resource-definition.js';
import type { VirtualSource } from '../handlers/types.js';
import type { ContainerSample, MetricsSnapshot, NodeSample, PodSample } from './samples.js';

/** MetricsSourceOptions is what the sources read from. */
export interface MetricsSourceOptions {
  snapshot: () => MetricsSnapshot;
  store: Store;
  registry: Registry;
  now: () => number;
}

/** usageOf renders CPU (nanocores, shown in whole millicores rounded up) and memory (bytes)
 * as the Quantity strings the metrics API speaks: `250m`, `12Mi`. */
function usageOf(sample: { cpuNanoCores: number; memoryBytes: number }): { cpu: string; memory: string } {
  return { cpu: formatCpuMillis(sample.cpuNanoCores / 1e6), memory: formatMemoryBytes(sample.memoryBytes) };
}

/** readObject returns the stored object, or undefined when there is none. */
function readObject(options: MetricsSourceOptions, plural: string, namespace: string, name: string): KubeObject | undefined {
  const def = options.registry.find('', 'v1', plural);
  if (!def) return undefined;
  try {
    return options.store.get({ resource: def.storage.resource, namespace, name }) as unknown as KubeObject;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

function metadataOf(object: KubeObject, nowMs: number): KubeObject['metadata'] {
  const { name, namespace, labels } = object.metadata;
  return { name, ...(namespace ? { namespace } : {}), ...(labels ? { labels } : {}), creationTimestamp: rfc3339(nowMs) };
}

/** podMetricsSource serves PodMetrics from the snapshot's pod samples. */
export function podMetricsSource(options: MetricsSourceOptions): VirtualSource {
  const toObject = (sample: PodSample | undefined, pod: KubeObject | undefined): KubeObject | undefined => {
    if (!sample || !pod || pod.metadata.uid !== sample.uid) return undefined;
    return {
      kind: 'PodMetrics',
      apiVersion: METRICS_API_VERSION,
      metadata: metadataOf(pod, options.now()),
      timestamp: rfc3339(sample.timestampMs),
      window: METRICS_WINDOW,
      containers: sample.containers.map((c: ContainerSample) => ({ name: c.name, usage: usageOf(c) })),
    };
  };
  return {
    list: (namespace) =>
      [...options.snapshot().pods.values()]
        .filter((s) => namespace === '' || s.namespace === namespace)
        .flatMap((s) => toObject(s, readObject(options, 'pods', s.namespace, s.name)) ?? []),
    get: (namespace, name) => {
      const pod = readObject(options, 'pods', namespace, name);
      if (!pod) throw notFound({ group: '', resource: 'pods', name });
      const object = toObject(options.snapshot().pods.get(`${namespace}/${name}`), pod);
      if (!object) throw notFound({ group: METRICS_GROUP, resource: 'podmetrics', name: `${namespace}/${name}` });
      return object;
    },
  };
}

/** nodeMetricsSource serves NodeMetrics from the snapshot's node samples. */
export function nodeMetricsSource(options: MetricsSourceOptions): VirtualSource {
  const toObject = (sample: NodeSample | undefined, node: KubeObject | undefined): KubeObject | undefined => {
    if (!sample || !node) return undefined;
    return {
      kind: 'NodeMetrics',
      apiVersion: METRICS_API_VERSION,
      metadata: metadataOf(node, options.now()),
      timestamp: rfc3339(sample.timestampMs),
      window: METRICS_WINDOW,
      usage: usageOf(sample),
    };
  };
  return {
    list: () => [...options.snapshot().nodes.values()].flatMap((s) => toObject(s, readObject(options, 'nodes', '', s.name)) ?? []),
    get: (_namespace, name) => {
      const node = readObject(options, 'nodes', '', name);
      if (!node) throw notFound({ group: '', resource: 'nodes', name });
      const object = toObject(options.snapshot().nodes.get(name), node);
      if (!object) throw notFound({ group: METRICS_GROUP, resource: 'nodemetrics', name });
      return object;
    },
  };
}
