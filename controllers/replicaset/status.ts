/**
 * The status a ReplicaSet should report, computed from the pods it owns (Kubernetes'
 * calculateStatus and the ReplicaFailure condition helpers), as pure functions.
 */
import type { ReplicaSet } from '../../apiserver/api/apps/replica-set.js';
import { isPodAvailable, isPodReady } from '../../apiserver/api/core/pod-conditions.js';
import { deepEqual } from '../../apiserver/api/deep-equal.js';
import { rfc3339 } from '../../apiserver/api/machinery/time.js';
import type { ReadonlyPod } from '../runtime/pods/pod-state.js';
import type { DeepReadonly } from '../runtime/types.js';

/** ReplicaSetStatus is apps/v1 ReplicaSetStatus. */
export type ReplicaSetStatus = NonNullable<ReplicaSet['status']>;
type ReplicaSetCondition = NonNullable<ReplicaSetStatus['conditions']>[number];

/** REPLICA_FAILURE is the condition type set while pods cannot be created or deleted. */
export const REPLICA_FAILURE = 'ReplicaFailure';

/** StatusInputs are what calculateStatus needs besides the ReplicaSet itself. */
export interface StatusInputs {
  /** The active pods the ReplicaSet owns (claimed, not terminal, not being deleted). */
  activePods: readonly ReadonlyPod[];
  /** Pods the ReplicaSet owns that are being deleted but have not stopped yet. */
  terminatingPods: readonly ReadonlyPod[];
  /** The error of this reconcile's create/delete step, if it failed. */
  manageError?: Error | undefined;
  /** Cluster time in ms, for minReadySeconds and condition timestamps. */
  nowMs: number;
}

/**
 * calculateStatus returns the status `rs` should have: replica counts (fully labeled = the
 * pod carries every template label; ready = Ready condition True; available = ready for more
 * than minReadySeconds at `nowMs`), observedGeneration = metadata.generation, and the
 * ReplicaFailure condition: added (reason FailedCreate or FailedDelete, message = the error)
 * when `manageError` is set and the condition is absent, removed once a reconcile succeeds.
 * Pure: `rs` and the pods are not modified; the result shares nothing with them.
 */
export function calculateStatus(rs: DeepReadonly<ReplicaSet>, inputs: StatusInputs): ReplicaSetStatus {
  const { activePods, terminatingPods, nowMs } = inputs;
  const templateLabels = Object.entries(rs.spec.template?.metadata?.labels ?? {});
  const minReadySeconds = rs.spec.minReadySeconds ?? 0;
  const status: ReplicaSetStatus = {
    replicas: activePods.length,
    fullyLabeledReplicas: activePods.filter((pod) => templateLabels.every(([key, value]) => pod.metadata.labels?.[key] === value)).length,
    readyReplicas: activePods.filter(isPodReady).length,
    availableReplicas: activePods.filter((pod) => isPodAvailable(pod, minReadySeconds, nowMs)).length,
    terminatingReplicas: terminatingPods.length,
  };
  if (rs.metadata.generation !== undefined) status.observedGeneration = rs.metadata.generation;
  const conditions = nextConditions(rs, inputs);
  if (conditions.length > 0) status.conditions = conditions;
  return status;
}

/** nextConditions keeps every condition but ReplicaFailure as it is, and sets or clears
 * ReplicaFailure from the outcome of the create/delete step. */
function nextConditions(rs: DeepReadonly<ReplicaSet>, inputs: StatusInputs): ReplicaSetCondition[] {
  const current = structuredClone((rs.status?.conditions ?? []) as ReplicaSetCondition[]);
  const failure = current.find((condition) => condition.type === REPLICA_FAILURE);
  const { manageError } = inputs;
  if (manageError === undefined) return current.filter((condition) => condition.type !== REPLICA_FAILURE);
  // As in Kubernetes, an existing ReplicaFailure is left alone while failures continue, so
  // its lastTransitionTime says when the trouble started.
  if (failure !== undefined) return current;
  const diff = inputs.activePods.length - (rs.spec.replicas ?? 1);
  return [...current, failureCondition(diff, manageError, inputs.nowMs)];
}

function failureCondition(diff: number, error: Error, nowMs: number): ReplicaSetCondition {
  const condition: ReplicaSetCondition = {
    type: REPLICA_FAILURE,
    status: 'True',
    lastTransitionTime: rfc3339(nowMs),
    message: error.message,
  };
  if (diff !== 0) condition.reason = diff < 0 ? 'FailedCreate' : 'FailedDelete';
  return condition;
}

/**
 * statusNeedsUpdate reports whether `rs` must be written with `next`: some count differs,
 * the generation was not yet observed, or the conditions changed. Steady state writes
 * nothing, so a resync does not bump resourceVersion (and wake every watcher) for nothing.
 */
export function statusNeedsUpdate(rs: DeepReadonly<ReplicaSet>, next: ReplicaSetStatus): boolean {
  const current = rs.status ?? {};
  const counts = ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'terminatingReplicas'] as const;
  if (counts.some((field) => (current[field] ?? 0) !== (next[field] ?? 0))) return true;
  if ((rs.metadata.generation ?? 0) !== (current.observedGeneration ?? 0)) return true;
  return !deepEqual(current.conditions ?? [], next.conditions ?? []);
}
