/**
 * The StatefulSet controller's wiring: informers for StatefulSets, their pods and
 * ControllerRevisions (indexed by controlling set) and claims, the event handlers and the
 * reconciler's workers. Nothing here makes decisions.
 */
import { controllerRevisionDefinition } from '../../apiserver/api/apps/controller-revision.js';
import { statefulSetDefinition } from '../../apiserver/api/apps/stateful-set.js';
import { persistentVolumeClaimDefinition } from '../../apiserver/api/core/persistent-volume-claim.js';
import { podDefinition } from '../../apiserver/api/core/pod.js';
import { newControllerManagedBy } from '../runtime/builder.js';
import { createComponentRecorder } from '../runtime/component-recorder.js';
import type { Controller } from '../runtime/controller.js';
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
  const setLister = manager.informer(statefulSetDefinition).lister;
  return (
    newControllerManagedBy(manager)
      .named(STATEFULSET_CONTROLLER_NAME)
      .for(statefulSetDefinition)
      // watches, not owns: an object whose controller is not the cached set of that uid (a
      // deleted set, or an older one of the same name) wakes nobody, as in Kubernetes.
      .watches(podDefinition, controllingSet(setLister))
      .watches(controllerRevisionDefinition, controllingSet(setLister))
      .withIndexer(podDefinition, SET_UID_INDEX, indexBySetUid)
      .withIndexer(controllerRevisionDefinition, SET_UID_INDEX, indexBySetUid)
      .workers(workers)
      .complete(({ lister }) =>
        createStatefulSetReconciler({
          setLister,
          podLister: lister(podDefinition),
          revisionLister: lister(controllerRevisionDefinition),
          claimLister: lister(persistentVolumeClaimDefinition),
          sets: manager.client.resource(statefulSetDefinition),
          pods: manager.client.resource(podDefinition),
          revisions: manager.client.resource(controllerRevisionDefinition),
          claims: manager.client.resource(persistentVolumeClaimDefinition),
          recorder: recorder ?? createComponentRecorder(manager, STATEFULSET_EVENT_SOURCE),
          clock: manager.clock,
          logger: manager.logger,
        }),
      )
  );
}
