/**
 * controllers/daemonset — the DaemonSet controller: one pod per eligible node (nodeSelector,
 * required node affinity, tolerated taints plus the daemon default tolerations), each pinned
 * to its node by a `matchFields metadata.name` node affinity and bound by the default
 * scheduler; RollingUpdate (maxUnavailable/maxSurge) and OnDelete; status desired / current /
 * ready / updated / available / unavailable / misscheduled (kube-controller-manager's daemon
 * controller). node-eligibility.ts, manage-plan.ts, rolling-update.ts and status.ts are its
 * pure decisions; reconcile.ts is the loop.
 *
 * May import: controllers/runtime/**, apiserver/api/** and the shared helpers of
 * controllers/replicaset and controllers/deployment. Docs: docs/controllers.md.
 */
export { registerDaemonSetController, DAEMONSET_CONTROLLER_NAME, DAEMONSET_EVENT_SOURCE, type DaemonSetControllerOptions } from './daemonset-controller.js';
export { createDaemonSetReconciler, DAEMONSET_POD_INDEX, type DaemonSetReconcilerDeps } from './reconcile.js';
export { nodeShouldRunDaemonPod, daemonPodTolerations, DAEMON_POD_TOLERATIONS, type Eligibility } from './node-eligibility.js';
export { planManage, type ManagePlan } from './manage-plan.js';
export { planRollingUpdate, rollingBudget, type RollingPlan } from './rolling-update.js';
export { calculateStatus } from './status.js';
export { CONTROLLER_REVISION_HASH_LABEL, newDaemonPod, targetNodeName } from './daemon-pods.js';
