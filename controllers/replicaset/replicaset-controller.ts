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
import type { ReplicaSet } from '../../apiserver/api/apps/replica-set.js';
import type { KindRef, KubeObject } from '../../apiserver/api/resource-definition.js';
import { createComponentRecorder } from '../runtime/component-recorder.js';
import { type Controller, createController } from '../runtime/controller.js';
import { createExpectations } from '../runtime/expectations.js';
import { CONTROLLER_UID_INDEX, indexByControllerUid, indexByOwnerUid, OWNER_UID_INDEX } from '../runtime/indexers.js';
import { KINDS } from '../runtime/kinds.js';
import type { Manager } from '../runtime/manager.js';
import type { EventRecorder } from '../runtime/types.js';
import { podEventHandlers, replicaSetEventHandlers } from './event-handlers.js';
import { type OwnerKind, REPLICA_SET_KIND } from './owners.js';
import { createReplicaSetReconciler } from './reconcile.js';
import { IDENTITY_VIEW, type ReplicaSetView, viewClient, viewHandlers, viewLister } from './replica-set-view.js';

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

/** LoopKind says which kind a run of the loop serves and how it sees it as ReplicaSets. */
export interface LoopKind<T extends KubeObject> {
  /** The controller's name in logs and counters. */
  name: string;
  /** The source.component of its events (unless options.recorder is given). */
  eventSource: string;
  definition: KindRef<T>;
  /** How pods' controller references and events name the kind. */
  owner: OwnerKind;
  view: ReplicaSetView<T>;
  /** The kind's status has no terminatingReplicas. */
  omitTerminatingReplicas?: boolean;
}

const REPLICA_SET_LOOP: LoopKind<ReplicaSet> = {
  name: REPLICASET_CONTROLLER_NAME,
  eventSource: REPLICASET_EVENT_SOURCE,
  definition: KINDS.replicaSet,
  owner: REPLICA_SET_KIND,
  view: IDENTITY_VIEW,
};

/**
 * registerReplicaSetController adds the ReplicaSet controller to `manager`: shared informers
 * for ReplicaSets (indexed by controller uid) and Pods (indexed by owner uid), their event
 * handlers, and a controller running the reconciler (see ReplicaSetControllerOptions for
 * where events go). Call it before manager.start(); the controller runs once the caches have
 * synced. Returns the controller (for its stats).
 * Throws if another registrant already added one of these index names to the shared informers.
 */
export function registerReplicaSetController(manager: Manager, options: ReplicaSetControllerOptions = {}): Controller {
  return registerReplicaSetLoop(manager, REPLICA_SET_LOOP, options);
}

/** registerReplicaSetLoop registers the loop for `kind` (ReplicaSets, or a kind seen as
 * them through kind.view); registerReplicaSetController describes what it adds. */
export function registerReplicaSetLoop<T extends KubeObject>(
  manager: Manager,
  kind: LoopKind<T>,
  { workers = 5, recorder }: ReplicaSetControllerOptions,
): Controller {
  const ownInformer = manager.informer(kind.definition);
  const podInformer = manager.informer(KINDS.pod);
  ownInformer.addIndexer(CONTROLLER_UID_INDEX, indexByControllerUid);
  podInformer.addIndexer(OWNER_UID_INDEX, indexByOwnerUid);
  const replicaSetLister = viewLister(ownInformer.lister, kind.view);
  // Expectations live as long as this process: a restart starts without any, on purpose.
  const expectations = createExpectations({ clock: manager.clock });
  const reconciler = createReplicaSetReconciler({
    replicaSetLister,
    podLister: podInformer.lister,
    replicaSets: viewClient(manager.client.resource(kind.definition), kind.view),
    pods: manager.client.resource(KINDS.pod),
    owner: kind.owner,
    omitTerminatingReplicas: kind.omitTerminatingReplicas,
    recorder: recorder ?? createComponentRecorder(manager, kind.eventSource),
    expectations,
    clock: manager.clock,
    logger: manager.logger,
  });
  const controller = createController({
    name: kind.name,
    reconciler,
    workers,
    clock: manager.clock,
    logger: manager.logger,
    random: manager.random.fork(kind.name),
  });
  const handlerDeps = { replicaSetLister, owner: kind.owner, expectations, queue: controller.queue };
  ownInformer.addEventHandlers(viewHandlers(replicaSetEventHandlers(handlerDeps), kind.view));
  podInformer.addEventHandlers(podEventHandlers(handlerDeps));
  manager.add(controller);
  return controller;
}
