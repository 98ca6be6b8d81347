/**
 * PersistentVolumeClaimResize, as kube-apiserver's plugin (storage/persistentvolume/resize):
 * a claim's storage request may grow only once it is Bound, and only when its StorageClass
 * (the same before and after) sets allowVolumeExpansion. Messages are kube's.
 */
import type { PersistentVolumeClaim } from '../../api/core/persistent-volume-claim.js';
import { compareQuantities, tryParseQuantity } from '../../api/quantity.js';
import type { StorageClass } from '../../api/storage/storage-class.js';
import type { RegistryContext } from '../../registry/context.js';
import { admissionForbidden } from '../forbidden.js';
import type { AdmissionPlugin } from '../plugin.js';
import { BETA_STORAGE_CLASS_ANNOTATION } from './default-storage-class.js';

export const persistentVolumeClaimResize: AdmissionPlugin = {
  name: 'PersistentVolumeClaimResize',
  handles: (operation, def, subresource) => operation === 'UPDATE' && subresource === '' && def.storage.resource === 'persistentvolumeclaims',
  validate(ctx, attributes) {
    const claim = attributes.object as unknown as PersistentVolumeClaim | undefined;
    const old = attributes.oldObject as unknown as PersistentVolumeClaim | undefined;
    if (!claim?.spec || !old?.spec || !grows(claim, old)) return;
    if (old.status?.phase !== 'Bound') throw admissionForbidden(attributes, 'Only bound persistent volume claims can be expanded');
    if (!allowsResize(ctx, claim, old)) {
      throw admissionForbidden(attributes, 'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
    }
  },
};

function storageOf(claim: PersistentVolumeClaim) {
  return tryParseQuantity(claim.spec.resources?.requests?.['storage'] ?? '0') ?? tryParseQuantity('0')!;
}

function grows(claim: PersistentVolumeClaim, old: PersistentVolumeClaim): boolean {
  return compareQuantities(storageOf(claim), storageOf(old)) > 0;
}

/** classOf is kube's GetPersistentVolumeClaimClass: the beta annotation, else the field. */
function classOf(claim: PersistentVolumeClaim): string {
  return claim.metadata.annotations?.[BETA_STORAGE_CLASS_ANNOTATION] ?? claim.spec.storageClassName ?? '';
}

function allowsResize(ctx: RegistryContext, claim: PersistentVolumeClaim, old: PersistentVolumeClaim): boolean {
  const name = classOf(claim);
  if (name === '' || name !== classOf(old)) return false;
  try {
    const storageClass = ctx.store.get({ resource: 'storageclasses.storage.k8s.io', namespace: '', name }) as unknown as StorageClass;
    return storageClass.allowVolumeExpansion === true;
  } catch {
    return false;
  }
}
