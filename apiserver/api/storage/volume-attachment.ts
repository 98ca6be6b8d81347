/**
 * storage.k8s.io/v1 VolumeAttachment: a request to attach a volume to a node, made by the
 * attach/detach controller and fulfilled by the CSI driver's external attacher (which writes
 * the status). kubesim runs neither; the objects are stored and validated, spec immutable.
 */
import { z } from 'zod';
import { PersistentVolumeSpecSchema } from '../core/persistent-volume.js';
import { deepEqual } from '../deep-equal.js';
import { TimeSchema, typeMetaFields } from '../meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { forbidden, invalid, isDns1123Subdomain, required } from '../validation.js';
import { validateCsiDriverName } from './csi-driver-name.js';

const STORAGE_V1 = 'io.k8s.api.storage.v1';
const EXACTLY_ONE_SOURCE = 'must specify exactly one of inlineVolumeSpec and persistentVolumeName';

const VolumeErrorSchema = z
  .object({
    time: TimeSchema.optional().describe('When the error happened.'),
    message: z.string().optional().describe('What went wrong.'),
    errorCode: z.int32().optional().describe('The gRPC error code the driver returned.'),
  })
  .meta({ id: `${STORAGE_V1}.VolumeError`, description: 'VolumeError captures an error encountered during a volume operation.' });

export const VolumeAttachmentSchema = z
  .object({
    ...typeMetaFields('storage.k8s.io/v1', 'VolumeAttachment'),
    spec: z
      .object({
        attacher: z.string().describe('The CSI driver that attaches the volume.'),
        source: z
          .object({
            persistentVolumeName: z.string().optional().describe('The PersistentVolume to attach.'),
            inlineVolumeSpec: PersistentVolumeSpecSchema.optional().describe('An inline volume of a pod, translated to a PersistentVolumeSpec.'),
          })
          .meta({ id: `${STORAGE_V1}.VolumeAttachmentSource`, description: 'VolumeAttachmentSource names the volume to attach; exactly one member is set.' })
          .describe('The volume to attach.'),
        nodeName: z.string().describe('The node to attach the volume to.'),
      })
      .meta({ id: `${STORAGE_V1}.VolumeAttachmentSpec`, description: 'VolumeAttachmentSpec is the specification of a VolumeAttachment request.' })
      .describe('What to attach where. Immutable.'),
    status: z
      .object({
        attached: z.boolean().default(false).describe('Whether the volume is attached.'),
        attachmentMetadata: z.record(z.string(), z.string()).optional().describe('What the attacher returned, passed to later mounts.'),
        attachError: VolumeErrorSchema.optional().describe('The last error attaching the volume.'),
        detachError: VolumeErrorSchema.optional().describe('The last error detaching the volume.'),
      })
      .meta({ id: `${STORAGE_V1}.VolumeAttachmentStatus`, description: 'VolumeAttachmentStatus is the status of a VolumeAttachment request.' })
      .optional()
      .describe('Written by the attacher through /status.'),
  })
  .meta({
    id: `${STORAGE_V1}.VolumeAttachment`,
    description: 'VolumeAttachment captures the intent to attach or detach the specified volume to/from the specified node.',
  });

export type VolumeAttachment = z.infer<typeof VolumeAttachmentSchema>;

/** validateVolumeAttachment: attacher, exactly one source, node name; the spec never changes. */
export function validateVolumeAttachment(attachment: VolumeAttachment, old?: VolumeAttachment): FieldError[] {
  const { spec } = attachment;
  if (old) return deepEqual(spec, old.spec) ? [] : [invalid('spec', spec, 'field is immutable')];
  const errors = validateCsiDriverName(spec.attacher, 'spec.attacher');
  const { persistentVolumeName, inlineVolumeSpec } = spec.source;
  if (persistentVolumeName === undefined && inlineVolumeSpec === undefined) errors.push({ ...required('spec.source'), detail: EXACTLY_ONE_SOURCE });
  else if (persistentVolumeName !== undefined && inlineVolumeSpec !== undefined) errors.push(forbidden('spec.source', EXACTLY_ONE_SOURCE));
  else if (persistentVolumeName === '') errors.push({ ...required('spec.source.persistentVolumeName'), detail: 'must specify non empty persistentVolumeName' });
  errors.push(...isDns1123Subdomain(spec.nodeName).map((detail) => invalid('spec.nodeName', spec.nodeName, detail)));
  return errors;
}

/** volumeAttachmentDefinition serves storage.k8s.io/v1 volumeattachments (cluster-scoped), with /status. */
export const volumeAttachmentDefinition: ResourceDefinition<VolumeAttachment> = {
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'VolumeAttachment',
  plural: 'volumeattachments',
  singular: 'volumeattachment',
  shortNames: [],
  categories: [],
  namespaced: false,
  schema: VolumeAttachmentSchema,
  validate: validateVolumeAttachment,
  tracksGeneration: false,
  subresources: { status: true },
  printColumns: [
    nameColumn,
    column('Attacher', (va: VolumeAttachment) => va.spec?.attacher ?? '', { format: 'name', description: 'The CSI driver that attaches the volume.' }),
    column('PV', (va: VolumeAttachment) => va.spec?.source?.persistentVolumeName ?? '', { description: 'The PersistentVolume to attach.' }),
    column('Node', (va: VolumeAttachment) => va.spec?.nodeName ?? '', { description: 'The node the volume is attached to.' }),
    column('Attached', (va: VolumeAttachment) => va.status?.attached ?? false, { type: 'boolean', description: 'Whether the volume is attached.' }),
    ageColumn,
  ],
  storage: { resource: 'volumeattachments.storage.k8s.io' },
};
