/**
 * apps/v1 StatefulSet: pods with stable identities `<name>-<ordinal>` and stable storage
 * (one PersistentVolumeClaim per volumeClaimTemplate and ordinal), created, scaled and
 * updated in ordinal order. The StatefulSet controller is the only writer of `status`;
 * `kubectl rollout status/history/undo statefulset` read it and the set's ControllerRevisions.
 */
import { z } from 'zod';
import { PersistentVolumeClaimSchema } from '../core/persistent-volume-claim.js';
import { PodTemplateSpecSchema } from '../core/pod-spec.js';
import { defaultPodSpec } from '../core/pod-spec-defaults.js';
import { enumOf } from '../core/schema-helpers.js';
import { deepEqual } from '../deep-equal.js';
import { KIND_IDS } from '../kind-refs.js';
import { formatLabelSelector } from '../labels.js';
import { IntOrStringSchema, kindConditionSchema, LabelSelectorSchema, typeMetaFields } from '../meta.js';
import { mergeByKey, retainKeys } from '../patch-meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { forbidden, invalid, validateNonnegativeField } from '../validation.js';
import { APPS_V1 } from './apps-v1.js';
import { validateSelectorAndTemplate } from './pod-template-validation.js';
import { workloadWideColumns } from './workload-columns.js';

export const RollingUpdateStatefulSetStrategySchema = z
  .object({
    partition: z.int32().optional().describe('partition: only pods with an ordinal >= partition are updated. Defaults to 0.'),
    maxUnavailable: IntOrStringSchema.optional().describe(
      'maxUnavailable is how many pods (number or percentage) may be unavailable during the update. Defaults to 1.',
    ),
  })
  .meta({ id: `${APPS_V1}.RollingUpdateStatefulSetStrategy`, description: 'RollingUpdateStatefulSetStrategy controls a StatefulSet rolling update.' });

export const StatefulSetUpdateStrategySchema = z
  .object({
    type: enumOf(['RollingUpdate', 'OnDelete']).optional().describe('type: RollingUpdate (default) or OnDelete.'),
    rollingUpdate: RollingUpdateStatefulSetStrategySchema.optional().describe('rollingUpdate parameters, for type RollingUpdate.'),
  })
  .meta({ id: `${APPS_V1}.StatefulSetUpdateStrategy`, description: 'StatefulSetUpdateStrategy says how pods are updated when the template changes.' });

export const StatefulSetPersistentVolumeClaimRetentionPolicySchema = z
  .object({
    whenDeleted: enumOf(['Retain', 'Delete']).optional().describe('whenDeleted: what happens to the claims when the set is deleted. Defaults to Retain.'),
    whenScaled: enumOf(['Retain', 'Delete']).optional().describe('whenScaled: what happens to the claims of pods removed by scale-down. Defaults to Retain.'),
  })
  .meta({
    id: `${APPS_V1}.StatefulSetPersistentVolumeClaimRetentionPolicy`,
    description: 'StatefulSetPersistentVolumeClaimRetentionPolicy says what happens to the claims created from volumeClaimTemplates.',
  });

export const StatefulSetSpecSchema = z
  .object({
    replicas: z.int32().optional().describe('replicas is the number of desired pods. Defaults to 1.'),
    selector: LabelSelectorSchema.describe("selector is a label query over pods; it must match the template's labels and is immutable."),
    template: PodTemplateSpecSchema.describe('template describes the pods the set creates.'),
    volumeClaimTemplates: z
      .array(PersistentVolumeClaimSchema)
      .optional()
      .describe('volumeClaimTemplates are the claims each pod gets, named <template>-<set>-<ordinal>.'),
    serviceName: z.string().optional().describe('serviceName is the governing Service: pods get subdomain <serviceName>.'),
    podManagementPolicy: enumOf(['OrderedReady', 'Parallel']).optional().describe('podManagementPolicy: OrderedReady (default) or Parallel.'),
    updateStrategy: StatefulSetUpdateStrategySchema.optional().meta(retainKeys).describe('updateStrategy says how template changes reach the pods.'),
    revisionHistoryLimit: z.int32().optional().describe('revisionHistoryLimit is how many ControllerRevisions to keep. Defaults to 10.'),
    minReadySeconds: z.int32().optional().describe('minReadySeconds is how long a ready pod must stay ready to be available. Defaults to 0.'),
    persistentVolumeClaimRetentionPolicy: StatefulSetPersistentVolumeClaimRetentionPolicySchema.optional().describe(
      'persistentVolumeClaimRetentionPolicy says whether claims are deleted with the set or on scale-down.',
    ),
    ordinals: z
      .object({ start: z.int32().optional().describe('start is the first ordinal. Defaults to 0.') })
      .meta({ id: `${APPS_V1}.StatefulSetOrdinals`, description: "StatefulSetOrdinals describes the ordinals of the set's pods." })
      .optional()
      .describe('ordinals controls the numbering of the pods.'),
  })
  .meta({ id: `${APPS_V1}.StatefulSetSpec`, description: 'StatefulSetSpec is the specification of a StatefulSet.' });

export const StatefulSetConditionSchema = kindConditionSchema(`${APPS_V1}.StatefulSetCondition`, 'StatefulSetCondition describes the state of a StatefulSet.');

const count = (description: string) => z.int32().optional().describe(description);

export const StatefulSetStatusSchema = z
  .object({
    observedGeneration: count('observedGeneration is the generation the status reflects.'),
    replicas: count('replicas is the number of pods the controller created.'),
    readyReplicas: count('readyReplicas is the number of pods with a Ready condition.'),
    currentReplicas: count('currentReplicas is the number of pods at currentRevision.'),
    updatedReplicas: count('updatedReplicas is the number of pods at updateRevision.'),
    availableReplicas: count('availableReplicas is the number of pods ready for minReadySeconds.'),
    currentRevision: z.string().optional().describe('currentRevision names the ControllerRevision of pods [0, currentReplicas).'),
    updateRevision: z.string().optional().describe('updateRevision names the ControllerRevision of the current template.'),
    collisionCount: count('collisionCount varies the revision hash when names collide.'),
    conditions: z.array(StatefulSetConditionSchema).optional().meta(mergeByKey('type')).describe('conditions of the set.'),
  })
  .meta({ id: `${APPS_V1}.StatefulSetStatus`, description: 'StatefulSetStatus is the most recently observed status of a StatefulSet.' });

export const StatefulSetSchema = z
  .object({
    ...typeMetaFields('apps/v1', 'StatefulSet'),
    spec: StatefulSetSpecSchema.describe('spec is the desired state of the set.'),
    status: StatefulSetStatusSchema.optional().describe('status is the most recently observed state of the set. Read-only.'),
  })
  .meta({ id: `${APPS_V1}.StatefulSet`, description: 'StatefulSet represents a set of pods with consistent identities.' });

export type StatefulSet = z.infer<typeof StatefulSetSchema>;

/** defaultStatefulSet applies SetDefaults_StatefulSet in place: replicas 1, OrderedReady,
 * RollingUpdate with partition 0, revisionHistoryLimit 10, Retain/Retain claim policy, plus
 * the template's pod spec defaults. Idempotent. */
export function defaultStatefulSet(set: StatefulSet): void {
  const spec = set.spec;
  spec.replicas ??= 1;
  spec.podManagementPolicy ??= 'OrderedReady';
  const strategy = (spec.updateStrategy ??= {});
  strategy.type ??= 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') (strategy.rollingUpdate ??= {}).partition ??= 0;
  spec.revisionHistoryLimit ??= 10;
  const policy = (spec.persistentVolumeClaimRetentionPolicy ??= {});
  policy.whenDeleted ??= 'Retain';
  policy.whenScaled ??= 'Retain';
  for (const claim of spec.volumeClaimTemplates ?? []) {
    claim.spec.volumeMode ??= 'Filesystem';
    claim.status ??= { phase: 'Pending' };
  }
  defaultPodSpec(spec.template.spec);
}

/*
 * StatefulSet validation (Kubernetes' ValidateStatefulSet / ValidateStatefulSetUpdate, the
 * parts kubesim models): the workload selector and template rules, non-negative counts,
 * partition and maxUnavailable, and which spec fields may change after creation.
 */

/** validateStatefulSet checks a defaulted StatefulSet; on update also the fields that are
 * immutable (everything but UPDATABLE_SPEC_FIELDS). Pure. */
export function validateStatefulSet(set: StatefulSet, old?: StatefulSet): FieldError[] {
  const { spec } = set;
  return [
    ...validateNonnegativeField(spec.replicas, 'spec.replicas'),
    ...validateNonnegativeField(spec.minReadySeconds, 'spec.minReadySeconds'),
    ...validateNonnegativeField(spec.ordinals?.start, 'spec.ordinals.start'),
    ...validateNonnegativeField(spec.updateStrategy?.rollingUpdate?.partition, 'spec.updateStrategy.rollingUpdate.partition'),
    ...validateStrategy(set),
    ...validateSelectorAndTemplate(spec),
    ...(old ? validateUpdate(set, old) : []),
  ];
}

function validateStrategy({ spec }: StatefulSet): FieldError[] {
  const strategy = spec.updateStrategy;
  const field = 'spec.updateStrategy.rollingUpdate';
  if (strategy?.type === 'OnDelete' && strategy.rollingUpdate) return [forbidden(field, "only allowed for updateStrategy 'RollingUpdate'")];
  const maxUnavailable = strategy?.rollingUpdate?.maxUnavailable;
  if (maxUnavailable === undefined) return [];
  if (typeof maxUnavailable === 'number') return maxUnavailable < 1 ? [invalid(`${field}.maxUnavailable`, maxUnavailable, 'must be greater than 0')] : [];
  return /^[1-9]\d*%$/.test(maxUnavailable) ? [] : [invalid(`${field}.maxUnavailable`, maxUnavailable, 'must be a positive integer or percentage')];
}

/** UPDATABLE_SPEC_FIELDS are the StatefulSet spec fields an update may change. */
const UPDATABLE_SPEC_FIELDS: ReadonlySet<string> = new Set([
  'replicas',
  'ordinals',
  'template',
  'updateStrategy',
  'revisionHistoryLimit',
  'persistentVolumeClaimRetentionPolicy',
  'minReadySeconds',
]);

/** validateUpdate forbids any change to the other spec fields — the selector, serviceName,
 * podManagementPolicy, volumeClaimTemplates — with one error for the whole spec, as
 * ValidateStatefulSetUpdate does. */
function validateUpdate(set: StatefulSet, old: StatefulSet): FieldError[] {
  const fields = new Set([...Object.keys(set.spec), ...Object.keys(old.spec)]) as Set<keyof StatefulSet['spec']>;
  const changed = [...fields].some((field) => !UPDATABLE_SPEC_FIELDS.has(field) && !deepEqual(set.spec[field], old.spec[field]));
  if (!changed) return [];
  return [
    forbidden(
      'spec',
      "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ),
  ];
}

/** statefulSetDefinition serves apps/v1 statefulsets (sts), with /status and /scale. */
export const statefulSetDefinition: ResourceDefinition<StatefulSet> = {
  ...KIND_IDS.statefulSet,
  singular: 'statefulset',
  shortNames: ['sts'],
  categories: ['all'],
  schema: StatefulSetSchema,
  defaults: defaultStatefulSet,
  validate: validateStatefulSet,
  tracksGeneration: true,
  subresources: { status: true, scale: { specReplicasPath: 'spec.replicas', statusReplicasPath: 'status.replicas', labelSelectorPath: 'spec.selector' } },
  printColumns: [
    nameColumn,
    column('Ready', (s: StatefulSet) => `${s.status?.readyReplicas ?? 0}/${s.spec?.replicas ?? 0}`, { description: 'Number of the pod with ready state.' }),
    ageColumn,
    ...workloadWideColumns(formatLabelSelector, 'Label selector for pods.').slice(0, 2),
  ],
  storage: { resource: 'statefulsets.apps' },
};
