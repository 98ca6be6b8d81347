/** timeMs parses an RFC 3339 timestamp to ms since the epoch; undefined (Kubernetes' zero
 * time) when absent or unparsable. */
export function timeMs(timestamp) {
    if (timestamp === undefined)
        return undefined;
    const ms = Date.parse(timestamp);
    return Number.isNaN(ms) ? undefined : ms;
}
/** formatTime renders ms since the epoch as a Kubernetes Time (RFC 3339, seconds, UTC). */
export function formatTime(ms) {
    return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
/** isPodActive is true for a pod that still counts as a replica: not Succeeded or Failed and
 * not being deleted (controller.IsPodActive). */
export function isPodActive(pod) {
    const phase = pod.status?.phase;
    return phase !== 'Succeeded' && phase !== 'Failed' && pod.metadata.deletionTimestamp === undefined;
}
/** isPodTerminating is true for a pod being deleted that has not yet reached a terminal phase
 * (controller.FilterTerminatingPods). */
export function isPodTerminating(pod) {
    const phase = pod.status?.phase;
    return pod.metadata.deletionTimestamp !== undefined && phase !== 'Succeeded' && phase !== 'Failed';
}
/** readyCondition returns the pod's Ready condition, if any. */
function readyCondition(pod) {
    return pod.status?.conditions?.find((condition) => condition.type === 'Ready');
}
/** isPodReady is true when the pod's Ready condition is True. */
export function isPodReady(pod) {
    return readyCondition(pod)?.status === 'True';
}
/** podReadySinceMs is when a ready pod last became Ready (its Ready condition's
 * lastTransitionTime); undefined when the pod is not ready or the time is unknown. */
export function podReadySinceMs(pod) {
    const condition = readyCondition(pod);
    return condition?.status === 'True' ? timeMs(condition.lastTransitionTime) : undefined;
}
/**
 * isPodAvailable is true when the pod is ready and has been ready for at least
 * `minReadySeconds` at `nowMs` (podutil.IsPodAvailable). With minReadySeconds 0 every ready
 * pod is available; otherwise a ready pod whose transition time is unknown is not.
 */
export function isPodAvailable(pod, minReadySeconds, nowMs) {
    if (!isPodReady(pod))
        return false;
    if (minReadySeconds <= 0)
        return true;
    const since = podReadySinceMs(pod);
    return since !== undefined && since + minReadySeconds * 1000 < nowMs;
}
/** maxContainerRestarts is the highest restartCount among the pod's containers (0 if none). */
export function maxContainerRestarts(pod) {
    return Math.max(0, ...(pod.status?.containerStatuses ?? []).map((status) => status.restartCount));
}
//# sourceMappingURL=pod-state.js.map