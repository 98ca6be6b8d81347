import { isNodeUnreachable, parseTime } from './node-health.js';
import { noExecuteTaints, toleratesTaint } from './taints.js';
/** PodActionKind names what the controller does about a pod. */
export const PodActionKind = {
    /** Nothing: no NoExecute taint concerns it, or it tolerates them all forever. */
    None: 'none',
    /** Delete it (gracefully) at `atMs`: a NoExecute taint it does not tolerate for longer. */
    Evict: 'evict',
    /** Delete it with grace period 0 at `atMs`: it is terminating on a node whose kubelet
     * cannot confirm the deletion, and its grace period ends then. */
    ForceDelete: 'force-delete',
};
const NONE = { kind: PodActionKind.None };
/**
 * evictionTime returns when a pod with `tolerations` must leave a node carrying `taints`, and
 * which taint decides it; undefined when it may stay forever. As in Kubernetes each taint is
 * matched by the first toleration that tolerates it: none means at once, one without
 * tolerationSeconds means never, otherwise the taint's time plus those seconds (≤ 0 counts as
 * 0). The earliest of these wins. Unlike Kubernetes, which starts one clock when it first sees
 * the pod tainted, each taint's clock starts at its own timeAdded, which survives restarts.
 */
export function evictionTime(tolerations, taints) {
    let earliest;
    for (const { taint, addedAtMs } of taints) {
        const toleration = tolerations.find((candidate) => toleratesTaint(candidate, taint));
        const seconds = toleration === undefined ? 0 : toleration.tolerationSeconds;
        if (seconds === undefined)
            continue;
        const atMs = addedAtMs + Math.max(0, seconds) * 1000;
        if (earliest === undefined || atMs < earliest.atMs)
            earliest = { atMs, taint };
    }
    return earliest;
}
/**
 * planPodAction decides about one pod:
 * - unscheduled pods: nothing;
 * - terminating pods: force-delete at the end of their grace period (deletionTimestamp) when
 *   the node is unreachable or gone — the kubelet that would confirm the deletion is silent;
 *   otherwise nothing, the kubelet finishes the job;
 * - other pods: evict at evictionTime of the node's NoExecute taints, if any.
 */
export function planPodAction({ pod, node, addedAtMs }) {
    if (!pod.spec.nodeName)
        return NONE;
    if (pod.metadata.deletionTimestamp !== undefined) {
        if (!isNodeUnreachable(node))
            return NONE;
        return { kind: PodActionKind.ForceDelete, atMs: parseTime(pod.metadata.deletionTimestamp) ?? 0 };
    }
    const taints = noExecuteTaints(node).map((taint) => ({ taint, addedAtMs: addedAtMs(taint) }));
    if (taints.length === 0)
        return NONE;
    const eviction = evictionTime(pod.spec.tolerations ?? [], taints);
    return eviction === undefined ? NONE : { kind: PodActionKind.Evict, ...eviction };
}
/**
 * TaintClock knows when each NoExecute taint's eviction clock started: its timeAdded, or, for
 * a taint added without one (kubectl taint does not set it), the first time this process saw
 * it — which is what Kubernetes' taint manager uses for every taint. That memory is an
 * optimisation a restart may drop: the clock then restarts, erring on the side of keeping pods.
 */
export class TaintClock {
    clock;
    /** First sightings of taints without timeAdded, by node name, then `key:effect`. */
    firstSeen = new Map();
    constructor(clock) {
        this.clock = clock;
    }
    /** forNode returns an addedAtMs function for the node's current NoExecute taints, and forgets
     * sightings of taints the node no longer has. */
    forNode(node, nodeName) {
        const current = new Set(noExecuteTaints(node).map(taintId));
        const seen = this.firstSeen.get(nodeName) ?? new Map();
        for (const id of seen.keys())
            if (!current.has(id))
                seen.delete(id);
        if (seen.size === 0)
            this.firstSeen.delete(nodeName);
        return (taint) => {
            const added = parseTime(taint.timeAdded);
            if (added !== undefined)
                return added;
            const id = taintId(taint);
            let at = seen.get(id);
            if (at === undefined) {
                at = this.clock.now();
                seen.set(id, at);
                this.firstSeen.set(nodeName, seen);
            }
            return at;
        };
    }
}
function taintId(taint) {
    return `${taint.key}:${taint.effect}`;
}
//# sourceMappingURL=eviction-plan.js.map