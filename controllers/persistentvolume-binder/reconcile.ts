/**
 * The persistentvolume-binder reconciler, keyed by claim: a claim without a volume gets a
 * generated one (`pvc-<uid>`), then the volume and the claim are marked Bound. A claim that
 * is gone releases its volumes: deleted when their reclaim policy is Delete, Released
 * otherwise. Storage is bookkeeping only: nothing is provisioned or mounted.
 */
import { isAlreadyExists, isNotFound } from '../../apiserver/api/api-error.js';
import type { PersistentVolume } from '../../apiserver/api/core/persistent-volume.js';
import type { PersistentVolumeClaim } from '../../apiserver/api/core/persistent-volume-claim.js';
import type { DeepReadonly, EventRecorder, Lister, Reconciler, Request, ResourceClient, Result } from '../runtime/types.js';
import { BIND_COMPLETED_ANNOTATION, BOUND_BY_CONTROLLER_ANNOTATION, boundClaimStatus, newVolumeFor, volumeNameFor } from './binding.js';

/** CLAIM_KEY_INDEX files volumes under `<namespace>/<name>` of their claimRef. */
export const CLAIM_KEY_INDEX = 'claimKey';

/** indexByClaimKey is the CLAIM_KEY_INDEX function. */
export function indexByClaimKey(volume: DeepReadonly<PersistentVolume>): string[] {
  const ref = volume.spec.claimRef;
  return ref?.name ? [`${ref.namespace ?? ''}/${ref.name}`] : [];
}

/** BinderDeps are the binder's collaborators; the volume lister carries CLAIM_KEY_INDEX. */
export interface BinderDeps {
  claimLister: Lister<PersistentVolumeClaim>;
  volumeLister: Lister<PersistentVolume>;
  claims: ResourceClient<PersistentVolumeClaim>;
  volumes: ResourceClient<PersistentVolume>;
  recorder: EventRecorder;
}

type ReadonlyClaim = DeepReadonly<PersistentVolumeClaim>;
type ReadonlyVolume = DeepReadonly<PersistentVolume>;

/** createBinderReconciler returns the binder's Reconciler. */
export function createBinderReconciler(deps: BinderDeps): Reconciler {
  return { reconcile: (request) => syncClaim(deps, request) };
}

async function syncClaim(deps: BinderDeps, request: Request): Promise<Result> {
  const claim = deps.claimLister.get(request.namespace, request.name);
  if (claim === undefined) {
    await releaseVolumes(deps, request);
    return {};
  }
  if (claim.metadata.deletionTimestamp !== undefined) return {};
  const volumeName = claim.spec.volumeName || volumeNameFor(claim);
  const volume = deps.volumeLister.get('', volumeName) ?? (await provision(deps, claim, volumeName));
  if (volume === undefined) return {}; // pre-bound to a volume that does not exist (yet).
  const bound =
    volume.status?.phase === 'Bound'
      ? volume
      : await deps.volumes.updateStatus({ ...(structuredClone(volume) as PersistentVolume), status: { phase: 'Bound' } });
  const withVolume = claim.spec.volumeName ? claim : await setVolumeName(deps, claim, volumeName);
  if (withVolume.status?.phase !== 'Bound') {
    await deps.claims.updateStatus({ ...(structuredClone(withVolume) as PersistentVolumeClaim), status: boundClaimStatus(bound) });
  }
  return {};
}

/** provision creates the generated volume (only for the name the binder itself chooses). */
async function provision(deps: BinderDeps, claim: ReadonlyClaim, volumeName: string): Promise<ReadonlyVolume | undefined> {
  if (volumeName !== volumeNameFor(claim)) return undefined;
  try {
    const created = await deps.volumes.create(newVolumeFor(claim));
    deps.recorder.event(claimTarget(claim), 'Normal', 'ProvisioningSucceeded', `Successfully provisioned volume ${volumeName}`);
    return created;
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
    return deps.volumes.get('', volumeName);
  }
}

async function setVolumeName(deps: BinderDeps, claim: ReadonlyClaim, volumeName: string): Promise<PersistentVolumeClaim> {
  const copy = structuredClone(claim) as PersistentVolumeClaim;
  copy.spec.volumeName = volumeName;
  copy.metadata.annotations = { ...copy.metadata.annotations, [BIND_COMPLETED_ANNOTATION]: 'yes', [BOUND_BY_CONTROLLER_ANNOTATION]: 'yes' };
  return deps.claims.update(copy);
}

/** releaseVolumes handles the volumes of a deleted claim: Released first (so the pv-protection
 * loop lets a deleted volume go, as kube's volume controller releases before it reclaims),
 * then deleted when their reclaim policy is Delete. */
async function releaseVolumes(deps: BinderDeps, { namespace, name }: Request): Promise<void> {
  for (const volume of deps.volumeLister.byIndex(CLAIM_KEY_INDEX, `${namespace}/${name}`)) {
    try {
      if (volume.status?.phase !== 'Released') {
        await deps.volumes.updateStatus({ ...(structuredClone(volume) as PersistentVolume), status: { phase: 'Released' } });
      }
      if (volume.spec.persistentVolumeReclaimPolicy === 'Delete' && volume.metadata.deletionTimestamp === undefined) {
        await deps.volumes.delete('', volume.metadata.name ?? '', { preconditions: { uid: volume.metadata.uid } });
      }
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}

function claimTarget(claim: ReadonlyClaim) {
  return { ...(claim as PersistentVolumeClaim), apiVersion: 'v1', kind: 'PersistentVolumeClaim' };
}
