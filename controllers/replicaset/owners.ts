/**
 * Owner references between ReplicaSets and their pods: Kubernetes' NewControllerRef and the
 * ReplicaSet controller's resolveControllerRef. (Finding an object's controller is
 * apiserver/api/machinery/owner-references.ts; the index by controller uid is
 * controllers/runtime/indexers.ts.)
 */
import type { ReplicaSet } from '../../apiserver/api/apps/replica-set.js';
import { newControllerRef as controllerRefFrom } from '../../apiserver/api/machinery/owner-references.js';
import type { OwnerReference } from '../../apiserver/api/meta.js';
import type { DeepReadonly, Lister } from '../runtime/types.js';

/** newControllerRef is the ownerReference a ReplicaSet puts on the pods it creates or adopts:
 * controller=true (it manages them) and blockOwnerDeletion=true (foreground deletion of the
 * ReplicaSet waits for them). */
export function newControllerRef(rs: DeepReadonly<ReplicaSet>): OwnerReference {
  return controllerRefFrom(rs, 'apps/v1', 'ReplicaSet');
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
