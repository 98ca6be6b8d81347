/**
 * controllers/disruption — the disruption controller (kube-controller-manager's
 * disruption controller): for each PodDisruptionBudget it counts the selected pods that are
 * healthy, the pods their controllers expect (through /scale) and the healthy pods the budget
 * requires, and writes disruptionsAllowed, which the API server's pods/eviction spends.
 * registerDisruptionController wires it into a Manager; reconcile.ts is the loop; status.ts
 * is its pure arithmetic; expected-scale.ts reads the controllers' /scale.
 *
 * May import: controllers/runtime/** and apiserver/api/** only (test/architecture.test.ts).
 * Docs: docs/controllers.md.
 */
export {
  DISRUPTION_CONTROLLER_NAME,
  DISRUPTION_EVENT_SOURCE,
  type DisruptionControllerOptions,
  registerDisruptionController,
} from './disruption-controller.js';
export { expectedScale, ScaleError } from './expected-scale.js';
export { createDisruptionReconciler, type DisruptionReconcilerDeps } from './reconcile.js';
export {
  activeDisruptedPods,
  type BudgetInputs,
  type BudgetStatus,
  computeBudgetStatus,
  countHealthy,
  DELETION_TIMEOUT_MS,
  type DisruptedPods,
  desiredHealthyOf,
  needsControllerScale,
  syncFailedStatus,
} from './status.js';
