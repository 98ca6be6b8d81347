/**
 * Wiring of the two endpoint loops: which informers each reads, which events wake which
 * Service, and the controllers running the reconcilers. Nothing here makes decisions.
 */
import type { Endpoints } from '../../apiserver/api/core/endpoints.js';
import { ENDPOINTSLICE_CONTROLLER_MANAGER, type EndpointSlice, MANAGED_BY_LABEL, SERVICE_NAME_LABEL } from '../../apiserver/api/discovery/endpoint-slice.js';
import { newControllerManagedBy } from '../runtime/builder.js';
import type { Controller } from '../runtime/controller.js';
import { KINDS } from '../runtime/kinds.js';
import type { Manager } from '../runtime/manager.js';
import { createEndpointsReconciler } from './endpoints-reconcile.js';
import { createEndpointSliceReconciler, indexSliceByService, SERVICE_SLICES_INDEX } from './endpointslice-reconcile.js';
import { owningService, servicesSelectingPod } from './event-handlers.js';
import { createWriteTracker } from './write-tracker.js';

/** ENDPOINTSLICE_CONTROLLER_NAME names the EndpointSlice controller in logs and counters. */
export const ENDPOINTSLICE_CONTROLLER_NAME = 'endpointslice';
/** ENDPOINTS_CONTROLLER_NAME names the Endpoints controller in logs and counters. */
export const ENDPOINTS_CONTROLLER_NAME = 'endpoints';

/** EndpointControllerOptions configures both registrations. */
export interface EndpointControllerOptions {
  /** Concurrent reconciles (of different Services). Default 5, as kube-controller-manager. */
  workers?: number;
}

/**
 * registerEndpointSliceController adds the EndpointSlice controller to `manager`: shared
 * informers for Services, Pods, Nodes (zones) and the slices it manages (indexed by Service),
 * their handlers, and the controller. Call before manager.start(). Returns the controller.
 */
export function registerEndpointSliceController(manager: Manager, { workers = 5 }: EndpointControllerOptions = {}): Controller {
  const services = manager.informer(KINDS.service).lister;
  const managedSlices = { informer: { labelSelector: `${MANAGED_BY_LABEL}=${ENDPOINTSLICE_CONTROLLER_MANAGER}` } };
  return newControllerManagedBy(manager)
    .named(ENDPOINTSLICE_CONTROLLER_NAME)
    .for(KINDS.service)
    .watches(KINDS.pod, servicesSelectingPod(services))
    .watches(
      KINDS.endpointSlice,
      owningService<EndpointSlice>((s) => s.metadata.labels?.[SERVICE_NAME_LABEL]),
      managedSlices,
    )
    .withIndexer(KINDS.endpointSlice, SERVICE_SLICES_INDEX, indexSliceByService, managedSlices)
    .workers(workers)
    .complete(({ lister }) =>
      createEndpointSliceReconciler({
        serviceLister: services,
        podLister: lister(KINDS.pod),
        nodeLister: lister(KINDS.node),
        sliceLister: lister(KINDS.endpointSlice, managedSlices.informer),
        slices: manager.client.resource(KINDS.endpointSlice),
        tracker: createWriteTracker(),
      }),
    );
}

/**
 * registerEndpointsController adds the core/v1 Endpoints controller to `manager`: shared
 * informers for Services, Pods and Endpoints, their handlers, and the controller. Call before
 * manager.start(). Returns the controller.
 */
export function registerEndpointsController(manager: Manager, { workers = 5 }: EndpointControllerOptions = {}): Controller {
  const services = manager.informer(KINDS.service).lister;
  return newControllerManagedBy(manager)
    .named(ENDPOINTS_CONTROLLER_NAME)
    .for(KINDS.service)
    .watches(KINDS.pod, servicesSelectingPod(services))
    .watches(
      KINDS.endpoints,
      owningService<Endpoints>((e) => e.metadata.name),
    )
    .workers(workers)
    .complete(({ lister }) =>
      createEndpointsReconciler({
        serviceLister: services,
        podLister: lister(KINDS.pod),
        endpointsLister: lister(KINDS.endpoints),
        endpoints: manager.client.resource(KINDS.endpoints),
      }),
    );
}
