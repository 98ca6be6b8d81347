/**
 * controllers/resourcequota — keeps every ResourceQuota's status.hard and status.used current
 * (kube-controller-manager's resourcequota controller). usage.ts is the pure accounting.
 * May import: controllers/runtime/** and apiserver/api/** only. Docs: docs/controllers.md.
 */
export {
  createResourceQuotaReconciler,
  RESOURCEQUOTA_CONTROLLER_NAME,
  type ResourceQuotaReconcilerDeps,
  registerResourceQuotaController,
} from './resourcequota-controller.js';
export { computeUsage, countedResourceOf, isPodCounted, type NamespaceObjects, podMatchesScopes, type UsageInputs } from './usage.js';
