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
import { type Controller, createController } from '../runtime/controller.js';
import type { Manager } from '../runtime/manager.js';
import { createEndpointsReconciler } from './endpoints-reconcile.js';
import { createEndpointSliceReconciler, indexSliceByService, SERVICE_SLICES_INDEX } from './endpointslice-reconcile.js';
import { ownedObjectHandlers, podEventHandlers, serviceEventHandlers } from './event-handlers.js';
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
  const services = manager.informer(serviceDefinition);
  const pods = manager.informer(podDefinition);
  const nodes = manager.informer(nodeDefinition);
  const slices = manager.informer(endpointSliceDefinition, { labelSelector: `${MANAGED_BY_LABEL}=${ENDPOINTSLICE_CONTROLLER_MANAGER}` });
  slices.addIndexer(SERVICE_SLICES_INDEX, indexSliceByService);
  const reconciler = createEndpointSliceReconciler({
    serviceLister: services.lister,
    podLister: pods.lister,
    nodeLister: nodes.lister,
    sliceLister: slices.lister,
    slices: manager.client.resource(endpointSliceDefinition),
    tracker: createWriteTracker(),
  });
  const controller = createController({
    name: ENDPOINTSLICE_CONTROLLER_NAME,
    reconciler,
    workers,
    clock: manager.clock,
    logger: manager.logger,
    random: manager.random.fork(ENDPOINTSLICE_CONTROLLER_NAME),
  });
  services.addEventHandlers(serviceEventHandlers(controller.queue));
  pods.addEventHandlers(podEventHandlers(services.lister, controller.queue));
  slices.addEventHandlers(ownedObjectHandlers<EndpointSlice>(controller.queue, (s) => s.metadata.labels?.[SERVICE_NAME_LABEL]));
  manager.add(controller);
  return controller;
}

/**
 * registerEndpointsController adds the core/v1 Endpoints controller to `manager`: shared
 * informers for Services, Pods and Endpoints, their handlers, and the controller. Call before
 * manager.start(). Returns the controller.
 */
export function registerEndpointsController(manager: Manager, { workers = 5 }: EndpointControllerOptions = {}): Controller {
  const services = manager.informer(serviceDefinition);
  const pods = manager.informer(podDefinition);
  const endpoints = manager.informer(endpointsDefinition);
  const reconciler = createEndpointsReconciler({
    serviceLister: services.lister,
    podLister: pods.lister,
    endpointsLister: endpoints.lister,
    endpoints: manager.client.resource(endpointsDefinition),
  });
  const controller = createController({
    name: ENDPOINTS_CONTROLLER_NAME,
    reconciler,
    workers,
    clock: manager.clock,
    logger: manager.logger,
    random: manager.random.fork(ENDPOINTS_CONTROLLER_NAME),
  });
  services.addEventHandlers(serviceEventHandlers(controller.queue));
  pods.addEventHandlers(podEventHandlers(services.lister, controller.queue));
  endpoints.addEventHandlers(ownedObjectHandlers<Endpoints>(controller.queue, (e) => e.metadata.name));
  manager.add(controller);
  return controller;
}
