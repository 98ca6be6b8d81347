/**
 * Rollout progress, as Kubernetes' progress.go and deploymentutil estimate it: the Progressing
 * condition (ReplicaSetUpdated while pods move, NewReplicaSetAvailable once complete,
 * ProgressDeadlineExceeded when nothing moved for progressDeadlineSeconds), the paused/resumed
 * markers, and when to look again so a stuck rollout times out on time. Pure: the caller
 * supplies `nowMs` from its clock and writes whatever status these return.
 */
import type { ReplicaSet } from '../../apiserver/api/apps/replica-set.js';
import type { DeepReadonly } from '../runtime/types.js';
import type { ReadonlyDeployment, ReadonlyReplicaSet } from './replica-sets.js';
import { desiredReplicas, present } from './replica-sets.js';
import type { DeploymentStatus } from './status.js';
import { calculateStatus, getCondition, newCondition, Reasons, removeCondition, setCondition } from './status.js';

/** NO_DEADLINE is math.MaxInt32: a progressDeadlineSeconds that means "never time out". */
const NO_DEADLINE = 2_147_483_647;

/** hasProgressDeadline: the Deployment asks for ProgressDeadlineExceeded reporting. */
export function hasProgressDeadline(deployment: ReadonlyDeployment): boolean {
  const seconds = deployment.spec.progressDeadlineSeconds;
  return seconds !== undefined && seconds !== NO_DEADLINE;
}

/** deploymentComplete: every desired replica is updated and available, no old pod remains,
 * and the status describes the latest spec (DeploymentComplete). */
export function deploymentComplete(deployment: ReadonlyDeployment, status: DeepReadonly<DeploymentStatus>): boolean {
  const replicas = desiredReplicas(deployment);
  return (
    (status.updatedReplicas ?? 0) === replicas &&
    (status.replicas ?? 0) === replicas &&
    (status.availableReplicas ?? 0) === replicas &&
    (status.observedGeneration ?? 0) >= (deployment.metadata.generation ?? 0)
  );
}

/** deploymentProgressing: compared with the stored status, more pods are updated, ready or
 * available, or fewer old pods remain (DeploymentProgressing). */
export function deploymentProgressing(deployment: ReadonlyDeployment, next: DeepReadonly<DeploymentStatus>): boolean {
  const old = deployment.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (next.replicas ?? 0) - (next.updatedReplicas ?? 0);
  return (
    (next.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (next.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (next.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/** conditionUpdatedMs is the Progressing condition's lastUpdateTime in ms (0 if unknown). */
function conditionUpdatedMs(status: DeepReadonly<DeploymentStatus> | undefined): number {
  const ms = Date.parse(getCondition(status, 'Progressing')?.lastUpdateTime ?? '');
  return Number.isNaN(ms) ? 0 : ms;
}

/**
 * deploymentTimedOut: the Progressing condition has not been updated for longer than
 * progressDeadlineSeconds at `nowMs`, or already says ProgressDeadlineExceeded
 * (DeploymentTimedOut). A completed rollout (NewReplicaSetAvailable) never times out, and
 * without a Progressing condition there is no base to measure from.
 */
export function deploymentTimedOut(deployment: ReadonlyDeployment, status: DeepReadonly<DeploymentStatus>, nowMs: number): boolean {
  if (!hasProgressDeadline(deployment)) return false;
  const condition = getCondition(status, 'Progressing');
  if (condition === undefined || condition.reason === Reasons.NewReplicaSetAvailable) return false;
  if (condition.reason === Reasons.ProgressDeadlineExceeded) return true;
  return conditionUpdatedMs(status) + (deployment.spec.progressDeadlineSeconds ?? 0) * 1000 < nowMs;
}

function subject(deployment: ReadonlyDeployment, newRS: ReadonlyReplicaSet | undefined): string {
  return newRS ? `ReplicaSet "${newRS.metadata.name ?? ''}"` : `Deployment "${deployment.metadata.name ?? ''}"`;
}

/** updateProgressing applies syncRolloutStatus's three-way choice to `status` (mutated). */
function updateProgressing(status: DeploymentStatus, deployment: ReadonlyDeployment, newRS: ReadonlyReplicaSet | undefined, nowMs: number): void {
  const who = subject(deployment, newRS);
  if (deploymentComplete(deployment, status)) {
    const message = `${who} has successfully progressed.`;
    setCondition(status, newCondition({ type: 'Progressing', status: 'True', reason: Reasons.NewReplicaSetAvailable, message }, nowMs));
  } else if (deploymentProgressing(deployment, status)) {
    // Unlike other conditions, Progressing is rewritten on every sign of progress, with the
    // same reason, to move lastUpdateTime (the deadline's base); only lastTransitionTime stays.
    const current = getCondition(deployment.status, 'Progressing');
    const message = `${who} is progressing.`;
    const condition = newCondition({ type: 'Progressing', status: 'True', reason: Reasons.ReplicaSetUpdated, message }, nowMs);
    if (current?.status === 'True' && current.lastTransitionTime) condition.lastTransitionTime = current.lastTransitionTime;
    removeCondition(status, 'Progressing');
    setCondition(status, condition);
  } else if (deploymentTimedOut(deployment, status, nowMs)) {
    const message = `${who} has timed out progressing.`;
    setCondition(status, newCondition({ type: 'Progressing', status: 'False', reason: Reasons.ProgressDeadlineExceeded, message }, nowMs));
  }
}

/** replicaFailure returns the ReplicaFailure condition to promote to the Deployment: the new
 * ReplicaSet's first, else any old one's (getReplicaFailures). */
function replicaFailure(allRSs: readonly ReadonlyReplicaSet[], newRS: ReadonlyReplicaSet | undefined) {
  const failureOf = (rs: ReadonlyReplicaSet | undefined): DeepReadonly<NonNullable<ReplicaSet['status']>>['conditions'] =>
    rs?.status?.conditions?.filter((condition) => condition.type === 'ReplicaFailure');
  const failure = failureOf(newRS)?.[0] ?? allRSs.flatMap((rs) => failureOf(rs) ?? [])[0];
  if (failure === undefined) return undefined;
  const { type, status, reason, message, lastTransitionTime } = failure;
  return { type, status, reason, message, lastTransitionTime, lastUpdateTime: lastTransitionTime };
}

/**
 * rolloutStatus is the status syncRolloutStatus writes during a rollout: calculateStatus, plus
 * the Progressing condition (dropped without a progress deadline; not re-estimated once the
 * latest rollout completed), plus any ReplicaSet's ReplicaFailure condition. Returns a new,
 * compacted status.
 */
export function rolloutStatus(
  allRSsOrUndefined: ReadonlyArray<ReadonlyReplicaSet | undefined>,
  newRS: ReadonlyReplicaSet | undefined,
  deployment: ReadonlyDeployment,
  nowMs: number,
): DeploymentStatus {
  const allRSs = present(allRSsOrUndefined);
  const status = calculateStatus(allRSs, newRS, deployment, nowMs);
  if (!hasProgressDeadline(deployment)) removeCondition(status, 'Progressing');
  const current = getCondition(deployment.status, 'Progressing');
  const isCompleteDeployment = status.replicas === status.updatedReplicas && current?.reason === Reasons.NewReplicaSetAvailable;
  if (hasProgressDeadline(deployment) && !isCompleteDeployment) updateProgressing(status, deployment, newRS, nowMs);
  const failure = replicaFailure(allRSs, newRS);
  if (failure) setCondition(status, structuredClone(failure));
  else removeCondition(status, 'ReplicaFailure');
  return status;
}

/**
 * stuckRequeueAfterMs says when to look at a rollout again so that a lack of progress is
 * reported on time (requeueStuckDeployment): the Progressing condition's lastUpdateTime plus
 * the deadline, plus a second for the second-precision timestamps. Undefined when there is
 * nothing to wait for (no deadline, no condition, complete, or already timed out). Where
 * Kubernetes re-adds a key rate-limited when less than a second is left, this waits that
 * second: the deadline has passed by then either way, and no retry storm can start.
 */
export function stuckRequeueAfterMs(deployment: ReadonlyDeployment, status: DeepReadonly<DeploymentStatus>, nowMs: number): number | undefined {
  const current = getCondition(deployment.status, 'Progressing');
  if (!hasProgressDeadline(deployment) || current === undefined) return undefined;
  if (deploymentComplete(deployment, status) || current.reason === Reasons.ProgressDeadlineExceeded) return undefined;
  const afterMs = conditionUpdatedMs(deployment.status) + (deployment.spec.progressDeadlineSeconds ?? 0) * 1000 - nowMs;
  return Math.max(0, afterMs) + 1000;
}

/**
 * pausedConditionUpdate returns the Progressing condition that pausing or resuming calls for
 * (checkPausedConditions): Unknown/DeploymentPaused when paused, Unknown/DeploymentResumed when
 * a paused Deployment resumes, so time spent paused never counts against the deadline.
 * Undefined when nothing changes (or the rollout already timed out).
 */
export function pausedConditionUpdate(deployment: ReadonlyDeployment, nowMs: number) {
  if (!hasProgressDeadline(deployment)) return undefined;
  const current = getCondition(deployment.status, 'Progressing');
  if (current?.reason === Reasons.ProgressDeadlineExceeded) return undefined;
  const pausedNoted = current?.reason === Reasons.DeploymentPaused;
  if (deployment.spec.paused && !pausedNoted) {
    return newCondition({ type: 'Progressing', status: 'Unknown', reason: Reasons.DeploymentPaused, message: 'Deployment is paused' }, nowMs);
  }
  if (!deployment.spec.paused && pausedNoted) {
    return newCondition({ type: 'Progressing', status: 'Unknown', reason: Reasons.DeploymentResumed, message: 'Deployment is resumed' }, nowMs);
  }
  return undefined;
}
