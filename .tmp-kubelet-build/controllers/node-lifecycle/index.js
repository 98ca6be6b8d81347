/**
 * controllers/node-lifecycle — kube-controller-manager's node lifecycle controller and taint
 * eviction controller in one process:
 *
 *   Lease renewals ─┐                          ┌─► node conditions Unknown, pods Ready=False
 *   Node status  ───┼─► node monitor (5 s) ────┤
 *                   │                          └─► taints not-ready / unreachable (+ NoExecute)
 *   NoExecute taints ─► taint eviction ─► pods evicted after their tolerationSeconds
 *                                      └─► pods stuck Terminating on unreachable nodes force-deleted
 *
 * registerNodeLifecycleController wires it into a Manager; node-monitor.ts and
 * taint-eviction.ts are the loops; node-health.ts, taints.ts and eviction-plan.ts hold their
 * pure decisions.
 *
 * May import: controllers/runtime/** and apiserver/api/** only (test/architecture.test.ts).
 * Docs: docs/architecture.md.
 */
export { registerNodeLifecycleController, NODE_LIFECYCLE_CONTROLLER_NAME, TAINT_EVICTION_CONTROLLER_NAME, DEFAULT_NODE_MONITOR_PERIOD_MS, DEFAULT_NODE_MONITOR_GRACE_PERIOD_MS, DEFAULT_NODE_STARTUP_GRACE_PERIOD_MS, } from './node-lifecycle-controller.js';
export { createNodeMonitorReconciler, createMonitorTicker } from './node-monitor.js';
export { createTaintEvictionReconciler, DISRUPTION_TARGET_CONDITION } from './taint-eviction.js';
export { assessNodeHealth, unknownConditions, isNodeUnreachable, KUBELET_CONDITION_TYPES, NODE_LEASE_NAMESPACE, NodeStatusReason, } from './node-health.js';
export { desiredTaints, wantedTaints, noExecuteTaints, toleratesTaint, NOT_READY_TAINT, UNREACHABLE_TAINT, UNSCHEDULABLE_TAINT } from './taints.js';
export { evictionTime, planPodAction, PodActionKind, TaintClock } from './eviction-plan.js';
//# sourceMappingURL=index.js.map