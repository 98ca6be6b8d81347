/**
 * The persistentvolume-binder's wiring: informers for claims and volumes (volumes indexed by
 * claim), handlers that enqueue the claim concerned, and the reconciler's workers.
 */
import { type PersistentVolume, persistentVolumeDefinition } from '../../apiserver/api/core/persistent-volume.js';
import { type PersistentVolumeClaim, persistentVolumeClaimDefinition } from '../../apiserver/api/core/persistent-volume-claim.js';
import { createComponentRecorder } from '../runtime/component-recorder.js';
import { type Controller, createController } from '../runtime/controller.js';
import type { Manager } from '../runtime/manager.js';
import { requestKey } from '../runtime/reconciler.js';
import type { DeepReadonly, EventHandlers } from '../runtime/types.js';
import { CLAIM_KEY_INDEX, createBinderReconciler, indexByClaimKey } from './reconcile.js';

/** BINDER_CONTROLLER_NAME names the controller in logs and counters. */
export const BINDER_CONTROLLER_NAME = 'persistentvolume-binder';
/** BINDER_EVENT_SOURCE is the source.component of its events. */
export const BINDER_EVENT_SOURCE = 'persistentvolume-controller';

/** registerPersistentVolumeBinder adds the binder to `manager` (before manager.start()). */
export function registerPersistentVolumeBinder(manager: Manager, { workers = 5 }: { workers?: number } = {}): Controller {
  const claimInformer = manager.informer(persistentVolumeClaimDefinition);
  const volumeInformer = manager.informer(persistentVolumeDefinition);
  volumeInformer.addIndexer(CLAIM_KEY_INDEX, indexByClaimKey);
  const reconciler = createBinderReconciler({
    claimLister: claimInformer.lister,
    volumeLister: volumeInformer.lister,
    claims: manager.client.resource(persistentVolumeClaimDefinition),
    volumes: manager.client.resource(persistentVolumeDefinition),
    recorder: createComponentRecorder(manager, BINDER_EVENT_SOURCE),
  });
  const controller = createController({
    name: BINDER_CONTROLLER_NAME,
    reconciler,
    workers,
    clock: manager.clock,
    logger: manager.logger,
    random: manager.random.fork(BINDER_CONTROLLER_NAME),
  });
  const enqueueClaim = (claim: DeepReadonly<PersistentVolumeClaim>) =>
    controller.queue.add(requestKey({ namespace: claim.metadata.namespace ?? '', name: claim.metadata.name ?? '' }));
  const enqueueVolumeClaim = (volume: DeepReadonly<PersistentVolume>) => {
    const ref = volume.spec.claimRef;
    if (ref?.name) controller.queue.add(requestKey({ namespace: ref.namespace ?? '', name: ref.name }));
  };
  const claimHandlers: EventHandlers<PersistentVolumeClaim> = { onAdd: enqueueClaim, onUpdate: (_old, cur) => enqueueClaim(cur), onDelete: enqueueClaim };
  const volumeHandlers: EventHandlers<PersistentVolume> = {
    onAdd: enqueueVolumeClaim,
    onUpdate: (_old, cur) => enqueueVolumeClaim(cur),
    onDelete: enqueueVolumeClaim,
  };
  claimInformer.addEventHandlers(claimHandlers);
  volumeInformer.addEventHandlers(volumeHandlers);
  manager.add(controller);
  return controller;
}
