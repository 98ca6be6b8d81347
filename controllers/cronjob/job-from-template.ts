/**
 * The Job a CronJob creates for one schedule time (Kubernetes' getJobFromTemplate2): the
 * jobTemplate's labels, annotations and spec, the deterministic name `<cronjob>-<minutes>`,
 * the scheduled-timestamp annotation and a controller reference to the CronJob. Pure.
 */
import type { CronJob, Job } from '../../apiserver/api/batch/index.js';
import { newControllerRef } from '../../apiserver/api/machinery/owner-references.js';
import { rfc3339 } from '../../apiserver/api/machinery/time.js';
import type { OwnerReference } from '../../apiserver/api/meta.js';
import type { DeepReadonly } from '../runtime/types.js';
import { jobNameFor } from './schedule.js';

/** SCHEDULED_TIMESTAMP_ANNOTATION records the schedule time a Job was created for. */
export const SCHEDULED_TIMESTAMP_ANNOTATION = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

/** cronJobControllerRef is the ownerReference every Job of the CronJob carries. */
export function cronJobControllerRef(cronJob: DeepReadonly<CronJob>): OwnerReference {
  return newControllerRef(cronJob, 'batch/v1', 'CronJob');
}

/** jobFromTemplate builds the Job for `scheduledMs`. */
export function jobFromTemplate(cronJob: DeepReadonly<CronJob>, scheduledMs: number): Job {
  const template = structuredClone(cronJob.spec.jobTemplate) as CronJob['spec']['jobTemplate'];
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: jobNameFor(cronJob.metadata.name ?? '', scheduledMs),
      namespace: cronJob.metadata.namespace,
      labels: { ...template.metadata?.labels },
      annotations: { ...template.metadata?.annotations, [SCHEDULED_TIMESTAMP_ANNOTATION]: rfc3339(scheduledMs) },
      ownerReferences: [cronJobControllerRef(cronJob)],
    },
    spec: template.spec as Job['spec'],
  };
}
