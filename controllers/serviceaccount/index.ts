/**
 * controllers/serviceaccount — a `default` ServiceAccount in every active namespace
 * (kube-controller-manager's serviceaccount controller). May import: controllers/runtime/**
 * and apiserver/api/** only. Docs: docs/controllers.md.
 */
export {
  createServiceAccountReconciler,
  DEFAULT_SERVICE_ACCOUNTS,
  registerServiceAccountController,
  SERVICEACCOUNT_CONTROLLER_NAME,
  type ServiceAccountReconcilerDeps,
} from './serviceaccount-controller.js';
