/**
 * Carrying out a sync's actions: creating a pod (its claims first), deleting a failed,
 * condemned or outdated pod (handing its claims to the pod first when whenScaled is
 * Delete). Every write is recorded as an event on the set, as Kubernetes' StatefulPodControl.
 */

import { isAlreadyExists, isConflict, isNotFound } from '../../apiserver/api/api-error.js';
import type { ControllerRevision } from '../../apiserver/api/apps/controller-revision.js';
import type { PersistentVolumeClaim } from '../../apiserver/api/core/persistent-volume-claim.js';
import type { PodTemplateSpec } from '../../apiserver/api/core/pod-spec.js';
import type { DeepReadonly } from '../runtime/types.js';
import { asError, eventTarget, type ReadonlyStatefulSet, type StatefulSetDeps } from './deps.js';
import { claimName, newClaims, newPod, podName } from './identity.js';
import type { Action, PodView } from './plan.js';
import type { SetRevisions } from './sync-revisions.js';

/** runActions carries out `actions` in order; the first failure is thrown (the queue retries). */
export async function runActions(deps: StatefulSetDeps, set: ReadonlyStatefulSet, revisions: SetRevisions, actions: readonly Action[]): Promise<void> {
  for (const action of actions) {
    if (action.type === 'create') {
      const revision = action.revision === 'current' ? revisions.current : revisions.update;
      await createPod(deps, set, action.ordinal, revision);
    } else {
      if (action.reason === 'condemned') await releaseClaimsToPod(deps, set, action.pod);
      await deletePod(deps, set, action.pod);
    }
  }
}

/** templateOf is the pod template a revision restores. */
export function templateOf(revision: DeepReadonly<ControllerRevision>): DeepReadonly<PodTemplateSpec> {
  const data = revision.data as DeepReadonly<{ spec?: { template?: PodTemplateSpec & { $patch?: string } } }> | undefined;
  const template = data?.spec?.template;
  if (template === undefined) throw new Error(`controller revision ${revision.metadata.name} has no spec.template`);
  const { $patch: _directive, ...rest } = template;
  return rest;
}

async function createPod(deps: StatefulSetDeps, set: ReadonlyStatefulSet, ordinal: number, revision: DeepReadonly<ControllerRevision>): Promise<void> {
  const name = podName(set.metadata.name ?? '', ordinal);
  await createClaims(deps, set, ordinal, name);
  try {
    await deps.pods.create(newPod(set, templateOf(revision), ordinal, revision.metadata.name ?? ''));
    deps.recorder.event(eventTarget(set), 'Normal', 'SuccessfulCreate', `create Pod ${name} in StatefulSet ${set.metadata.name} successful`);
  } catch (err) {
    if (isAlreadyExists(err)) return; // our cache has not seen it yet: the next sync will.
    deps.recorder.event(
      eventTarget(set),
      'Warning',
      'FailedCreate',
      `create Pod ${name} in StatefulSet ${set.metadata.name} failed error: ${asError(err).message}`,
    );
    throw err;
  }
}

/** createClaims creates the pod's missing claims before the pod (createPersistentVolumeClaims). */
async function createClaims(deps: StatefulSetDeps, set: ReadonlyStatefulSet, ordinal: number, pod: string): Promise<void> {
  for (const claim of newClaims(set, ordinal)) {
    const name = claim.metadata.name ?? '';
    if (deps.claimLister.get(claim.metadata.namespace ?? '', name)) continue;
    try {
      await deps.claims.create(claim);
      deps.recorder.event(eventTarget(set), 'Normal', 'SuccessfulCreate', `create Claim ${name} Pod ${pod} in StatefulSet ${set.metadata.name} success`);
    } catch (err) {
      if (isAlreadyExists(err)) continue;
      deps.recorder.event(
        eventTarget(set),
        'Warning',
        'FailedCreate',
        `create Claim ${name} for Pod ${pod} in StatefulSet ${set.metadata.name} failed error: ${asError(err).message}`,
      );
      throw err;
    }
  }
}

/** deletePod deletes the pod the cache showed, by uid: a newer pod of the same name is safe. */
async function deletePod(deps: StatefulSetDeps, set: ReadonlyStatefulSet, pod: PodView): Promise<void> {
  try {
    await deps.pods.delete(set.metadata.namespace ?? '', pod.name, { preconditions: { uid: pod.uid } });
    deps.recorder.event(eventTarget(set), 'Normal', 'SuccessfulDelete', `delete Pod ${pod.name} in StatefulSet ${set.metadata.name} successful`);
  } catch (err) {
    if (isNotFound(err) || isConflict(err)) return;
    deps.recorder.event(
      eventTarget(set),
      'Warning',
      'FailedDelete',
      `delete Pod ${pod.name} in StatefulSet ${set.metadata.name} failed error: ${asError(err).message}`,
    );
    throw err;
  }
}

/**
 * releaseClaimsToPod, for whenScaled: Delete, makes the condemned pod the owner of its
 * claims in place of the set (updateClaimOwnerRefForSetAndPod), so the garbage collector
 * deletes them once the pod is gone.
 */
async function releaseClaimsToPod(deps: StatefulSetDeps, set: ReadonlyStatefulSet, pod: PodView): Promise<void> {
  if (set.spec.persistentVolumeClaimRetentionPolicy?.whenScaled !== 'Delete') return;
  const namespace = set.metadata.namespace ?? '';
  const owner = { apiVersion: 'v1', kind: 'Pod', name: pod.name, uid: pod.uid };
  for (const template of set.spec.volumeClaimTemplates ?? []) {
    const name = claimName(template.metadata.name ?? '', set.metadata.name ?? '', pod.ordinal);
    const claim = deps.claimLister.get(namespace, name);
    if (claim === undefined || claim.metadata.ownerReferences?.some((ref) => ref.uid === pod.uid)) continue;
    try {
      // The whole object with the resourceVersion it was read at: a concurrent edit is a 409.
      const others = (claim.metadata.ownerReferences ?? []).filter((ref) => ref.uid !== set.metadata.uid);
      const ownerReferences = [...others, owner];
      // An update, as the statefulset controller's role may update claims but not patch them.
      const next = structuredClone(claim) as PersistentVolumeClaim;
      next.metadata.ownerReferences = ownerReferences;
      await deps.claims.update(next);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
