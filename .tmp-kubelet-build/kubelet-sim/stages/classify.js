import { ContainerPhase, PodStagePhase } from './stage.js';
/** POD_TARGET is the target key of pod-level stages. */
export const POD_TARGET = 'pod';
/** containerRefs lists init containers in order, then app containers. */
export function containerRefs(pod) {
    const refs = (specs, statuses, init) => (specs ?? []).map((spec, index) => ({
        key: `${init ? 'init' : 'app'}:${spec.name}`,
        name: spec.name,
        init,
        index,
        spec,
        status: statuses?.find((status) => status.name === spec.name),
    }));
    return [...refs(pod.spec.initContainers, pod.status?.initContainerStatuses, true), ...refs(pod.spec.containers, pod.status?.containerStatuses, false)];
}
/** isSidecar: an init container with restartPolicy Always keeps running beside the app. */
export function isSidecar(ref) {
    return ref.init && ref.spec.restartPolicy === 'Always';
}
/** podStagePhase classifies the pod (deletion first: it overrides everything). */
export function podStagePhase(pod) {
    if (pod.metadata.deletionTimestamp)
        return PodStagePhase.Deleting;
    if (!pod.status?.startTime)
        return PodStagePhase.Unacknowledged;
    const phase = pod.status.phase;
    return phase === 'Succeeded' || phase === 'Failed' ? PodStagePhase.Terminal : PodStagePhase.Active;
}
/** containerPhase classifies one container; a container without status is Creating. */
export function containerPhase(status) {
    const state = status?.state;
    if (state?.running)
        return status?.ready ? ContainerPhase.Ready : ContainerPhase.Running;
    if (state?.terminated)
        return ContainerPhase.Exited;
    switch (state?.waiting?.reason) {
        case 'ErrImagePull':
            return ContainerPhase.PullFailed;
        case 'ImagePullBackOff':
            return ContainerPhase.PullBackOff;
        case 'CrashLoopBackOff':
            return ContainerPhase.CrashLoop;
        default:
            return status?.lastState?.terminated ? ContainerPhase.CrashLoop : ContainerPhase.Creating;
    }
}
/** hasRun: the container ran at least once (it has a current or previous termination). */
export function hasRun(status) {
    return !!(status?.state?.terminated || status?.lastState?.terminated);
}
/** hasCompleted: a plain init container that exited 0 (its successors may start). */
export function hasCompleted(ref) {
    if (isSidecar(ref))
        return !!ref.status?.started;
    return ref.status?.state?.terminated?.exitCode === 0;
}
/**
 * containerSignature names the container's current state. Running and Ready share one
 * signature on purpose: readiness does not restart the clock that crash timings run on.
 */
export function containerSignature(status) {
    const state = status?.state;
    const kind = state?.running ? 'running' : state?.terminated ? 'terminated' : 'waiting';
    return `${kind}:${state?.waiting?.reason ?? ''}:${status?.restartCount ?? 0}`;
}
/** podSignature names the pod-level state. */
export function podSignature(pod) {
    const phase = podStagePhase(pod);
    return phase === PodStagePhase.Deleting ? `${phase}:${pod.metadata.deletionTimestamp}` : phase;
}
/** containerSinceFallbackMs is when the status says the container entered its state, for
 * when the kubelet has no memory of it (after a restart); undefined when it cannot say. */
export function containerSinceFallbackMs(status) {
    const state = status?.state;
    if (state?.running)
        return parseTime(state.running.startedAt);
    if (state?.terminated)
        return parseTime(state.terminated.finishedAt);
    if (state?.waiting?.reason === 'CrashLoopBackOff')
        return parseTime(status?.lastState?.terminated?.finishedAt);
    return undefined;
}
/** podSinceFallbackMs: a deletion started at deletionTimestamp − grace period. */
export function podSinceFallbackMs(pod) {
    const deletion = parseTime(pod.metadata.deletionTimestamp);
    if (deletion === undefined)
        return undefined;
    return deletion - (pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
}
/** parseTime reads an RFC 3339 timestamp; undefined when absent or unparsable. */
export function parseTime(text) {
    if (!text)
        return undefined;
    const ms = Date.parse(text);
    return Number.isNaN(ms) ? undefined : ms;
}
/** formatTime writes metav1.Time: RFC 3339, UTC, whole seconds. */
export function formatTime(ms) {
    return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
//# sourceMappingURL=classify.js.map