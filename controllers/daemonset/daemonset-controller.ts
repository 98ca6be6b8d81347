/**
 * The DaemonSet controller's wiring: which informers it reads (DaemonSets, Nodes, Pods),
 * which events wake which DaemonSet, and the reconciler and workers that do the work
 * (reconcile.ts). Nothing here makes decisions.
 *
 * Wired by hand, not with the controller builder (runtime/builder.ts), for the ReplicaSet
 * controller's reasons: pod events are expectations bookkeeping (creations and deletions
 * observed, a pod first seen terminating counts as deleted, a re-created DaemonSet drops the
 * old one's), an owner counts only when its uid matches, and a pod turning ready requeues its
 * DaemonSet after minReadySeconds. event-handlers.ts keeps those rules together.
 */

import { createComponentRecorder } from '../runtime/component-recorder.js';
import { type Controller, createController } from '../runtime/controller.js';
import { createExpectations } from '../runtime/expectations.js';
import { indexByOwnerUid } from '../runtime/indexers.js';
import { KINDS } from '../runtime/kinds.js';
import type { Manager } from '../runtime/manager.js';
import type { EventRecorder } from '../runtime/types.js';
import { daemonSetEventHandlers, nodeEventHandlers, podEventHandlers } from './event-handlers.js';
import { FailedPodBackoff } from './failed-pod-backoff.js';
import { createDaemonSetReconciler, DAEMONSET_POD_INDEX } from './reconcile.js';

/** DAEMONSET_CONTROLLER_NAME names the controller in logs and counters. */
export const DAEMONSET_CONTROLLER_NAME = 'daemonset';

/** DAEMONSET_EVENT_SOURCE is the source.component of the controller's events. */
export const DAEMONSET_EVENT_SOURCE = 'daemonset-controller';

/** DaemonSetControllerOptions configures registerDaemonSetController. */
export interface DaemonSetControllerOptions {
  /** Concurrent reconciles (of different DaemonSets). Default 2, as kube-controller-manager. */
  workers?: number;
  /** Where events go. Default: a recorder of its own whose source is `daemonset-controller`. */
  recorder?: EventRecorder;
}

/**
 * registerDaemonSetController adds the DaemonSet controller to `manager`: shared informers for
 * DaemonSets, Nodes and Pods (indexed by owner uid under DAEMONSET_POD_INDEX), their handlers
 * and a controller running the reconciler. Call it before manager.start(). Returns the
 * controller. Throws if DAEMONSET_POD_INDEX is already registered on the pod informer.
 */
export function registerDaemonSetController(manager: Manager, { workers = 2, recorder }: DaemonSetControllerOptions = {}): Controller {
  const daemonSetInformer = manager.informer(KINDS.daemonSet);
  const nodeInformer = manager.informer(KINDS.node);
  const podInformer = manager.informer(KINDS.pod);
  podInformer.addIndexer(DAEMONSET_POD_INDEX, indexByOwnerUid);
  // Expectations and the failed-pod backoff live as long as this process, as in Kubernetes.
  const expectations = createExpectations({ clock: manager.clock });
  const reconciler = createDaemonSetReconciler({
    daemonSetLister: daemonSetInformer.lister,
    nodeLister: nodeInformer.lister,
    podLister: podInformer.lister,
    daemonSets: manager.client.resource(KINDS.daemonSet),
    pods: manager.client.resource(KINDS.pod),
    recorder: recorder ?? createComponentRecorder(manager, DAEMONSET_EVENT_SOURCE),
    expectations,
    backoff: new FailedPodBackoff(),
    clock: manager.clock,
  });
  const controller = createController({
    name: DAEMONSET_CONTROLLER_NAME,
    reconciler,
    workers,
    clock: manager.clock,
    logger: manager.logger,
    random: manager.random.fork(DAEMONSET_CONTROLLER_NAME),
  });
  const handlerDeps = { daemonSetLister: daemonSetInformer.lister, expectations, queue: controller.queue };
  daemonSetInformer.addEventHandlers(daemonSetEventHandlers(handlerDeps));
  podInformer.addEventHandlers(podEventHandlers(handlerDeps));
  nodeInformer.addEventHandlers(nodeEventHandlers(handlerDeps));
  manager.add(controller);
  return controller;
}
