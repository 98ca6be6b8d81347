/**
 * controllers/deployment — the Deployment controller: turns each distinct pod template of a
 * Deployment into a ReplicaSet (`<name>-<pod-template-hash>`) and moves replicas from the old
 * ReplicaSets to the new one by the Deployment's strategy (RollingUpdate within
 * maxSurge/maxUnavailable, or Recreate), scales proportionally mid-rollout, keeps
 * revisionHistoryLimit old ReplicaSets for `kubectl rollout undo`, and reports
 * replicas/updated/ready/available and the Available/Progressing conditions that
 * `kubectl rollout status` reads (kube-controller-manager's deployment controller, v1.31).
 *
 * registerDeploymentController wires it into a Manager; reconcile.ts is the loop; rolling.ts,
 * recreate.ts and sync.ts are its strategies and syncs; rolling-math.ts, revision.ts,
 * status.ts, progress.ts and replica-sets.ts are its pure decisions (the pod-template-hash is
 * shared with other loops, in controllers/runtime/pods).
 *
 * May import: controllers/runtime/** and apiserver/api/** only (test/architecture.test.ts).
 * Docs: docs/architecture.md.
 */
export {
  registerDeploymentController,
  DEPLOYMENT_CONTROLLER_NAME,
  DEPLOYMENT_EVENT_SOURCE,
  type DeploymentControllerOptions,
} from './deployment-controller.js';
export { createDeploymentReconciler } from './reconcile.js';
export type { DeploymentDeps } from './sync-state.js';
export { computeHash, POD_TEMPLATE_HASH_LABEL } from '../runtime/pods/pod-template-hash.js';
export {
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  CHANGE_CAUSE_ANNOTATION,
} from './revision.js';
export { calculateStatus, ConditionTypes, Reasons, type DeploymentStatus } from './status.js';
export { rolloutStatus } from './progress.js';
export { resolveFenceposts, maxSurge, maxUnavailable, newRSNewReplicas, proportionalScalePlan } from './rolling-math.js';
export { scalingMessage, SCALING_REPLICA_SET } from './scale-replica-set.js';
