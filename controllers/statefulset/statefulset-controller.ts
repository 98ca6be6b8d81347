/**
 * The StatefulSet controller's wiring: informers for StatefulSets, their pods and
 * ControllerRevisions (indexed by controlling set) and claims, the event handlers and the
 * reconciler's workers. Nothing here makes decisions.
 */

import { newControllerManagedBy } from '../runtime/builder.js';
import { createComponentRecorder } from '../runtime/component-recorder.js';
import type { Controller } from '../runtime/controller.js';
import { KINDS } from '../runtime/kinds.js';
import type { Manager } from '../runtime/manager.js';
import type { EventRecorder } from '../runtime/types.js';
import { indexBySetUid, SET_UID_INDEX } from './deps.js';
import { controllingSet } from './event-handlers.js';
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
  const setLister = manager.informer(KINDS.statefulSet).lister;
  return (
    newControllerManagedBy(manager)
      .named(STATEFULSET_CONTROLLER_NAME)
      .for(KINDS.statefulSet)
      // watches, not owns: an object whose controller is not the cached set of that uid (a
      // deleted set, or an older one of the same name) wakes nobody, as in Kubernetes.
      .watches(KINDS.pod, controllingSet(setLister))
      .watches(KINDS.controllerRevision, controllingSet(setLister))
      .withIndexer(KINDS.pod, SET_UID_INDEX, indexBySetUid)
      .withIndexer(KINDS.controllerRevision, SET_UID_INDEX, indexBySetUid)
      .workers(workers)
      .complete(({ lister }) =>
        createStatefulSetReconciler({
          setLister,
          podLister: lister(KINDS.pod),
          revisionLister: lister(KINDS.controllerRevision),
          claimLister: lister(KINDS.persistentVolumeClaim),
          sets: manager.client.resource(KINDS.statefulSet),
          pods: manager.client.resource(KINDS.pod),
          revisions: manager.client.resource(KINDS.controllerRevision),
          claims: manager.client.resource(KINDS.persistentVolumeClaim),
          recorder: recorder ?? createComponentRecorder(manager, STATEFULSET_EVENT_SOURCE),
          clock: manager.clock,
          logger: manager.logger,
        }),
      )
  );
}
