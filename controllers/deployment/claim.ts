/**
 * Which ReplicaSets (and pods) belong to a Deployment (Kubernetes' ControllerRefManager as
 * getReplicaSetsForDeployment uses it): those whose controller reference is the Deployment and
 * whose labels its selector matches. Orphans that match are adopted; owned ones that no
 * longer match are released, so a ReplicaSet relabelled out of the selector goes free instead
 * of being scaled by the wrong Deployment.
 */
import { isNotFound } from '../../apiserver/api/api-error.js';
import type { Deployment } from '../../apiserver/api/apps/deployment.js';
import type { ReplicaSet } from '../../apiserver/api/apps/replica-set.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { LabelSelectorQuery } from '../../apiserver/api/labels.js';
import { controllerRefOf } from '../../apiserver/api/machinery/owner-references.js';
import { OWNER_UID_INDEX } from '../runtime/indexers.js';
import type { DeepReadonly } from '../runtime/types.js';
import { controllerRefTo } from './new-replica-set.js';
import type { PodsByReplicaSet } from './recreate.js';
import type { ReadonlyReplicaSet } from './replica-sets.js';
import type { DeploymentDeps } from './sync-state.js';

interface Owned {
  readonly metadata: { readonly ownerReferences?: ReadonlyArray<{ readonly uid: string; readonly controller?: boolean | undefined }> | undefined };
}

/** controllerUidOf is the uid of the object's controller reference, if it has one. */
export function controllerUidOf(object: Owned): string | undefined {
  return controllerRefOf(object)?.uid;
}

/** ClaimInput is what claimReplicaSets needs: the Deployment and its parsed selector. */
export interface ClaimInput {
  deployment: Deployment;
  selector: LabelSelectorQuery;
}

/**
 * claimReplicaSets returns the ReplicaSets the Deployment controls after adopting matching
 * orphans and releasing owned ones that stopped matching (ClaimReplicaSets). A Deployment
 * being deleted neither adopts nor releases. Before the first adoption the Deployment is read
 * fresh from the server, so a Deployment deleted (or re-created) since the cache saw it adopts
 * nothing. Objects that vanish meanwhile are skipped; other errors are thrown (retry).
 */
export async function claimReplicaSets(deps: DeploymentDeps, { deployment: d, selector }: ClaimInput): Promise<ReadonlyReplicaSet[]> {
  const claimed: ReadonlyReplicaSet[] = [];
  let canAdopt: Promise<void> | undefined;
  for (const rs of candidates(deps, d, selector)) {
    const controllerUid = controllerUidOf(rs);
    const matches = selector.matches(rs.metadata.labels);
    if (controllerUid !== undefined) {
      if (controllerUid !== d.metadata.uid) continue;
      if (matches) claimed.push(rs);
      else if (!d.metadata.deletionTimestamp) await ignoreGone(release(deps, d, rs));
      continue;
    }
    if (d.metadata.deletionTimestamp || !matches || rs.metadata.deletionTimestamp) continue;
    canAdopt ??= recheckDeletion(deps, d);
    await canAdopt;
    const adopted = await ignoreGone(adopt(deps, d, rs));
    if (adopted) claimed.push(adopted);
  }
  return claimed;
}

/** candidates are the ReplicaSets that could be the Deployment's: those referring to it
 * (owner-uid index) and those its selector matches in its namespace. */
function candidates(deps: DeploymentDeps, d: Deployment, selector: LabelSelectorQuery): ReadonlyReplicaSet[] {
  const namespace = d.metadata.namespace ?? '';
  const owned = deps.replicaSetLister.byIndex(OWNER_UID_INDEX, d.metadata.uid ?? '').filter((rs) => rs.metadata.namespace === namespace);
  const byUid = new Map(owned.map((rs) => [rs.metadata.uid, rs]));
  for (const rs of deps.replicaSetLister.list(namespace, selector.toString())) byUid.set(rs.metadata.uid, rs);
  return [...byUid.values()];
}

async function ignoreGone<T>(write: Promise<T>): Promise<T | undefined> {
  try {
    return await write;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** recheckDeletion rejects when the Deployment is gone, re-created or being deleted
 * (controller.RecheckDeletionTimestamp): the cache may be behind and adoption is not undoable. */
async function recheckDeletion(deps: DeploymentDeps, d: Deployment): Promise<void> {
  const fresh = await deps.deployments.get(d.metadata.namespace ?? '', d.metadata.name ?? '');
  if (fresh.metadata.uid !== d.metadata.uid) {
    throw new Error(`original Deployment ${d.metadata.namespace}/${d.metadata.name} is gone: got uid ${fresh.metadata.uid}, wanted ${d.metadata.uid}`);
  }
  if (fresh.metadata.deletionTimestamp) {
    throw new Error(`${d.metadata.namespace}/${d.metadata.name} has just been deleted at ${fresh.metadata.deletionTimestamp}`);
  }
}

/** adopt adds the Deployment as controller of `rs` with a strategic merge patch whose
 * metadata.uid guards against a re-created ReplicaSet of the same name. */
async function adopt(deps: DeploymentDeps, d: Deployment, rs: ReadonlyReplicaSet): Promise<ReadonlyReplicaSet> {
  const patch = { metadata: { ownerReferences: [controllerRefTo(d)], uid: rs.metadata.uid } };
  return deps.replicaSets.patch(rs.metadata.namespace ?? '', rs.metadata.name ?? '', patch, { type: 'strategic' });
}

/** release removes the Deployment's ownerReference from `rs` (strategic merge `$patch: delete`). */
async function release(deps: DeploymentDeps, d: Deployment, rs: ReadonlyReplicaSet): Promise<ReplicaSet> {
  const patch = { metadata: { ownerReferences: [{ $patch: 'delete', uid: d.metadata.uid }], uid: rs.metadata.uid } };
  return deps.replicaSets.patch(rs.metadata.namespace ?? '', rs.metadata.name ?? '', patch, { type: 'strategic' });
}

/**
 * podsByReplicaSet groups the cached pods the Deployment's selector matches by the
 * ReplicaSet (of `rss`) that controls them (getPodMapForDeployment); every ReplicaSet gets an
 * entry. Terminal and terminating pods are kept: Recreate must see them.
 */
export function podsByReplicaSet(
  deps: DeploymentDeps,
  input: { deployment: Deployment; selector: LabelSelectorQuery; rss: readonly ReadonlyReplicaSet[] },
): PodsByReplicaSet {
  const map = new Map<string, DeepReadonly<Pod>[]>(input.rss.map((rs) => [rs.metadata.uid ?? '', []]));
  for (const pod of deps.podLister.list(input.deployment.metadata.namespace ?? '', input.selector.toString())) {
    const uid = controllerUidOf(pod);
    if (uid !== undefined) map.get(uid)?.push(pod);
  }
  return map;
}
