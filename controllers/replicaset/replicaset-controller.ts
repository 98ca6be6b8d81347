/**
 * The ReplicaSet controller's wiring: which informers it reads, which events wake which
 * ReplicaSet, and the reconciler and workers that do the work (reconcile.ts). Nothing here
 * makes decisions.
 *
 * Wired by hand, not with the controller builder (runtime/builder.ts): its pod handlers are
 * the loop's bookkeeping, not a mapping — an owned pod resolves to its ReplicaSet only when the
 * uid matches, an orphan wakes every ReplicaSet selecting it (adoption), creations and
 * deletions (including the start of a graceful one) tick off expectations, a re-created
 * ReplicaSet drops the old one's, and a pod turning ready requeues its owner after
 * minReadySeconds. Expressed through the builder it would be the same handlers behind hooks.
 */
import { replicaSetDefinition } from '../../apiserver/api/apps/replica-set.js';
import { podDefinition } from '../../apiserver/api/core/pod.js';
import { createComponentRecorder } from '../runtime/component-recorder.js';
import { type Controller, createController } from '../runtime/controller.js';
import { createExpectations } from '../runtime/expectations.js';
import { CONTROLLER_UID_INDEX, indexByControllerUid, indexByOwnerUid, OWNER_UID_INDEX } from '../runtime/indexers.js';
import type { Manager } from '../runtime/manager.js';
import type { EventRecorder } from '../runtime/types.js';
import { podEventHandlers, replicaSetEventHandlers } from './event-handlers.js';
import { createReplicaSetReconciler } from './reconcile.js';

/** REPLICASET_CONTROLLER_NAME names the controller in logs and counters. */
export const REPLICASET_CONTROLLER_NAME = 'replicaset';

/** ReplicaSetControllerOptions configures registerReplicaSetController. */
export interface ReplicaSetControllerOptions {
  /** Concurrent reconciles (of different ReplicaSets). Default 5, as kube-controller-manager. */
  workers?: number;
  /** Where events go. Default: a recorder of its own whose source.component is
   * `replicaset-controller`, as kube-controller-manager's (what `kubectl describe` shows
   * under From), whatever else the manager runs. */
  recorder?: EventRecorder;
}

/** REPLICASET_EVENT_SOURCE is the source.component of the controller's events. */
export const REPLICASET_EVENT_SOURCE = 'replicaset-controller';

/**
 * registerReplicaSetController adds the ReplicaSet controller to `manager`: shared informers
 * for ReplicaSets (indexed by controller uid) and Pods (indexed by owner uid), their event
 * handlers, and a controller running the reconciler (see ReplicaSetControllerOptions for
 * where events go). Call it before manager.start(); the controller runs once the caches have
 * synced. Returns the controller (for its stats).
 * Throws if another registrant already added one of these index names to the shared informers.
 */
export function registerReplicaSetController(manager: Manager, { workers = 5, recorder }: ReplicaSetControllerOptions = {}): Controller {
  const replicaSetInformer = manager.informer(replicaSetDefinition);
  const podInformer = manager.informer(podDefinition);
  replicaSetInformer.addIndexer(CONTROLLER_UID_INDEX, indexByControllerUid);
  podInformer.addIndexer(OWNER_UID_INDEX, indexByOwnerUid);
  // Expectations live as long as this process: a restart starts without any, on purpose.
  const expectations = createExpectations({ clock: manager.clock });
  const reconciler = createReplicaSetReconciler({
    replicaSetLister: replicaSetInformer.lister,
    podLister: podInformer.lister,
    replicaSets: manager.client.resource(replicaSetDefinition),
    pods: manager.client.resource(podDefinition),
    recorder: recorder ?? createComponentRecorder(manager, REPLICASET_EVENT_SOURCE),
    expectations,
    clock: manager.clock,
    logger: manager.logger,
  });
  const controller = createController({
    name: REPLICASET_CONTROLLER_NAME,
    reconciler,
    workers,
    clock: manager.clock,
    logger: manager.logger,
    random: manager.random.fork(REPLICASET_CONTROLLER_NAME),
  });
  const handlerDeps = { replicaSetLister: replicaSetInformer.lister, expectations, queue: controller.queue };
  replicaSetInformer.addEventHandlers(replicaSetEventHandlers(handlerDeps));
  podInformer.addEventHandlers(podEventHandlers(handlerDeps));
  manager.add(controller);
  return controller;
}
