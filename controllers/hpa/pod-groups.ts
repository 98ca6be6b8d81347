/**
 * How the replica calculator sees the target's pods (Kubernetes' groupPods and
 * calculateRequests): which samples it may trust, which pods it must guess for, and what each
 * pod requested. Pure functions over cached pods; nothing here is mutated.
 */
import type { Pod } from '../../apiserver/api/core/pod.js';
import { podReadyCondition } from '../../apiserver/api/core/pod-conditions.js';
import { parseTimeMs } from '../../apiserver/api/machinery/time.js';
import { tryParseQuantity } from '../../apiserver/api/quantity.js';
import type { DeepReadonly } from '../runtime/types.js';
import type { PodMetricsInfo } from './metrics-client.js';

/** ReadonlyPod is a pod as the informer cache shares it. */
export type ReadonlyPod = DeepReadonly<Pod>;

/** CPU_INITIALIZATION_PERIOD_MS is --horizontal-pod-autoscaler-cpu-initialization-period (5 min):
 * while a pod is this young, a CPU sample is trusted only if taken wholly after it became ready. */
export const CPU_INITIALIZATION_PERIOD_MS = 5 * 60_000;
/** INITIAL_READINESS_DELAY_MS is --horizontal-pod-autoscaler-initial-readiness-delay (30 s):
 * an older pod that turned unready within this long of starting has never been ready. */
export const INITIAL_READINESS_DELAY_MS = 30_000;

/** ReadinessOptions tune when a CPU sample counts (see the constants above). */
export interface ReadinessOptions {
  cpuInitializationPeriodMs: number;
  initialReadinessDelayMs: number;
}

/**
 * PodGroups sorts the target's pods for one metric:
 * - ready: counted, with a sample to trust;
 * - unready: Pending, or (for cpu) not ready / still warming up: samples ignored, counted as
 *   0% only when scaling up;
 * - missing: no sample: counted as 0% on scale up and as 100% of the request on scale down;
 * - ignored: being deleted or Failed: left out entirely.
 */
export interface PodGroups {
  readyPodCount: number;
  unready: ReadonlySet<string>;
  missing: ReadonlySet<string>;
  ignored: ReadonlySet<string>;
}

/** GroupPodsOptions is what groupPods needs besides the pods. */
export interface GroupPodsOptions extends ReadinessOptions {
  metrics: PodMetricsInfo;
  resource: string;
  nowMs: number;
}

/** groupPods sorts `pods` into PodGroups (see there). Pure; never throws. */
export function groupPods(pods: readonly ReadonlyPod[], options: GroupPodsOptions): PodGroups {
  const unready = new Set<string>();
  const missing = new Set<string>();
  const ignored = new Set<string>();
  let readyPodCount = 0;
  for (const pod of pods) {
    const name = pod.metadata.name ?? '';
    const phase = pod.status?.phase;
    if (pod.metadata.deletionTimestamp !== undefined || phase === 'Failed') ignored.add(name);
    else if (phase === 'Pending') unready.add(name);
    else if (!options.metrics.has(name)) missing.add(name);
    else if (options.resource === 'cpu' && isCpuSampleUnready(pod, options)) unready.add(name);
    else readyPodCount++;
  }
  return { readyPodCount, unready, missing, ignored };
}

/**
 * isCpuSampleUnready: CPU spikes while a pod starts, so its sample is not trusted when the pod
 * is not Ready, or while young (cpu initialization period) unless one full metrics window
 * passed since it became ready; an older pod is distrusted only if it is unready and never
 * was ready (it turned unready within the initial readiness delay of starting).
 */
function isCpuSampleUnready(pod: ReadonlyPod, options: GroupPodsOptions): boolean {
  const ready = podReadyCondition(pod);
  const startMs = parseTimeMs(pod.status?.startTime);
  if (ready === undefined || startMs === undefined) return true;
  // A missing transition time is Go's zero time: long before anything else.
  const transitionMs = parseTimeMs(ready.lastTransitionTime) ?? Number.NEGATIVE_INFINITY;
  if (startMs + options.cpuInitializationPeriodMs > options.nowMs) {
    const sample = options.metrics.get(pod.metadata.name ?? '');
    const sampleMs = sample?.timestampMs ?? Number.NEGATIVE_INFINITY;
    return ready.status === 'False' || sampleMs < transitionMs + (sample?.windowMs ?? 0);
  }
  return ready.status === 'False' && startMs + options.initialReadinessDelayMs > transitionMs;
}

/**
 * calculateRequests returns each pod's request of `resource` in milli-units: the named
 * container's, or else the pod-level request when the pod sets pod-level requests, or else the
 * sum over its containers and sidecars (init containers with restartPolicy Always). Throws,
 * in Kubernetes' words, when a counted container (or the pod level) has no such request —
 * `missing request for cpu in container app of Pod web-1` — or the container does not exist.
 */
export function calculateRequests(pods: readonly ReadonlyPod[], resource: string, container?: string): Map<string, number> {
  const requests = new Map<string, number>();
  for (const pod of pods) {
    const podLevel = pod.spec.resources?.requests;
    const usePodLevel = !container && podLevel !== undefined && Object.keys(podLevel).length > 0;
    const request = usePodLevel ? podLevelRequest(pod, resource) : containerRequests(pod, resource, container);
    requests.set(pod.metadata.name ?? '', request);
  }
  return requests;
}

function podLevelRequest(pod: ReadonlyPod, resource: string): number {
  const value = pod.spec.resources?.requests?.[resource];
  if (value === undefined) throw new Error(`missing pod-level request for ${resource} in Pod ${pod.metadata.name ?? ''}`);
  return milliOf(value);
}

function containerRequests(pod: ReadonlyPod, resource: string, container: string | undefined): number {
  const sidecars = (pod.spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always');
  let request = 0;
  for (const c of [...pod.spec.containers, ...sidecars]) {
    if (container && c.name !== container) continue;
    const value = c.resources?.requests?.[resource];
    if (value === undefined) throw new Error(`missing request for ${resource} in container ${c.name} of Pod ${pod.metadata.name ?? ''}`);
    request += milliOf(value);
    // Container names are unique within a pod.
    if (container) return request;
  }
  if (container) throw new Error(`container ${container} not found in Pod ${pod.metadata.name ?? ''}`);
  return request;
}

// The API server validated every request quantity, so a parse failure is a broken invariant.
function milliOf(value: string): number {
  const quantity = tryParseQuantity(value);
  if (quantity === undefined) throw new Error(`invalid quantity ${JSON.stringify(value)}`);
  return quantity.milliValue();
}
