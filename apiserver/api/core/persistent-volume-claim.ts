/**
 * core/v1 PersistentVolumeClaim: a user's request for storage. kubesim's storage is
 * bookkeeping only: the persistentvolume-binder controller answers every Pending claim with
 * a generated PersistentVolume and marks both Bound; nothing is ever mounted.
 */
import { z } from 'zod';
import { KIND_IDS } from '../kind-refs.js';
import { kindConditionSchema, typeMetaFields } from '../meta.js';
import { mergeByKey } from '../patch-meta.js';
import { age, column, nameColumn } from '../printing.js';
import { compareQuantities, tryParseQuantity } from '../quantity.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { changedFields, forbidden, required, validateImmutableField } from '../validation.js';
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

export const PersistentVolumeClaimConditionSchema = kindConditionSchema(
  `${K8S_CORE}.PersistentVolumeClaimCondition`,
  'PersistentVolumeClaimCondition contains details about the state of a claim.',
);

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
 * ValidatePersistentVolumeClaimSpec, the parts kubesim uses), and on update keeps the spec
 * (below). Pure. */
export function validatePersistentVolumeClaim(claim: PersistentVolumeClaim, old?: PersistentVolumeClaim): FieldError[] {
  const errors: FieldError[] = [];
  if ((claim.spec.accessModes ?? []).length === 0) errors.push(required('spec.accessModes'));
  if (claim.spec.resources?.requests?.['storage'] === undefined) errors.push(required('spec.resources[storage]'));
  if (old) errors.push(...validatePersistentVolumeClaimUpdate(claim, old));
  return errors;
}

/*
 * What may change in a PersistentVolumeClaim after creation (Kubernetes'
 * ValidatePersistentVolumeClaimUpdate): its spec is fixed — quota and limits were judged on
 * it — except that the binder sets volumeName once, and a bound claim may grow its storage
 * request (or shrink it back toward, never to, its capacity: recovery from a failed expansion,
 * on by default since 1.32) and change its volumeAttributesClassName.
 */

type ClaimSpec = PersistentVolumeClaim['spec'];

const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

const SPEC_IMMUTABLE = 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims';

/** validatePersistentVolumeClaimUpdate lists the changes of `claim` from `old` that a claim may not make. Pure. */
export function validatePersistentVolumeClaimUpdate(claim: PersistentVolumeClaim, old: PersistentVolumeClaim): FieldError[] {
  const errors: FieldError[] = [];
  const next = comparableSpec(claim, old);
  const changes = changedFields(old.spec, next, [...new Set([...Object.keys(old.spec), ...Object.keys(next)])] as (keyof ClaimSpec)[]);
  if (changes.length > 0) errors.push(forbidden('spec', `${SPEC_IMMUTABLE}\n${changes.join('\n')}`));
  errors.push(...validateStorageRequestDecrease(claim, old));
  errors.push(...validateImmutableField(claim.spec.volumeMode, old.spec.volumeMode, 'volumeMode'));
  return errors;
}

/** comparableSpec is the new spec with what may change taken from the old one. */
function comparableSpec(claim: PersistentVolumeClaim, old: PersistentVolumeClaim): ClaimSpec {
  const spec: ClaimSpec = { ...claim.spec };
  // The binder sets volumeName once; after that it is part of the fixed spec.
  if (!old.spec.volumeName) spec.volumeName = old.spec.volumeName;
  // A claim created without a class may be given one later (retroactive default StorageClass).
  if (old.spec.storageClassName === undefined && !old.metadata.annotations?.[BETA_STORAGE_CLASS_ANNOTATION]) delete spec.storageClassName;
  if (claim.status?.phase === 'Bound') {
    const oldStorage = old.spec.resources?.requests?.['storage'];
    spec.resources = { ...spec.resources, requests: { ...spec.resources?.requests, storage: oldStorage } as Record<string, string> };
    spec.volumeAttributesClassName = old.spec.volumeAttributesClassName;
  }
  return spec;
}

/** validateStorageRequestDecrease allows a smaller storage request only while it stays above
 * the capacity the claim was given. */
function validateStorageRequestDecrease(claim: PersistentVolumeClaim, old: PersistentVolumeClaim): FieldError[] {
  const size = tryParseQuantity(claim.spec.resources?.requests?.['storage'] ?? '0');
  const oldSize = tryParseQuantity(old.spec.resources?.requests?.['storage'] ?? '0');
  if (!size || !oldSize || compareQuantities(size, oldSize) >= 0) return [];
  const capacity = tryParseQuantity(old.status?.capacity?.['storage'] ?? '0') ?? 0;
  if (compareQuantities(size, capacity) > 0) return [];
  return [forbidden('spec.resources.requests.storage', 'field can not be less than status.capacity')];
}

/** accessModesText abbreviates access modes as kubectl prints them (RWO,ROX,RWX,RWOP). */
export function accessModesText(modes: readonly string[] | undefined): string {
  const short: Record<string, string> = { ReadWriteOnce: 'RWO', ReadOnlyMany: 'ROX', ReadWriteMany: 'RWX', ReadWriteOncePod: 'RWOP' };
  return (modes ?? []).map((mode) => short[mode] ?? mode).join(',');
}

/** persistentVolumeClaimDefinition serves core/v1 persistentvolumeclaims (pvc), with /status. */
export const persistentVolumeClaimDefinition: ResourceDefinition<PersistentVolumeClaim> = {
  ...KIND_IDS.persistentVolumeClaim,
  singular: 'persistentvolumeclaim',
  shortNames: ['pvc'],
  categories: [],
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
