/**
 * controllers/endpoints — the two loops that publish a Service's backends
 * (kube-controller-manager's endpointslice and endpoint controllers): EndpointSlices of at
 * most 100 endpoints with ready/serving/terminating conditions, node and zone, and the legacy
 * core/v1 Endpoints object kubectl still reads. register.ts wires them into a Manager; the
 * reconcilers are endpointslice-reconcile.ts and endpoints-reconcile.ts; desired-endpoints.ts,
 * slice-plan.ts and subsets.ts are their pure decisions.
 *
 * May import: controllers/runtime/** and apiserver/api/** only (test/architecture.test.ts).
 * Docs: docs/controllers.md.
 */

export { desiredEndpointGroups, type EndpointGroup, podEndpoint } from './desired-endpoints.js';
export { createEndpointsReconciler, ENDPOINTS_CONTROLLER_MANAGER, ENDPOINTS_MANAGED_BY_LABEL, type EndpointsReconcilerDeps } from './endpoints-reconcile.js';
export { createEndpointSliceReconciler, type EndpointSliceReconcilerDeps } from './endpointslice-reconcile.js';
export { resolvePorts, resolveTargetPort } from './pod-endpoints.js';
export {
  ENDPOINTS_CONTROLLER_NAME,
  ENDPOINTSLICE_CONTROLLER_NAME,
  type EndpointControllerOptions,
  registerEndpointSliceController,
  registerEndpointsController,
} from './register.js';
export { MAX_ENDPOINTS_PER_SLICE, planSlices, type SlicePlan } from './slice-plan.js';
export { computeSubsets } from './subsets.js';
