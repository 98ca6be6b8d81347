/**
 * The CronJob controller's wiring: CronJob and Job informers (Jobs indexed by their
 * CronJob's uid; a Job wakes the CronJob controlling it) and the reconciler (reconcile.ts).
 */
import { cronJobDefinition, jobDefinition } from '../../apiserver/api/batch/index.js';
import { newControllerManagedBy } from '../runtime/builder.js';
import { createComponentRecorder } from '../runtime/component-recorder.js';
import type { Controller } from '../runtime/controller.js';
import type { Manager } from '../runtime/manager.js';
import { CRONJOB_UID_INDEX, createCronJobReconciler, indexByCronJobUid } from './reconcile.js';

/** CRONJOB_CONTROLLER_NAME names the controller in logs; CRONJOB_EVENT_SOURCE its events. */
export const CRONJOB_CONTROLLER_NAME = 'cronjob';
export const CRONJOB_EVENT_SOURCE = 'cronjob-controller';

/** registerCronJobController adds the CronJob controller to `manager`. Call before start(). */
export function registerCronJobController(manager: Manager, { workers = 5 }: { workers?: number } = {}): Controller {
  return newControllerManagedBy(manager)
    .named(CRONJOB_CONTROLLER_NAME)
    .for(cronJobDefinition)
    .owns(jobDefinition)
    .withIndexer(jobDefinition, CRONJOB_UID_INDEX, indexByCronJobUid)
    .workers(workers)
    .complete(({ lister }) =>
      createCronJobReconciler({
        cronJobLister: lister(cronJobDefinition),
        jobLister: lister(jobDefinition),
        cronJobs: manager.client.resource(cronJobDefinition),
        jobs: manager.client.resource(jobDefinition),
        recorder: createComponentRecorder(manager, CRONJOB_EVENT_SOURCE),
        clock: manager.clock,
      }),
    );
}
