import { labelSelectorFromStructured } from '../../apiserver/api/labels.js';
import { deepEqual } from '../../apiserver/api/deep-equal.js';
function controllerRef(object) {
    return object.metadata.ownerReferences?.find((reference) => reference.controller === true);
}
/** resolveDeployment returns the cached Deployment a controller reference names, or undefined
 * for another kind, a missing Deployment, or a different one re-created under that name. */
export function resolveDeployment(deps, namespace, ref) {
    if (ref === undefined || ref.kind !== 'Deployment')
        return undefined;
    const d = deps.deploymentLister.get(namespace, ref.name);
    return d?.metadata.uid === ref.uid ? d : undefined;
}
/** deploymentsSelecting returns the Deployments whose (non-empty, valid) selector matches the
 * ReplicaSet's labels (GetDeploymentsForReplicaSet); none for an unlabelled ReplicaSet. */
export function deploymentsSelecting(deps, rs) {
    const labels = rs.metadata.labels;
    if (labels === undefined || Object.keys(labels).length === 0)
        return [];
    return deps.deploymentLister.list(rs.metadata.namespace).filter((d) => {
        try {
            // labelSelectorFromStructured never mutates; its parameter is just not typed readonly.
            const selector = labelSelectorFromStructured(d.spec.selector);
            // A Deployment with an empty selector matches nothing here, not everything.
            return !selector.isEverything() && selector.matches(labels);
        }
        catch {
            // An invalid selector (validation should have refused it) matches no ReplicaSet.
            return false;
        }
    });
}
/** deploymentEventHandlers enqueue the Deployment on every change, including deletion. */
export function deploymentEventHandlers(deps) {
    return { onAdd: deps.enqueue, onUpdate: (_old, cur) => deps.enqueue(cur), onDelete: deps.enqueue };
}
/** replicaSetEventHandlers enqueue the Deployment(s) a ReplicaSet change concerns. */
export function replicaSetEventHandlers(deps) {
    const onDelete = (rs) => {
        const d = resolveDeployment(deps, rs.metadata.namespace ?? '', controllerRef(rs));
        if (d)
            deps.enqueue(d);
    };
    const enqueueOwnerOrMatching = (rs, orphanChanged) => {
        const ref = controllerRef(rs);
        if (ref) {
            const d = resolveDeployment(deps, rs.metadata.namespace ?? '', ref);
            if (d)
                deps.enqueue(d);
        }
        else if (orphanChanged) {
            for (const d of deploymentsSelecting(deps, rs))
                deps.enqueue(d);
        }
    };
    return {
        // A ReplicaSet already being deleted when first seen (e.g. after a restart) is a delete.
        onAdd: (rs) => (rs.metadata.deletionTimestamp ? onDelete(rs) : enqueueOwnerOrMatching(rs, true)),
        onUpdate: (old, cur) => {
            // Periodic resyncs deliver unchanged objects; two versions always differ in resourceVersion.
            if (old.metadata.resourceVersion === cur.metadata.resourceVersion)
                return;
            const refChanged = !deepEqual(controllerRef(old), controllerRef(cur));
            if (refChanged) {
                const previous = resolveDeployment(deps, old.metadata.namespace ?? '', controllerRef(old));
                if (previous)
                    deps.enqueue(previous);
            }
            enqueueOwnerOrMatching(cur, refChanged || !deepEqual(old.metadata.labels, cur.metadata.labels));
        },
        onDelete,
    };
}
/**
 * podEventHandlers wake a Recreate Deployment when one of its pods is deleted: it may have
 * been the last old pod it was waiting for. (Kubernetes enqueues only when none is left; a
 * sync that finds pods remaining is harmless, and this avoids counting pods in a handler.)
 */
export function podEventHandlers(deps) {
    return {
        onDelete: (pod) => {
            const namespace = pod.metadata.namespace ?? '';
            const podRef = controllerRef(pod);
            if (podRef === undefined || podRef.kind !== 'ReplicaSet')
                return;
            const rs = deps.replicaSetLister.get(namespace, podRef.name);
            if (rs === undefined || rs.metadata.uid !== podRef.uid)
                return;
            const d = resolveDeployment(deps, namespace, controllerRef(rs));
            if (d?.spec.strategy?.type === 'Recreate')
                deps.enqueue(d);
        },
    };
}
//# sourceMappingURL=event-handlers.js.map