/**
 * core/v1 PersistentVolume: a piece of (simulated) storage, cluster-scoped. kubesim's
 * persistentvolume-binder generates one per claim, `pvc-<claim uid>`, bound to it through
 * `spec.claimRef`; nothing is ever provisioned or mounted.
 */
import { z } from 'zod';
import { KIND_IDS } from '../kind-refs.js';
import { typeMetaFields } from '../meta.js';
import { age, column, nameColumn } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { changedFields, forbidden, required, validateImmutableField } from '../validation.js';
import { ObjectReferenceSchema } from './object-reference.js';
import { ACCESS_MODES, accessModesText } from './persistent-volume-claim.js';
import { ResourceListSchema } from './quantity.js';
import { enumOf, K8S_CORE, looseObject } from './schema-helpers.js';
import { HostPathVolumeSourceSchema, NFSVolumeSourceSchema } from './volume.js';

export const PersistentVolumeSpecSchema = z
  .object({
    capacity: ResourceListSchema.optional().describe('capacity of the volume, e.g. {storage: 1Gi}.'),
    accessModes: z.array(enumOf(ACCESS_MODES)).optional().describe('accessModes the volume can be mounted with.'),
    claimRef: ObjectReferenceSchema.optional().describe('claimRef is the claim bound to this volume.'),
    persistentVolumeReclaimPolicy: enumOf(['Retain', 'Delete', 'Recycle'])
      .optional()
      .describe('what happens to the volume when its claim is deleted. Defaults to Retain.'),
    storageClassName: z.string().optional().describe('storageClassName is the StorageClass the volume belongs to.'),
    volumeMode: enumOf(['Filesystem', 'Block']).optional().describe('volumeMode is Filesystem (default) or Block.'),
    volumeAttributesClassName: z.string().optional().describe('volumeAttributesClassName is the VolumeAttributesClass of the volume.'),
    mountOptions: z.array(z.string()).optional().describe('mountOptions for the volume.'),
    hostPath: HostPathVolumeSourceSchema.optional(),
    local: looseObject(`${K8S_CORE}.LocalVolumeSource`, 'A local disk (pass-through).').optional(),
    csi: looseObject(`${K8S_CORE}.CSIPersistentVolumeSource`, 'A CSI volume (pass-through).').optional(),
    nfs: NFSVolumeSourceSchema.optional(),
    nodeAffinity: looseObject(`${K8S_CORE}.VolumeNodeAffinity`, 'Nodes the volume can be reached from (pass-through).').optional(),
  })
  .meta({ id: `${K8S_CORE}.PersistentVolumeSpec`, description: 'PersistentVolumeSpec is the specification of a persistent volume.' });

export const PersistentVolumeStatusSchema = z
  .object({
    phase: enumOf(['Pending', 'Available', 'Bound', 'Released', 'Failed']).optional().describe('phase of the volume.'),
    message: z.string().optional().describe('message is a human-readable explanation of the phase.'),
    reason: z.string().optional().describe('reason is a CamelCase word for a failure.'),
    lastPhaseTransitionTime: z.string().optional().describe('lastPhaseTransitionTime is when the phase last changed.'),
  })
  .meta({ id: `${K8S_CORE}.PersistentVolumeStatus`, description: 'PersistentVolumeStatus is the current status of a persistent volume.' });

export const PersistentVolumeSchema = z
  .object({
    ...typeMetaFields('v1', 'PersistentVolume'),
    spec: PersistentVolumeSpecSchema.default(() => ({})).describe('spec describes the volume.'),
    status: PersistentVolumeStatusSchema.optional().describe('status is the current state of the volume. Read-only.'),
  })
  .meta({ id: `${K8S_CORE}.PersistentVolume`, description: 'PersistentVolume is a storage resource provisioned by an administrator or dynamically.' });

export type PersistentVolume = z.infer<typeof PersistentVolumeSchema>;

/** defaultPersistentVolume sets reclaim policy Retain, volumeMode Filesystem and phase
 * Pending, in place (SetDefaults_PersistentVolume). */
export function defaultPersistentVolume(pv: PersistentVolume): void {
  pv.spec.persistentVolumeReclaimPolicy ??= 'Retain';
  pv.spec.volumeMode ??= 'Filesystem';
  pv.status ??= {};
  pv.status.phase ??= 'Pending';
}

/** validatePersistentVolume requires a capacity and access modes; on update the volume source
 * and mode stay as created (ValidatePersistentVolumeUpdate). Pure. */
export function validatePersistentVolume(pv: PersistentVolume, old?: PersistentVolume): FieldError[] {
  const errors: FieldError[] = [];
  if (pv.spec.capacity?.['storage'] === undefined) errors.push(required('spec.capacity'));
  if ((pv.spec.accessModes ?? []).length === 0) errors.push(required('spec.accessModes'));
  if (old) errors.push(...validatePersistentVolumeUpdate(pv, old));
  return errors;
}

/** VOLUME_SOURCES are the spec fields that say where the volume is (PersistentVolumeSource). */
const VOLUME_SOURCES = ['hostPath', 'local', 'csi', 'nfs'] as const;

function validatePersistentVolumeUpdate(pv: PersistentVolume, old: PersistentVolume): FieldError[] {
  const errors: FieldError[] = [];
  const diff = changedFields(old.spec, pv.spec, VOLUME_SOURCES);
  if (diff.length > 0) errors.push(forbidden('spec.persistentvolumesource', `spec.persistentvolumesource is immutable after creation\n${diff.join('\n')}`));
  errors.push(...validateImmutableField(pv.spec.volumeMode, old.spec.volumeMode, 'volumeMode'));
  // Node affinity may be set once on a volume that had none.
  if (old.spec.nodeAffinity) errors.push(...validateImmutableField(pv.spec.nodeAffinity, old.spec.nodeAffinity, 'nodeAffinity'));
  return errors;
}

const claimText = (pv: PersistentVolume) => (pv.spec?.claimRef ? `${pv.spec.claimRef.namespace ?? ''}/${pv.spec.claimRef.name ?? ''}` : '');

/** persistentVolumeDefinition serves core/v1 persistentvolumes (pv), cluster-scoped, with /status. */
export const persistentVolumeDefinition: ResourceDefinition<PersistentVolume> = {
  ...KIND_IDS.persistentVolume,
  singular: 'persistentvolume',
  shortNames: ['pv'],
  categories: [],
  schema: PersistentVolumeSchema,
  defaults: defaultPersistentVolume,
  validate: validatePersistentVolume,
  tracksGeneration: false,
  subresources: { status: true },
  printColumns: [
    nameColumn,
    column('Capacity', (pv: PersistentVolume) => pv.spec?.capacity?.['storage'] ?? '', { description: 'The capacity of the volume.' }),
    column('Access Modes', (pv: PersistentVolume) => accessModesText(pv.spec?.accessModes), { description: 'The access modes of the volume.' }),
    column('Reclaim Policy', (pv: PersistentVolume) => pv.spec?.persistentVolumeReclaimPolicy ?? '', { description: 'What happens when the claim goes.' }),
    column('Status', (pv: PersistentVolume) => pv.status?.phase ?? '', { description: 'The phase of the volume.' }),
    column('Claim', claimText, { description: 'The claim bound to the volume.' }),
    column('StorageClass', (pv: PersistentVolume) => pv.spec?.storageClassName ?? '', { description: 'The StorageClass of the volume.' }),
    column('VolumeAttributesClass', (pv: PersistentVolume) => pv.spec?.volumeAttributesClassName ?? '<unset>', {
      description: 'The VolumeAttributesClass of the volume.',
    }),
    column('Reason', (pv: PersistentVolume) => pv.status?.reason ?? '', { description: 'Why the volume failed.' }),
    column('Age', (pv: PersistentVolume, context) => age(pv.metadata?.creationTimestamp, context), { description: 'Time since creation.' }),
    column('VolumeMode', (pv: PersistentVolume) => pv.spec?.volumeMode ?? '', { wide: true, description: 'The volume mode of the volume.' }),
  ],
  storage: { resource: 'persistentvolumes' },
};
