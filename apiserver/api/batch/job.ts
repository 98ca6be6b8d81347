/**
 * batch/v1 Job: runs pods from `spec.template` until `spec.completions` of them succeed, at
 * most `spec.parallelism` at a time, retrying failures up to `spec.backoffLimit`. The Job
 * controller is the only writer of `status`. On create the API server generates the selector
 * `batch.kubernetes.io/controller-uid=<uid>` and labels the template to match, as kube's job
 * strategy does (unless `spec.manualSelector`).
 */
import { z } from 'zod';
import { workloadWideColumns } from '../apps/workload-columns.js';
import { defaultPodSpec } from '../core/pod-spec-defaults.js';
import { validatePodTemplateSpec } from '../core/pod-spec-validation.js';
import { KIND_IDS } from '../kind-refs.js';
import { formatLabelSelector, isSelectorParseError, labelSelectorFromStructured } from '../labels.js';
import { typeMetaFields } from '../meta.js';
import { ageColumn, column, humanDuration, nameColumn } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { invalid, notSupported, required, validateLabelSelector, validateNonnegativeField } from '../validation.js';
import { JobMessage } from './job-protobuf.js';
import { BATCH_V1, type JobCondition, JobSpecSchema, JobStatusSchema } from './job-spec.js';
import { validateJobSpecUpdate } from './job-update-validation.js';

/** CONTROLLER_UID_LABEL is the label of a Job's generated selector (and its pods). */
export const CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid';
/** JOB_NAME_LABEL names the Job on its pods. */
export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';
/** LEGACY_CONTROLLER_UID_LABEL and LEGACY_JOB_NAME_LABEL are the pre-1.27 label keys, still set. */
export const LEGACY_CONTROLLER_UID_LABEL = 'controller-uid';
export const LEGACY_JOB_NAME_LABEL = 'job-name';

export const JobSchema = z
  .object({
    ...typeMetaFields('batch/v1', 'Job'),
    spec: JobSpecSchema.describe('spec is the desired behaviour of the Job.'),
    status: JobStatusSchema.optional().describe('status is the current state of the Job. Read-only.'),
  })
  .meta({ id: `${BATCH_V1}.Job`, description: 'Job represents the configuration of a single job.' });

export type Job = z.infer<typeof JobSchema>;

/**
 * defaultJob applies SetDefaults_Job in place (parallelism/completions 1, backoffLimit 6,
 * completionMode NonIndexed, suspend and manualSelector false, podReplacementPolicy), the pod
 * spec defaults, and — once the object has a uid (on create) — the generated selector and
 * template labels. Job labels default to the template's. Idempotent.
 */
export function defaultJob(job: Job): void {
  const spec = job.spec;
  if (spec.completions === undefined && spec.parallelism === undefined) spec.completions = 1;
  spec.parallelism ??= 1;
  spec.backoffLimit ??= 6;
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  spec.manualSelector ??= false;
  spec.podReplacementPolicy ??= spec.podFailurePolicy ? 'Failed' : 'TerminatingOrFailed';
  defaultPodSpec(spec.template.spec);
  if (!spec.manualSelector && job.metadata.uid) generateSelector(job, job.metadata.uid);
  const templateLabels = spec.template.metadata?.labels;
  if (templateLabels && Object.keys(job.metadata.labels ?? {}).length === 0) job.metadata.labels = { ...templateLabels };
}

function generateSelector(job: Job, uid: string): void {
  const name = job.metadata.name ?? '';
  const template = (job.spec.template.metadata ??= {});
  template.labels = {
    ...template.labels,
    [CONTROLLER_UID_LABEL]: uid,
    [JOB_NAME_LABEL]: name,
    [LEGACY_CONTROLLER_UID_LABEL]: uid,
    [LEGACY_JOB_NAME_LABEL]: name,
  };
  job.spec.selector ??= { matchLabels: { [CONTROLLER_UID_LABEL]: uid } };
}

/** hasJobCondition is true when the Job carries condition `type` with status True. */
export function hasJobCondition(job: { status?: { conditions?: readonly JobCondition[] } }, type: string): boolean {
  return (job.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

/** jobStatusText is the STATUS column of `kubectl get jobs`, as kube's printJob words it. */
export function jobStatusText(job: Job): string {
  if (hasJobCondition(job, 'Complete')) return 'Complete';
  if (hasJobCondition(job, 'Failed')) return 'Failed';
  if (job.metadata.deletionTimestamp) return 'Terminating';
  if (hasJobCondition(job, 'Suspended')) return 'Suspended';
  if (hasJobCondition(job, 'FailureTarget')) return 'FailureTarget';
  if (hasJobCondition(job, 'SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  return 'Running';
}

/** jobCompletionsText is the COMPLETIONS column: `2/3`, or `1/1 of 4` for a work queue. */
export function jobCompletionsText(job: Job): string {
  const succeeded = job.status?.succeeded ?? 0;
  if (job.spec?.completions !== undefined) return `${succeeded}/${job.spec.completions}`;
  const parallelism = job.spec?.parallelism ?? 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function jobDurationText(job: Job, nowMs: number): string {
  const start = job.status?.startTime;
  if (!start) return '';
  const end = job.status?.completionTime ? Date.parse(job.status.completionTime) : nowMs;
  return humanDuration(end - Date.parse(start));
}

/*
 * Job validation after Kubernetes' ValidateJob / ValidateJobSpec: counts must be
 * non-negative, the selector must match the template, pods must not restart forever,
 * Indexed jobs need completions, podFailurePolicy needs restartPolicy Never; on update the
 * immutable fields (job-update-validation.ts).
 */

type JobSpec = Job['spec'];

/** validateJob checks a defaulted Job (pure); `old` is set on update. */
export function validateJob(job: Job, old?: Job): FieldError[] {
  const errors = validateJobSpec(job.spec, 'spec');
  if (old) errors.push(...validateJobSpecUpdate(job, old));
  return errors;
}

/** validateJobSpec checks a JobSpec at `field` (a Job's `spec`, a CronJob's jobTemplate spec). */
export function validateJobSpec(spec: JobSpec, field: string, options: { selectorRequired: boolean } = { selectorRequired: true }): FieldError[] {
  const errors = [
    ...validateNonnegativeField(spec.parallelism, `${field}.parallelism`),
    ...validateNonnegativeField(spec.completions, `${field}.completions`),
    ...validateNonnegativeField(spec.backoffLimit, `${field}.backoffLimit`),
    ...validateNonnegativeField(spec.ttlSecondsAfterFinished, `${field}.ttlSecondsAfterFinished`),
    ...validatePositive(spec.activeDeadlineSeconds, `${field}.activeDeadlineSeconds`),
    ...validateTemplate(spec, field),
  ];
  if (options.selectorRequired) errors.push(...validateSelector(spec, field));
  if (spec.completionMode === 'Indexed' && spec.completions === undefined) {
    errors.push(required(`${field}.completions`));
  }
  if (spec.podFailurePolicy && spec.template.spec.restartPolicy !== 'Never') {
    errors.push(invalid(`${field}.podFailurePolicy`, null, 'only allowed when the pod template has restartPolicy Never'));
  }
  return errors;
}

function validatePositive(value: number | undefined, field: string): FieldError[] {
  return value !== undefined && value <= 0 ? [invalid(field, value, 'must be greater than 0')] : [];
}

function validateTemplate(spec: JobSpec, field: string): FieldError[] {
  const errors = validatePodTemplateSpec(spec.template, `${field}.template`);
  const restartPolicy = spec.template.spec.restartPolicy;
  if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') {
    errors.push(notSupported(`${field}.template.spec.restartPolicy`, restartPolicy ?? '', ['OnFailure', 'Never']));
  }
  return errors;
}

function validateSelector(spec: JobSpec, field: string): FieldError[] {
  if (!spec.selector) return [required(`${field}.selector`)];
  const errors = validateLabelSelector(spec.selector, `${field}.selector`);
  try {
    const query = labelSelectorFromStructured(spec.selector);
    const labels = spec.template.metadata?.labels ?? {};
    if (!query.matches(labels)) errors.push(invalid(`${field}.template.metadata.labels`, labels, '`selector` does not match template `labels`'));
  } catch (err) {
    if (!isSelectorParseError(err)) throw err;
    errors.push(invalid(`${field}.selector`, spec.selector, 'invalid label selector'));
  }
  return errors;
}

/** jobDefinition serves batch/v1 jobs, with /status. */
export const jobDefinition: ResourceDefinition<Job> = {
  ...KIND_IDS.job,
  singular: 'job',
  shortNames: [],
  categories: ['all'],
  schema: JobSchema,
  defaults: defaultJob,
  validate: validateJob,
  tracksGeneration: true,
  subresources: { status: true },
  printColumns: [
    nameColumn,
    column('Status', (job: Job) => jobStatusText(job), { description: 'Status of the job.' }),
    column('Completions', (job: Job) => jobCompletionsText(job), { description: 'The completed and desired completions.' }),
    column('Duration', (job: Job, context) => jobDurationText(job, context.nowMs), { description: 'Time required to complete the job.' }),
    ageColumn,
    ...workloadWideColumns(formatLabelSelector, 'Selector is a label query over pods that should match the pod count.'),
  ],
  fieldSelectors: { 'status.successful': (job) => String(job.status?.succeeded ?? 0) },
  protobuf: JobMessage,
  storage: { resource: 'jobs.batch' },
};
