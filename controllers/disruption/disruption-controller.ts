/**
 * The disruption controller's wiring: informers for PodDisruptionBudgets and Pods (a pod
 * wakes the budgets selecting it), and the reconciler's workers. Nothing here decides.
 */

import { newControllerManagedBy } from '../runtime/builder.js';
import { createComponentRecorder } from '../runtime/component-recorder.js';
import type { Controller } from '../runtime/controller.js';
import { KINDS } from '../runtime/kinds.js';
import type { Manager } from '../runtime/manager.js';
import { budgetKeysSelecting } from './event-handlers.js';
import { createDisruptionReconciler } from './reconcile.js';

/** DISRUPTION_CONTROLLER_NAME names the controller in logs and counters. */
export const DISRUPTION_CONTROLLER_NAME = 'disruption';
/** DISRUPTION_EVENT_SOURCE is the source.component of the controller's events. */
export const DISRUPTION_EVENT_SOURCE = 'controllermanager';

/** DisruptionControllerOptions configures registerDisruptionController. */
export interface DisruptionControllerOptions {
  /** Concurrent reconciles (of different budgets). Default 5. */
  workers?: number;
}

/**
 * registerDisruptionController adds the disruption controller to `manager` (call before
 * manager.start()): shared PodDisruptionBudget and Pod informers, their handlers, and the
 * reconciler. Returns the controller (for its stats).
 */
export function registerDisruptionController(manager: Manager, { workers = 5 }: DisruptionControllerOptions = {}): Controller {
  const budgetLister = manager.informer(KINDS.podDisruptionBudget).lister;
  return newControllerManagedBy(manager)
    .named(DISRUPTION_CONTROLLER_NAME)
    .for(KINDS.podDisruptionBudget)
    .watches(KINDS.pod, budgetKeysSelecting(budgetLister))
    .workers(workers)
    .complete(({ lister }) =>
      createDisruptionReconciler({
        budgetLister,
        podLister: lister(KINDS.pod),
        budgets: manager.client.resource(KINDS.podDisruptionBudget),
        client: manager.client,
        recorder: createComponentRecorder(manager, DISRUPTION_EVENT_SOURCE),
        clock: manager.clock,
      }),
    );
}
