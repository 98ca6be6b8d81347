/**
 * batch: Jobs (run pods to completion) and CronJobs (create Jobs on a schedule), batch/v1.
 *
 * Role: schemas, defaults, validation and table columns of the group. May import only from
 * apiserver/api/, zod and croner (schedule validation). See docs/controllers.md.
 */
import type { AnyResourceDefinition } from '../resource-definition.js';
import { cronJobDefinition } from './cron-job.js';
import { jobDefinition } from './job.js';

export {
  CONCURRENCY_POLICIES,
  type ConcurrencyPolicy,
  type CronJob,
  CronJobSchema,
  cronJobDefinition,
  defaultCronJob,
  parseSchedule,
  validateCronJob,
} from './cron-job.js';
export {
  CONTROLLER_UID_LABEL,
  defaultJob,
  hasJobCondition,
  JOB_NAME_LABEL,
  type Job,
  JobSchema,
  jobCompletionsText,
  jobDefinition,
  jobStatusText,
  LEGACY_CONTROLLER_UID_LABEL,
  LEGACY_JOB_NAME_LABEL,
  validateJob,
  validateJobSpec,
} from './job.js';
export { BATCH_V1, type JobCondition, JobSpecSchema, type JobStatus, JobStatusSchema, JobTemplateSpecSchema, type PodFailurePolicyRule } from './job-spec.js';

/** batchDefinitions lists the group's served kinds. */
export const batchDefinitions: AnyResourceDefinition[] = [jobDefinition, cronJobDefinition];
