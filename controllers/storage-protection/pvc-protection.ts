/**
 * The pvc-protection loop (kube-controller-manager's pvc-protection controller): every claim
 * carries kubernetes.io/pvc-protection; a deleted claim keeps it while a scheduled pod names it
 * in a persistentVolumeClaim volume (or, not yet finished, through a generic ephemeral volume),
 * and loses it when the last such pod goes, so the claim's deletion completes.
 */

import type { PersistentVolumeClaim } from '../../apiserver/api/core/persistent-volume-claim.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { PVC_PROTECTION_FINALIZER } from '../../apiserver/api/core/storage-protection.js';
import { newControllerManagedBy } from '../runtime/builder.js';
import type { Controller } from '../runtime/controller.js';
import { KINDS } from '../runtime/kinds.js';
import type { Manager } from '../runtime/manager.js';
import { requestKey } from '../runtime/reconciler.js';
import type { DeepReadonly, Lister } from '../runtime/types.js';
import { createProtectionReconciler } from './protection-reconciler.js';

export const PVC_PROTECTION_CONTROLLER_NAME = 'pvc-protection';

type ReadonlyPod = DeepReadonly<Pod>;

/** claimsOf: the claims a pod names (persistentVolumeClaim volumes; ephemeral ones are <pod>-<volume>). */
export function claimsOf(pod: ReadonlyPod): string[] {
  return (pod.spec?.volumes ?? []).flatMap((volume) => {
    if (volume.persistentVolumeClaim?.claimName) return [volume.persistentVolumeClaim.claimName];
    if (volume.ephemeral) return [`${pod.metadata.name ?? ''}-${volume.name}`];
    return [];
  });
}

/** usesClaim: kube's podUsesPVC — only scheduled pods count (the kubelet refuses to start a pod
 * whose claim is being deleted); an ephemeral claim stops counting once its pod has finished. */
export function usesClaim(pod: ReadonlyPod, claim: string): boolean {
  if (!pod.spec?.nodeName) return false;
  const finished = pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
  return (pod.spec.volumes ?? []).some(
    (volume) =>
      volume.persistentVolumeClaim?.claimName === claim ||
      (!finished && volume.ephemeral !== undefined && `${pod.metadata.name ?? ''}-${volume.name}` === claim),
  );
}

export function registerPvcProtectionController(manager: Manager, { workers = 1 }: { workers?: number } = {}): Controller {
  const podLister: Lister<Pod> = manager.informer(KINDS.pod).lister;
  const claimKeys = (pod: ReadonlyPod) => claimsOf(pod).map((name) => requestKey({ namespace: pod.metadata.namespace ?? '', name }));
  return newControllerManagedBy(manager)
    .named(PVC_PROTECTION_CONTROLLER_NAME)
    .for(KINDS.persistentVolumeClaim)
    .watches(KINDS.pod, claimKeys)
    .workers(workers)
    .complete(({ lister }) =>
      createProtectionReconciler<PersistentVolumeClaim>({
        finalizer: PVC_PROTECTION_FINALIZER,
        lister: lister(KINDS.persistentVolumeClaim),
        client: manager.client.resource(KINDS.persistentVolumeClaim),
        inUse: (claim) => podLister.list(claim.metadata.namespace).some((pod) => usesClaim(pod, claim.metadata.name ?? '')),
      }),
    );
}
