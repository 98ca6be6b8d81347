/**
 * Which objects wake which Service, for both endpoint loops (a Service wakes itself: the
 * builder's for()). A pod wakes the Services in its namespace selecting it — before or after
 * the change, as the builder maps both versions — so a pod going NotReady is reconciled at
 * once; a slice or an Endpoints object wakes the Service it belongs to when it changes or
 * vanishes (a hand-deleted slice is re-created). Pure mappings: never call the API, never throw.
 */
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { Service } from '../../apiserver/api/core/service.js';
import type { KubeObject } from '../../apiserver/api/resource-definition.js';
import type { MapToKeys } from '../runtime/builder.js';
import { keyOf, requestKey } from '../runtime/reconciler.js';
import type { DeepReadonly, Lister } from '../runtime/types.js';
import { serviceSelects } from './pod-endpoints.js';

/** servicesSelectingPod maps a pod to every Service in its namespace whose selector matches it. */
export function servicesSelectingPod(serviceLister: Lister<Service>): MapToKeys<Pod> {
  return (pod) =>
    serviceLister
      .list(pod.metadata.namespace ?? '')
      .filter((service) => serviceSelects(service, pod.metadata.labels))
      .map((service) => keyOf(service));
}

/**
 * owningService maps an Endpoints object or slice to the Service it belongs to, named by
 * `serviceNameOf` (the object's own name for Endpoints, the service-name label for slices).
 */
export function owningService<T extends KubeObject>(serviceNameOf: (object: DeepReadonly<T>) => string | undefined): MapToKeys<T> {
  return (object) => {
    const name = serviceNameOf(object);
    return name ? [requestKey({ namespace: object.metadata.namespace ?? '', name })] : [];
  };
}
