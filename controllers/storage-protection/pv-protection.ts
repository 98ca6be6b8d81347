/**
 * The pv-protection loop (kube-controller-manager's pv-protection controller): every volume
 * carries kubernetes.io/pv-protection; a deleted volume keeps it while it is Bound to a claim
 * and loses it once released, so its deletion completes.
 */
import type { PersistentVolume } from '../../apiserver/api/core/persistent-volume.js';
import { PV_PROTECTION_FINALIZER } from '../../apiserver/api/core/storage-protection.js';
import { newControllerManagedBy } from '../runtime/builder.js';
import type { Controller } from '../runtime/controller.js';
import { KINDS } from '../runtime/kinds.js';
import type { Manager } from '../runtime/manager.js';
import { createProtectionReconciler } from './protection-reconciler.js';

export const PV_PROTECTION_CONTROLLER_NAME = 'pv-protection';

export function registerPvProtectionController(manager: Manager, { workers = 1 }: { workers?: number } = {}): Controller {
  return newControllerManagedBy(manager)
    .named(PV_PROTECTION_CONTROLLER_NAME)
    .for(KINDS.persistentVolume)
    .workers(workers)
    .complete(({ lister }) =>
      createProtectionReconciler<PersistentVolume>({
        finalizer: PV_PROTECTION_FINALIZER,
        lister: lister(KINDS.persistentVolume),
        client: manager.client.resource(KINDS.persistentVolume),
        inUse: (volume) => volume.status?.phase === 'Bound',
      }),
    );
}
