/**
 * The EndpointSlice reconciler (Kubernetes' endpointslice controller syncService): for a
 * Service with a selector, compute its endpoints from the cached pods and nodes, plan the
 * fewest slice writes (slice-plan.ts) and make them. Slices are owned by the Service
 * (controller reference), named `<service>-<random>` and labelled with the service name and
 * this controller as manager. Services without a selector are left alone; when a Service is
 * gone its managed slices are deleted (the garbage collector would too, via the owner).
 */
import { isNotFound } from '../../apiserver/api/api-error.js';
import type { Node } from '../../apiserver/api/core/node.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { Service } from '../../apiserver/api/core/service.js';
import { deepEqual } from '../../apiserver/api/deep-equal.js';
import { ENDPOINTSLICE_CONTROLLER_MANAGER, type EndpointSlice, MANAGED_BY_LABEL, SERVICE_NAME_LABEL } from '../../apiserver/api/discovery/endpoint-slice.js';
import { newControllerRef } from '../../apiserver/api/machinery/owner-references.js';
import { requestKey } from '../runtime/reconciler.js';
import type { DeepReadonly, Lister, Reconciler, Request, ResourceClient, Result } from '../runtime/types.js';
import { addressTypeOf, desiredEndpointGroups } from './desired-endpoints.js';
import { endpointLabels, hasSelector, type ReadonlyService, serviceSelects, TOPOLOGY_ZONE_LABEL } from './pod-endpoints.js';
import { planSlices, type SliceContent } from './slice-plan.js';
import type { WriteTracker } from './write-tracker.js';

/** SERVICE_SLICES_INDEX files managed slices under `namespace/service-name`. */
export const SERVICE_SLICES_INDEX = 'serviceName';

/** indexSliceByService is the SERVICE_SLICES_INDEX index function. */
export function indexSliceByService(slice: DeepReadonly<EndpointSlice>): string[] {
  const service = slice.metadata.labels?.[SERVICE_NAME_LABEL];
  return service ? [requestKey({ namespace: slice.metadata.namespace ?? '', name: service })] : [];
}

/** EndpointSliceReconcilerDeps are the reconciler's collaborators; the slice lister carries SERVICE_SLICES_INDEX. */
export interface EndpointSliceReconcilerDeps {
  serviceLister: Lister<Service>;
  podLister: Lister<Pod>;
  nodeLister: Lister<Node>;
  sliceLister: Lister<EndpointSlice>;
  slices: ResourceClient<EndpointSlice>;
  tracker: WriteTracker;
}

/** How long to wait for the cache to show our own writes before looking again. */
const STALE_CACHE_RETRY_MS = 100;

/** createEndpointSliceReconciler returns the Reconciler of the EndpointSlice controller. */
export function createEndpointSliceReconciler(deps: EndpointSliceReconcilerDeps): Reconciler {
  return { reconcile: (request) => syncService(deps, request) };
}

async function syncService(deps: EndpointSliceReconcilerDeps, request: Request): Promise<Result> {
  const key = requestKey(request);
  const current = deps.sliceLister.byIndex(SERVICE_SLICES_INDEX, key);
  const service = deps.serviceLister.get(request.namespace, request.name);
  if (service === undefined || service.metadata.deletionTimestamp !== undefined) {
    await Promise.all(current.map((slice) => deleteSlice(deps, key, slice)));
    if (service === undefined) deps.tracker.forget(key);
    return {};
  }
  if (!hasSelector(service)) return {};
  const owned = current.filter((slice) => slice.metadata.ownerReferences?.some((o) => o.uid === service.metadata.uid));
  if (deps.tracker.isStale(key, new Map(owned.map((s) => [s.metadata.name ?? '', s.metadata.resourceVersion])))) {
    return { requeueAfterMs: STALE_CACHE_RETRY_MS };
  }
  await syncSlices(deps, key, service, owned);
  return {};
}

/** syncSlices plans and makes the writes that bring `owned` to the Service's endpoints. */
async function syncSlices(
  deps: EndpointSliceReconcilerDeps,
  key: string,
  service: ReadonlyService,
  owned: readonly DeepReadonly<EndpointSlice>[],
): Promise<void> {
  const pods = deps.podLister.list(service.metadata.namespace).filter((pod) => serviceSelects(service, pod.metadata.labels));
  const zoneOf = (nodeName: string) => deps.nodeLister.get('', nodeName)?.metadata.labels?.[TOPOLOGY_ZONE_LABEL];
  const plan = planSlices(
    desiredEndpointGroups(service, pods, zoneOf),
    owned.map((s) => ({ name: s.metadata.name ?? '', ports: s.ports, endpoints: s.endpoints })),
  );
  const labels = sliceLabels(service);
  const byName = new Map(owned.map((s) => [s.metadata.name ?? '', s]));
  const slice = (name: string) => byName.get(name) as DeepReadonly<EndpointSlice>;
  // Slices whose content is right but whose labels lag behind the Service's are rewritten too.
  const relabel = plan.unchanged.map(slice).filter((s) => !deepEqual(s.metadata.labels ?? {}, labels));
  await Promise.all([
    ...plan.delete.map((name) => deleteSlice(deps, key, slice(name))),
    ...plan.create.map((content) => createSlice(deps, key, service, content)),
    ...plan.update.map((content) => updateSlice(deps, key, slice(content.name), { ...content, labels })),
    ...relabel.map((s) =>
      updateSlice(deps, key, s, {
        ports: structuredClone(s.ports ?? []) as SliceContent['ports'],
        endpoints: structuredClone(s.endpoints) as SliceContent['endpoints'],
        labels,
      }),
    ),
  ]);
}

/** sliceLabels are the Service's labels plus the service-name and managed-by labels. */
function sliceLabels(service: ReadonlyService): Record<string, string> {
  return { ...endpointLabels(service), [SERVICE_NAME_LABEL]: service.metadata.name ?? '', [MANAGED_BY_LABEL]: ENDPOINTSLICE_CONTROLLER_MANAGER };
}

async function createSlice(deps: EndpointSliceReconcilerDeps, key: string, service: ReadonlyService, content: SliceContent): Promise<void> {
  const name = service.metadata.name ?? '';
  const slice: EndpointSlice = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      generateName: `${name}-`,
      namespace: service.metadata.namespace ?? '',
      labels: sliceLabels(service),
      ownerReferences: [newControllerRef(service, 'v1', 'Service')],
    },
    addressType: addressTypeOf(service),
    endpoints: content.endpoints,
    ports: content.ports,
  };
  const created = await deps.slices.create(slice);
  deps.tracker.wrote(key, created.metadata.name ?? '', created.metadata.resourceVersion);
}

async function updateSlice(
  deps: EndpointSliceReconcilerDeps,
  key: string,
  cached: DeepReadonly<EndpointSlice>,
  content: SliceContent & { labels: Record<string, string> },
): Promise<void> {
  // The cached object is shared: write a copy. A stale resourceVersion fails with 409, retried.
  const slice = structuredClone(cached) as EndpointSlice;
  slice.metadata.labels = content.labels;
  slice.endpoints = content.endpoints;
  slice.ports = content.ports;
  const updated = await deps.slices.update(slice);
  deps.tracker.wrote(key, updated.metadata.name ?? '', updated.metadata.resourceVersion);
}

async function deleteSlice(deps: EndpointSliceReconcilerDeps, key: string, slice: DeepReadonly<EndpointSlice>): Promise<void> {
  const name = slice.metadata.name ?? '';
  try {
    await deps.slices.delete(slice.metadata.namespace ?? '', name);
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  deps.tracker.deleted(key, name);
}
