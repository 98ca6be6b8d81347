/**
 * The CronJob controller's wiring: CronJob and Job informers (Jobs indexed by their
 * CronJob's uid), handlers that only enqueue, and the reconciler (reconcile.ts).
 */
import { cronJobDefinition, type Job, jobDefinition } from '../../apiserver/api/batch/index.js';
import { createComponentRecorder } from '../runtime/component-recorder.js';
import { type Controller, createController } from '../runtime/controller.js';
import type { Manager } from '../runtime/manager.js';
import { keyOf } from '../runtime/reconciler.js';
import type { DeepReadonly } from '../runtime/types.js';
import { CRONJOB_UID_INDEX, createCronJobReconciler, indexByCronJobUid } from './reconcile.js';

/** CRONJOB_CONTROLLER_NAME names the controller in logs; CRONJOB_EVENT_SOURCE its events. */
export const CRONJOB_CONTROLLER_NAME = 'cronjob';
export const CRONJOB_EVENT_SOURCE = 'cronjob-controller';

/** registerCronJobController adds the CronJob controller to `manager`. Call before start(). */
export function registerCronJobController(manager: Manager, { workers = 5 }: { workers?: number } = {}): Controller {
  const cronJobInformer = manager.informer(cronJobDefinition);
  const jobInformer = manager.informer(jobDefinition);
  jobInformer.addIndexer(CRONJOB_UID_INDEX, indexByCronJobUid);
  const reconciler = createCronJobReconciler({
    cronJobLister: cronJobInformer.lister,
    jobLister: jobInformer.lister,
    cronJobs: manager.client.resource(cronJobDefinition),
    jobs: manager.client.resource(jobDefinition),
    recorder: createComponentRecorder(manager, CRONJOB_EVENT_SOURCE),
    clock: manager.clock,
  });
  const controller = createController({
    name: CRONJOB_CONTROLLER_NAME,
    reconciler,
    workers,
    clock: manager.clock,
    logger: manager.logger,
    random: manager.random.fork(CRONJOB_CONTROLLER_NAME),
  });
  const enqueue = (object: { metadata: { namespace?: string; name?: string } }) => controller.queue.add(keyOf(object));
  cronJobInformer.addEventHandlers({ onAdd: enqueue, onUpdate: (_old, cj) => enqueue(cj), onDelete: enqueue });
  const enqueueOwner = (job: DeepReadonly<Job>) => {
    const ref = job.metadata.ownerReferences?.find((r) => r.controller === true && r.kind === 'CronJob');
    if (ref) enqueue({ metadata: { namespace: job.metadata.namespace, name: ref.name } });
  };
  jobInformer.addEventHandlers({ onAdd: enqueueOwner, onUpdate: (_old, job) => enqueueOwner(job), onDelete: enqueueOwner });
  manager.add(controller);
  return controller;
}
