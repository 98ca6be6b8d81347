/**
 * core/v1 PersistentVolumeClaim: a user's request for storage. kubesim's storage is
 * bookkeeping only: the persistentvolume-binder controller answers every Pending claim with
 * a generated PersistentVolume and marks both Bound; nothing is ever mounted.
 */
import { z } from 'zod';
import { TimeSchema, typeMetaFields } from '../meta.js';
import { mergeByKey } from '../patch-meta.js';
import { age, column, nameColumn } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { invalid, required } from '../validation.js';
import { ResourceListSchema } from './quantity.js';
import { enumOf, K8S_CORE } from './schema-helpers.js';

/** ACCESS_MODES are the volume access modes Kubernetes knows. */
export const ACCESS_MODES = ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'] as const;

export const VolumeResourceRequirementsSchema = z
  .object({
    requests: ResourceListSchema.optional().describe('requests is the minimum storage required, e.g. {storage: 1Gi}.'),
    limits: ResourceListSchema.optional().describe('limits is the maximum storage allowed.'),
  })
  .meta({ id: `${K8S_CORE}.VolumeResourceRequirements`, description: 'VolumeResourceRequirements describes the storage resource requirements of a claim.' });

export const PersistentVolumeClaimSpecSchema = z
  .object({
    accessModes: z.array(enumOf(ACCESS_MODES)).optional().describe('accessModes the volume should have.'),
    resources: VolumeResourceRequirementsSchema.optional().describe('resources is the storage the claim asks for.'),
    storageClassName: z.string().optional().describe('storageClassName is the StorageClass the claim asks for.'),
    volumeMode: enumOf(['Filesystem', 'Block']).optional().describe('volumeMode is Filesystem (default) or Block.'),
    volumeName: z.string().optional().describe('volumeName is the PersistentVolume bound to this claim.'),
    volumeAttributesClassName: z.string().optional().describe('volumeAttributesClassName is the VolumeAttributesClass the claim uses.'),
  })
  .meta({ id: `${K8S_CORE}.PersistentVolumeClaimSpec`, description: 'PersistentVolumeClaimSpec describes the common attributes of storage devices.' });

export const PersistentVolumeClaimConditionSchema = z
  .object({
    type: z.string().describe('type of the condition.'),
    status: z.enum(['True', 'False', 'Unknown']).describe('status of the condition.'),
    lastTransitionTime: TimeSchema.optional().describe('lastTransitionTime is when the condition last changed.'),
    reason: z.string().optional().describe('reason is a CamelCase word for the last transition.'),
    message: z.string().optional().describe('message is a human-readable explanation.'),
  })
  .meta({ id: `${K8S_CORE}.PersistentVolumeClaimCondition`, description: 'PersistentVolumeClaimCondition contains details about the state of a claim.' });

export const PersistentVolumeClaimStatusSchema = z
  .object({
    phase: enumOf(['Pending', 'Bound', 'Lost']).optional().describe('phase is Pending, Bound or Lost.'),
    accessModes: z.array(enumOf(ACCESS_MODES)).optional().describe('accessModes the bound volume has.'),
    capacity: ResourceListSchema.optional().describe('capacity of the bound volume.'),
    conditions: z.array(PersistentVolumeClaimConditionSchema).optional().meta(mergeByKey('type')).describe('conditions of the claim.'),
  })
  .meta({ id: `${K8S_CORE}.PersistentVolumeClaimStatus`, description: 'PersistentVolumeClaimStatus is the current status of a claim.' });

export const PersistentVolumeClaimSchema = z
  .object({
    ...typeMetaFields('v1', 'PersistentVolumeClaim'),
    spec: PersistentVolumeClaimSpecSchema.default(() => ({})).describe('spec is the storage the claim asks for.'),
    status: PersistentVolumeClaimStatusSchema.optional().describe('status is the current state of the claim. Read-only.'),
  })
  .meta({ id: `${K8S_CORE}.PersistentVolumeClaim`, description: "PersistentVolumeClaim is a user's request for and claim to a persistent volume." });

export type PersistentVolumeClaim = z.infer<typeof PersistentVolumeClaimSchema>;

/** defaultPersistentVolumeClaim sets volumeMode Filesystem and a Pending phase, in place. */
export function defaultPersistentVolumeClaim(claim: PersistentVolumeClaim): void {
  claim.spec.volumeMode ??= 'Filesystem';
  claim.status ??= {};
  claim.status.phase ??= 'Pending';
}

/** validatePersistentVolumeClaim requires access modes and a storage request (Kubernetes'
 * ValidatePersistentVolumeClaimSpec, the parts kubesim uses). Pure. */
export function validatePersistentVolumeClaim(claim: PersistentVolumeClaim, old?: PersistentVolumeClaim): FieldError[] {
  const errors: FieldError[] = [];
  if ((claim.spec.accessModes ?? []).length === 0) errors.push(required('spec.accessModes'));
  if (claim.spec.resources?.requests?.['storage'] === undefined) errors.push(required('spec.resources[storage]'));
  const oldVolume = old?.spec.volumeName;
  if (oldVolume && claim.spec.volumeName !== oldVolume) errors.push(invalid('spec.volumeName', claim.spec.volumeName, 'field is immutable once set'));
  return errors;
}

/** accessModesText abbreviates access modes as kubectl prints them (RWO,ROX,RWX,RWOP). */
export function accessModesText(modes: readonly string[] | undefined): string {
  const short: Record<string, string> = { ReadWriteOnce: 'RWO', ReadOnlyMany: 'ROX', ReadWriteMany: 'RWX', ReadWriteOncePod: 'RWOP' };
  return (modes ?? []).map((mode) => short[mode] ?? mode).join(',');
}

/** persistentVolumeClaimDefinition serves core/v1 persistentvolumeclaims (pvc), with /status. */
export const persistentVolumeClaimDefinition: ResourceDefinition<PersistentVolumeClaim> = {
  group: '',
  version: 'v1',
  kind: 'PersistentVolumeClaim',
  plural: 'persistentvolumeclaims',
  singular: 'persistentvolumeclaim',
  shortNames: ['pvc'],
  categories: [],
  namespaced: true,
  schema: PersistentVolumeClaimSchema,
  defaults: defaultPersistentVolumeClaim,
  validate: validatePersistentVolumeClaim,
  tracksGeneration: false,
  subresources: { status: true },
  printColumns: [
    nameColumn,
    column('Status', (c: PersistentVolumeClaim) => c.status?.phase ?? '', { description: 'The phase of the claim.' }),
    column('Volume', (c: PersistentVolumeClaim) => c.spec?.volumeName ?? '', { description: 'The volume bound to the claim.' }),
    column('Capacity', (c: PersistentVolumeClaim) => c.status?.capacity?.['storage'] ?? '', { description: 'The capacity of the bound volume.' }),
    column('Access Modes', (c: PersistentVolumeClaim) => accessModesText(c.status?.accessModes), { description: 'The access modes of the bound volume.' }),
    column('StorageClass', (c: PersistentVolumeClaim) => c.spec?.storageClassName ?? '', { description: 'The StorageClass of the claim.' }),
    column('VolumeAttributesClass', (c: PersistentVolumeClaim) => c.spec?.volumeAttributesClassName ?? '<unset>', {
      description: 'The VolumeAttributesClass of the claim.',
    }),
    column('Age', (c: PersistentVolumeClaim, context) => age(c.metadata?.creationTimestamp, context), { description: 'Time since creation.' }),
    column('VolumeMode', (c: PersistentVolumeClaim) => c.spec?.volumeMode ?? '', { wide: true, description: 'The volume mode of the claim.' }),
  ],
  storage: { resource: 'persistentvolumeclaims' },
};
