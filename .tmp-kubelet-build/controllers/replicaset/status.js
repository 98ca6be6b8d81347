import { deepEqual } from '../../apiserver/api/deep-equal.js';
import { formatTime, isPodAvailable, isPodReady } from './pod-state.js';
/** REPLICA_FAILURE is the condition type set while pods cannot be created or deleted. */
export const REPLICA_FAILURE = 'ReplicaFailure';
/**
 * calculateStatus returns the status `rs` should have: replica counts (fully labeled = the
 * pod carries every template label; ready = Ready condition True; available = ready for more
 * than minReadySeconds at `nowMs`), observedGeneration = metadata.generation, and the
 * ReplicaFailure condition: added (reason FailedCreate or FailedDelete, message = the error)
 * when `manageError` is set and the condition is absent, removed once a reconcile succeeds.
 * Pure: `rs` and the pods are not modified; the result shares nothing with them.
 */
export function calculateStatus(rs, inputs) {
    const { activePods, terminatingPods, nowMs } = inputs;
    const templateLabels = Object.entries(rs.spec.template?.metadata?.labels ?? {});
    const minReadySeconds = rs.spec.minReadySeconds ?? 0;
    const status = {
        replicas: activePods.length,
        fullyLabeledReplicas: activePods.filter((pod) => templateLabels.every(([key, value]) => pod.metadata.labels?.[key] === value)).length,
        readyReplicas: activePods.filter(isPodReady).length,
        availableReplicas: activePods.filter((pod) => isPodAvailable(pod, minReadySeconds, nowMs)).length,
        terminatingReplicas: terminatingPods.length,
    };
    if (rs.metadata.generation !== undefined)
        status.observedGeneration = rs.metadata.generation;
    const conditions = nextConditions(rs, inputs);
    if (conditions.length > 0)
        status.conditions = conditions;
    return status;
}
/** nextConditions keeps every condition but ReplicaFailure as it is, and sets or clears
 * ReplicaFailure from the outcome of the create/delete step. */
function nextConditions(rs, inputs) {
    const current = structuredClone((rs.status?.conditions ?? []));
    const failure = current.find((condition) => condition.type === REPLICA_FAILURE);
    const { manageError } = inputs;
    if (manageError === undefined)
        return current.filter((condition) => condition.type !== REPLICA_FAILURE);
    // As in Kubernetes, an existing ReplicaFailure is left alone while failures continue, so
    // its lastTransitionTime says when the trouble started.
    if (failure !== undefined)
        return current;
    const diff = inputs.activePods.length - (rs.spec.replicas ?? 1);
    return [...current, failureCondition(diff, manageError, inputs.nowMs)];
}
function failureCondition(diff, error, nowMs) {
    const condition = {
        type: REPLICA_FAILURE,
        status: 'True',
        lastTransitionTime: formatTime(nowMs),
        message: error.message,
    };
    if (diff !== 0)
        condition.reason = diff < 0 ? 'FailedCreate' : 'FailedDelete';
    return condition;
}
/**
 * statusNeedsUpdate reports whether `rs` must be written with `next`: some count differs,
 * the generation was not yet observed, or the conditions changed. Steady state writes
 * nothing, so a resync does not bump resourceVersion (and wake every watcher) for nothing.
 */
export function statusNeedsUpdate(rs, next) {
    const current = rs.status ?? {};
    const counts = ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'terminatingReplicas'];
    if (counts.some((field) => (current[field] ?? 0) !== (next[field] ?? 0)))
        return true;
    if ((rs.metadata.generation ?? 0) !== (current.observedGeneration ?? 0))
        return true;
    return !deepEqual(current.conditions ?? [], next.conditions ?? []);
}
//# sourceMappingURL=status.js.map