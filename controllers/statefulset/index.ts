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
export { registerStatefulSetController, STATEFULSET_CONTROLLER_NAME, STATEFULSET_EVENT_SOURCE, type StatefulSetControllerOptions } from './statefulset-controller.js';
export { createStatefulSetReconciler } from './reconcile.js';
export { planSync, createRevision, resolveMaxUnavailable, type Action, type PlanInput, type PodView } from './plan.js';
export { computeStatus, type StatefulSetStatus } from './status.js';
export { POD_INDEX_LABEL, POD_NAME_LABEL, REVISION_LABEL, claimName, newClaims, newPod, ordinalOf, podName } from './identity.js';
export { REVISION_HASH_LABEL, chooseUpdateRevision, newRevision, revisionsToDelete } from './revisions.js';
