/**
 * controllers/garbage-collector — kube-controller-manager's garbage collector: deletes objects
 * whose owners (metadata.ownerReferences) are gone, and carries out the `Foreground` and
 * `Orphan` propagation policies the API server records as the `foregroundDeletion` and
 * `orphan` finalizers. It watches every kind discovery lists (monitors.ts), so kinds added
 * at run time are collected too. registerGarbageCollector wires it into a Manager;
 * reconcile.ts is the loop; decisions.ts holds its pure decisions.
 *
 * May import: controllers/runtime/** and apiserver/api/** only (test/architecture.test.ts).
 * Docs: docs/api-conventions.md (Deletion), docs/architecture.md.
 */

export {
  DeletionPhase,
  decideOwnerAction,
  deletionPhase,
  FOREGROUND_FINALIZER,
  ORPHAN_FINALIZER,
  type OwnerAction,
  type OwnerState,
} from './decisions.js';
export {
  GARBAGE_COLLECTOR_NAME,
  type GarbageCollector,
  type GarbageCollectorOptions,
  registerGarbageCollector,
} from './garbage-collector-controller.js';
export { gcKey, gcKeyOf, uidOfKey } from './keys.js';
export { DEFAULT_IGNORED_RESOURCES, type GroupResource, type MonitoredObject, MonitorSet } from './monitors.js';
export { createGarbageCollectorReconciler, type GarbageCollectorReconcilerDeps } from './reconcile.js';
