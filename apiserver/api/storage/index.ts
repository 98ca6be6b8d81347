/**
 * storage.k8s.io: StorageClasses, CSIDrivers, CSINodes, CSIStorageCapacities and
 * VolumeAttachments.
 *
 * Role: schema, validation and table columns of the group's kinds, registered by the
 * registry like every other group. May import only from apiserver/api/ and zod. See
 * docs/api-conventions.md.
 */
import type { AnyResourceDefinition } from '../resource-definition.js';
import { csiDriverDefinition } from './csi-driver.js';
import { csiNodeDefinition } from './csi-node.js';
import { csiStorageCapacityDefinition } from './csi-storage-capacity.js';
import { storageClassDefinition } from './storage-class.js';
import { volumeAttachmentDefinition } from './volume-attachment.js';

export { type CSIDriver, csiDriverDefinition } from './csi-driver.js';
export { type CSINode, csiNodeDefinition } from './csi-node.js';
export { type CSIStorageCapacity, csiStorageCapacityDefinition } from './csi-storage-capacity.js';
export {
  isDefaultStorageClass,
  SIMULATED_PROVISIONER,
  STANDARD_STORAGE_CLASS,
  type StorageClass,
  StorageClassSchema,
  storageClassDefinition,
} from './storage-class.js';
export { type VolumeAttachment, volumeAttachmentDefinition } from './volume-attachment.js';

/** storageDefinitions lists the group's served kinds (kube-apiserver's discovery order). */
export const storageDefinitions: AnyResourceDefinition[] = [
  csiDriverDefinition,
  csiNodeDefinition,
  csiStorageCapacityDefinition,
  storageClassDefinition,
  volumeAttachmentDefinition,
];
