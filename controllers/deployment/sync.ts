/**
 * The non-rollout syncs of sync.go: status only (a Deployment being deleted), scaling events
 * and paused Deployments (sync, with proportional scaling), cleaning up old revisions, and
 * writing the status.
 */
import { isNotFound } from '../../apiserver/api/api-error.js';
import type { Result } from '../runtime/types.js';
import { getAllReplicaSetsAndSyncRevision } from './new-replica-set.js';
import { rolloutStatus, stuckRequeueAfterMs } from './progress.js';
import type { ReadonlyReplicaSet } from './replica-sets.js';
import { desiredReplicas, filterActive, findActiveOrLatest, specReplicas } from './replica-sets.js';
import { desiredReplicasAnnotation, historyToDelete } from './revision.js';
import { isRollingUpdate, isSaturated, proportionalScalePlan } from './rolling-math.js';
import { type ScalingOperation, scaleReplicaSet, scaleReplicaSetAndRecordEvent } from './scale-replica-set.js';
import { calculateStatus, sameStatus } from './status.js';
import type { SyncState } from './sync-state.js';
import { writeStatus } from './sync-state.js';

/** syncStatusOnly refreshes the status and takes no other action (a Deployment being deleted). */
export async function syncStatusOnly(state: SyncState): Promise<Result> {
  const { newRS, oldRSs } = await getAllReplicaSetsAndSyncRevision(state, false);
  await syncDeploymentStatus(state, [...oldRSs, newRS], newRS);
  return {};
}

/** sync handles scaling events and paused Deployments: scale (proportionally when a rollout
 * is under way), clean up old revisions while paused, and refresh the status. It never
 * creates a ReplicaSet, so a paused Deployment does not roll out. */
export async function sync(state: SyncState): Promise<Result> {
  const { newRS, oldRSs } = await getAllReplicaSetsAndSyncRevision(state, false);
  await scale(state, newRS, oldRSs);
  if (state.deployment.spec.paused) await cleanupDeployment(state, oldRSs);
  await syncDeploymentStatus(state, [...oldRSs, newRS], newRS);
  return {};
}

/** isScalingEvent: an active ReplicaSet's desired-replicas annotation disagrees with the
 * Deployment's replicas, i.e. someone scaled the Deployment (isScalingEvent). */
export async function isScalingEvent(state: SyncState): Promise<boolean> {
  const { newRS, oldRSs } = await getAllReplicaSetsAndSyncRevision(state, false);
  const replicas = desiredReplicas(state.deployment);
  return filterActive([...oldRSs, newRS]).some((rs) => {
    const desired = desiredReplicasAnnotation(rs);
    return desired !== undefined && desired !== replicas;
  });
}

/**
 * scale resizes the ReplicaSets after a scaling event (sync.go scale): a lone active (or, with
 * none active, the latest) ReplicaSet takes the full size; a saturated new ReplicaSet means
 * the old ones go to 0; otherwise a rolling Deployment spreads the change proportionally, so
 * that scaling mid-rollout neither hastens nor reverses the rollout.
 */
export async function scale(state: SyncState, newRS: ReadonlyReplicaSet | undefined, oldRSs: ReadonlyReplicaSet[]): Promise<void> {
  const d = state.deployment;
  const activeOrLatest = findActiveOrLatest(newRS, oldRSs);
  if (activeOrLatest) {
    if (specReplicas(activeOrLatest) !== desiredReplicas(d)) await scaleReplicaSetAndRecordEvent(state, activeOrLatest, desiredReplicas(d));
    return;
  }
  if (isSaturated(d, newRS)) {
    for (const old of filterActive(oldRSs)) await scaleReplicaSetAndRecordEvent(state, old, 0);
    return;
  }
  if (!isRollingUpdate(d)) return;
  const plan = proportionalScalePlan(d, newRS, oldRSs);
  // The event's word follows the direction of the whole change, as in Kubernetes.
  const delta = plan.reduce((total, target) => total + target.replicas - specReplicas(target.rs), 0);
  const operation: ScalingOperation = delta > 0 ? 'up' : 'down';
  // Every active ReplicaSet is written, even at an unchanged size, to record the new
  // desired/max-replicas annotations (which is what ends the scaling event).
  for (const target of plan) await scaleReplicaSet(state, target.rs, target.replicas, operation);
}

/**
 * cleanupDeployment deletes the old ReplicaSets beyond spec.revisionHistoryLimit (see
 * historyToDelete), oldest revision first; a ReplicaSet already gone is fine. Stops at the
 * first other error rather than keep hammering the API server.
 */
export async function cleanupDeployment(state: SyncState, oldRSs: ReadonlyReplicaSet[]): Promise<void> {
  for (const rs of historyToDelete(state.deployment, oldRSs)) {
    state.deps.logger.debug({ replicaSet: rs.metadata.name }, 'Trying to cleanup replica set for deployment');
    try {
      await state.deps.replicaSets.delete(rs.metadata.namespace ?? '', rs.metadata.name ?? '');
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}

/** syncDeploymentStatus writes calculateStatus when it differs from the stored status. */
export async function syncDeploymentStatus(
  state: SyncState,
  allRSs: ReadonlyArray<ReadonlyReplicaSet | undefined>,
  newRS: ReadonlyReplicaSet | undefined,
): Promise<void> {
  await writeStatus(state, calculateStatus(allRSs, newRS, state.deployment, state.deps.clock.now()));
}

/**
 * syncRolloutStatus writes the rollout status (progress.ts rolloutStatus) when it changed.
 * When it did not, a rollout that is not moving is looked at again when its progress deadline
 * passes (requeueStuckDeployment), so ProgressDeadlineExceeded is reported on time.
 */
export async function syncRolloutStatus(
  state: SyncState,
  allRSs: ReadonlyArray<ReadonlyReplicaSet | undefined>,
  newRS: ReadonlyReplicaSet | undefined,
): Promise<Result> {
  const d = state.deployment;
  const nowMs = state.deps.clock.now();
  const status = rolloutStatus(allRSs, newRS, d, nowMs);
  if (!sameStatus(d.status, status)) {
    await writeStatus(state, status);
    return {};
  }
  const requeueAfterMs = stuckRequeueAfterMs(d, status, nowMs);
  return requeueAfterMs === undefined ? {} : { requeueAfterMs };
}
