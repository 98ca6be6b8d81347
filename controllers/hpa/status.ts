/**
 * The HPA's status, computed purely from one sync's outcome (Kubernetes' setStatus): what the
 * target runs, what the HPA wants, what each metric read, when it last scaled, and the
 * conditions set along the way.
 */
import type { HorizontalPodAutoscaler, HorizontalPodAutoscalerCondition } from '../../apiserver/api/autoscaling/horizontal-pod-autoscaler.js';
import type { MetricStatus } from '../../apiserver/api/autoscaling/metric-status.js';
import { deepEqual } from '../../apiserver/api/deep-equal.js';
import { rfc3339 } from '../../apiserver/api/machinery/time.js';
import type { DeepReadonly } from '../runtime/types.js';

/** HpaStatus is the status the controller writes. */
export type HpaStatus = NonNullable<HorizontalPodAutoscaler['status']>;

/** SyncOutcome is what one sync decided, for the status. */
export interface SyncOutcome {
  /** The Scale's spec.replicas. */
  currentReplicas: number;
  desiredReplicas: number;
  /** One per metric, in spec order; undefined when no metric was read this sync. */
  currentMetrics: MetricStatus[] | undefined;
  /** The target's scale was changed this sync (lastScaleTime moves to now). */
  rescaled: boolean;
}

/** StatusInputs is a SyncOutcome plus what every status carries. */
export interface StatusInputs extends SyncOutcome {
  conditions: HorizontalPodAutoscalerCondition[];
  observedGeneration: number | undefined;
  nowMs: number;
}

/**
 * calculateStatus builds the new status: everything from `inputs`, except lastScaleTime, which
 * is kept from `previous` unless the sync rescaled. Pure; never mutates `previous`.
 */
export function calculateStatus(previous: DeepReadonly<HpaStatus> | undefined, inputs: StatusInputs): HpaStatus {
  return {
    observedGeneration: inputs.observedGeneration,
    lastScaleTime: inputs.rescaled ? rfc3339(inputs.nowMs) : previous?.lastScaleTime,
    currentReplicas: inputs.currentReplicas,
    desiredReplicas: inputs.desiredReplicas,
    currentMetrics: inputs.currentMetrics,
    conditions: inputs.conditions,
  };
}

/** statusNeedsUpdate reports whether writing `next` would change what the HPA reports (so an
 * unchanged sync writes nothing and bumps no resourceVersion). */
export function statusNeedsUpdate(previous: DeepReadonly<HpaStatus> | undefined, next: HpaStatus): boolean {
  return !deepEqual(previous ?? {}, next);
}
