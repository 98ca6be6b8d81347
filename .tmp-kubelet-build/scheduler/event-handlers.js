import { deepEqual } from '../apiserver/api/deep-equal.js';
import { keyOf, parseKey } from '../controllers/runtime/reconciler.js';
import { LAST_DECISION_ANNOTATION } from './explain.js';
import { isTerminal } from './snapshot.js';
/** DEFAULT_SCHEDULER_NAME is the schedulerName pods get by default. */
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';
/** isAssigned is true once the pod has a node. */
export function isAssigned(pod) {
    return !!pod.spec.nodeName;
}
/** shouldSchedule: unassigned, not being deleted, not finished, not held by scheduling
 * gates, and ours by schedulerName (an empty schedulerName means the default scheduler). */
export function shouldSchedule(pod, schedulerName) {
    if (isAssigned(pod) || pod.metadata.deletionTimestamp || isTerminal(pod))
        return false;
    if ((pod.spec.schedulingGates ?? []).length > 0)
        return false;
    return (pod.spec.schedulerName || DEFAULT_SCHEDULER_NAME) === schedulerName;
}
/** isSchedulingRelevantUpdate ignores what cannot change a decision: status, resourceVersion,
 * managedFields and the scheduler's own annotation (its write must not retry the pod). */
export function isSchedulingRelevantUpdate(old, cur) {
    const annotations = (pod) => {
        const { [LAST_DECISION_ANNOTATION]: _ours, ...rest } = pod.metadata.annotations ?? {};
        return rest;
    };
    return !deepEqual(old.spec, cur.spec) || !deepEqual(old.metadata.labels ?? {}, cur.metadata.labels ?? {}) || !deepEqual(annotations(old), annotations(cur));
}
/** podEventHandlers keep the queue in step with pods (see the module comment). */
export function podEventHandlers(deps) {
    const { queue, schedulerName } = deps;
    return {
        onAdd(pod) {
            if (shouldSchedule(pod, schedulerName))
                queue.add(pod);
            else if (isAssigned(pod))
                queue.moveAllToActiveOrBackoff((key) => hasHardSpreadConstraints(deps, key));
        },
        onUpdate(old, cur) {
            if (old.metadata.resourceVersion === cur.metadata.resourceVersion)
                return;
            if (shouldSchedule(cur, schedulerName)) {
                if (isSchedulingRelevantUpdate(old, cur))
                    queue.update(cur);
                else
                    queue.add(cur);
                return;
            }
            queue.delete(keyOf(cur));
            if (isAssigned(cur))
                assignedPodUpdated(deps, old, cur);
        },
        onDelete(pod) {
            queue.delete(keyOf(pod));
            if (isAssigned(pod) && !isTerminal(pod))
                queue.moveAllToActiveOrBackoff();
        },
    };
}
function assignedPodUpdated(deps, old, cur) {
    // Finishing or starting to terminate frees the pod's resources or spread slot.
    const freed = (isTerminal(cur) && !isTerminal(old)) || (!!cur.metadata.deletionTimestamp && !old.metadata.deletionTimestamp);
    if (freed)
        deps.queue.moveAllToActiveOrBackoff();
    else if (!isAssigned(old) || !deepEqual(old.metadata.labels ?? {}, cur.metadata.labels ?? {})) {
        deps.queue.moveAllToActiveOrBackoff((key) => hasHardSpreadConstraints(deps, key));
    }
}
function hasHardSpreadConstraints(deps, key) {
    const { namespace, name } = parseKey(key);
    const pod = deps.podLister.get(namespace, name);
    return (pod?.spec.topologySpreadConstraints ?? []).some((c) => c.whenUnsatisfiable === 'DoNotSchedule');
}
/** isNodeSchedulingRelevantUpdate ignores heartbeats: only allocatable, labels, taints and
 * the cordon flag can make a pod fit. */
export function isNodeSchedulingRelevantUpdate(old, cur) {
    return (!deepEqual(old.status?.allocatable ?? {}, cur.status?.allocatable ?? {}) ||
        !deepEqual(old.metadata.labels ?? {}, cur.metadata.labels ?? {}) ||
        !deepEqual(old.spec?.taints ?? [], cur.spec?.taints ?? []) ||
        !!old.spec?.unschedulable !== !!cur.spec?.unschedulable);
}
/** nodeEventHandlers retry unschedulable pods when a node appears or changes usefully. */
export function nodeEventHandlers(queue) {
    return {
        onAdd: () => queue.moveAllToActiveOrBackoff(),
        onUpdate(old, cur) {
            if (old.metadata.resourceVersion !== cur.metadata.resourceVersion && isNodeSchedulingRelevantUpdate(old, cur))
                queue.moveAllToActiveOrBackoff();
        },
    };
}
//# sourceMappingURL=event-handlers.js.map