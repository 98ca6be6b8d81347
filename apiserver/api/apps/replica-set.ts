/**
 * apps/v1 ReplicaSet: keeps `spec.replicas` pods matching `spec.selector` running, creating
 * them from `spec.template`. Usually owned by a Deployment, which creates one ReplicaSet per
 * pod template. The ReplicaSet controller is the only writer of `status`.
 */
import { z } from 'zod';
import { PodTemplateSpecSchema } from '../core/pod-spec.js';
import { defaultPodSpec } from '../core/pod-spec-defaults.js';
import { KIND_IDS } from '../kind-refs.js';
import { formatLabelSelector } from '../labels.js';
import { kindConditionSchema, LabelSelectorSchema, typeMetaFields } from '../meta.js';
import { mergeByKey } from '../patch-meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { validateNonnegativeField } from '../validation.js';
import { APPS_V1 } from './apps-v1.js';
import { validateImmutableSelector, validateSelectorAndTemplate } from './pod-template-validation.js';
import { ReplicaSetMessage } from './replica-set-protobuf.js';
import { workloadWideColumns } from './workload-columns.js';

export const ReplicaSetSpecSchema = z
  .object({
    replicas: z.int32().optional().describe('replicas is the number of desired pods. Defaults to 1.'),
    minReadySeconds: z
      .int32()
      .optional()
      .describe('minReadySeconds is how long a new pod must be ready, without any container crashing, to count as available. Defaults to 0.'),
    selector: LabelSelectorSchema.describe(
      "selector is a label query over the pods this ReplicaSet owns. It must match the template's labels and is immutable.",
    ),
    template: PodTemplateSpecSchema.optional().describe('template describes the pods created when too few match the selector.'),
  })
  .meta({ id: `${APPS_V1}.ReplicaSetSpec`, description: 'ReplicaSetSpec is the specification of a ReplicaSet.' });

export const ReplicaSetConditionSchema = kindConditionSchema(
  `${APPS_V1}.ReplicaSetCondition`,
  'ReplicaSetCondition describes the state of a ReplicaSet at a certain point.',
  'type of the condition, e.g. ReplicaFailure.',
);

export const ReplicaSetStatusSchema = z
  .object({
    replicas: z.int32().optional().describe('replicas is the most recently observed number of non-terminating pods.'),
    fullyLabeledReplicas: z.int32().optional().describe("fullyLabeledReplicas is the number of non-terminating pods whose labels match the template's labels."),
    readyReplicas: z.int32().optional().describe('readyReplicas is the number of non-terminating pods with a Ready condition.'),
    availableReplicas: z.int32().optional().describe('availableReplicas is the number of non-terminating pods ready for at least minReadySeconds.'),
    terminatingReplicas: z.int32().optional().describe('terminatingReplicas is the number of pods being deleted (deletionTimestamp set).'),
    observedGeneration: z.number().int().optional().describe('observedGeneration is the generation of the ReplicaSet the status reflects.'),
    conditions: z
      .array(ReplicaSetConditionSchema)
      .optional()
      .meta(mergeByKey('type'))
      .describe("conditions are the latest observations of the ReplicaSet's state, e.g. ReplicaFailure."),
  })
  .meta({ id: `${APPS_V1}.ReplicaSetStatus`, description: 'ReplicaSetStatus is the most recently observed status of a ReplicaSet.' });

export const ReplicaSetSchema = z
  .object({
    ...typeMetaFields('apps/v1', 'ReplicaSet'),
    spec: ReplicaSetSpecSchema.describe('spec is the desired behaviour of the ReplicaSet.'),
    status: ReplicaSetStatusSchema.optional().describe('status is the most recently observed state of the ReplicaSet. Read-only.'),
  })
  .meta({ id: `${APPS_V1}.ReplicaSet`, description: 'ReplicaSet ensures that a specified number of pod replicas are running at any given time.' });

export type ReplicaSet = z.infer<typeof ReplicaSetSchema>;

/** defaultReplicaSet applies SetDefaults_ReplicaSet (replicas 1) and the pod spec defaults
 * of its template, in place. Idempotent. */
export function defaultReplicaSet(rs: ReplicaSet): void {
  rs.spec.replicas ??= 1;
  if (rs.spec.template) defaultPodSpec(rs.spec.template.spec);
}

/** validateReplicaSet checks a defaulted ReplicaSet as ValidateReplicaSetSpec does, plus
 * selector immutability on update. Pure. */
export function validateReplicaSet(rs: ReplicaSet, old?: ReplicaSet): FieldError[] {
  const { spec } = rs;
  return [
    ...validateNonnegativeField(spec.replicas, 'spec.replicas'),
    ...validateNonnegativeField(spec.minReadySeconds, 'spec.minReadySeconds'),
    ...validateSelectorAndTemplate(spec),
    ...(old ? validateImmutableSelector(spec.selector, old.spec.selector, 'spec.selector') : []),
  ];
}

/** replicaSetDefinition serves apps/v1 replicasets (rs), with /status and /scale. */
export const replicaSetDefinition: ResourceDefinition<ReplicaSet> = {
  ...KIND_IDS.replicaSet,
  singular: 'replicaset',
  shortNames: ['rs'],
  categories: ['all'],
  schema: ReplicaSetSchema,
  defaults: defaultReplicaSet,
  validate: validateReplicaSet,
  tracksGeneration: true,
  // labelSelectorPath names the structured spec.selector: the Scale's status.selector is its
  // canonical string (labelSelectorFromStructured(...).toString()), as kube-apiserver
  // computes it for built-in workloads.
  subresources: { status: true, scale: { specReplicasPath: 'spec.replicas', statusReplicasPath: 'status.replicas', labelSelectorPath: 'spec.selector' } },
  printColumns: [
    nameColumn,
    column('Desired', (rs: ReplicaSet) => rs.spec?.replicas ?? 0, { type: 'integer', description: 'Replicas is the number of desired replicas.' }),
    column('Current', (rs: ReplicaSet) => rs.status?.replicas ?? 0, {
      type: 'integer',
      description: 'Replicas is the most recently observed number of replicas.',
    }),
    column('Ready', (rs: ReplicaSet) => rs.status?.readyReplicas ?? 0, { type: 'integer', description: 'The number of ready replicas for this replica set.' }),
    ageColumn,
    ...workloadWideColumns(formatLabelSelector, 'Selector is a label query over pods that should match the replica count.'),
  ],
  fieldSelectors: { 'status.replicas': (rs) => String(rs.status?.replicas ?? 0) },
  protobuf: ReplicaSetMessage,
  liveView: 'replicasets',
  storage: { resource: 'replicasets.apps' },
};
