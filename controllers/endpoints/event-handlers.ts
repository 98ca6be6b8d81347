/**
 * Informer handlers of both endpoint loops. They only enqueue Service keys: a Service on any
 * change; the Services whose selector matches a pod (before or after the change) when the pod
 * changes — so a pod going NotReady is reconciled at once; the owning Service when one of its
 * slices or its Endpoints changes or vanishes (a hand-deleted slice is re-created).
 * Synchronous, never call the API, never throw.
 */
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { Service } from '../../apiserver/api/core/service.js';
import type { KubeObject } from '../../apiserver/api/resource-definition.js';
import { keyOf, requestKey } from '../runtime/reconciler.js';
import type { DeepReadonly, EventHandlers, Lister, WorkQueue } from '../runtime/types.js';
import { type ReadonlyPod, serviceSelects } from './pod-endpoints.js';

/** serviceEventHandlers enqueue the Service on add, update and delete. */
export function serviceEventHandlers(queue: WorkQueue): EventHandlers<Service> {
  return {
    onAdd: (service) => queue.add(keyOf(service)),
    onUpdate: (_old, service) => queue.add(keyOf(service)),
    onDelete: (service) => queue.add(keyOf(service)),
  };
}

/** podEventHandlers enqueue every Service in the pod's namespace selecting its old or new labels. */
export function podEventHandlers(serviceLister: Lister<Service>, queue: WorkQueue): EventHandlers<Pod> {
  const enqueueFor = (...pods: ReadonlyPod[]) => {
    const namespace = pods[0]?.metadata.namespace ?? '';
    for (const service of serviceLister.list(namespace)) {
      if (pods.some((pod) => serviceSelects(service, pod.metadata.labels))) queue.add(keyOf(service));
    }
  };
  return {
    onAdd: (pod) => enqueueFor(pod),
    onUpdate: (old, pod) => {
      // A resync delivers the same version again: nothing changed for the endpoints.
      if (old.metadata.resourceVersion !== pod.metadata.resourceVersion) enqueueFor(old, pod);
    },
    onDelete: (pod) => enqueueFor(pod),
  };
}

/**
 * ownedObjectHandlers enqueue the Service an Endpoints object or slice belongs to, named by
 * `serviceNameOf` (the object's own name for Endpoints, the service-name label for slices).
 */
export function ownedObjectHandlers<T extends KubeObject>(queue: WorkQueue, serviceNameOf: (object: DeepReadonly<T>) => string | undefined): EventHandlers<T> {
  const enqueue = (object: DeepReadonly<T>) => {
    const name = serviceNameOf(object);
    if (name) queue.add(requestKey({ namespace: object.metadata.namespace ?? '', name }));
  };
  return { onAdd: enqueue, onUpdate: (_old, cur) => enqueue(cur), onDelete: enqueue };
}
