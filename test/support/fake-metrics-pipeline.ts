/**
 * A stand-in for the resource metrics pipeline (kubelet-sim → metrics.k8s.io) in integration
 * tests that run the fake kubelet: it makes the running test server serve
 * metrics.k8s.io/v1beta1 PodMetrics as an ordinary stored kind (`pods` in that group), and a
 * small loop "scrapes" every scrape period — one PodMetrics per running pod, stamped with the
 * cluster time and a 15 s window — and removes the PodMetrics of pods that are gone, as
 * metrics-server would. The test sets a total CPU load (the demand on the workload), which is
 * shared evenly by the running pods: doubling the pods halves each one's usage, as it would
 * for a web service behind a load balancer. The HPA then reads it over real HTTP exactly as it
 * reads the real API: GET /apis/metrics.k8s.io/v1beta1/namespaces/{ns}/pods?labelSelector=…
 *
 * Registering the definition replaces whatever the server serves at that group/version/plural
 * (the real, kubelet-fed metrics API), so a test controls usage regardless of kubelets.
 */
import { z } from 'zod';
import { isNotFound } from '../../apiserver/api/api-error.js';
import { type Pod, podDefinition } from '../../apiserver/api/core/pod.js';
import { isAbortError } from '../../apiserver/api/machinery/clock.js';
import { rfc3339 } from '../../apiserver/api/machinery/time.js';
import { typeMetaFields } from '../../apiserver/api/meta.js';
import { ageColumn, nameColumn } from '../../apiserver/api/printing.js';
import { formatCpuMillis } from '../../apiserver/api/quantity.js';
import type { ResourceDefinition } from '../../apiserver/api/resource-definition.js';
import type { KubeClient } from '../../controllers/runtime/client/http-client.js';
import type { Clock } from '../../controllers/runtime/types.js';
import type { TestCluster } from './test-cluster.js';

const PodMetricsSchema = z
  .object({
    ...typeMetaFields('metrics.k8s.io/v1beta1', 'PodMetrics'),
    timestamp: z.string(),
    window: z.string(),
    containers: z.array(z.object({ name: z.string(), usage: z.record(z.string(), z.string()) })),
  })
  .meta({ id: 'io.k8s.metrics.pkg.apis.metrics.v1beta1.PodMetrics', description: 'PodMetrics (test stand-in) is the usage of one pod.' });

/** PodMetrics is what the stand-in stores and serves. */
export type PodMetrics = z.infer<typeof PodMetricsSchema>;

/** podMetricsStandInDefinition serves metrics.k8s.io/v1beta1 pods from the store. */
export const podMetricsStandInDefinition: ResourceDefinition<PodMetrics> = {
  group: 'metrics.k8s.io',
  version: 'v1beta1',
  kind: 'PodMetrics',
  plural: 'pods',
  singular: '',
  shortNames: [],
  categories: [],
  namespaced: true,
  schema: PodMetricsSchema,
  tracksGeneration: false,
  subresources: {},
  printColumns: [nameColumn, ageColumn],
  storage: { resource: 'pods.metrics.k8s.io' },
};

/** FakeMetricsPipelineOptions configure startFakeMetricsPipeline. */
export interface FakeMetricsPipelineOptions {
  cluster: TestCluster;
  client: KubeClient;
  /** Cluster clock: timestamps and the scrape period are read on it. */
  clock: Clock;
  namespace: string;
  /** The workload's pods (label-selector text): they share the load and get PodMetrics. */
  selector: string;
  /** Cluster time between scrapes. Default 15 s, metrics-server's resolution. */
  scrapePeriodMs?: number;
}

/** FakeMetricsPipeline is the running stand-in. */
export interface FakeMetricsPipeline {
  /** setCpuLoad spreads `millicores` over the running pods from the next scrape on (420 over
   * 3 pods: 140m each); undefined stops reporting (every PodMetrics is removed). */
  setCpuLoad(millicores: number | undefined): void;
  /** scraped resolves after the next complete scrape. */
  scraped(): Promise<void>;
  stop(): Promise<void>;
}

/** startFakeMetricsPipeline serves the stand-in kind and starts scraping (reporting nothing
 * until setCpuLoad). */
export function startFakeMetricsPipeline(options: FakeMetricsPipelineOptions): FakeMetricsPipeline {
  options.cluster.server.context.registry.add(podMetricsStandInDefinition);
  const abort = new AbortController();
  let load: number | undefined;
  let started = 0;
  // Each waiter wants a scrape that began after it asked, so it sees the latest usage.
  let waiters: Array<{ scrape: number; wake: () => void; fail: (err: unknown) => void }> = [];
  let failure: unknown;
  const loop = async () => {
    while (!abort.signal.aborted) {
      const scrapeNumber = ++started;
      await scrape(options, load);
      for (const waiter of waiters.filter((w) => w.scrape <= scrapeNumber)) waiter.wake();
      waiters = waiters.filter((w) => w.scrape > scrapeNumber);
      await options.clock.sleep(options.scrapePeriodMs ?? 15_000, abort.signal);
    }
  };
  // A failed scrape ends the loop; stop() reports it, so the test that caused it fails.
  const running = loop().catch((err: unknown) => {
    if (isAbortError(err)) return;
    failure = err;
    for (const waiter of waiters.splice(0)) waiter.fail(err);
  });
  return {
    setCpuLoad: (millicores) => void (load = millicores),
    scraped: () =>
      new Promise<void>((resolve, reject) => {
        if (failure !== undefined) reject(failure);
        else waiters.push({ scrape: started + 1, wake: resolve, fail: reject });
      }),
    async stop() {
      abort.abort();
      await running;
      if (failure !== undefined) throw failure;
    },
  };
}

/** scrape writes one PodMetrics per running pod (merge patch, or create) and deletes the rest. */
async function scrape(options: FakeMetricsPipelineOptions, loadMillicores: number | undefined): Promise<void> {
  const { client, clock, namespace, selector } = options;
  const metrics = client.resource(podMetricsStandInDefinition);
  const pods = (await client.resource(podDefinition).list({ namespace, labelSelector: selector })).items.filter(
    (pod) => pod.status?.phase === 'Running' && !pod.metadata.deletionTimestamp,
  );
  const reporting = loadMillicores === undefined ? [] : pods;
  const cpu = formatCpuMillis(Math.floor((loadMillicores ?? 0) / Math.max(1, reporting.length)));
  for (const pod of reporting) {
    const body = podMetricsOf(pod, { cpu, timestamp: rfc3339(clock.now()) });
    try {
      await metrics.patch(namespace, pod.metadata.name ?? '', { timestamp: body.timestamp, containers: body.containers }, { type: 'merge' });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await metrics.create(body);
    }
  }
  const keep = new Set(reporting.map((pod) => pod.metadata.name));
  for (const stale of (await metrics.list({ namespace, labelSelector: selector })).items.filter((m) => !keep.has(m.metadata.name))) {
    await metrics.delete(namespace, stale.metadata.name ?? '').catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
  }
}

function podMetricsOf(pod: Pod, { cpu, timestamp }: { cpu: string; timestamp: string }): PodMetrics {
  return {
    apiVersion: 'metrics.k8s.io/v1beta1',
    kind: 'PodMetrics',
    metadata: { name: pod.metadata.name, namespace: pod.metadata.namespace, labels: { ...pod.metadata.labels } },
    timestamp,
    window: '15s',
    // The first container carries the pod's CPU; the others report none.
    containers: pod.spec.containers.map((container, i) => ({ name: container.name, usage: { cpu: i === 0 ? cpu : '0', memory: '12Mi' } })),
  };
}
