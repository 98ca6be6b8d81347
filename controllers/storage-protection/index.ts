/**
 * controllers/storage-protection — the pvc-protection and pv-protection loops: the
 * kubernetes.io/pvc-protection and pv-protection finalizers on every claim and volume, lifted
 * once nothing uses a deleted one. May import: controllers/runtime/** and apiserver/api/**
 * only. Docs: docs/controllers.md.
 */
export { PV_PROTECTION_FINALIZER, PVC_PROTECTION_FINALIZER } from '../../apiserver/api/core/storage-protection.js';
export { PV_PROTECTION_CONTROLLER_NAME, registerPvProtectionController } from './pv-protection.js';
export { claimsOf, PVC_PROTECTION_CONTROLLER_NAME, registerPvcProtectionController, usesClaim } from './pvc-protection.js';
