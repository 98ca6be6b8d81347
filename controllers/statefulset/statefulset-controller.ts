/**
 * The StatefulSet controller's wiring: informers for StatefulSets, their pods and
 * ControllerRevisions (indexed by controlling set) and claims, the event handlers and the
 * reconciler's workers. Nothing here makes decisions.
 */
import { controllerRevisionDefinition } from '../../apiserver/api/apps/controller-revision.js';
import { statefulSetDefinition } from '../../apiserver/api/apps/stateful-set.js';
import { persistentVolumeClaimDefinition } from '../../apiserver/api/core/persistent-volume-claim.js';
import { podDefinition } from '../../apiserver/api/core/pod.js';
import { createComponentRecorder } from '../runtime/component-recorder.js';
import { type Controller, createController } from '../runtime/controller.js';
import type { Manager } from '../runtime/manager.js';
import { requestKey } from '../runtime/reconciler.js';
import type { EventRecorder } from '../runtime/types.js';
import { indexBySetUid, SET_UID_INDEX } from './deps.js';
import { ownedEventHandlers, statefulSetEventHandlers } from './event-handlers.js';
import { createStatefulSetReconciler } from './reconcile.js';

/** STATEFULSET_CONTROLLER_NAME names the controller in logs and counters. */
export const STATEFULSET_CONTROLLER_NAME = 'statefulset';
/** STATEFULSET_EVENT_SOURCE is the source.component of the controller's events. */
export const STATEFULSET_EVENT_SOURCE = 'statefulset-controller';

/** StatefulSetControllerOptions configures registerStatefulSetController. */
export interface StatefulSetControllerOptions {
  /** Concurrent reconciles (of different sets). Default 5. */
  workers?: number;
  /** Where events go. Default: a recorder whose source.component is `statefulset-controller`. */
  recorder?: EventRecorder;
}

/**
 * registerStatefulSetController adds the StatefulSet controller to `manager`. Call it before
 * manager.start(). Returns the controller. Throws if SET_UID_INDEX was already added to the
 * shared pod or revision informer by another registrant.
 */
export function registerStatefulSetController(manager: Manager, { workers = 5, recorder }: StatefulSetControllerOptions = {}): Controller {
  const setInformer = manager.informer(statefulSetDefinition);
  const podInformer = manager.informer(podDefinition);
  const revisionInformer = manager.informer(controllerRevisionDefinition);
  const claimInformer = manager.informer(persistentVolumeClaimDefinition);
  podInformer.addIndexer(SET_UID_INDEX, indexBySetUid);
  revisionInformer.addIndexer(SET_UID_INDEX, indexBySetUid);
  const reconciler = createStatefulSetReconciler({
    setLister: setInformer.lister,
    podLister: podInformer.lister,
    revisionLister: revisionInformer.lister,
    claimLister: claimInformer.lister,
    sets: manager.client.resource(statefulSetDefinition),
    pods: manager.client.resource(podDefinition),
    revisions: manager.client.resource(controllerRevisionDefinition),
    claims: manager.client.resource(persistentVolumeClaimDefinition),
    recorder: recorder ?? createComponentRecorder(manager, STATEFULSET_EVENT_SOURCE),
    clock: manager.clock,
    logger: manager.logger,
  });
  const controller = createController({
    name: STATEFULSET_CONTROLLER_NAME,
    reconciler,
    workers,
    clock: manager.clock,
    logger: manager.logger,
    random: manager.random.fork(STATEFULSET_CONTROLLER_NAME),
  });
  const handlerDeps = { setLister: setInformer.lister, enqueue: (namespace: string, name: string) => controller.queue.add(requestKey({ namespace, name })) };
  setInformer.addEventHandlers(statefulSetEventHandlers(handlerDeps));
  podInformer.addEventHandlers(ownedEventHandlers(handlerDeps));
  revisionInformer.addEventHandlers(ownedEventHandlers(handlerDeps));
  manager.add(controller);
  return controller;
}
