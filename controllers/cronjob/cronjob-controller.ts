/**
 * The CronJob controller's wiring: CronJob and Job informers (Jobs indexed by their
 * CronJob's uid; a Job wakes the CronJob controlling it) and the reconciler (reconcile.ts).
 */

import { newControllerManagedBy } from '../runtime/builder.js';
import { createComponentRecorder } from '../runtime/component-recorder.js';
import type { Controller } from '../runtime/controller.js';
import { KINDS } from '../runtime/kinds.js';
import type { Manager } from '../runtime/manager.js';
import { CRONJOB_UID_INDEX, createCronJobReconciler, indexByCronJobUid } from './reconcile.js';

/** CRONJOB_CONTROLLER_NAME names the controller in logs; CRONJOB_EVENT_SOURCE its events. */
export const CRONJOB_CONTROLLER_NAME = 'cronjob';
export const CRONJOB_EVENT_SOURCE = 'cronjob-controller';

/** registerCronJobController adds the CronJob controller to `manager`. Call before start(). */
export function registerCronJobController(manager: Manager, { workers = 5 }: { workers?: number } = {}): Controller {
  return newControllerManagedBy(manager)
    .named(CRONJOB_CONTROLLER_NAME)
    .for(KINDS.cronJob)
    .owns(KINDS.job)
    .withIndexer(KINDS.job, CRONJOB_UID_INDEX, indexByCronJobUid)
    .workers(workers)
    .complete(({ lister }) =>
      createCronJobReconciler({
        cronJobLister: lister(KINDS.cronJob),
        jobLister: lister(KINDS.job),
        cronJobs: manager.client.resource(KINDS.cronJob),
        jobs: manager.client.resource(KINDS.job),
        recorder: createComponentRecorder(manager, CRONJOB_EVENT_SOURCE),
        clock: manager.clock,
      }),
    );
}
