/**
 * The storage protection finalizers: the StorageObjectInUseProtection admission plugin puts
 * them on new claims and volumes, the pvc-protection and pv-protection loops lift them once
 * nothing uses a deleted one (controllers/storage-protection).
 */
export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';
