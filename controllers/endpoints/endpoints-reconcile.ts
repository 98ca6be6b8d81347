/**
 * The Endpoints reconciler (Kubernetes' endpoints controller syncService): for a Service with
 * a selector, keep an Endpoints object of the same name whose subsets list the selected pods'
 * addresses (ready and not ready) and resolved ports. Services without a selector are left
 * alone (their Endpoints are user-managed); when a Service is gone its Endpoints are deleted
 * (Endpoints carry no owner reference, as in Kubernetes).
 */
import { isAlreadyExists, isNotFound } from '../../apiserver/api/api-error.js';
import type { Endpoints } from '../../apiserver/api/core/endpoints.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { Service } from '../../apiserver/api/core/service.js';
import { deepEqual } from '../../apiserver/api/deep-equal.js';
import type { Lister, Reconciler, Request, ResourceClient, Result } from '../runtime/types.js';
import { endpointLabels, hasSelector, serviceSelects } from './pod-endpoints.js';
import { computeSubsets } from './subsets.js';

/** ENDPOINTS_MANAGED_BY_LABEL marks Endpoints the controller manages (Kubernetes ≥ 1.33 sets it too). */
export const ENDPOINTS_MANAGED_BY_LABEL = 'endpoints.kubernetes.io/managed-by';
/** ENDPOINTS_CONTROLLER_MANAGER is ENDPOINTS_MANAGED_BY_LABEL's value for this controller. */
export const ENDPOINTS_CONTROLLER_MANAGER = 'endpoint-controller';

/** EndpointsReconcilerDeps are the reconciler's collaborators. */
export interface EndpointsReconcilerDeps {
  serviceLister: Lister<Service>;
  podLister: Lister<Pod>;
  endpointsLister: Lister<Endpoints>;
  endpoints: ResourceClient<Endpoints>;
}

/** createEndpointsReconciler returns the Reconciler of the Endpoints controller. */
export function createEndpointsReconciler(deps: EndpointsReconcilerDeps): Reconciler {
  return { reconcile: (request) => syncEndpoints(deps, request) };
}

async function syncEndpoints(deps: EndpointsReconcilerDeps, { namespace, name }: Request): Promise<Result> {
  const service = deps.serviceLister.get(namespace, name);
  const current = deps.endpointsLister.get(namespace, name);
  if (service === undefined) {
    // Only Endpoints this controller made: hand-made ones without a Service stay.
    if (current?.metadata.labels?.[ENDPOINTS_MANAGED_BY_LABEL] === ENDPOINTS_CONTROLLER_MANAGER) await deleteIgnoringNotFound(deps, namespace, name);
    return {};
  }
  if (!hasSelector(service) || service.metadata.deletionTimestamp !== undefined) return {};
  const pods = deps.podLister.list(namespace).filter((pod) => serviceSelects(service, pod.metadata.labels));
  const subsets = computeSubsets(service, pods);
  const labels = { ...endpointLabels(service), [ENDPOINTS_MANAGED_BY_LABEL]: ENDPOINTS_CONTROLLER_MANAGER };
  if (current === undefined) {
    return createEndpoints(deps, { apiVersion: 'v1', kind: 'Endpoints', metadata: { name, namespace, labels }, subsets });
  }
  if (deepEqual(current.subsets ?? [], subsets) && deepEqual(current.metadata.labels ?? {}, labels)) return {};
  // A copy of the shared cache object; a stale resourceVersion fails with 409 and is retried.
  const next = structuredClone(current) as Endpoints;
  next.metadata.labels = labels;
  next.subsets = subsets;
  await deps.endpoints.update(next);
  return {};
}

/** How long to wait for the cache to show an Endpoints object that already exists. */
const STALE_CACHE_RETRY_MS = 100;

async function createEndpoints(deps: EndpointsReconcilerDeps, endpoints: Endpoints): Promise<Result> {
  try {
    await deps.endpoints.create(endpoints);
    return {};
  } catch (err) {
    // Our own recent create, not yet in the cache (or someone else's): look again shortly.
    if (isAlreadyExists(err)) return { requeueAfterMs: STALE_CACHE_RETRY_MS };
    throw err;
  }
}

async function deleteIgnoringNotFound(deps: EndpointsReconcilerDeps, namespace: string, name: string): Promise<void> {
  try {
    await deps.endpoints.delete(namespace, name);
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}
