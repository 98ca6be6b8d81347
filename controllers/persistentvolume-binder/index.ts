/**
 * controllers/persistentvolume-binder — a trivially-binding simulated storage: every Pending
 * PersistentVolumeClaim without a volume gets a generated PersistentVolume `pvc-<uid>` (its
 * size, class, access modes and claimRef), then both are marked Bound; a deleted claim's
 * volume is deleted (reclaim policy Delete) or Released. Bookkeeping only: pods never mount.
 */
export { BINDER_CONTROLLER_NAME, BINDER_EVENT_SOURCE, registerPersistentVolumeBinder } from './binder-controller.js';
export { boundClaimStatus, claimBoundTo, newVolumeFor, PROVISIONER, volumeNameFor } from './binding.js';
export { type BinderDeps, CLAIM_KEY_INDEX, createBinderReconciler, indexByClaimKey } from './reconcile.js';
