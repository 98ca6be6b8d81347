/**
 * controllers/replicaset — the ReplicaSet controller: keeps spec.replicas pods matching each
 * ReplicaSet's selector, creating them from its template and deleting the surplus, and
 * reports replicas/ready/available in its status (kube-controller-manager's replicaset
 * controller). registerReplicaSetController wires it into a Manager; registerReplicationController
 * runs the same loop for core/v1 ReplicationControllers (replication-controller.ts); reconcile.ts is the loop;
 * status.ts and pods-to-delete.ts are its pure decisions.
 *
 * May import: controllers/runtime/** and apiserver/api/** only (test/architecture.test.ts).
 * Docs: docs/architecture.md.
 */

export { type DeletionRankOptions, getPodsToDelete, POD_DELETION_COST_ANNOTATION, rankPodsForDeletion } from './pods-to-delete.js';
export { createReplicaSetReconciler, type ReplicaSetReconcilerDeps } from './reconcile.js';
export {
  REPLICASET_CONTROLLER_NAME,
  REPLICASET_EVENT_SOURCE,
  type ReplicaSetControllerOptions,
  registerReplicaSetController,
} from './replicaset-controller.js';
export {
  RC_VIEW,
  REPLICATION_CONTROLLER_EVENT_SOURCE,
  REPLICATION_CONTROLLER_NAME,
  registerReplicationController,
} from './replication-controller.js';
export { calculateStatus, REPLICA_FAILURE, type ReplicaSetStatus, type StatusInputs, statusNeedsUpdate } from './status.js';
