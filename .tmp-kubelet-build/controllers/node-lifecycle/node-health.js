import { rfc3339Seconds } from '../runtime/event-recorder.js';
/** KUBELET_CONDITION_TYPES are the conditions only the kubelet can vouch for; when it falls
 * silent the controller turns each of them Unknown. */
export const KUBELET_CONDITION_TYPES = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];
/** Reasons and messages the controller writes into conditions it took over (kube's wording). */
export const NodeStatusReason = {
    Unknown: 'NodeStatusUnknown',
    NeverUpdated: 'NodeStatusNeverUpdated',
};
export const STOPPED_POSTING_MESSAGE = 'Kubelet stopped posting node status.';
export const NEVER_POSTED_MESSAGE = 'Kubelet never posted node status.';
/** NODE_LEASE_NAMESPACE holds one heartbeat Lease per node, named after the node. */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';
/**
 * assessNodeHealth decides whether the node's kubelet has gone silent. Both heartbeat
 * channels count, as in Kubernetes: the cheap Lease renewal (every 10 s) and a status update
 * of the Ready condition. A node that never reported Ready gets the longer startup grace
 * period, measured from its registration.
 */
export function assessNodeHealth({ node, lease, nowMs, gracePeriodMs, startupGracePeriodMs }) {
    const ready = findCondition(node, 'Ready');
    const beats = [parseTime(lease?.spec?.renewTime), parseTime(ready?.lastHeartbeatTime)].filter((ms) => ms !== undefined);
    // A node object with no time at all (hand-made) counts as alive now rather than long dead.
    const lastHeartbeatMs = beats.length > 0 ? Math.max(...beats) : (parseTime(node.metadata.creationTimestamp) ?? nowMs);
    const staleAtMs = lastHeartbeatMs + (ready ? gracePeriodMs : startupGracePeriodMs);
    return { lastHeartbeatMs, staleAtMs, stale: nowMs > staleAtMs };
}
/**
 * unknownConditions returns the node's status.conditions with every kubelet condition made
 * Unknown (lastTransitionTime `nowMs`, lastHeartbeatTime untouched, so it keeps saying when the
 * kubelet was last heard), or undefined when they all already are. A condition the kubelet
 * never posted is added as Unknown with reason NodeStatusNeverUpdated. Other conditions
 * (NetworkUnavailable) are kept as they are.
 */
export function unknownConditions(node, nowMs) {
    const conditions = structuredClone(node.status?.conditions ?? []);
    const at = rfc3339Seconds(nowMs);
    let changed = false;
    for (const type of KUBELET_CONDITION_TYPES) {
        const existing = conditions.find((condition) => condition.type === type);
        if (existing === undefined) {
            const neverPosted = { reason: NodeStatusReason.NeverUpdated, message: NEVER_POSTED_MESSAGE };
            conditions.push({ type, status: 'Unknown', ...neverPosted, lastHeartbeatTime: node.metadata.creationTimestamp, lastTransitionTime: at });
            changed = true;
        }
        else if (existing.status !== 'Unknown') {
            Object.assign(existing, { status: 'Unknown', reason: NodeStatusReason.Unknown, message: STOPPED_POSTING_MESSAGE, lastTransitionTime: at });
            changed = true;
        }
    }
    return changed ? conditions : undefined;
}
/** findCondition returns the node's condition of `type`, if it has one. */
export function findCondition(node, type) {
    return node.status?.conditions?.find((condition) => condition.type === type);
}
/** readyStatus is the status of the node's Ready condition (undefined when it has none). */
export function readyStatus(node) {
    return findCondition(node, 'Ready')?.status;
}
/**
 * isNodeUnreachable reports whether nobody can act for the node's kubelet: the node is gone,
 * or its Ready condition is Unknown (or was never posted). A kubelet that reports Ready=False
 * is alive and still stops its own pods, so that node is not unreachable.
 */
export function isNodeUnreachable(node) {
    if (node === undefined)
        return true;
    const status = readyStatus(node);
    return status === undefined || status === 'Unknown';
}
/** parseTime reads an RFC 3339 time (seconds or micro/milliseconds) as ms since the epoch;
 * undefined for an absent or unparsable value. */
export function parseTime(text) {
    if (!text)
        return undefined;
    const ms = Date.parse(text);
    return Number.isNaN(ms) ? undefined : ms;
}
//# sourceMappingURL=node-health.js.map