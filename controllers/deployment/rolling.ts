/**
 * The RollingUpdate strategy (rolling.go): grow the new ReplicaSet within maxSurge, shrink
 * the old ones within maxUnavailable, one step per sync; the ReplicaSet and pod events that
 * follow each step trigger the next. The arithmetic is in rolling-math.ts.
 */
import type { Result } from '../runtime/types.js';
import { getAllReplicaSetsAndSyncRevision } from './new-replica-set.js';
import { deploymentComplete } from './progress.js';
import type { ReadonlyReplicaSet } from './replica-sets.js';
import { filterActive, specReplicas, sumSpecReplicas } from './replica-sets.js';
import { maxScaledDown, newReplicaSetTarget, oldScaleDownPlan, type ScaleTarget, unhealthyCleanupPlan } from './rolling-math.js';
import { scaleReplicaSetAndRecordEvent } from './scale-replica-set.js';
import { cleanupDeployment, syncRolloutStatus } from './sync.js';
import type { SyncState } from './sync-state.js';
import { currentOf } from './sync-state.js';

/**
 * rolloutRolling takes one step of a rolling update (rolloutRolling): create the new
 * ReplicaSet if needed; scale it up if allowed; else scale old ones down if allowed; else,
 * once the rollout is complete, clean up old revisions. Always ends with the rollout status.
 */
export async function rolloutRolling(state: SyncState): Promise<Result> {
  const { newRS, oldRSs } = await getAllReplicaSetsAndSyncRevision(state, true);
  if (newRS === undefined) throw new Error('rolloutRolling: no new ReplicaSet after creating it');
  if (await reconcileNewReplicaSet(state, [...oldRSs, newRS], newRS)) return syncRolloutStatus(state, [...oldRSs, newRS], newRS);
  const current = currentOf(state, newRS);
  if (await reconcileOldReplicaSets(state, filterActive(oldRSs.map((rs) => currentOf(state, rs))), current)) {
    return syncRolloutStatus(
      state,
      [...oldRSs, newRS].map((rs) => currentOf(state, rs)),
      current,
    );
  }
  const d = state.deployment;
  if (d.status && deploymentComplete(d, d.status)) await cleanupDeployment(state, oldRSs);
  return syncRolloutStatus(
    state,
    [...oldRSs, newRS].map((rs) => currentOf(state, rs)),
    current,
  );
}

/** reconcileNewReplicaSet scales the new ReplicaSet to newReplicaSetTarget; true if it did. */
async function reconcileNewReplicaSet(state: SyncState, allRSs: ReadonlyReplicaSet[], newRS: ReadonlyReplicaSet): Promise<boolean> {
  const target = newReplicaSetTarget(state.deployment, allRSs, newRS);
  if (target === specReplicas(newRS)) return false;
  return (await scaleReplicaSetAndRecordEvent(state, newRS, target)).scaled;
}

/**
 * reconcileOldReplicaSets scales old ReplicaSets down as far as availability allows
 * (reconcileOldReplicaSets): first their unavailable replicas (removing those cannot hurt and
 * unblocks a stuck rollout, kubernetes#16737), then available ones above minAvailable. True
 * if anything was scaled down. Like Kubernetes, a failed write ends the step without failing
 * the sync; the status is still written and the next event retries.
 */
async function reconcileOldReplicaSets(state: SyncState, oldRSs: ReadonlyReplicaSet[], newRS: ReadonlyReplicaSet): Promise<boolean> {
  if (sumSpecReplicas(oldRSs) === 0) return false;
  const budget = maxScaledDown(state.deployment, [...oldRSs, newRS], newRS);
  if (budget <= 0) return false;
  try {
    const cleaned = await applyScaleDowns(state, unhealthyCleanupPlan(oldRSs, budget));
    const afterCleanup = oldRSs.map((rs) => currentOf(state, rs));
    const scaledDown = await applyScaleDowns(state, oldScaleDownPlan(state.deployment, [...afterCleanup, newRS], afterCleanup));
    return cleaned + scaledDown > 0;
  } catch (err) {
    state.deps.logger.warn({ err }, 'could not scale down old replica sets; will retry');
    return false;
  }
}

/** applyScaleDowns applies a scale-down plan in order; returns the replicas removed. */
async function applyScaleDowns(state: SyncState, plan: ScaleTarget[]): Promise<number> {
  let removed = 0;
  for (const target of plan) {
    const before = specReplicas(target.rs);
    await scaleReplicaSetAndRecordEvent(state, target.rs, target.replicas);
    removed += before - target.replicas;
  }
  return removed;
}
