/**
 * controllers/statefulset — the StatefulSet controller: pods `<set>-<ordinal>` with stable
 * names, hostnames and claims, created and removed in ordinal order (OrderedReady) or all at
 * once (Parallel), rolled from the highest ordinal down to the partition (RollingUpdate,
 * within maxUnavailable) or left for manual deletion (OnDelete), with the template history
 * in ControllerRevisions that `kubectl rollout history/undo statefulset` read
 * (kube-controller-manager's statefulset controller).
 *
 * plan.ts, status.ts, revisions.ts and identity.ts are its pure decisions; reconcile.ts is
 * the loop. May import: controllers/** and apiserver/api/** only.
 */

export { claimName, newClaims, newPod, ordinalOf, POD_INDEX_LABEL, POD_NAME_LABEL, podName, REVISION_LABEL } from './identity.js';
export { type Action, createRevision, type PlanInput, type PodView, planSync, resolveMaxUnavailable } from './plan.js';
export { createStatefulSetReconciler } from './reconcile.js';
export { chooseUpdateRevision, newRevision, REVISION_HASH_LABEL, revisionsToDelete } from './revisions.js';
export {
  registerStatefulSetController,
  STATEFULSET_CONTROLLER_NAME,
  STATEFULSET_EVENT_SOURCE,
  type StatefulSetControllerOptions,
} from './statefulset-controller.js';
export { computeStatus, type StatefulSetStatus } from './status.js';
