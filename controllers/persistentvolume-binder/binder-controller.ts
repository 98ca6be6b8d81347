/**
 * The persistentvolume-binder's wiring: informers for claims and volumes (volumes indexed by
 * claim; a volume wakes the claim it is bound to) and the reconciler's workers.
 */
import type { PersistentVolume } from '../../apiserver/api/core/persistent-volume.js';
import { newControllerManagedBy } from '../runtime/builder.js';
import { createComponentRecorder } from '../runtime/component-recorder.js';
import type { Controller } from '../runtime/controller.js';
import { KINDS } from '../runtime/kinds.js';
import type { Manager } from '../runtime/manager.js';
import { requestKey } from '../runtime/reconciler.js';
import type { DeepReadonly } from '../runtime/types.js';
import { CLAIM_KEY_INDEX, createBinderReconciler, indexByClaimKey } from './reconcile.js';

/** BINDER_CONTROLLER_NAME names the controller in logs and counters. */
export const BINDER_CONTROLLER_NAME = 'persistentvolume-binder';
/** BINDER_EVENT_SOURCE is the source.component of its events. */
export const BINDER_EVENT_SOURCE = 'persistentvolume-controller';

/** registerPersistentVolumeBinder adds the binder to `manager` (before manager.start()). */
export function registerPersistentVolumeBinder(manager: Manager, { workers = 5 }: { workers?: number } = {}): Controller {
  return newControllerManagedBy(manager)
    .named(BINDER_CONTROLLER_NAME)
    .for(KINDS.persistentVolumeClaim)
    .watches(KINDS.persistentVolume, boundClaim)
    .withIndexer(KINDS.persistentVolume, CLAIM_KEY_INDEX, indexByClaimKey)
    .workers(workers)
    .complete(({ lister }) =>
      createBinderReconciler({
        claimLister: lister(KINDS.persistentVolumeClaim),
        volumeLister: lister(KINDS.persistentVolume),
        claims: manager.client.resource(KINDS.persistentVolumeClaim),
        volumes: manager.client.resource(KINDS.persistentVolume),
        recorder: createComponentRecorder(manager, BINDER_EVENT_SOURCE),
      }),
    );
}

/** boundClaim maps a volume to the claim its claimRef names. */
function boundClaim(volume: DeepReadonly<PersistentVolume>): string[] {
  const ref = volume.spec.claimRef;
  return ref?.name ? [requestKey({ namespace: ref.namespace ?? '', name: ref.name })] : [];
}
