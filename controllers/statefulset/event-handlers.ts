/**
 * Which events wake which StatefulSet. Handlers are synchronous and only enqueue keys.
 *
 *   StatefulSet added/updated/deleted → that set
 *   Pod or ControllerRevision added/updated/deleted → the set controlling it (the previous
 *       controller too when the reference changed)
 */
import type { StatefulSet } from '../../apiserver/api/apps/stateful-set.js';
import type { KubeObject } from '../../apiserver/api/resource-definition.js';
import type { DeepReadonly, EventHandlers, Lister } from '../runtime/types.js';
import { controllerRefOf } from '../../apiserver/api/machinery/owner-references.js';

/** SetHandlerDeps are what the handlers read and where they put keys. */
export interface SetHandlerDeps {
  setLister: Lister<StatefulSet>;
  enqueue(namespace: string, name: string): void;
}

/** statefulSetEventHandlers enqueue the set on every change, deletion included. */
export function statefulSetEventHandlers(deps: SetHandlerDeps): EventHandlers<StatefulSet> {
  const enqueue = (set: DeepReadonly<StatefulSet>) => deps.enqueue(set.metadata.namespace ?? '', set.metadata.name ?? '');
  return { onAdd: enqueue, onUpdate: (_old, cur) => enqueue(cur), onDelete: enqueue };
}

/** ownedEventHandlers enqueue the StatefulSet controlling a pod or revision, if it still exists. */
export function ownedEventHandlers<T extends KubeObject>(deps: SetHandlerDeps): EventHandlers<T> {
  const enqueueOwner = (object: DeepReadonly<T>) => {
    const ref = controllerRefOf(object);
    if (ref?.kind !== 'StatefulSet') return;
    const namespace = object.metadata.namespace ?? '';
    if (deps.setLister.get(namespace, ref.name)?.metadata.uid === ref.uid) deps.enqueue(namespace, ref.name);
  };
  return {
    onAdd: enqueueOwner,
    onUpdate: (old, cur) => {
      if (old.metadata.resourceVersion === cur.metadata.resourceVersion) return;
      enqueueOwner(old);
      enqueueOwner(cur);
    },
    onDelete: enqueueOwner,
  };
}
