/**
 * controllers/serviceaccount — a `default` ServiceAccount in every active namespace
 * (kube-controller-manager's serviceaccount controller), and the tokens of
 * kubernetes.io/service-account-token Secrets (its serviceaccount-token controller). May import: controllers/runtime/**
 * and apiserver/api/** only. Docs: docs/controllers.md.
 */
export {
  createServiceAccountReconciler,
  DEFAULT_SERVICE_ACCOUNTS,
  registerServiceAccountController,
  SERVICEACCOUNT_CONTROLLER_NAME,
  type ServiceAccountReconcilerDeps,
} from './serviceaccount-controller.js';
export { createTokensReconciler, registerTokensController, TOKENS_CONTROLLER_NAME, type TokensReconcilerDeps } from './tokens-controller.js';
