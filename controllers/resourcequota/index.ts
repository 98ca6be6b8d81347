/**
 * controllers/resourcequota — keeps every ResourceQuota's status.hard and status.used current
 * (kube-controller-manager's resourcequota controller). The accounting is apiserver/api/core/quota-usage.ts.
 * May import: controllers/runtime/** and apiserver/api/** only. Docs: docs/controllers.md.
 */
export {
  createResourceQuotaReconciler,
  RESOURCEQUOTA_CONTROLLER_NAME,
  type ResourceQuotaReconcilerDeps,
  registerResourceQuotaController,
} from './resourcequota-controller.js';
