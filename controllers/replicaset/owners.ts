/**
 * Owner references between ReplicaSets, their pods and their own controller (a Deployment):
 * Kubernetes' metav1.GetControllerOf / NewControllerRef and the ReplicaSet controller's
 * resolveControllerRef, plus the cache index that finds a Deployment's ReplicaSets.
 */
import type { ReplicaSet } from '../../apiserver/api/apps/replica-set.js';
import type { OwnerReference } from '../../apiserver/api/meta.js';
import type { DeepReadonly, Lister } from '../runtime/types.js';

/** CONTROLLER_UID_INDEX files ReplicaSets under the uid of their controller (see indexByControllerUid). */
export const CONTROLLER_UID_INDEX = 'controllerUid';

interface OwnedShape {
  readonly metadata: { readonly ownerReferences?: ReadonlyArray<DeepReadonly<OwnerReference>> | undefined };
}

/** controllerRefOf returns the ownerReference marked controller=true, if any. */
export function controllerRefOf(object: OwnedShape): DeepReadonly<OwnerReference> | undefined {
  return object.metadata.ownerReferences?.find((reference) => reference.controller === true);
}

/** isControlledBy is true when `object`'s controller reference points at the object with `uid`. */
export function isControlledBy(object: OwnedShape, uid: string | undefined): boolean {
  return uid !== undefined && controllerRefOf(object)?.uid === uid;
}

/** indexByControllerUid files an object under its controller's uid (nothing without one), so
 * a Deployment's ReplicaSets are found with byIndex(CONTROLLER_UID_INDEX, deploymentUid). */
export function indexByControllerUid(object: OwnedShape): string[] {
  const uid = controllerRefOf(object)?.uid;
  return uid ? [uid] : [];
}

/** newControllerRef is the ownerReference a ReplicaSet puts on the pods it creates or adopts:
 * controller=true (it manages them) and blockOwnerDeletion=true (foreground deletion of the
 * ReplicaSet waits for them). */
export function newControllerRef(rs: DeepReadonly<ReplicaSet>): OwnerReference {
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
export function resolveControllerRef(
  replicaSets: Lister<ReplicaSet>,
  namespace: string,
  reference: DeepReadonly<OwnerReference>,
): DeepReadonly<ReplicaSet> | undefined {
  if (reference.kind !== 'ReplicaSet' || !reference.apiVersion.startsWith('apps/')) return undefined;
  const rs = replicaSets.get(namespace, reference.name);
  return rs?.metadata.uid === reference.uid ? rs : undefined;
}
