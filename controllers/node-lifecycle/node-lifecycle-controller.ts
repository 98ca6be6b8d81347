/**
 * The node lifecycle controller's wiring: informers for Nodes, node Leases and Pods (indexed
 * by node name), the node monitor (node-monitor.ts) with its ticker, and the taint eviction
 * controller (taint-eviction.ts). Nothing here makes decisions.
 */

import { ignoreDeletes, newControllerManagedBy } from '../runtime/builder.js';
import type { Controller } from '../runtime/controller.js';
import { indexByNodeName, NODE_NAME_INDEX } from '../runtime/indexers.js';
import { KINDS } from '../runtime/kinds.js';
import type { Manager } from '../runtime/manager.js';
import { evictablePods, evictionFactsChanged, heartbeatNode, podsOnNode } from './event-handlers.js';
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

/** NodeLifecycleControllerOptions configures registerNodeLifecycleController; all times are
 * cluster time, so a faster cluster clock shortens them all alike. */
export interface NodeLifecycleControllerOptions {
  /** How often every node's health is checked (--node-monitor-period). Default 5 s. */
  nodeMonitorPeriodMs?: number;
  /** How long a kubelet may be silent before its node turns Unknown (--node-monitor-grace-period). Default 40 s. */
  nodeMonitorGracePeriodMs?: number;
  /** How long a new node may take to report Ready at all (--node-startup-grace-period). Default 60 s. */
  nodeStartupGracePeriodMs?: number;
  /** Concurrent node health checks (of different nodes). Default 4. */
  monitorWorkers?: number;
  /** Concurrent pod evictions. Default 8, as Kubernetes' taint eviction workers. */
  evictionWorkers?: number;
}

/** NodeLifecycleControllers are the two controllers registerNodeLifecycleController adds. */
export interface NodeLifecycleControllers {
  monitor: Controller;
  eviction: Controller;
}

/**
 * registerNodeLifecycleController adds the node lifecycle controller to `manager` (call before
 * manager.start()): the node monitor turns silent nodes Unknown and keeps the not-ready and
 * unreachable taints in step with node conditions; taint eviction deletes pods that do not
 * tolerate a node's NoExecute taints (at once, or after their tolerationSeconds) and
 * force-deletes pods left terminating on unreachable nodes. Returns both controllers (for
 * their stats). Throws if another registrant already added NODE_NAME_INDEX to the shared
 * Pod informer.
 */
export function registerNodeLifecycleController(manager: Manager, options: NodeLifecycleControllerOptions = {}): NodeLifecycleControllers {
  const monitor = createMonitorController(manager, options);
  const eviction = createEvictionController(manager, options);
  const periodMs = options.nodeMonitorPeriodMs ?? DEFAULT_NODE_MONITOR_PERIOD_MS;
  manager.add(createMonitorTicker({ clock: manager.clock, periodMs, nodeLister: manager.informer(KINDS.node).lister, queue: monitor.queue }));
  return { monitor, eviction };
}

function createMonitorController(manager: Manager, options: NodeLifecycleControllerOptions): Controller {
  const { clock, logger } = manager;
  return newControllerManagedBy(manager)
    .named(NODE_LIFECYCLE_CONTROLLER_NAME)
    .for(KINDS.node, { predicates: ignoreDeletes })
    .watches(KINDS.lease, heartbeatNode, { informer: { namespace: NODE_LEASE_NAMESPACE }, predicates: ignoreDeletes })
    .workers(options.monitorWorkers ?? 4)
    .complete(({ lister }) =>
      createNodeMonitorReconciler({
        nodeLister: lister(KINDS.node),
        leaseLister: lister(KINDS.lease, { namespace: NODE_LEASE_NAMESPACE }),
        podLister: lister(KINDS.pod),
        nodes: manager.client.resource(KINDS.node),
        pods: manager.client.resource(KINDS.pod),
        recorder: manager.recorder(),
        clock,
        logger,
        gracePeriodMs: options.nodeMonitorGracePeriodMs ?? DEFAULT_NODE_MONITOR_GRACE_PERIOD_MS,
        startupGracePeriodMs: options.nodeStartupGracePeriodMs ?? DEFAULT_NODE_STARTUP_GRACE_PERIOD_MS,
      }),
    );
}

function createEvictionController(manager: Manager, options: NodeLifecycleControllerOptions): Controller {
  const { clock, logger } = manager;
  const nodeLister = manager.informer(KINDS.node).lister;
  const podLister = manager.informer(KINDS.pod).lister;
  return newControllerManagedBy(manager)
    .named(TAINT_EVICTION_CONTROLLER_NAME)
    .for(KINDS.pod, { predicates: evictablePods(nodeLister) })
    .watches(KINDS.node, podsOnNode(podLister), { predicates: { update: evictionFactsChanged } })
    .withIndexer(KINDS.pod, NODE_NAME_INDEX, indexByNodeName)
    .workers(options.evictionWorkers ?? 8)
    .complete(() =>
      createTaintEvictionReconciler({
        nodeLister,
        podLister,
        pods: manager.client.resource(KINDS.pod),
        recorder: manager.recorder(),
        // Sightings of taints without timeAdded live as long as this process (see TaintClock).
        taintClock: new TaintClock(clock),
        clock,
        logger,
      }),
    );
}
