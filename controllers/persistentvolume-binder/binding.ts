/**
 * The trivial binder's pure decisions: the PersistentVolume generated for a claim
 * (`pvc-<claim uid>`, the claim's size, class and access modes, claimRef to it, reclaim
 * policy Delete as a dynamically provisioned volume has) and the steps left to bind them.
 */
import type { PersistentVolume } from '../../apiserver/api/core/persistent-volume.js';
import type { PersistentVolumeClaim } from '../../apiserver/api/core/persistent-volume-claim.js';
import { SIMULATED_PROVISIONER } from '../../apiserver/api/storage/storage-class.js';
import type { DeepReadonly } from '../runtime/types.js';

/** PROVISIONED_BY_ANNOTATION names who provisioned a volume. */
export const PROVISIONED_BY_ANNOTATION = 'pv.kubernetes.io/provisioned-by';
/** BIND_COMPLETED_ANNOTATION marks a claim whose binding finished. */
export const BIND_COMPLETED_ANNOTATION = 'pv.kubernetes.io/bind-completed';
/** BOUND_BY_CONTROLLER_ANNOTATION marks a binding the controller made. */
export const BOUND_BY_CONTROLLER_ANNOTATION = 'pv.kubernetes.io/bound-by-controller';
/** PROVISIONER is kubesim's simulated storage provisioner, the one of the default StorageClass. */
export const PROVISIONER = SIMULATED_PROVISIONER;

type ReadonlyClaim = DeepReadonly<PersistentVolumeClaim>;

/** volumeNameFor is `pvc-<claim uid>`, the name Kubernetes' provisioners use. */
export function volumeNameFor(claim: ReadonlyClaim): string {
  return `pvc-${claim.metadata.uid ?? ''}`;
}

/** newVolumeFor builds the volume that satisfies `claim`, already pointing at it. */
export function newVolumeFor(claim: ReadonlyClaim): PersistentVolume {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: volumeNameFor(claim), annotations: { [PROVISIONED_BY_ANNOTATION]: PROVISIONER } },
    spec: {
      capacity: { storage: claim.spec.resources?.requests?.['storage'] ?? '0' },
      accessModes: [...(claim.spec.accessModes ?? ['ReadWriteOnce'])],
      storageClassName: claim.spec.storageClassName,
      volumeMode: claim.spec.volumeMode,
      persistentVolumeReclaimPolicy: 'Delete',
      claimRef: {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        namespace: claim.metadata.namespace,
        name: claim.metadata.name,
        uid: claim.metadata.uid,
      },
      hostPath: { path: `/tmp/kubesim/${volumeNameFor(claim)}` },
    },
  };
}

/** claimBoundTo is true when the volume's claimRef names this very claim (uid included). */
export function claimBoundTo(volume: DeepReadonly<PersistentVolume>, claim: ReadonlyClaim): boolean {
  const ref = volume.spec.claimRef;
  return ref?.namespace === claim.metadata.namespace && ref?.name === claim.metadata.name && ref?.uid === claim.metadata.uid;
}

/** boundClaimStatus is the status of a claim bound to `volume`. */
export function boundClaimStatus(volume: DeepReadonly<PersistentVolume>): NonNullable<PersistentVolumeClaim['status']> {
  return { phase: 'Bound', capacity: { ...volume.spec.capacity }, accessModes: [...(volume.spec.accessModes ?? [])] };
}
