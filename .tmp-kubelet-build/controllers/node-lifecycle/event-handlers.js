import { deepEqual } from '../../apiserver/api/deep-equal.js';
import { NODE_NAME_INDEX } from '../runtime/indexers.js';
import { keyOf } from '../runtime/reconciler.js';
import { isNodeUnreachable, readyStatus } from './node-health.js';
import { noExecuteTaints } from './taints.js';
/** monitorNodeHandlers wake the monitor for a node on every add and update (a kubelet that
 * reports again must get its taints lifted without waiting for the next tick). */
export function monitorNodeHandlers(monitorQueue) {
    return {
        onAdd: (node) => monitorQueue.add(keyOf(node)),
        onUpdate: (_old, node) => monitorQueue.add(keyOf(node)),
    };
}
/** monitorLeaseHandlers wake the monitor for the node a heartbeat Lease is named after. */
export function monitorLeaseHandlers(monitorQueue) {
    return {
        onAdd: (lease) => monitorQueue.add(lease.metadata.name ?? ''),
        onUpdate: (_old, lease) => monitorQueue.add(lease.metadata.name ?? ''),
    };
}
/**
 * evictionNodeHandlers wake every pod on a node whose NoExecute taints or readiness changed
 * (and on a node's appearance or removal): those are the facts planPodAction reads from it.
 */
export function evictionNodeHandlers(deps) {
    const wakePods = (node) => {
        for (const pod of deps.podLister.byIndex(NODE_NAME_INDEX, node.metadata.name ?? ''))
            deps.queue.add(keyOf(pod));
    };
    return {
        onAdd: wakePods,
        onUpdate: (old, cur) => {
            const taintsChanged = !deepEqual(noExecuteTaints(old), noExecuteTaints(cur));
            if (taintsChanged || readyStatus(old) !== readyStatus(cur))
                wakePods(cur);
        },
        onDelete: wakePods,
    };
}
/**
 * evictionPodHandlers enqueue a bound pod when something could be done about it: it is
 * terminating, or its node is unreachable, gone or carries NoExecute taints. Pods on healthy,
 * untainted nodes — nearly all of them — are not looked at.
 */
export function evictionPodHandlers(deps) {
    const consider = (pod) => {
        const nodeName = pod.spec.nodeName;
        if (!nodeName)
            return;
        const node = deps.nodeLister.get('', nodeName);
        if (pod.metadata.deletionTimestamp !== undefined || isNodeUnreachable(node) || noExecuteTaints(node).length > 0)
            deps.queue.add(keyOf(pod));
    };
    return { onAdd: consider, onUpdate: (_old, pod) => consider(pod) };
}
//# sourceMappingURL=event-handlers.js.map