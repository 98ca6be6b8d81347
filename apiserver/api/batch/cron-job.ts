/**
 * batch/v1 CronJob: creates a Job from `spec.jobTemplate` at every time `spec.schedule`
 * (standard 5-field cron or an `@hourly`-style macro, in `spec.timeZone` or UTC) names,
 * subject to `concurrencyPolicy` and `startingDeadlineSeconds`, keeping the last
 * successful/failed Jobs as history. The CronJob controller is the only writer of `status`.
 */
import { Cron } from 'croner';
import { z } from 'zod';
import { workloadWideColumns } from '../apps/workload-columns.js';
import { ObjectReferenceSchema } from '../core/object-reference.js';
import { defaultPodSpec } from '../core/pod-spec-defaults.js';
import { KIND_IDS } from '../kind-refs.js';
import { formatLabelSelector } from '../labels.js';
import { TimeSchema, typeMetaFields } from '../meta.js';
import { age, ageColumn, column, nameColumn, orNone } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { invalid, notSupported, required, validateNonnegativeField } from '../validation.js';
import { validateJobSpec } from './job.js';
import { CronJobMessage } from './job-protobuf.js';
import { BATCH_V1, JobTemplateSpecSchema } from './job-spec.js';

export const CONCURRENCY_POLICIES = ['Allow', 'Forbid', 'Replace'] as const;
export type ConcurrencyPolicy = (typeof CONCURRENCY_POLICIES)[number];

export const CronJobSchema = z
  .object({
    ...typeMetaFields('batch/v1', 'CronJob'),
    spec: z
      .object({
        schedule: z.string().describe('schedule in Cron format, or a macro such as @hourly.'),
        timeZone: z.string().optional().describe("timeZone is the IANA zone the schedule is read in; the controller's (UTC) when unset."),
        startingDeadlineSeconds: z.number().int().optional().describe('startingDeadlineSeconds: how late a missed run may still start.'),
        concurrencyPolicy: z.enum(CONCURRENCY_POLICIES).optional().describe('concurrencyPolicy: Allow (default), Forbid or Replace.'),
        suspend: z.boolean().optional().describe('suspend stops later runs; running Jobs continue.'),
        jobTemplate: JobTemplateSpecSchema.describe('jobTemplate is the Job to create.'),
        successfulJobsHistoryLimit: z.int32().optional().describe('successful finished Jobs to keep. Defaults to 3.'),
        failedJobsHistoryLimit: z.int32().optional().describe('failed finished Jobs to keep. Defaults to 1.'),
      })
      .meta({ id: `${BATCH_V1}.CronJobSpec` }),
    status: z
      .object({
        active: z.array(ObjectReferenceSchema).optional().describe('active lists the running Jobs.'),
        lastScheduleTime: TimeSchema.optional(),
        lastSuccessfulTime: TimeSchema.optional(),
      })
      .meta({ id: `${BATCH_V1}.CronJobStatus` })
      .optional(),
  })
  .meta({ id: `${BATCH_V1}.CronJob`, description: 'CronJob represents the configuration of a single cron job.' });

export type CronJob = z.infer<typeof CronJobSchema>;

/** defaultCronJob applies SetDefaults_CronJob in place (Allow, suspend false, history 3/1)
 * and the pod spec defaults of the template. Idempotent. */
export function defaultCronJob(cronJob: CronJob): void {
  const spec = cronJob.spec;
  spec.concurrencyPolicy ??= 'Allow';
  spec.suspend ??= false;
  spec.successfulJobsHistoryLimit ??= 3;
  spec.failedJobsHistoryLimit ??= 1;
  const template = spec.jobTemplate.spec?.template;
  if (template) defaultPodSpec(template.spec);
}

/** parseSchedule compiles a schedule with croner (5 fields, Vixie-cron day-of-month OR
 * day-of-week) in `timeZone` (UTC when unset). Never starts a timer. Throws on a bad pattern. */
export function parseSchedule(schedule: string, timeZone?: string): Cron {
  return new Cron(schedule, { paused: true, mode: '5-part', timezone: timeZone ?? 'UTC', domAndDow: false });
}

/** MAX_CRON_JOB_NAME leaves room in a 63-character Job name for the `-<timestamp>` suffix
 * (11 characters) the controller appends; checked on create only, so older longer names can
 * still be updated and deleted. */
const MAX_CRON_JOB_NAME = 52;

/** validateCronJob checks a defaulted CronJob (pure), as ValidateCronJobCreate / Update word it. */
export function validateCronJob(cronJob: CronJob, old?: CronJob): FieldError[] {
  const { spec } = cronJob;
  const errors = [
    ...validateSchedule(spec.schedule, spec.timeZone),
    ...validateNonnegativeField(spec.startingDeadlineSeconds, 'spec.startingDeadlineSeconds'),
    ...validateNonnegativeField(spec.successfulJobsHistoryLimit, 'spec.successfulJobsHistoryLimit'),
    ...validateNonnegativeField(spec.failedJobsHistoryLimit, 'spec.failedJobsHistoryLimit'),
  ];
  if (!CONCURRENCY_POLICIES.includes(spec.concurrencyPolicy ?? 'Allow')) {
    errors.push(notSupported('spec.concurrencyPolicy', spec.concurrencyPolicy, CONCURRENCY_POLICIES));
  }
  const jobSpec = spec.jobTemplate.spec;
  if (!jobSpec) errors.push(required('spec.jobTemplate.spec'));
  else errors.push(...validateJobSpec(jobSpec, 'spec.jobTemplate.spec', { selectorRequired: false }));
  const name = cronJob.metadata.name ?? '';
  if (!old && name.length > MAX_CRON_JOB_NAME) errors.push(invalid('metadata.name', name, `must be no more than ${MAX_CRON_JOB_NAME} characters`));
  return errors;
}

function validateSchedule(schedule: string, timeZone: string | undefined): FieldError[] {
  if (!schedule) return [required('spec.schedule')];
  if (/TZ=/.test(schedule)) return [invalid('spec.schedule', schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead')];
  if (timeZone !== undefined && !isValidTimeZone(timeZone)) return [invalid('spec.timeZone', timeZone, `unknown time zone ${timeZone}`)];
  try {
    parseSchedule(schedule, timeZone);
    return [];
  } catch (err) {
    return [invalid('spec.schedule', schedule, err instanceof Error ? err.message : String(err))];
  }
}

function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    // RangeError: Intl knows no such zone.
    return false;
  }
}

/** cronJobDefinition serves batch/v1 cronjobs (cj), with /status. */
export const cronJobDefinition: ResourceDefinition<CronJob> = {
  ...KIND_IDS.cronJob,
  singular: 'cronjob',
  shortNames: ['cj'],
  categories: ['all'],
  schema: CronJobSchema,
  defaults: defaultCronJob,
  validate: validateCronJob,
  tracksGeneration: true,
  subresources: { status: true },
  printColumns: [
    nameColumn,
    column('Schedule', (cj: CronJob) => cj.spec?.schedule ?? '', { description: 'The schedule in Cron format.' }),
    column('Timezone', (cj: CronJob) => orNone(cj.spec?.timeZone), { description: 'The time zone of the schedule.' }),
    column('Suspend', (cj: CronJob) => (cj.spec?.suspend ? 'True' : 'False'), { description: 'Whether later executions are suspended.' }),
    column('Active', (cj: CronJob) => cj.status?.active?.length ?? 0, { type: 'integer', description: 'Number of running jobs.' }),
    column('Last Schedule', (cj: CronJob, context) => (cj.status?.lastScheduleTime ? age(cj.status.lastScheduleTime, context) : '<none>'), {
      description: 'When the job was last scheduled.',
    }),
    ageColumn,
    ...workloadWideColumns(formatLabelSelector, 'Selector is a label query over pods that should match the job count.').map((c) => ({
      ...c,
      cell: (cj: CronJob, context: { nowMs: number }) => c.cell({ spec: cj.spec?.jobTemplate?.spec }, context),
    })),
  ],
  protobuf: CronJobMessage,
  storage: { resource: 'cronjobs.batch' },
};
