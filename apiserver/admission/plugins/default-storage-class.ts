/**
 * DefaultStorageClass, as kube-apiserver's plugin (storage/persistentvolume/setdefault): a new
 * claim that names no class (neither spec.storageClassName, not even "", nor the beta
 * annotation) gets the default StorageClass, the newest when several are marked default.
 */
import type { PersistentVolumeClaim } from '../../api/core/persistent-volume-claim.js';
import { isDefaultStorageClass, type StorageClass } from '../../api/storage/storage-class.js';
import type { AdmissionPlugin } from '../plugin.js';
import { newestDefaultClass } from './default-class.js';

export const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

export const defaultStorageClass: AdmissionPlugin = {
  name: 'DefaultStorageClass',
  handles: (operation, def, subresource) => operation === 'CREATE' && subresource === '' && def.storage.resource === 'persistentvolumeclaims',
  admit(ctx, { object }) {
    const claim = object as unknown as PersistentVolumeClaim;
    if (!claim.spec || claim.spec.storageClassName !== undefined || claim.metadata.annotations?.[BETA_STORAGE_CLASS_ANNOTATION] !== undefined) return;
    const chosen = newestDefaultClass<StorageClass>(ctx, 'storageclasses.storage.k8s.io', isDefaultStorageClass);
    if (chosen?.metadata.name) claim.spec.storageClassName = chosen.metadata.name;
  },
};
