/**
 * Protobuf tables of batch/v1 Job and CronJob (k8s.io/api/batch/v1 generated.proto), what
 * `kubectl create job|cronjob` 1.32+ send. The zod schemas and definitions are job.ts and
 * cron-job.ts next to this file.
 */
import { ObjectReferenceMessage } from '../core/object-reference-protobuf.js';
import { PodTemplateSpecMessage } from '../core/pod-spec-protobuf.js';
import { LabelSelectorMessage, ObjectMetaMessage, TimeMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';

const BATCH_V1 = 'io.k8s.api.batch.v1';

export const PodFailurePolicyRuleMessage = message(`${BATCH_V1}.PodFailurePolicyRule`, {
  1: field.string('action', KEEP_ZERO),
  2: field.message(
    'onExitCodes',
    message(`${BATCH_V1}.PodFailurePolicyOnExitCodesRequirement`, {
      1: field.string('containerName', KEEP_ZERO),
      2: field.string('operator', KEEP_ZERO),
      3: field.repeated('values', 'int32'),
    }),
  ),
  3: field.repeated(
    'onPodConditions',
    message(`${BATCH_V1}.PodFailurePolicyOnPodConditionsPattern`, { 1: field.string('type', KEEP_ZERO), 2: field.string('status', KEEP_ZERO) }),
  ),
});

export const SuccessPolicyRuleMessage = message(`${BATCH_V1}.SuccessPolicyRule`, {
  1: field.string('succeededIndexes', KEEP_ZERO),
  2: field.int32('succeededCount', KEEP_ZERO),
});

export const JobSpecMessage = message(`${BATCH_V1}.JobSpec`, {
  1: field.int32('parallelism', KEEP_ZERO),
  2: field.int32('completions', KEEP_ZERO),
  3: field.int64('activeDeadlineSeconds', KEEP_ZERO),
  4: field.message('selector', LabelSelectorMessage),
  5: field.bool('manualSelector', KEEP_ZERO),
  6: field.message('template', PodTemplateSpecMessage),
  7: field.int32('backoffLimit', KEEP_ZERO),
  8: field.int32('ttlSecondsAfterFinished', KEEP_ZERO),
  9: field.string('completionMode', KEEP_ZERO),
  10: field.bool('suspend', KEEP_ZERO),
  11: field.message('podFailurePolicy', message(`${BATCH_V1}.PodFailurePolicy`, { 1: field.repeated('rules', PodFailurePolicyRuleMessage) })),
  12: field.int32('backoffLimitPerIndex', KEEP_ZERO),
  13: field.int32('maxFailedIndexes', KEEP_ZERO),
  14: field.string('podReplacementPolicy', KEEP_ZERO),
  15: field.string('managedBy', KEEP_ZERO),
  16: field.message('successPolicy', message(`${BATCH_V1}.SuccessPolicy`, { 1: field.repeated('rules', SuccessPolicyRuleMessage) })),
});

export const JobConditionMessage = message(`${BATCH_V1}.JobCondition`, {
  1: field.string('type', KEEP_ZERO),
  2: field.string('status', KEEP_ZERO),
  3: field.message('lastProbeTime', TimeMessage),
  4: field.message('lastTransitionTime', TimeMessage),
  5: field.string('reason'),
  6: field.string('message'),
});

export const JobStatusMessage = message(`${BATCH_V1}.JobStatus`, {
  1: field.repeated('conditions', JobConditionMessage),
  2: field.message('startTime', TimeMessage),
  3: field.message('completionTime', TimeMessage),
  4: field.int32('active'),
  5: field.int32('succeeded'),
  6: field.int32('failed'),
  7: field.string('completedIndexes'),
  8: field.message(
    'uncountedTerminatedPods',
    message(`${BATCH_V1}.UncountedTerminatedPods`, { 1: field.repeated('succeeded', 'string'), 2: field.repeated('failed', 'string') }),
  ),
  9: field.int32('ready', KEEP_ZERO),
  10: field.string('failedIndexes', KEEP_ZERO),
  11: field.int32('terminating', KEEP_ZERO),
});

export const JobMessage = message(`${BATCH_V1}.Job`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message('spec', JobSpecMessage),
  3: field.message('status', JobStatusMessage),
});

export const JobTemplateSpecMessage = message(`${BATCH_V1}.JobTemplateSpec`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message('spec', JobSpecMessage),
});

export const CronJobSpecMessage = message(`${BATCH_V1}.CronJobSpec`, {
  1: field.string('schedule', KEEP_ZERO),
  2: field.int64('startingDeadlineSeconds', KEEP_ZERO),
  3: field.string('concurrencyPolicy'),
  4: field.bool('suspend', KEEP_ZERO),
  5: field.message('jobTemplate', JobTemplateSpecMessage),
  6: field.int32('successfulJobsHistoryLimit', KEEP_ZERO),
  7: field.int32('failedJobsHistoryLimit', KEEP_ZERO),
  8: field.string('timeZone', KEEP_ZERO),
});

export const CronJobMessage = message(`${BATCH_V1}.CronJob`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message('spec', CronJobSpecMessage),
  3: field.message(
    'status',
    message(`${BATCH_V1}.CronJobStatus`, {
      1: field.repeated('active', ObjectReferenceMessage),
      4: field.message('lastScheduleTime', TimeMessage),
      5: field.message('lastSuccessfulTime', TimeMessage),
    }),
  ),
});
