/**
 * StorageObjectInUseProtection, as kube-apiserver's plugin: a new claim gets the
 * kubernetes.io/pvc-protection finalizer and a new volume kubernetes.io/pv-protection, so
 * neither disappears while in use; the pvc-protection and pv-protection loops lift them.
 * Each finalizer is put on only where its loop runs (builtInAdmissionPlugins), or a deleted
 * claim or volume would never go.
 */
import { PV_PROTECTION_FINALIZER, PVC_PROTECTION_FINALIZER } from '../../api/core/storage-protection.js';
import type { AdmissionPlugin } from '../plugin.js';

export interface StorageProtectionOptions {
  claims: boolean;
  volumes: boolean;
}

export function createStorageObjectInUseProtection({ claims, volumes }: StorageProtectionOptions): AdmissionPlugin {
  const finalizerFor = (resource: string): string | undefined => {
    if (resource === 'persistentvolumeclaims') return claims ? PVC_PROTECTION_FINALIZER : undefined;
    if (resource === 'persistentvolumes') return volumes ? PV_PROTECTION_FINALIZER : undefined;
    return undefined;
  };
  return {
    name: 'StorageObjectInUseProtection',
    handles: (operation, def, subresource) => operation === 'CREATE' && subresource === '' && finalizerFor(def.storage.resource) !== undefined,
    admit(_ctx, { def, object }) {
      const finalizer = finalizerFor(def.storage.resource);
      if (!object || !finalizer) return;
      const finalizers = object.metadata.finalizers ?? [];
      if (!finalizers.includes(finalizer)) object.metadata.finalizers = [...finalizers, finalizer];
    },
  };
}
