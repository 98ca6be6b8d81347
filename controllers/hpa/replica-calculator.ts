/**
 * The replica calculator (Kubernetes' GetResourceReplicas and GetRawResourceReplicas), pure:
 * from the target's pods and their usage samples, how many replicas would bring the metric to
 * its target.
 *
 *   ratio = current / target  (utilization: Σusage×100/Σrequests, truncated to a whole percent;
 *                              average value: Σusage / samples, truncated to a milli-unit)
 *   no unready or missing pods:  |ratio − 1| within tolerance → current replicas,
 *                                 else ceil(ratio × ready pods)
 *   otherwise, guess conservatively and recompute: missing pods use 0 when scaling up and
 *   100% of their request (or the target, if higher) when scaling down; unready pods use 0
 *   when scaling up. Keep the current count when the new ratio is within tolerance or would
 *   reverse the direction, and ceil(newRatio × counted pods) otherwise.
 *
 * Errors are thrown as Errors worded as Kubernetes' ("did not receive metrics for targeted pods
 * (pods might be unready)", "missing request for cpu in container app of Pod web-1").
 */
import type { ResourceMetrics } from './metrics-client.js';
import {
  CPU_INITIALIZATION_PERIOD_MS,
  calculateRequests,
  groupPods,
  INITIAL_READINESS_DELAY_MS,
  type PodGroups,
  type ReadinessOptions,
  type ReadonlyPod,
} from './pod-groups.js';

/** DEFAULT_TOLERANCE is --horizontal-pod-autoscaler-tolerance: ratios within 10% of 1 do not scale. */
export const DEFAULT_TOLERANCE = 0.1;

/** Tolerances are the relative changes below which the HPA does not scale, per direction. */
export interface Tolerances {
  scaleDown: number;
  scaleUp: number;
}

/** isWithinTolerance reports whether `ratio` is close enough to 1 to leave the count alone. */
export function isWithinTolerance(ratio: number, tolerances: Tolerances): boolean {
  return 1 - tolerances.scaleDown <= ratio && ratio <= 1 + tolerances.scaleUp;
}

/** ResourceReplicaInput is what every calculation needs: the current count (the Scale's
 * spec.replicas), the pods the Scale's selector matches, and the samples for them. */
export interface ResourceReplicaInput {
  currentReplicas: number;
  resource: string;
  /** ContainerResource metrics: only this container's requests count. */
  container?: string;
  pods: readonly ReadonlyPod[];
  metrics: ResourceMetrics;
  nowMs: number;
  /** Default ±DEFAULT_TOLERANCE. */
  tolerances?: Tolerances;
  /** Default 5 min / 30 s, as kube-controller-manager. */
  readiness?: ReadinessOptions;
}

/** UtilizationReplicas is the outcome for a Utilization target. */
export interface UtilizationReplicas {
  replicas: number;
  /** Average usage as a whole percentage of the requests, over the pods with trusted samples. */
  utilization: number;
  /** Average usage in milli-units over the same pods. */
  rawAverageMilli: number;
  timestampMs: number;
}

/**
 * getResourceReplicas computes the replica count for a Utilization target of
 * `targetUtilization` percent (see the module comment). Pure; throws as described there.
 */
export function getResourceReplicas(input: ResourceReplicaInput & { targetUtilization: number }): UtilizationReplicas {
  const { groups, values } = trustedSamples(input);
  const requests = calculateRequests(input.pods, input.resource, input.container);
  const measure = (samples: ReadonlyMap<string, number>) => utilizationOf(samples, requests, input.targetUtilization);
  const first = measure(values);
  // On scale down a missing pod is assumed to use all it asked for, or the target when that
  // is above 100%, so it never argues for a deeper cut than the pods we can see.
  const fallbackPercent = Math.max(100, input.targetUtilization);
  const replicas = proposeReplicas({
    currentReplicas: input.currentReplicas,
    groups,
    values,
    tolerances: input.tolerances ?? defaultTolerances(),
    ratioOf: (samples) => measure(samples).ratio,
    scaleDownFallback: (pod) => Math.trunc(((requests.get(pod) ?? 0) * fallbackPercent) / 100),
  });
  return { replicas, utilization: first.utilization, rawAverageMilli: first.rawAverageMilli, timestampMs: input.metrics.timestampMs };
}

/** AverageValueReplicas is the outcome for an AverageValue target. */
export interface AverageValueReplicas {
  replicas: number;
  /** Average usage in milli-units over the pods with trusted samples. */
  averageMilli: number;
  timestampMs: number;
}

/**
 * getRawResourceReplicas computes the replica count for an AverageValue target of
 * `targetAverageMilli` milli-units per pod (see the module comment; a missing pod is assumed
 * to use exactly the target when scaling down). Pure; throws as described there.
 */
export function getRawResourceReplicas(input: ResourceReplicaInput & { targetAverageMilli: number }): AverageValueReplicas {
  const { groups, values } = trustedSamples(input);
  const first = averageOf(values, input.targetAverageMilli);
  const replicas = proposeReplicas({
    currentReplicas: input.currentReplicas,
    groups,
    values,
    tolerances: input.tolerances ?? defaultTolerances(),
    ratioOf: (samples) => averageOf(samples, input.targetAverageMilli).ratio,
    scaleDownFallback: () => input.targetAverageMilli,
  });
  return { replicas, averageMilli: first.averageMilli, timestampMs: input.metrics.timestampMs };
}

function defaultTolerances(): Tolerances {
  return { scaleDown: DEFAULT_TOLERANCE, scaleUp: DEFAULT_TOLERANCE };
}

/** trustedSamples groups the pods and keeps the samples of pods neither ignored nor unready
 * (samples of pods the lister does not know stay: the metrics API saw more than the cache). */
function trustedSamples(input: ResourceReplicaInput): { groups: PodGroups; values: Map<string, number> } {
  if (input.pods.length === 0) throw new Error('no pods returned by selector while calculating replica count');
  const readiness = input.readiness ?? { cpuInitializationPeriodMs: CPU_INITIALIZATION_PERIOD_MS, initialReadinessDelayMs: INITIAL_READINESS_DELAY_MS };
  const groups = groupPods(input.pods, { ...readiness, metrics: input.metrics.metrics, resource: input.resource, nowMs: input.nowMs });
  const values = new Map<string, number>();
  for (const [pod, sample] of input.metrics.metrics) {
    if (!groups.ignored.has(pod) && !groups.unready.has(pod)) values.set(pod, sample.valueMilli);
  }
  if (values.size === 0) throw new Error('did not receive metrics for targeted pods (pods might be unready)');
  return { groups, values };
}

interface Proposal {
  currentReplicas: number;
  groups: PodGroups;
  values: ReadonlyMap<string, number>;
  tolerances: Tolerances;
  ratioOf: (samples: ReadonlyMap<string, number>) => number;
  scaleDownFallback: (pod: string) => number;
}

/** proposeReplicas is the shared decision of both calculations (see the module comment). */
function proposeReplicas(p: Proposal): number {
  const ratio = p.ratioOf(p.values);
  const scaleUpWithUnready = p.groups.unready.size > 0 && ratio > 1;
  if (!scaleUpWithUnready && p.groups.missing.size === 0) {
    return isWithinTolerance(ratio, p.tolerances) ? p.currentReplicas : Math.ceil(ratio * p.groups.readyPodCount);
  }
  const guessed = new Map(p.values);
  for (const pod of p.groups.missing) {
    if (ratio < 1) guessed.set(pod, p.scaleDownFallback(pod));
    else if (ratio > 1) guessed.set(pod, 0);
  }
  if (scaleUpWithUnready) for (const pod of p.groups.unready) guessed.set(pod, 0);
  const newRatio = p.ratioOf(guessed);
  const reverses = (ratio < 1 && newRatio > 1) || (ratio > 1 && newRatio < 1);
  if (isWithinTolerance(newRatio, p.tolerances) || reverses) return p.currentReplicas;
  const newReplicas = Math.ceil(newRatio * guessed.size);
  // Counting more pods than exist can still flip the direction: then stay put.
  const flips = (newRatio < 1 && newReplicas > p.currentReplicas) || (newRatio > 1 && newReplicas < p.currentReplicas);
  return flips ? p.currentReplicas : newReplicas;
}

/** utilizationOf is Kubernetes' GetResourceUtilizationRatio: samples without a known request
 * (pods the lister does not have) are skipped; the percentage is truncated before the ratio. */
function utilizationOf(samples: ReadonlyMap<string, number>, requests: ReadonlyMap<string, number>, target: number) {
  let usageTotal = 0;
  let requestTotal = 0;
  let counted = 0;
  for (const [pod, value] of samples) {
    const request = requests.get(pod);
    if (request === undefined) continue;
    usageTotal += value;
    requestTotal += request;
    counted++;
  }
  if (requestTotal === 0) throw new Error('no metrics returned matched known pods');
  const utilization = Math.trunc((usageTotal * 100) / requestTotal);
  return { ratio: utilization / target, utilization, rawAverageMilli: Math.trunc(usageTotal / counted) };
}

/** averageOf is Kubernetes' GetMetricUsageRatio: the truncated average over every sample. */
function averageOf(samples: ReadonlyMap<string, number>, targetMilli: number) {
  let total = 0;
  for (const value of samples.values()) total += value;
  const averageMilli = Math.trunc(total / samples.size);
  return { ratio: averageMilli / targetMilli, averageMilli };
}
