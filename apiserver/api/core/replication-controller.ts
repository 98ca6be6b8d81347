/**
 * core/v1 ReplicationController: the ancestor of the ReplicaSet. It keeps `spec.replicas`
 * pods matching an equality-based selector (a plain label map) running, creating them from
 * `spec.template`. The same controller logic serves both kinds (controllers/replicaset);
 * only the selector's shape and the validation wording differ.
 */
import { z } from 'zod';
import { workloadWideColumns } from '../apps/workload-columns.js';
import { KIND_IDS } from '../kind-refs.js';
import { kindConditionSchema, StringMapSchema, typeMetaFields } from '../meta.js';
import { mergeByKey } from '../patch-meta.js';
import { ageColumn, column, formatLabels, nameColumn } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { forbidden, invalid, notSupported, required, validateLabels, validateNonnegativeField } from '../validation.js';
import { type PodTemplateSpec, PodTemplateSpecSchema } from './pod-spec.js';
import { defaultPodSpec } from './pod-spec-defaults.js';
import { validatePodTemplateSpec } from './pod-spec-validation.js';
import { ReplicationControllerMessage } from './replication-controller-protobuf.js';
import { K8S_CORE } from './schema-helpers.js';

export const ReplicationControllerSpecSchema = z
  .object({
    replicas: z.int32().optional().describe('replicas is the number of desired pods. Defaults to 1.'),
    minReadySeconds: z
      .int32()
      .optional()
      .describe('minReadySeconds is how long a new pod must be ready, without any container crashing, to count as available. Defaults to 0.'),
    selector: StringMapSchema.optional().describe(
      "selector is a label query over the pods this controller owns: every key and value must match. Defaults to the template's labels.",
    ),
    template: PodTemplateSpecSchema.optional().describe('template describes the pods created when too few match the selector.'),
  })
  .meta({ id: `${K8S_CORE}.ReplicationControllerSpec`, description: 'ReplicationControllerSpec is the specification of a replication controller.' });

export const ReplicationControllerConditionSchema = kindConditionSchema(
  `${K8S_CORE}.ReplicationControllerCondition`,
  'ReplicationControllerCondition describes the state of a replication controller at a certain point.',
  'type of the condition, e.g. ReplicaFailure.',
);

export const ReplicationControllerStatusSchema = z
  .object({
    replicas: z.int32().optional().describe('replicas is the most recently observed number of replicas.'),
    fullyLabeledReplicas: z.int32().optional().describe("fullyLabeledReplicas is the number of pods whose labels match the template's labels."),
    readyReplicas: z.int32().optional().describe('readyReplicas is the number of ready pods.'),
    availableReplicas: z.int32().optional().describe('availableReplicas is the number of pods ready for at least minReadySeconds.'),
    observedGeneration: z.number().int().optional().describe('observedGeneration is the generation of the controller the status reflects.'),
    conditions: z
      .array(ReplicationControllerConditionSchema)
      .optional()
      .meta(mergeByKey('type'))
      .describe("conditions are the latest observations of the controller's state."),
  })
  .meta({
    id: `${K8S_CORE}.ReplicationControllerStatus`,
    description: 'ReplicationControllerStatus is the most recently observed status of a replication controller.',
  });

export const ReplicationControllerSchema = z
  .object({
    ...typeMetaFields('v1', 'ReplicationController'),
    spec: ReplicationControllerSpecSchema.default(() => ({})).describe('spec is the desired behaviour of the replication controller.'),
    status: ReplicationControllerStatusSchema.optional().describe('status is the most recently observed state of the replication controller. Read-only.'),
  })
  .meta({ id: `${K8S_CORE}.ReplicationController`, description: 'ReplicationController represents the configuration of a replication controller.' });

export type ReplicationController = z.infer<typeof ReplicationControllerSchema>;

const isEmpty = (map: Record<string, string> | undefined) => Object.keys(map ?? {}).length === 0;

/** defaultReplicationController applies SetDefaults_ReplicationController in place: an empty
 * selector and empty object labels are copied from the template's labels, replicas 1, and the
 * template's pod spec defaults. Idempotent. */
export function defaultReplicationController(rc: ReplicationController): void {
  const { spec } = rc;
  const templateLabels = spec.template?.metadata?.labels;
  if (templateLabels !== undefined) {
    if (isEmpty(spec.selector)) spec.selector = { ...templateLabels };
    if (isEmpty(rc.metadata.labels)) rc.metadata.labels = { ...templateLabels };
  }
  spec.replicas ??= 1;
  if (spec.template) defaultPodSpec(spec.template.spec);
}

/** validateReplicationController checks a defaulted controller as
 * ValidateReplicationControllerSpec does (the selector stays mutable, unlike apps/v1's). Pure. */
export function validateReplicationController(rc: ReplicationController): FieldError[] {
  const { spec } = rc;
  return [
    ...validateNonnegativeField(spec.replicas, 'spec.replicas'),
    ...validateNonnegativeField(spec.minReadySeconds, 'spec.minReadySeconds'),
    ...(isEmpty(spec.selector) ? [required('spec.selector')] : []),
    ...validateLabels(spec.selector, 'spec.selector'),
    ...validateTemplateForController(spec.template, spec.selector ?? {}, 'spec.template'),
  ];
}

/** validateTemplateForController is ValidatePodTemplateSpecForRC: the template must exist,
 * carry every selector label, restart its pods forever and set no activeDeadlineSeconds. */
function validateTemplateForController(template: PodTemplateSpec | undefined, selector: Record<string, string>, field: string): FieldError[] {
  if (!template) return [required(field)];
  const errors: FieldError[] = [];
  const labels = template.metadata?.labels ?? {};
  if (!isEmpty(selector) && !Object.entries(selector).every(([key, value]) => labels[key] === value)) {
    errors.push(invalid(`${field}.metadata.labels`, labels, `selector does not match labels in ${field}`));
  }
  errors.push(...validatePodTemplateSpec(template, field));
  const restartPolicy = template.spec.restartPolicy;
  if (restartPolicy !== 'Always') errors.push(notSupported(`${field}.spec.restartPolicy`, restartPolicy ?? '', ['Always']));
  if (template.spec.activeDeadlineSeconds !== undefined) {
    errors.push(forbidden(`${field}.spec.activeDeadlineSeconds`, 'activeDeadlineSeconds in ReplicationController is not Supported'));
  }
  return errors;
}

/** replicationControllerDefinition serves core/v1 replicationcontrollers (rc), with /status and /scale. */
export const replicationControllerDefinition: ResourceDefinition<ReplicationController> = {
  ...KIND_IDS.replicationController,
  singular: 'replicationcontroller',
  shortNames: ['rc'],
  categories: ['all'],
  schema: ReplicationControllerSchema,
  defaults: defaultReplicationController,
  validate: validateReplicationController,
  tracksGeneration: true,
  subresources: {
    status: true,
    scale: { specReplicasPath: 'spec.replicas', statusReplicasPath: 'status.replicas', labelSelectorPath: 'spec.selector', labelSelectorIsMap: true },
  },
  printColumns: [
    nameColumn,
    column('Desired', (rc: ReplicationController) => rc.spec?.replicas ?? 0, { type: 'integer', description: 'Replicas is the number of desired replicas.' }),
    column('Current', (rc: ReplicationController) => rc.status?.replicas ?? 0, {
      type: 'integer',
      description: 'Replicas is the most recently observed number of replicas.',
    }),
    column('Ready', (rc: ReplicationController) => rc.status?.readyReplicas ?? 0, {
      type: 'integer',
      description: 'The number of ready replicas for this replication controller.',
    }),
    ageColumn,
    ...workloadWideColumns<Record<string, string>>(formatLabels, 'Selector is a label query over pods that should match the Replicas count.'),
  ],
  fieldSelectors: { 'status.replicas': (rc) => String(rc.status?.replicas ?? 0) },
  protobuf: ReplicationControllerMessage,
  storage: { resource: 'replicationcontrollers' },
};
