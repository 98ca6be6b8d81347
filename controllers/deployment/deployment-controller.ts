/**
 * The Deployment controller's wiring: which informers it reads, which events wake which
 * Deployment, and the reconciler and workers that do the work (reconcile.ts). Nothing here
 * makes decisions.
 *
 * Wired by hand, not with the controller builder (runtime/builder.ts): a ReplicaSet resolves
 * to its Deployment only when the uid matches, an orphan wakes the Deployments selecting it
 * (and only when its labels or reference changed), a ReplicaSet first seen terminating counts
 * as deleted, and a pod wakes the Deployment two owners up, only for Recreate and only on
 * delete. event-handlers.ts says all that in one place, which the builder would only split.
 */

import { createComponentRecorder } from '../runtime/component-recorder.js';
import { type Controller, createController } from '../runtime/controller.js';
import { indexByOwnerUid, OWNER_UID_INDEX } from '../runtime/indexers.js';
import { KINDS } from '../runtime/kinds.js';
import type { Manager } from '../runtime/manager.js';
import { keyOf } from '../runtime/reconciler.js';
import type { EventRecorder } from '../runtime/types.js';
import { deploymentEventHandlers, type HandlerDeps, podEventHandlers, replicaSetEventHandlers } from './event-handlers.js';
import { createDeploymentReconciler } from './reconcile.js';

/** DEPLOYMENT_CONTROLLER_NAME names the controller in logs and counters. */
export const DEPLOYMENT_CONTROLLER_NAME = 'deployment';

/** DeploymentControllerOptions configures registerDeploymentController. */
export interface DeploymentControllerOptions {
  /** Concurrent reconciles (of different Deployments). Default 5, as kube-controller-manager. */
  workers?: number;
  /** Where events go. Default: a recorder of its own whose source.component is
   * `deployment-controller`, as kube-controller-manager's (what `kubectl describe` shows
   * under From), flushed when the manager stops. */
  recorder?: EventRecorder;
}

/** DEPLOYMENT_EVENT_SOURCE is the source.component of the controller's events. */
export const DEPLOYMENT_EVENT_SOURCE = 'deployment-controller';

/**
 * registerDeploymentController adds the Deployment controller to `manager`: shared informers
 * for Deployments, ReplicaSets (indexed by owner uid) and Pods (Recreate waits for old pods to
 * go), their event handlers, and a controller running the reconciler (see
 * DeploymentControllerOptions for where events go). Call it before manager.start(); the controller runs once the
 * caches have synced. Returns the controller (for its stats). Throws if another registrant
 * already added an index named OWNER_UID_INDEX to the shared ReplicaSet informer.
 */
export function registerDeploymentController(manager: Manager, { workers = 5, recorder }: DeploymentControllerOptions = {}): Controller {
  const deploymentInformer = manager.informer(KINDS.deployment);
  const replicaSetInformer = manager.informer(KINDS.replicaSet);
  const podInformer = manager.informer(KINDS.pod);
  replicaSetInformer.addIndexer(OWNER_UID_INDEX, indexByOwnerUid);
  const reconciler = createDeploymentReconciler({
    deploymentLister: deploymentInformer.lister,
    replicaSetLister: replicaSetInformer.lister,
    podLister: podInformer.lister,
    deployments: manager.client.resource(KINDS.deployment),
    replicaSets: manager.client.resource(KINDS.replicaSet),
    recorder: recorder ?? createComponentRecorder(manager, DEPLOYMENT_EVENT_SOURCE),
    clock: manager.clock,
    logger: manager.logger,
  });
  const controller = createController({
    name: DEPLOYMENT_CONTROLLER_NAME,
    reconciler,
    workers,
    clock: manager.clock,
    logger: manager.logger,
    random: manager.random.fork(DEPLOYMENT_CONTROLLER_NAME),
  });
  const handlerDeps: HandlerDeps = {
    deploymentLister: deploymentInformer.lister,
    replicaSetLister: replicaSetInformer.lister,
    enqueue: (deployment) => controller.queue.add(keyOf(deployment)),
  };
  deploymentInformer.addEventHandlers(deploymentEventHandlers(handlerDeps));
  replicaSetInformer.addEventHandlers(replicaSetEventHandlers(handlerDeps));
  podInformer.addEventHandlers(podEventHandlers(handlerDeps));
  manager.add(controller);
  return controller;
}
