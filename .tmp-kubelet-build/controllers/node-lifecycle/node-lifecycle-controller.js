/**
 * The node lifecycle controller's wiring: informers for Nodes, node Leases and Pods (indexed
 * by node name), the node monitor (node-monitor.ts) with its ticker, and the taint eviction
 * controller (taint-eviction.ts). Nothing here makes decisions.
 */
import { leaseDefinition } from '../../apiserver/api/coordination/lease.js';
import { nodeDefinition } from '../../apiserver/api/core/node.js';
import { podDefinition } from '../../apiserver/api/core/pod.js';
import { createController } from '../runtime/controller.js';
import { indexByNodeName, NODE_NAME_INDEX } from '../runtime/indexers.js';
import { evictionNodeHandlers, evictionPodHandlers, monitorLeaseHandlers, monitorNodeHandlers } from './event-handlers.js';
import { TaintClock } from './eviction-plan.js';
import { NODE_LEASE_NAMESPACE } from './node-health.js';
import { createMonitorTicker, createNodeMonitorReconciler } from './node-monitor.js';
import { createTaintEvictionReconciler } from './taint-eviction.js';
/** NODE_LIFECYCLE_CONTROLLER_NAME names the node monitor in logs and counters. */
export const NODE_LIFECYCLE_CONTROLLER_NAME = 'node-lifecycle';
/** TAINT_EVICTION_CONTROLLER_NAME names the taint eviction controller in logs and counters. */
export const TAINT_EVICTION_CONTROLLER_NAME = 'taint-eviction';
/** Kubernetes' defaults (kube-controller-manager flags), in cluster time. */
export const DEFAULT_NODE_MONITOR_PERIOD_MS = 5_000;
export const DEFAULT_NODE_MONITOR_GRACE_PERIOD_MS = 40_000;
export const DEFAULT_NODE_STARTUP_GRACE_PERIOD_MS = 60_000;
/**
 * registerNodeLifecycleController adds the node lifecycle controller to `manager` (call before
 * manager.start()): the node monitor turns silent nodes Unknown and keeps the not-ready and
 * unreachable taints in step with node conditions; taint eviction deletes pods that do not
 * tolerate a node's NoExecute taints (at once, or after their tolerationSeconds) and
 * force-deletes pods left terminating on unreachable nodes. Returns both controllers (for
 * their stats). Throws if another registrant already added NODE_NAME_INDEX to the shared
 * Pod informer.
 */
export function registerNodeLifecycleController(manager, options = {}) {
    const informers = {
        nodes: manager.informer(nodeDefinition),
        leases: manager.informer(leaseDefinition, { namespace: NODE_LEASE_NAMESPACE }),
        pods: manager.informer(podDefinition),
    };
    informers.pods.addIndexer(NODE_NAME_INDEX, indexByNodeName);
    const monitor = createMonitorController(manager, informers, options);
    const eviction = createEvictionController(manager, informers, options);
    const listers = { nodeLister: informers.nodes.lister, podLister: informers.pods.lister };
    informers.nodes.addEventHandlers(monitorNodeHandlers(monitor.queue));
    informers.leases.addEventHandlers(monitorLeaseHandlers(monitor.queue));
    informers.nodes.addEventHandlers(evictionNodeHandlers({ ...listers, queue: eviction.queue }));
    informers.pods.addEventHandlers(evictionPodHandlers({ ...listers, queue: eviction.queue }));
    const periodMs = options.nodeMonitorPeriodMs ?? DEFAULT_NODE_MONITOR_PERIOD_MS;
    manager.add(createMonitorTicker({ clock: manager.clock, periodMs, nodeLister: informers.nodes.lister, queue: monitor.queue }));
    manager.add(monitor);
    manager.add(eviction);
    return { monitor, eviction };
}
function createMonitorController(manager, informers, options) {
    const { clock, logger } = manager;
    const reconciler = createNodeMonitorReconciler({
        nodeLister: informers.nodes.lister,
        leaseLister: informers.leases.lister,
        podLister: informers.pods.lister,
        nodes: manager.client.resource(nodeDefinition),
        pods: manager.client.resource(podDefinition),
        recorder: manager.recorder(),
        clock,
        logger,
        gracePeriodMs: options.nodeMonitorGracePeriodMs ?? DEFAULT_NODE_MONITOR_GRACE_PERIOD_MS,
        startupGracePeriodMs: options.nodeStartupGracePeriodMs ?? DEFAULT_NODE_STARTUP_GRACE_PERIOD_MS,
    });
    return createController({ name: NODE_LIFECYCLE_CONTROLLER_NAME, reconciler, workers: options.monitorWorkers ?? 4, clock, logger });
}
function createEvictionController(manager, informers, options) {
    const { clock, logger } = manager;
    const reconciler = createTaintEvictionReconciler({
        nodeLister: informers.nodes.lister,
        podLister: informers.pods.lister,
        pods: manager.client.resource(podDefinition),
        recorder: manager.recorder(),
        // Sightings of taints without timeAdded live as long as this process (see TaintClock).
        taintClock: new TaintClock(clock),
        clock,
        logger,
    });
    return createController({ name: TAINT_EVICTION_CONTROLLER_NAME, reconciler, workers: options.evictionWorkers ?? 8, clock, logger });
}
//# sourceMappingURL=node-lifecycle-controller.js.map