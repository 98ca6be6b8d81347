/**
 * One replica proposal per metric of an HPA, and the winner (Kubernetes'
 * computeReplicasForMetrics): the largest proposal wins; a metric that cannot be read is
 * reported (event + ScalingActive False) and, if every metric failed or the valid ones would
 * scale down, the HPA does not scale at all this sync.
 *
 * Resource and ContainerResource metrics are read from the resource metrics API. kubesim
 * serves no custom or external metrics API, so Pods, Object and External metrics fail as they
 * do on a cluster without a metrics adapter.
 */

import type { HorizontalPodAutoscaler } from '../../apiserver/api/autoscaling/horizontal-pod-autoscaler.js';
import { cpuUtilizationMetric, DEFAULT_CPU_UTILIZATION } from '../../apiserver/api/autoscaling/hpa-defaults.js';
import type { MetricSpec, MetricTarget } from '../../apiserver/api/autoscaling/metric-spec.js';
import type { MetricStatus, MetricValueStatus } from '../../apiserver/api/autoscaling/metric-status.js';
import type { Pod } from '../../apiserver/api/core/pod.js';

import { type LabelSelectorQuery, parseLabelSelector } from '../../apiserver/api/labels.js';
import { isAbortError } from '../../apiserver/api/machinery/clock.js';
import { createQuantity, tryParseQuantity } from '../../apiserver/api/quantity.js';
import type { DeepReadonly, Lister } from '../runtime/types.js';
import type { ConditionVerdict } from './conditions.js';
import type { MetricsSource, ResourceMetrics } from './metrics-client.js';
import type { ReadinessOptions, ReadonlyPod } from './pod-groups.js';
import { getRawResourceReplicas, getResourceReplicas, type Tolerances } from './replica-calculator.js';

/** HpaEvent is an event the reconciler should record about the HPA. */
export interface HpaEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** MetricsContext is what computing proposals needs. `specReplicas` is the Scale's
 * spec.replicas, the count the proposals start from. */
export interface MetricsContext {
  hpa: DeepReadonly<HorizontalPodAutoscaler>;
  specReplicas: number;
  /** The Scale's status.selector (label-selector text). */
  selector: string | undefined;
  podLister: Lister<Pod>;
  metrics: MetricsSource;
  nowMs: number;
  tolerances: Tolerances;
  readiness: ReadinessOptions;
  signal?: AbortSignal;
}

/** MetricsComputation is the outcome over all metrics. */
export interface MetricsComputation {
  /** The winning proposal; -1 means "do not scale this sync" (see the module comment). */
  replicas: number;
  /** What the winner measured, for the rescale reason: `cpu resource utilization (percentage of request)`. */
  metricName: string;
  /** One entry per spec.metrics entry; `{ type: '' }` where the metric could not be read, as
   * Kubernetes leaves it. Undefined when no metric was looked at (bad selector). */
  statuses: MetricStatus[] | undefined;
  scalingActive: ConditionVerdict;
  events: HpaEvent[];
  /** Why some (or all) metrics failed, in Kubernetes' words. */
  error?: string;
}

type MetricOutcome =
  | { ok: true; replicas: number; metricName: string; status: MetricStatus }
  | { ok: false; condition: ConditionVerdict; event: HpaEvent; error: string };

/**
 * computeReplicasForMetrics proposes a count for every metric (the default 80% CPU metric when
 * the HPA lists none) and picks the winner. It reads metrics and the pod lister; it never
 * writes. Rejects only with an AbortError when `signal` aborts; every other failure is part of
 * the returned computation.
 */
export async function computeReplicasForMetrics(ctx: MetricsContext): Promise<MetricsComputation> {
  const parsed = parseTargetSelector(ctx.selector);
  if ('failure' in parsed) return { replicas: -1, metricName: '', statuses: undefined, ...parsed.failure };
  const specs: readonly DeepReadonly<MetricSpec>[] = ctx.hpa.spec.metrics?.length ? ctx.hpa.spec.metrics : [cpuUtilizationMetric(DEFAULT_CPU_UTILIZATION)];
  const pods = ctx.podLister.list(ctx.hpa.metadata.namespace ?? '', parsed.selector.toString());
  const outcomes: MetricOutcome[] = [];
  for (const spec of specs) outcomes.push(await computeReplicasForMetric(ctx, spec, pods));
  return pickWinner(outcomes, ctx.specReplicas);
}

/** pickWinner turns the per-metric outcomes (in spec order) into the computation. */
function pickWinner(outcomes: readonly MetricOutcome[], specReplicas: number): MetricsComputation {
  const statuses: MetricStatus[] = outcomes.map((o) => (o.ok ? o.status : { type: '' }));
  const failures = outcomes.filter((o): o is Extract<MetricOutcome, { ok: false }> => !o.ok);
  const events = failures.map((f) => f.event);
  let best: { replicas: number; metricName: string } | undefined;
  for (const o of outcomes) if (o.ok && (best === undefined || o.replicas > best.replicas)) best = o;
  const first = failures[0];
  const error = first && `invalid metrics (${failures.length} invalid out of ${outcomes.length}), first error is: ${first.error}`;
  // A failed metric may be the one that would have asked for more pods: never scale down on
  // partial information, and never scale at all on none.
  if (first && (best === undefined || best.replicas < specReplicas)) {
    return { replicas: -1, metricName: '', statuses, scalingActive: first.condition, events, error };
  }
  const winner = best ?? { replicas: 0, metricName: '' };
  const scalingActive: ConditionVerdict = {
    status: 'True',
    reason: 'ValidMetricFound',
    message: `the HPA was able to successfully calculate a replica count from ${winner.metricName}`,
  };
  return { replicas: winner.replicas, metricName: winner.metricName, statuses, scalingActive, events, ...(error ? { error } : {}) };
}

type ParsedSelector = { selector: LabelSelectorQuery } | { failure: Pick<MetricsComputation, 'scalingActive' | 'events' | 'error'> };

/** parseTargetSelector reads the Scale's selector; an absent or invalid one stops the HPA. */
function parseTargetSelector(text: string | undefined): ParsedSelector {
  if (!text) {
    const message = 'selector is required';
    const scalingActive: ConditionVerdict = { status: 'False', reason: 'InvalidSelector', message: "the HPA target's scale is missing a selector" };
    return { failure: { scalingActive, events: [{ type: 'Warning', reason: 'SelectorRequired', message }], error: message } };
  }
  try {
    return { selector: parseLabelSelector(text) };
  } catch (err) {
    const message = `couldn't convert selector into a corresponding internal selector object: ${messageOf(err)}`;
    const scalingActive: ConditionVerdict = { status: 'False', reason: 'InvalidSelector', message };
    return { failure: { scalingActive, events: [{ type: 'Warning', reason: 'InvalidSelector', message }], error: message } };
  }
}

/** NO_METRICS_ADAPTER is what the API server answers for an API nobody serves. */
const NO_METRICS_ADAPTER = 'the server could not find the requested resource';

async function computeReplicasForMetric(ctx: MetricsContext, spec: DeepReadonly<MetricSpec>, pods: readonly ReadonlyPod[]): Promise<MetricOutcome> {
  switch (spec.type) {
    case 'Resource':
      if (!spec.resource) break;
      return resourceMetric(ctx, pods, { name: spec.resource.name, target: spec.resource.target });
    case 'ContainerResource':
      if (!spec.containerResource) break;
      return resourceMetric(ctx, pods, { ...spec.containerResource });
    case 'Pods': {
      const inner = `unable to get metric ${spec.pods?.metric.name ?? ''}: unable to fetch metrics from custom metrics API: ${NO_METRICS_ADAPTER}`;
      return failure('FailedGetPodsMetric', inner, `failed to get pods metric value: ${inner}`);
    }
    case 'Object': {
      const object = spec.object?.describedObject;
      const inner = `unable to get metric ${spec.object?.metric.name ?? ''}: unable to fetch metrics from custom metrics API: ${NO_METRICS_ADAPTER} on ${object?.kind ?? ''} ${ctx.hpa.metadata.namespace ?? ''}/${object?.name ?? ''}`;
      return failure('FailedGetObjectMetric', inner, `failed to get object metric value: ${inner}`);
    }
    case 'External': {
      const name = spec.external?.metric.name ?? '';
      const inner = `unable to get external metric ${ctx.hpa.metadata.namespace ?? ''}/${name}: unable to fetch metrics from external metrics API: ${NO_METRICS_ADAPTER}`;
      return failure('FailedGetExternalMetric', inner, `failed to get ${name} external metric: ${inner}`);
    }
  }
  // Validation rejects these; an object stored before validation tightened could still have one.
  const inner = `unknown metric source type "${spec.type}"`;
  return failure('InvalidMetricSourceType', inner, inner);
}

function failure(reason: string, inner: string, error: string): MetricOutcome {
  return {
    ok: false,
    condition: { status: 'False', reason, message: `the HPA was unable to compute the replica count: ${inner}` },
    event: { type: 'Warning', reason, message: inner },
    error,
  };
}

interface ResourceSource {
  name: string;
  target: DeepReadonly<MetricTarget>;
  container?: string;
}

/** resourceMetric proposes a count for a Resource or ContainerResource metric. */
async function resourceMetric(ctx: MetricsContext, pods: readonly ReadonlyPod[], source: ResourceSource): Promise<MetricOutcome> {
  try {
    const { replicas, metricName, current } = await resourceProposal(ctx, pods, source);
    const status: MetricStatus = source.container
      ? { type: 'ContainerResource', containerResource: { name: source.name, container: source.container, current } }
      : { type: 'Resource', resource: { name: source.name, current } };
    return { ok: true, replicas, metricName, status };
  } catch (err) {
    if (isAbortError(err)) throw err;
    const inner = messageOf(err);
    return source.container
      ? failure('FailedGetContainerResourceMetric', inner, `failed to get ${source.container} container metric value: ${inner}`)
      : failure('FailedGetResourceMetric', inner, `failed to get ${source.name} resource metric value: ${inner}`);
  }
}

/** resourceProposal runs the replica calculator for an AverageValue or Utilization target;
 * throws errors worded as Kubernetes' (`failed to get cpu utilization: …`). */
async function resourceProposal(ctx: MetricsContext, pods: readonly ReadonlyPod[], source: ResourceSource) {
  const { name, target, container } = source;
  const common = { currentReplicas: ctx.specReplicas, resource: name, container, pods, nowMs: ctx.nowMs, tolerances: ctx.tolerances, readiness: ctx.readiness };
  if (target.averageValue !== undefined) {
    const targetAverageMilli = tryParseQuantity(target.averageValue)?.milliValue() ?? 0;
    const result = await step(`failed to get ${name} usage`, async () =>
      getRawResourceReplicas({ ...common, metrics: await samples(ctx, name, container), targetAverageMilli }),
    );
    const current: MetricValueStatus = { averageValue: milliQuantity(result.averageMilli) };
    return { replicas: result.replicas, metricName: `${name} resource`, current };
  }
  if (target.averageUtilization === undefined) {
    throw new Error('invalid resource metric source: neither an average utilization target nor an average value (usage) target was set');
  }
  const targetUtilization = target.averageUtilization;
  const result = await step(`failed to get ${name} utilization`, async () =>
    getResourceReplicas({ ...common, metrics: await samples(ctx, name, container), targetUtilization }),
  );
  const current: MetricValueStatus = { averageUtilization: result.utilization, averageValue: milliQuantity(result.rawAverageMilli) };
  const metricName = container ? `${name} container resource utilization (percentage of request)` : `${name} resource utilization (percentage of request)`;
  return { replicas: result.replicas, metricName, current };
}

async function samples(ctx: MetricsContext, resource: string, container: string | undefined): Promise<ResourceMetrics> {
  const namespace = ctx.hpa.metadata.namespace ?? '';
  return step(`unable to get metrics for resource ${resource}`, () =>
    ctx.metrics.getResourceMetric({ namespace, selector: ctx.selector ?? '', resource, container, signal: ctx.signal }),
  );
}

/** step runs `fn`, prefixing the message of any error but an abort with `what: `. */
async function step<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isAbortError(err)) throw err;
    throw new Error(`${what}: ${messageOf(err)}`, { cause: err });
  }
}

/** milliQuantity renders milli-units as Kubernetes' NewMilliQuantity(v, DecimalSI) prints. */
function milliQuantity(milli: number): string {
  return createQuantity({ value: milli, exponent: -3 }).toString();
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
