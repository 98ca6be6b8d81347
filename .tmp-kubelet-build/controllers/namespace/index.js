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
export { registerNamespaceController, NAMESPACE_CONTROLLER_NAME } from './namespace-controller.js';
export { createNamespaceReconciler } from './reconcile.js';
export { deleteAllContent, isDeletableNamespaced, qualifiedName } from './content.js';
export { failedConditions, hasContentLeft, mergeConditions, NamespaceConditionType, } from './conditions.js';
//# sourceMappingURL=index.js.map