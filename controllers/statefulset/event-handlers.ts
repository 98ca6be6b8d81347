/**
 * Which objects wake which StatefulSet (a set wakes itself: the builder's for()).
 *
 *   Pod or ControllerRevision added/updated/deleted → the set controlling it, if that set is
 *       cached with the reference's uid (the builder maps both versions of an update, so a
 *       changed reference wakes the previous controller too)
 */
import type { StatefulSet } from '../../apiserver/api/apps/stateful-set.js';
import { controllerRefOf } from '../../apiserver/api/machinery/owner-references.js';
import type { KubeObject } from '../../apiserver/api/resource-definition.js';
import type { MapToKeys } from '../runtime/builder.js';
import { requestKey } from '../runtime/reconciler.js';
import type { Lister } from '../runtime/types.js';

/** controllingSet maps a pod or revision to the StatefulSet controlling it, if it still exists. */
export function controllingSet(setLister: Lister<StatefulSet>): MapToKeys<KubeObject> {
  return (object) => {
    const ref = controllerRefOf(object);
    if (ref?.kind !== 'StatefulSet') return [];
    const namespace = object.metadata.namespace ?? '';
    return setLister.get(namespace, ref.name)?.metadata.uid === ref.uid ? [requestKey({ namespace, name: ref.name })] : [];
  };
}
