/**
 * batch/v1 JobSpec and JobStatus: the schema pieces the Job and the CronJob's jobTemplate
 * share (k8s.io/api/batch/v1). Field names and meanings are Kubernetes'.
 */
import { z } from 'zod';
import { PodTemplateSpecSchema } from '../core/pod-spec.js';
import { LabelSelectorSchema, ObjectMetaSchema, TimeSchema } from '../meta.js';
import { mergeByKey } from '../patch-meta.js';

/** BATCH_V1 is the OpenAPI definition prefix of batch/v1 types. */
export const BATCH_V1 = 'io.k8s.api.batch.v1';

export const PodFailurePolicyRuleSchema = z
  .object({
    action: z.enum(['FailJob', 'FailIndex', 'Ignore', 'Count']).describe('action taken on a pod failure the rule matches.'),
    onExitCodes: z
      .object({
        containerName: z.string().optional(),
        operator: z.enum(['In', 'NotIn']),
        values: z.array(z.int32()),
      })
      .optional()
      .describe('onExitCodes matches the exit codes of the failed containers.'),
    onPodConditions: z
      .array(z.object({ type: z.string(), status: z.enum(['True', 'False', 'Unknown']).optional() }))
      .optional()
      .describe('onPodConditions matches the conditions of the failed pod.'),
  })
  .meta({ id: `${BATCH_V1}.PodFailurePolicyRule` });

export type PodFailurePolicyRule = z.infer<typeof PodFailurePolicyRuleSchema>;

export const JobSpecSchema = z
  .object({
    parallelism: z.int32().optional().describe('parallelism is the most pods running at once. Defaults to 1.'),
    completions: z.int32().optional().describe('completions is the number of successful pods the job needs. Defaults to 1.'),
    activeDeadlineSeconds: z.number().int().optional().describe('activeDeadlineSeconds bounds how long the job may be active.'),
    podFailurePolicy: z
      .object({ rules: z.array(PodFailurePolicyRuleSchema) })
      .optional()
      .describe('podFailurePolicy decides how pod failures count.'),
    backoffLimit: z.int32().optional().describe('backoffLimit is the number of retries before the job fails. Defaults to 6.'),
    selector: LabelSelectorSchema.optional().describe("selector is a label query over the job's pods; generated unless manualSelector."),
    manualSelector: z.boolean().optional().describe('manualSelector lets the user choose the selector.'),
    template: PodTemplateSpecSchema.describe('template describes the pods the job creates.'),
    ttlSecondsAfterFinished: z.int32().optional().describe('ttlSecondsAfterFinished deletes the finished job after this long.'),
    completionMode: z.enum(['NonIndexed', 'Indexed']).optional().describe('completionMode is NonIndexed (default) or Indexed.'),
    suspend: z.boolean().optional().describe('suspend stops the job from creating pods and deletes its active ones.'),
    backoffLimitPerIndex: z.int32().optional().describe('backoffLimitPerIndex: retries per index of an Indexed job (not enforced by kubesim yet).'),
    maxFailedIndexes: z.int32().optional().describe('maxFailedIndexes: failed indexes tolerated (not enforced by kubesim yet).'),
    successPolicy: z
      .object({ rules: z.array(z.object({ succeededIndexes: z.string().optional(), succeededCount: z.int32().optional() })) })
      .optional()
      .describe('successPolicy: when an Indexed job counts as succeeded (not enforced by kubesim yet).'),
    podReplacementPolicy: z.enum(['TerminatingOrFailed', 'Failed']).optional(),
    managedBy: z.string().optional(),
  })
  .meta({ id: `${BATCH_V1}.JobSpec`, description: 'JobSpec describes how the job execution will look like.' });

export type JobSpec = z.infer<typeof JobSpecSchema>;

export const JobConditionSchema = z
  .object({
    type: z.string().describe('type: Complete, Failed, Suspended, FailureTarget or SuccessCriteriaMet.'),
    status: z.enum(['True', 'False', 'Unknown']),
    lastProbeTime: TimeSchema.optional(),
    lastTransitionTime: TimeSchema.optional(),
    reason: z.string().optional(),
    message: z.string().optional(),
  })
  .meta({ id: `${BATCH_V1}.JobCondition` });

export type JobCondition = z.infer<typeof JobConditionSchema>;

export const JobStatusSchema = z
  .object({
    conditions: z.array(JobConditionSchema).optional().meta(mergeByKey('type')),
    startTime: TimeSchema.optional(),
    completionTime: TimeSchema.optional(),
    active: z.int32().optional(),
    succeeded: z.int32().optional(),
    failed: z.int32().optional(),
    terminating: z.int32().optional(),
    completedIndexes: z.string().optional(),
    failedIndexes: z.string().optional(),
    uncountedTerminatedPods: z.object({ succeeded: z.array(z.string()).optional(), failed: z.array(z.string()).optional() }).optional(),
    ready: z.int32().optional(),
  })
  .meta({ id: `${BATCH_V1}.JobStatus`, description: 'JobStatus represents the current state of a Job.' });

export type JobStatus = z.infer<typeof JobStatusSchema>;

export const JobTemplateSpecSchema = z
  .object({
    metadata: ObjectMetaSchema.optional(),
    spec: JobSpecSchema.optional(),
  })
  .meta({ id: `${BATCH_V1}.JobTemplateSpec` });
