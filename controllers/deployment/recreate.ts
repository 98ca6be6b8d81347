/**
 * The Recreate strategy (recreate.go): scale every old ReplicaSet to 0, wait until none of
 * their pods is left running, and only then create and scale up the new ReplicaSet — there is
 * never a moment with old and new pods side by side. The wait is level-based: each sync checks
 * the pod cache, and pod deletions wake the Deployment (see event-handlers.ts).
 */
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { DeepReadonly, Result } from '../runtime/types.js';
import { getAllReplicaSetsAndSyncRevision } from './new-replica-set.js';
import { deploymentComplete } from './progress.js';
import type { ReadonlyReplicaSet } from './replica-sets.js';
import { desiredReplicas, filterActive, sumStatusReplicas } from './replica-sets.js';
import { scaleReplicaSetAndRecordEvent } from './scale-replica-set.js';
import { cleanupDeployment, syncRolloutStatus } from './sync.js';
import type { SyncState } from './sync-state.js';

/** PodsByReplicaSet maps a ReplicaSet uid to the cached pods it controls. */
export type PodsByReplicaSet = ReadonlyMap<string, ReadonlyArray<DeepReadonly<Pod>>>;

/** rolloutRecreate takes one step of a Recreate rollout (rolloutRecreate). */
export async function rolloutRecreate(state: SyncState, podsByReplicaSet: PodsByReplicaSet): Promise<Result> {
  // Do not create the new ReplicaSet yet: it must not scale up before the old ones are down.
  const found = await getAllReplicaSetsAndSyncRevision(state, false);
  const { oldRSs } = found;
  if (await scaleDownOldReplicaSets(state, filterActive(oldRSs))) return syncRolloutStatus(state, [...oldRSs, found.newRS], found.newRS);
  if (oldPodsRunning(found.newRS, oldRSs, podsByReplicaSet)) return syncRolloutStatus(state, [...oldRSs, found.newRS], found.newRS);
  const { newRS } = found.newRS ? found : await getAllReplicaSetsAndSyncRevision(state, true);
  if (newRS === undefined) throw new Error('rolloutRecreate: no new ReplicaSet after creating it');
  const scaled = await scaleReplicaSetAndRecordEvent(state, newRS, desiredReplicas(state.deployment));
  const d = state.deployment;
  if (d.status && deploymentComplete(d, d.status)) await cleanupDeployment(state, oldRSs);
  return syncRolloutStatus(state, [...oldRSs, scaled.rs], scaled.rs);
}

/** scaleDownOldReplicaSets scales every active old ReplicaSet to 0; true if any changed. */
async function scaleDownOldReplicaSets(state: SyncState, activeOldRSs: ReadonlyReplicaSet[]): Promise<boolean> {
  let scaled = false;
  for (const rs of activeOldRSs) {
    if ((await scaleReplicaSetAndRecordEvent(state, rs, 0)).scaled) scaled = true;
  }
  return scaled;
}

/**
 * oldPodsRunning: an old ReplicaSet still reports pods, or a pod of one (or of a ReplicaSet
 * no longer known) is in any phase but Succeeded/Failed — Unknown counts as running, since
 * it may be (oldPodsRunning). Pods of the new ReplicaSet are ignored.
 */
export function oldPodsRunning(newRS: ReadonlyReplicaSet | undefined, oldRSs: readonly ReadonlyReplicaSet[], podsByReplicaSet: PodsByReplicaSet): boolean {
  if (sumStatusReplicas(oldRSs) > 0) return true;
  for (const [uid, pods] of podsByReplicaSet) {
    if (newRS !== undefined && uid === newRS.metadata.uid) continue;
    if (pods.some((pod) => pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed')) return true;
  }
  return false;
}
