import { formatTime } from './classify.js';
/** KUBELET_CONDITIONS are the condition types the kubelet owns, in the order it writes them. */
export const KUBELET_CONDITIONS = ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady'];
/** podPhase applies the kubelet's getPhase rules to the container statuses. */
export function podPhase(pod, init, app) {
    if (!initDone(pod, init))
        return 'Pending';
    let waiting = 0;
    let running = 0;
    let stopped = 0;
    let succeeded = 0;
    for (const name of pod.spec.containers.map((c) => c.name)) {
        const state = app.find((s) => s.name === name);
        if (state?.state?.running)
            running++;
        else if (state?.state?.terminated) {
            stopped++;
            if (state.state.terminated.exitCode === 0)
                succeeded++;
        }
        else if (state?.lastState?.terminated)
            stopped++; // waiting to restart after a run
        else
            waiting++;
    }
    if (waiting > 0)
        return 'Pending';
    if (running > 0)
        return 'Running';
    const policy = pod.spec.restartPolicy ?? 'Always';
    if (policy === 'Always')
        return 'Running';
    if (stopped === succeeded)
        return 'Succeeded';
    return policy === 'Never' ? 'Failed' : 'Running';
}
/** initDone: every plain init container exited 0 and every sidecar started. */
function initDone(pod, init) {
    return (pod.spec.initContainers ?? []).every((spec) => isInitComplete(spec, init));
}
function isInitComplete(spec, init) {
    const status = init.find((s) => s.name === spec.name);
    return spec.restartPolicy === 'Always' ? !!status?.started : status?.state?.terminated?.exitCode === 0;
}
/** kubeletConditions computes the kubelet-owned conditions (without transition times). */
function kubeletConditions(pod, status, phase) {
    const init = status.initContainerStatuses ?? [];
    const app = status.containerStatuses ?? [];
    const incomplete = (pod.spec.initContainers ?? []).filter((spec) => !isInitComplete(spec, init));
    const unready = pod.spec.containers.filter((spec) => !app.find((s) => s.name === spec.name)?.ready).map((spec) => spec.name);
    const initialized = incomplete.length === 0 ? { status: 'True' } : notTrue('ContainersNotInitialized', 'incomplete', incomplete.map((c) => c.name));
    let ready = unready.length === 0 ? { status: 'True' } : notTrue('ContainersNotReady', 'unready', unready);
    if (phase === 'Succeeded')
        ready = { status: 'False', reason: 'PodCompleted' };
    return {
        PodReadyToStartContainers: { status: status.podIP ? 'True' : 'False' },
        Initialized: initialized,
        Ready: ready,
        ContainersReady: ready,
    };
}
function notTrue(reason, what, names) {
    return { status: 'False', reason, message: `containers with ${what} status: [${names.join(' ')}]` };
}
/**
 * withPodLevelStatus returns `status` with phase and conditions derived from its container
 * statuses at nowMs. A condition keeps its lastTransitionTime while its status is unchanged;
 * PodScheduled and conditions of other writers are kept as they are, after the kubelet's.
 */
export function withPodLevelStatus(pod, status, nowMs) {
    const phase = podPhase(pod, status.initContainerStatuses ?? [], status.containerStatuses ?? []);
    const facts = kubeletConditions(pod, status, phase);
    const previous = status.conditions ?? [];
    const owned = KUBELET_CONDITIONS.map((type) => {
        const old = previous.find((c) => c.type === type);
        const fact = facts[type];
        const condition = { type, status: fact.status, lastTransitionTime: old?.status === fact.status && old.lastTransitionTime ? old.lastTransitionTime : formatTime(nowMs) };
        if (fact.reason)
            condition.reason = fact.reason;
        if (fact.message)
            condition.message = fact.message;
        return condition;
    });
    const others = previous.filter((c) => !KUBELET_CONDITIONS.includes(c.type));
    return { ...status, phase, conditions: [...owned, ...others] };
}
//# sourceMappingURL=pod-status.js.map