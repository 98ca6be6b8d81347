/**
 * Keeping a StatefulSet's ControllerRevisions (getStatefulSetRevisions and truncateHistory):
 * find or record the revision of its current template, name the current revision, and
 * delete history beyond revisionHistoryLimit.
 */

import { isAlreadyExists, isNotFound } from '../../apiserver/api/api-error.js';
import type { ControllerRevision } from '../../apiserver/api/apps/controller-revision.js';
import type { DeepReadonly } from '../runtime/types.js';
import { type ReadonlyStatefulSet, SET_UID_INDEX, type StatefulSetDeps } from './deps.js';
import { chooseUpdateRevision, revisionsToDelete, sameData, sortRevisions } from './revisions.js';

type ReadonlyRevision = DeepReadonly<ControllerRevision>;

/** SetRevisions are the revisions a sync works from. */
export interface SetRevisions {
  current: ReadonlyRevision;
  update: ReadonlyRevision;
  all: readonly ReadonlyRevision[];
  /** status.collisionCount after any collision this sync met. */
  collisionCount: number | undefined;
}

/** revisionsOf lists the set's revisions from the cache, oldest first. */
export function revisionsOf(deps: StatefulSetDeps, set: ReadonlyStatefulSet): ReadonlyRevision[] {
  const owned = deps.revisionLister.byIndex(SET_UID_INDEX, set.metadata.uid ?? '');
  return sortRevisions(owned.filter((revision) => revision.metadata.namespace === set.metadata.namespace));
}

/** syncRevisions returns the current and update revisions, creating or renumbering the
 * update revision as needed. */
export async function syncRevisions(deps: StatefulSetDeps, set: ReadonlyStatefulSet): Promise<SetRevisions> {
  const all = revisionsOf(deps, set);
  const { update, collisionCount } = await updateRevisionOf(deps, set, all);
  const named = all.find((revision) => revision.metadata.name === set.status?.currentRevision);
  return { current: named ?? update, update, all: all.includes(update) ? all : [...all, update], collisionCount };
}

async function updateRevisionOf(deps: StatefulSetDeps, set: ReadonlyStatefulSet, all: ReadonlyRevision[]) {
  const choice = chooseUpdateRevision(set, all);
  const collisionCount = set.status?.collisionCount;
  if (choice.kind === 'latest') return { update: choice.revision, collisionCount };
  if (choice.kind === 'renumber') {
    const copy = structuredClone(choice.revision) as ControllerRevision;
    copy.revision = choice.to;
    return { update: await deps.revisions.update(copy), collisionCount };
  }
  return createRevision(deps, choice.revision, collisionCount);
}

/** createRevision creates `revision`; a same-named revision holding other data is a hash
 * collision, answered (as Kubernetes does) by bumping collisionCount, which the status write
 * persists so the next sync hashes differently. */
async function createRevision(deps: StatefulSetDeps, revision: ControllerRevision, collisionCount: number | undefined) {
  try {
    return { update: await deps.revisions.create(revision), collisionCount };
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
  const existing = await deps.revisions.get(revision.metadata.namespace ?? '', revision.metadata.name ?? '');
  const ours = existing.metadata.ownerReferences?.some((ref) => ref.uid === revision.metadata.ownerReferences?.[0]?.uid);
  if (ours && sameData(existing, revision)) return { update: existing, collisionCount };
  throw Object.assign(new Error(`controller revision ${revision.metadata.name} collides; collisionCount bumped`), {
    collisionCount: (collisionCount ?? 0) + 1,
  });
}

/** truncateHistory deletes the oldest revisions no pod uses beyond revisionHistoryLimit. */
export async function truncateHistory(
  deps: StatefulSetDeps,
  set: ReadonlyStatefulSet,
  revisions: SetRevisions,
  podRevisions: readonly string[],
): Promise<void> {
  const live = new Set([revisions.current.metadata.name ?? '', revisions.update.metadata.name ?? '', ...podRevisions]);
  for (const revision of revisionsToDelete(revisions.all, live, set.spec.revisionHistoryLimit ?? 10)) {
    try {
      await deps.revisions.delete(revision.metadata.namespace ?? '', revision.metadata.name ?? '', { preconditions: { uid: revision.metadata.uid } });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
