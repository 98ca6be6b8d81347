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

export { evictionTime, type PodAction, type PodActionInputs, PodActionKind, planPodAction, TaintClock, type TimedTaint } from './eviction-plan.js';
export {
  assessNodeHealth,
  type HealthInputs,
  isNodeUnreachable,
  KUBELET_CONDITION_TYPES,
  NODE_LEASE_NAMESPACE,
  type NodeHealth,
  NodeStatusReason,
  unknownConditions,
} from './node-health.js';
export {
  DEFAULT_NODE_MONITOR_GRACE_PERIOD_MS,
  DEFAULT_NODE_MONITOR_PERIOD_MS,
  DEFAULT_NODE_STARTUP_GRACE_PERIOD_MS,
  NODE_LIFECYCLE_CONTROLLER_NAME,
  type NodeLifecycleControllerOptions,
  type NodeLifecycleControllers,
  registerNodeLifecycleController,
  TAINT_EVICTION_CONTROLLER_NAME,
} from './node-lifecycle-controller.js';
export { createMonitorTicker, createNodeMonitorReconciler, type MonitorTickerOptions, type NodeMonitorDeps } from './node-monitor.js';
export { createTaintEvictionReconciler, DISRUPTION_TARGET_CONDITION, type TaintEvictionDeps } from './taint-eviction.js';
export { desiredTaints, NOT_READY_TAINT, noExecuteTaints, toleratesTaint, UNREACHABLE_TAINT, UNSCHEDULABLE_TAINT, wantedTaints } from './taints.js';
