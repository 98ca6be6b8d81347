/**
 * Owner references between ReplicaSets (or ReplicationControllers, served by the same
 * logic) and their pods: Kubernetes' NewControllerRef and the controller's
 * resolveControllerRef. (Finding an object's controller is
 * apiserver/api/machinery/owner-references.ts; the index by controller uid is
 * controllers/runtime/indexers.ts.)
 */
import type { ReplicaSet } from '../../apiserver/api/apps/replica-set.js';
import { newControllerRef as controllerRefFrom } from '../../apiserver/api/machinery/owner-references.js';
import type { OwnerReference } from '../../apiserver/api/meta.js';
import type { DeepReadonly, Lister } from '../runtime/types.js';

/** OwnerKind is the kind the loop runs for, as pods' owner references name it. */
export interface OwnerKind {
  apiVersion: string;
  kind: string;
}

/** REPLICA_SET_KIND is the default OwnerKind: apps/v1 ReplicaSet. */
export const REPLICA_SET_KIND: OwnerKind = { apiVersion: 'apps/v1', kind: 'ReplicaSet' };

/** newControllerRef is the ownerReference a ReplicaSet puts on the pods it creates or adopts:
 * controller=true (it manages them) and blockOwnerDeletion=true (foreground deletion of the
 * ReplicaSet waits for them). */
export function newControllerRef(rs: DeepReadonly<ReplicaSet>, owner: OwnerKind = REPLICA_SET_KIND): OwnerReference {
  return controllerRefFrom(rs, owner.apiVersion, owner.kind);
}

const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '');

/**
 * resolveControllerRef returns the cached ReplicaSet a controller reference points at, or
 * undefined when it names another kind (or group) or the ReplicaSet of that name is gone or
 * is a different object (re-created under the same name: the uid differs).
 */
export function resolveControllerRef(
  replicaSets: Lister<ReplicaSet>,
  namespace: string,
  reference: DeepReadonly<OwnerReference>,
  owner: OwnerKind = REPLICA_SET_KIND,
): DeepReadonly<ReplicaSet> | undefined {
  if (reference.kind !== owner.kind || groupOf(reference.apiVersion) !== groupOf(owner.apiVersion)) return undefined;
  const rs = replicaSets.get(namespace, reference.name);
  return rs?.metadata.uid === reference.uid ? rs : undefined;
}
