/** CONTROLLER_UID_INDEX files ReplicaSets under the uid of their controller (see indexByControllerUid). */
export const CONTROLLER_UID_INDEX = 'controllerUid';
/** controllerRefOf returns the ownerReference marked controller=true, if any. */
export function controllerRefOf(object) {
    return object.metadata.ownerReferences?.find((reference) => reference.controller === true);
}
/** isControlledBy is true when `object`'s controller reference points at the object with `uid`. */
export function isControlledBy(object, uid) {
    return uid !== undefined && controllerRefOf(object)?.uid === uid;
}
/** indexByControllerUid files an object under its controller's uid (nothing without one), so
 * a Deployment's ReplicaSets are found with byIndex(CONTROLLER_UID_INDEX, deploymentUid). */
export function indexByControllerUid(object) {
    const uid = controllerRefOf(object)?.uid;
    return uid ? [uid] : [];
}
/** newControllerRef is the ownerReference a ReplicaSet puts on the pods it creates or adopts:
 * controller=true (it manages them) and blockOwnerDeletion=true (foreground deletion of the
 * ReplicaSet waits for them). */
export function newControllerRef(rs) {
    return {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: rs.metadata.name ?? '',
        uid: rs.metadata.uid ?? '',
        controller: true,
        blockOwnerDeletion: true,
    };
}
/**
 * resolveControllerRef returns the cached ReplicaSet a controller reference points at, or
 * undefined when it names another kind or the ReplicaSet of that name is gone or is a
 * different object (re-created under the same name: the uid differs).
 */
export function resolveControllerRef(replicaSets, namespace, reference) {
    if (reference.kind !== 'ReplicaSet' || !reference.apiVersion.startsWith('apps/'))
        return undefined;
    const rs = replicaSets.get(namespace, reference.name);
    return rs?.metadata.uid === reference.uid ? rs : undefined;
}
//# sourceMappingURL=owners.js.map