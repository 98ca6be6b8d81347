/**
 * controllers/persistentvolume-binder — a trivially-binding simulated storage: every Pending
 * PersistentVolumeClaim without a volume gets a generated PersistentVolume `pvc-<uid>` (its
 * size, class, access modes and claimRef), then both are marked Bound; a deleted claim's
 * volume is deleted (reclaim policy Delete) or Released. Bookkeeping only: pods never mount.
 */
export { registerPersistentVolumeBinder, BINDER_CONTROLLER_NAME, BINDER_EVENT_SOURCE } from './binder-controller.js';
export { createBinderReconciler, CLAIM_KEY_INDEX, indexByClaimKey, type BinderDeps } from './reconcile.js';
export { newVolumeFor, volumeNameFor, boundClaimStatus, claimBoundTo, PROVISIONER } from './binding.js';
