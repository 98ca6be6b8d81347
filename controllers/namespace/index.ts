/**
 * controllers/namespace — kube-controller-manager's namespace controller: keeps namespaces
 * Active, and empties a terminating one (every namespaced kind discovery lists), reporting
 * progress in its status conditions, before clearing its `kubernetes` finalizer so the API
 * server removes it. registerNamespaceController wires it into a Manager; reconcile.ts is the
 * loop; content.ts deletes; conditions.ts holds the pure condition logic.
 *
 * May import: controllers/runtime/** and apiserver/api/** only (test/architecture.test.ts).
 * Docs: docs/api-conventions.md (Deletion), docs/architecture.md.
 */

export {
  type DeletionReport,
  failedConditions,
  hasContentLeft,
  mergeConditions,
  type NamespaceCondition,
  NamespaceConditionType,
} from './conditions.js';
export { deleteAllContent, isDeletableNamespaced, qualifiedName } from './content.js';
export { NAMESPACE_CONTROLLER_NAME, type NamespaceControllerOptions, registerNamespaceController } from './namespace-controller.js';
export { createNamespaceReconciler, type NamespaceReconcilerDeps } from './reconcile.js';
