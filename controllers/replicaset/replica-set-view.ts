/**
 * ReplicaSetView lets the one ReplicaSet loop run for a kind with the same meaning but
 * another shape: core/v1 ReplicationControllers are read as ReplicaSets (their label map
 * becoming matchLabels) and written back as themselves, as kube-controller-manager's
 * replication controller wraps its ReplicaSet controller in conversions. The loop itself
 * only ever sees ReplicaSets.
 */
import type { ReplicaSet } from '../../apiserver/api/apps/replica-set.js';
import type { KubeObject } from '../../apiserver/api/resource-definition.js';
import type { DeepReadonly, EventHandlers, Lister, ResourceClient } from '../runtime/types.js';

/** ReplicaSetView converts a kind's objects to ReplicaSets and back. Conversions must be
 * cheap (the lister converts on each read) and may share the input's nested objects. */
export interface ReplicaSetView<T extends KubeObject> {
  toReplicaSet(object: DeepReadonly<T>): DeepReadonly<ReplicaSet>;
  fromReplicaSet(rs: ReplicaSet): T;
}

/** viewLister reads a cache of T as ReplicaSets. */
export function viewLister<T extends KubeObject>(lister: Lister<T>, view: ReplicaSetView<T>): Lister<ReplicaSet> {
  const convert = (object: DeepReadonly<T> | undefined) => (object === undefined ? undefined : view.toReplicaSet(object));
  return {
    get: (namespace, name) => convert(lister.get(namespace, name)),
    list: (namespace, labelSelector) => lister.list(namespace, labelSelector).map(view.toReplicaSet),
    byIndex: (indexName, value) => lister.byIndex(indexName, value).map(view.toReplicaSet),
  };
}

/** viewClient reads and writes the status of T objects as ReplicaSets. */
export function viewClient<T extends KubeObject>(client: ResourceClient<T>, view: ReplicaSetView<T>): Pick<ResourceClient<ReplicaSet>, 'get' | 'updateStatus'> {
  const asReplicaSet = (object: T) => view.toReplicaSet(object as DeepReadonly<T>) as ReplicaSet;
  return {
    get: async (namespace, name) => asReplicaSet(await client.get(namespace, name)),
    updateStatus: async (rs, options) => asReplicaSet(await client.updateStatus(view.fromReplicaSet(rs), options)),
  };
}

/** viewHandlers hands an informer's T events to handlers written for ReplicaSets. */
export function viewHandlers<T extends KubeObject>(handlers: EventHandlers<ReplicaSet>, view: ReplicaSetView<T>): EventHandlers<T> {
  return {
    onAdd: (object) => handlers.onAdd?.(view.toReplicaSet(object)),
    onUpdate: (old, cur) => handlers.onUpdate?.(view.toReplicaSet(old), view.toReplicaSet(cur)),
    onDelete: (object) => handlers.onDelete?.(view.toReplicaSet(object)),
  };
}

/** IDENTITY_VIEW is the view of ReplicaSets themselves. */
export const IDENTITY_VIEW: ReplicaSetView<ReplicaSet> = {
  toReplicaSet: (rs) => rs,
  fromReplicaSet: (rs) => rs,
};
