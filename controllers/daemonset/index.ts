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

export { CONTROLLER_REVISION_HASH_LABEL, newDaemonPod, targetNodeName } from './daemon-pods.js';
export { DAEMONSET_CONTROLLER_NAME, DAEMONSET_EVENT_SOURCE, type DaemonSetControllerOptions, registerDaemonSetController } from './daemonset-controller.js';
export { type ManagePlan, planManage } from './manage-plan.js';
export { DAEMON_POD_TOLERATIONS, daemonPodTolerations, type Eligibility, nodeShouldRunDaemonPod } from './node-eligibility.js';
export { createDaemonSetReconciler, DAEMONSET_POD_INDEX, type DaemonSetReconcilerDeps } from './reconcile.js';
export { planRollingUpdate, type RollingPlan, rollingBudget } from './rolling-update.js';
export { calculateStatus } from './status.js';
