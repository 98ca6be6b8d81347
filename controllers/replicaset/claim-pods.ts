/**
 * Claiming pods (Kubernetes' PodControllerRefManager.ClaimPods): deciding which pods a
 * ReplicaSet owns, adopting matching orphans and releasing owned pods whose labels no longer
 * match its selector. Ownership lives only in each pod's controller reference, so any number
 * of controllers with overlapping selectors still agree on who owns what.
 */

import { isNotFound } from '../../apiserver/api/api-error.js';
import type { ReplicaSet } from '../../apiserver/api/apps/replica-set.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { LabelSelectorQuery } from '../../apiserver/api/labels.js';
import { controllerRefOf } from '../../apiserver/api/machinery/owner-references.js';
import type { ReadonlyPod } from '../runtime/pods/pod-state.js';
import type { DeepReadonly, ResourceClient } from '../runtime/types.js';
import { newControllerRef, type OwnerKind } from './owners.js';

/** ClaimContext is what claimPods needs to know about the claiming ReplicaSet. */
export interface ClaimContext {
  rs: DeepReadonly<ReplicaSet>;
  /** The kind adopted pods name as owner; a ReplicaSet when absent. */
  owner?: OwnerKind;
  selector: LabelSelectorQuery;
  pods: ResourceClient<Pod>;
  replicaSets: Pick<ResourceClient<ReplicaSet>, 'get'>;
}

type Claim = 'owned' | 'adopt' | 'release' | 'ignore';

/**
 * claimPods returns the pods of `candidates` the ReplicaSet owns once it has claimed them:
 * - pods it controls whose labels match stay owned;
 * - pods it controls whose labels no longer match are released (its ownerReference removed),
 *   unless the ReplicaSet itself is being deleted;
 * - orphans that match, are not being deleted and live in its namespace are adopted (a
 *   controller ownerReference added), unless the ReplicaSet is being deleted;
 * - pods controlled by anyone else are left alone.
 * A pod that vanished meanwhile is skipped. Other API errors do not stop the remaining claims;
 * the first is thrown at the end (the caller retries the whole reconcile).
 */
export async function claimPods(context: ClaimContext, candidates: readonly ReadonlyPod[]): Promise<ReadonlyPod[]> {
  const canAdopt = once(() => recheckReplicaSet(context));
  const owned: ReadonlyPod[] = [];
  const errors: unknown[] = [];
  for (const pod of candidates) {
    try {
      if (await claimOne(context, pod, canAdopt)) owned.push(pod);
    } catch (err) {
      if (!isNotFound(err)) errors.push(err);
    }
  }
  if (errors.length > 0) throw errors[0];
  return owned;
}

/** claimOne acts on one pod and says whether the ReplicaSet owns it afterwards. */
async function claimOne(context: ClaimContext, pod: ReadonlyPod, canAdopt: () => Promise<void>): Promise<boolean> {
  const claim = classify(context, pod);
  switch (claim) {
    case 'owned':
      return true;
    case 'adopt':
      await canAdopt();
      await adopt(context, pod);
      return true;
    case 'release':
      await release(context, pod);
      return false;
    case 'ignore':
      return false;
    default: {
      const unreachable: never = claim;
      throw new Error(`unknown claim decision ${String(unreachable)}`);
    }
  }
}

/** classify is ClaimObject's decision table, without the side effects. */
function classify({ rs, selector }: ClaimContext, pod: ReadonlyPod): Claim {
  const matches = selector.matches(pod.metadata.labels);
  const rsDeleting = rs.metadata.deletionTimestamp !== undefined;
  const reference = controllerRefOf(pod);
  if (reference !== undefined) {
    if (reference.uid !== rs.metadata.uid) return 'ignore';
    if (matches) return 'owned';
    return rsDeleting ? 'ignore' : 'release';
  }
  if (rsDeleting || !matches || pod.metadata.deletionTimestamp !== undefined) return 'ignore';
  return pod.metadata.namespace === rs.metadata.namespace ? 'adopt' : 'ignore';
}

/**
 * recheckReplicaSet guards adoption with a fresh read of the ReplicaSet from the API server.
 * The cache may still show a ReplicaSet that was just deleted, or an older one that was
 * deleted and re-created under the same name; adopting pods for it would hand them to an
 * owner that is gone (the garbage collector would then delete them) or to the wrong one.
 * So, as Kubernetes does (#42639), adoption happens only if the live object still has the
 * uid we listed pods for and is not being deleted. Throws otherwise.
 */
async function recheckReplicaSet({ rs, replicaSets }: ClaimContext): Promise<void> {
  const { namespace = '', name = '', uid } = rs.metadata;
  const fresh = await replicaSets.get(namespace, name);
  if (fresh.metadata.uid !== uid) {
    throw new Error(`original ReplicaSet ${namespace}/${name} is gone: got uid ${fresh.metadata.uid}, wanted ${uid}`);
  }
  if (fresh.metadata.deletionTimestamp !== undefined) {
    throw new Error(`ReplicaSet ${namespace}/${name} has just been deleted at ${fresh.metadata.deletionTimestamp}`);
  }
}

/**
 * adopt adds the ReplicaSet's controller reference with a strategic merge patch (merged by
 * uid, so other owner references are kept). The pod's uid in the patch is a precondition:
 * the server refuses the patch if the pod was replaced by another of the same name.
 */
async function adopt({ rs, owner, pods }: ClaimContext, pod: ReadonlyPod): Promise<void> {
  const patch = { metadata: { ownerReferences: [newControllerRef(rs, owner)], uid: pod.metadata.uid } };
  await pods.patch(pod.metadata.namespace ?? '', pod.metadata.name ?? '', patch, { type: 'strategic' });
}

/** release removes only the ReplicaSet's own reference (`$patch: delete` by uid). */
async function release({ rs, pods }: ClaimContext, pod: ReadonlyPod): Promise<void> {
  const patch = { metadata: { ownerReferences: [{ $patch: 'delete', uid: rs.metadata.uid }], uid: pod.metadata.uid } };
  await pods.patch(pod.metadata.namespace ?? '', pod.metadata.name ?? '', patch, { type: 'strategic' });
}

/** once runs `fn` the first time it is called and shares that outcome with every later call. */
function once(fn: () => Promise<void>): () => Promise<void> {
  let result: Promise<void> | undefined;
  return () => (result ??= fn());
}
