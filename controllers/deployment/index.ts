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

export { computeHash, POD_TEMPLATE_HASH_LABEL } from '../runtime/pods/pod-template-hash.js';
export {
  DEPLOYMENT_CONTROLLER_NAME,
  DEPLOYMENT_EVENT_SOURCE,
  type DeploymentControllerOptions,
  registerDeploymentController,
} from './deployment-controller.js';
export { rolloutStatus } from './progress.js';
export { createDeploymentReconciler } from './reconcile.js';
export {
  CHANGE_CAUSE_ANNOTATION,
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
} from './revision.js';
export { maxSurge, maxUnavailable, newRSNewReplicas, proportionalScalePlan, resolveFenceposts } from './rolling-math.js';
export { SCALING_REPLICA_SET, scalingMessage } from './scale-replica-set.js';
export { ConditionTypes, calculateStatus, type DeploymentStatus, Reasons } from './status.js';
export type { DeploymentDeps } from './sync-state.js';
