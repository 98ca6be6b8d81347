/**
 * The arithmetic of rollouts, as pure functions over Deployments and ReplicaSets
 * (deploymentutil's ResolveFenceposts, MaxSurge, MaxUnavailable, NewRSNewReplicas,
 * GetProportion, IsSaturated, and the sizes rolling.go and sync.go compute before they write).
 * Callers turn the numbers these return into ReplicaSet updates; nothing here does I/O or
 * mutates its arguments. Invalid intstr values throw RangeError (validation rejects them
 * before they are stored, so the controller never sees one).
 */
import { type IntOrString, scaledValue } from '../../apiserver/api/machinery/int-or-percent.js';
import type { ReadonlyDeployment, ReadonlyReplicaSet } from './replica-sets.js';
import {
  byCreationTimestamp,
  bySizeNewer,
  bySizeOlder,
  desiredReplicas,
  filterActive,
  specReplicas,
  sumAvailableReplicas,
  sumSpecReplicas,
} from './replica-sets.js';
import { desiredReplicasAnnotation, maxReplicasAnnotation } from './revision.js';

/** Fenceposts are the resolved bounds of a rolling update, in pods. */
export interface Fenceposts {
  surge: number;
  unavailable: number;
}

/**
 * resolveFenceposts resolves maxSurge (rounded up) and maxUnavailable (rounded down) against
 * `desired` replicas; unset means 0. When both come out 0 (validation forbids asking for
 * that, but rounding can produce it) unavailable becomes 1, so the rollout can still move.
 */
export function resolveFenceposts(maxSurge: IntOrString | undefined, maxUnavailable: IntOrString | undefined, desired: number): Fenceposts {
  const surge = scaledValue(maxSurge ?? 0, desired, true);
  const unavailable = scaledValue(maxUnavailable ?? 0, desired, false);
  return surge === 0 && unavailable === 0 ? { surge, unavailable: 1 } : { surge, unavailable };
}

/** isRollingUpdate is true for the RollingUpdate strategy (the server's default). */
export function isRollingUpdate(deployment: ReadonlyDeployment): boolean {
  return (deployment.spec.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
}

function fenceposts(deployment: ReadonlyDeployment): Fenceposts {
  const rollingUpdate = deployment.spec.strategy?.rollingUpdate;
  return resolveFenceposts(rollingUpdate?.maxSurge, rollingUpdate?.maxUnavailable, desiredReplicas(deployment));
}

/** maxSurge is how many pods a rolling Deployment may run above its replicas (0 for Recreate). */
export function maxSurge(deployment: ReadonlyDeployment): number {
  return isRollingUpdate(deployment) ? fenceposts(deployment).surge : 0;
}

/** maxUnavailable is how many of its replicas a rolling Deployment may lack, at most its
 * replica count (0 for Recreate and for 0 replicas). */
export function maxUnavailable(deployment: ReadonlyDeployment): number {
  const replicas = desiredReplicas(deployment);
  if (!isRollingUpdate(deployment) || replicas === 0) return 0;
  return Math.min(fenceposts(deployment).unavailable, replicas);
}

/** minAvailable is replicas − maxUnavailable for a rolling Deployment (0 for Recreate). */
export function minAvailable(deployment: ReadonlyDeployment): number {
  return isRollingUpdate(deployment) ? desiredReplicas(deployment) - maxUnavailable(deployment) : 0;
}

/**
 * newRSNewReplicas is the size the new ReplicaSet may grow to now (NewRSNewReplicas): for a
 * rolling update, as far as replicas + maxSurge allows counting every ReplicaSet's
 * spec.replicas, but never past the Deployment's replicas; for Recreate, the replicas.
 */
export function newRSNewReplicas(deployment: ReadonlyDeployment, allRSs: ReadonlyArray<ReadonlyReplicaSet | undefined>, newRS: ReadonlyReplicaSet): number {
  const replicas = desiredReplicas(deployment);
  if (!isRollingUpdate(deployment)) return replicas;
  const maxTotalPods = replicas + maxSurge(deployment);
  const currentPodCount = sumSpecReplicas(allRSs);
  if (currentPodCount >= maxTotalPods) return specReplicas(newRS);
  const scaleUpCount = Math.min(maxTotalPods - currentPodCount, replicas - specReplicas(newRS));
  return specReplicas(newRS) + scaleUpCount;
}

/**
 * newReplicaSetTarget is the size reconcileNewReplicaSet moves the new ReplicaSet to during a
 * rolling update: down to the Deployment's replicas if it has more, else up as far as
 * newRSNewReplicas allows. Equal to its current size when there is nothing to do.
 */
export function newReplicaSetTarget(deployment: ReadonlyDeployment, allRSs: ReadonlyArray<ReadonlyReplicaSet | undefined>, newRS: ReadonlyReplicaSet): number {
  const replicas = desiredReplicas(deployment);
  if (specReplicas(newRS) >= replicas) return replicas;
  return newRSNewReplicas(deployment, allRSs, newRS);
}

/** isSaturated: the new ReplicaSet already owns all the Deployment's replicas, agrees that it
 * should (desired-replicas annotation) and has them all available (IsSaturated). */
export function isSaturated(deployment: ReadonlyDeployment, rs: ReadonlyReplicaSet | undefined): boolean {
  if (rs === undefined) return false;
  const replicas = desiredReplicas(deployment);
  return desiredReplicasAnnotation(rs) === replicas && specReplicas(rs) === replicas && (rs.status?.availableReplicas ?? 0) === replicas;
}

/** replicaSetFraction estimates how many replicas `rs` gains (or loses, negative) when the
 * Deployment's size changed, from the size it had when rs was last scaled (the max-replicas
 * annotation, else status.replicas) (getReplicaSetFraction). */
export function replicaSetFraction(rs: ReadonlyReplicaSet, deployment: ReadonlyDeployment, statusReplicas: number): number {
  const replicas = desiredReplicas(deployment);
  if (replicas === 0) return -specReplicas(rs);
  const deploymentReplicas = replicas + maxSurge(deployment);
  const annotated = maxReplicasAnnotation(rs) ?? statusReplicas;
  // Kubernetes never scales proportionally up from zero, so `annotated` is not 0 in practice;
  // guard anyway rather than divide by it.
  if (annotated === 0) return 0;
  // Go's integer.RoundToInt32 rounds half away from zero; Math.round would round −2.5 to −2.
  const size = (specReplicas(rs) * deploymentReplicas) / annotated;
  return Math.sign(size) * Math.round(Math.abs(size)) - specReplicas(rs);
}

/** ProportionInput is what getProportion needs besides the ReplicaSet and Deployment. */
export interface ProportionInput {
  /** Replicas the whole Deployment gains (positive) or loses (negative). */
  toAdd: number;
  /** Replicas already handed out (or taken) from earlier ReplicaSets. */
  added: number;
  /** The Deployment's status.replicas: the fallback when rs has no max-replicas annotation. */
  statusReplicas: number;
}

/** getProportion is rs's share of a scaling event, capped so the running total never
 * overshoots `toAdd` (GetProportion). 0 for an empty ReplicaSet or nothing left to hand out. */
export function getProportion(rs: ReadonlyReplicaSet | undefined, deployment: ReadonlyDeployment, input: ProportionInput): number {
  const { toAdd, added } = input;
  if (rs === undefined || specReplicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const fraction = replicaSetFraction(rs, deployment, input.statusReplicas);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

/** ScaleTarget is one ReplicaSet and the size a plan wants it at. */
export interface ScaleTarget {
  rs: ReadonlyReplicaSet;
  replicas: number;
}

/**
 * proportionalScalePlan spreads a scaling event of a rolling Deployment over its active
 * ReplicaSets in proportion to their sizes (the rolling branch of sync.go's scale): larger
 * ones first (newer first when growing, older first when shrinking), the rounding leftover to
 * the first. Returns a target for every active ReplicaSet, in the order to apply them.
 */
export function proportionalScalePlan(
  deployment: ReadonlyDeployment,
  newRS: ReadonlyReplicaSet | undefined,
  oldRSs: readonly ReadonlyReplicaSet[],
): ScaleTarget[] {
  const active = filterActive([...oldRSs, newRS]);
  const replicas = desiredReplicas(deployment);
  const allowedSize = replicas > 0 ? replicas + maxSurge(deployment) : 0;
  const toAdd = allowedSize - sumSpecReplicas(active);
  const ordered = toAdd > 0 ? active.sort(bySizeNewer) : toAdd < 0 ? active.sort(bySizeOlder) : active;
  const statusReplicas = deployment.status?.replicas ?? 0;
  let added = 0;
  const targets = ordered.map((rs) => {
    const proportion = getProportion(rs, deployment, { toAdd, added, statusReplicas });
    added += proportion;
    return { rs, replicas: specReplicas(rs) + proportion };
  });
  const first = targets[0];
  if (first !== undefined && toAdd !== 0) first.replicas = Math.max(0, first.replicas + toAdd - added);
  return targets;
}

/** maxScaledDown is how many old replicas a rolling update may remove now without dropping
 * below minAvailable, counting the new ReplicaSet's not-yet-available pods as already
 * missing (reconcileOldReplicaSets). ≤ 0 means none. */
export function maxScaledDown(deployment: ReadonlyDeployment, allRSs: ReadonlyArray<ReadonlyReplicaSet | undefined>, newRS: ReadonlyReplicaSet): number {
  const newRSUnavailable = specReplicas(newRS) - (newRS.status?.availableReplicas ?? 0);
  return sumSpecReplicas(allRSs) - minAvailable(deployment) - newRSUnavailable;
}

/**
 * unhealthyCleanupPlan scales old ReplicaSets down by their unavailable replicas, oldest
 * first, up to `maxCleanupCount` in total (cleanupUnhealthyReplicas): removing pods that are
 * not available cannot make availability worse. Returns only the ReplicaSets that change.
 */
export function unhealthyCleanupPlan(oldRSs: readonly ReadonlyReplicaSet[], maxCleanupCount: number): ScaleTarget[] {
  const targets: ScaleTarget[] = [];
  let total = 0;
  for (const rs of [...oldRSs].sort(byCreationTimestamp)) {
    if (total >= maxCleanupCount) break;
    const unhealthy = specReplicas(rs) - (rs.status?.availableReplicas ?? 0);
    if (specReplicas(rs) === 0 || unhealthy <= 0) continue;
    const count = Math.min(maxCleanupCount - total, unhealthy);
    targets.push({ rs, replicas: specReplicas(rs) - count });
    total += count;
  }
  return targets;
}

/**
 * oldScaleDownPlan scales old ReplicaSets down, oldest first, by as many replicas as are
 * available above minAvailable across all ReplicaSets (scaleDownOldReplicaSetsForRollingUpdate).
 * Returns only the ReplicaSets that change; empty when availability is at or below the floor.
 */
export function oldScaleDownPlan(
  deployment: ReadonlyDeployment,
  allRSs: ReadonlyArray<ReadonlyReplicaSet | undefined>,
  oldRSs: readonly ReadonlyReplicaSet[],
): ScaleTarget[] {
  const totalScaleDown = sumAvailableReplicas(allRSs) - minAvailable(deployment);
  const targets: ScaleTarget[] = [];
  let total = 0;
  for (const rs of [...oldRSs].sort(byCreationTimestamp)) {
    if (total >= totalScaleDown) break;
    if (specReplicas(rs) === 0) continue;
    const count = Math.min(specReplicas(rs), totalScaleDown - total);
    targets.push({ rs, replicas: specReplicas(rs) - count });
    total += count;
  }
  return targets;
}
