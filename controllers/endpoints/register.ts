/**
 * Wiring of the two endpoint loops: which informers each reads, which events wake which
 * Service, and the controllers running the reconcilers. Nothing here makes decisions.
 */
import { type Endpoints, endpointsDefinition } from '../../apiserver/api/core/endpoints.js';
import { nodeDefinition } from '../../apiserver/api/core/node.js';
import { podDefinition } from '../../apiserver/api/core/pod.js';
import { serviceDefinition } from '../../apiserver/api/core/service.js';
import {
  ENDPOINTSLICE_CONTROLLER_MANAGER,
  type EndpointSlice,
  endpointSliceDefinition,
  MANAGED_BY_LABEL,
  SERVICE_NAME_LABEL,
} from '../../apiserver/api/discovery/endpoint-slice.js';
import { newControllerManagedBy } from '../runtime/builder.js';
import type { Controller } from '../runtime/controller.js';
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
  const services = manager.informer(serviceDefinition).lister;
  const managedSlices = { informer: { labelSelector: `${MANAGED_BY_LABEL}=${ENDPOINTSLICE_CONTROLLER_MANAGER}` } };
  return newControllerManagedBy(manager)
    .named(ENDPOINTSLICE_CONTROLLER_NAME)
    .for(serviceDefinition)
    .watches(podDefinition, servicesSelectingPod(services))
    .watches(
      endpointSliceDefinition,
      owningService<EndpointSlice>((s) => s.metadata.labels?.[SERVICE_NAME_LABEL]),
      managedSlices,
    )
    .withIndexer(endpointSliceDefinition, SERVICE_SLICES_INDEX, indexSliceByService, managedSlices)
    .workers(workers)
    .complete(({ lister }) =>
      createEndpointSliceReconciler({
        serviceLister: services,
        podLister: lister(podDefinition),
        nodeLister: lister(nodeDefinition),
        sliceLister: lister(endpointSliceDefinition, managedSlices.informer),
        slices: manager.client.resource(endpointSliceDefinition),
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
  const services = manager.informer(serviceDefinition).lister;
  return newControllerManagedBy(manager)
    .named(ENDPOINTS_CONTROLLER_NAME)
    .for(serviceDefinition)
    .watches(podDefinition, servicesSelectingPod(services))
    .watches(
      endpointsDefinition,
      owningService<Endpoints>((e) => e.metadata.name),
    )
    .workers(workers)
    .complete(({ lister }) =>
      createEndpointsReconciler({
        serviceLister: services,
        podLister: lister(podDefinition),
        endpointsLister: lister(endpointsDefinition),
        endpoints: manager.client.resource(endpointsDefinition),
      }),
    );
}
