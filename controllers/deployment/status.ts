/**
 * Deployment status as Kubernetes computes it (sync.go calculateStatus and deploymentutil's
 * condition helpers): replica counts summed from the ReplicaSets' status, and the Available
 * condition. Conditions carry lastUpdateTime/lastTransitionTime from the caller's clock;
 * setting a condition with the same status and reason keeps the old one untouched, so
 * recomputing an unchanged status yields an identical object and no write. Pure.
 */
import type { Deployment, DeploymentCondition } from '../../apiserver/api/apps/deployment.js';
import { deepEqual } from '../../apiserver/api/deep-equal.js';
import { rfc3339 } from '../../apiserver/api/machinery/time.js';
import type { DeepReadonly } from '../runtime/types.js';
import type { ReadonlyDeployment, ReadonlyReplicaSet } from './replica-sets.js';
import { desiredReplicas, sumAvailableReplicas, sumReadyReplicas, sumSpecReplicas, sumStatusReplicas } from './replica-sets.js';
import { maxUnavailable } from './rolling-math.js';

/** DeploymentStatus is the status subresource of a Deployment. */
export type DeploymentStatus = NonNullable<Deployment['status']>;

/** ConditionTypes are the Deployment condition types (apps/v1 DeploymentConditionType). */
export const ConditionTypes = { Available: 'Available', Progressing: 'Progressing', ReplicaFailure: 'ReplicaFailure' } as const;
/** ConditionType is one of ConditionTypes. */
export type ConditionType = (typeof ConditionTypes)[keyof typeof ConditionTypes];

/** Reasons are the condition reasons the controller writes (deploymentutil constants). */
export const Reasons = {
  ReplicaSetUpdated: 'ReplicaSetUpdated',
  FailedRSCreate: 'ReplicaSetCreateError',
  NewReplicaSetCreated: 'NewReplicaSetCreated',
  FoundNewReplicaSet: 'FoundNewReplicaSet',
  NewReplicaSetAvailable: 'NewReplicaSetAvailable',
  ProgressDeadlineExceeded: 'ProgressDeadlineExceeded',
  DeploymentPaused: 'DeploymentPaused',
  DeploymentResumed: 'DeploymentResumed',
  MinimumReplicasAvailable: 'MinimumReplicasAvailable',
  MinimumReplicasUnavailable: 'MinimumReplicasUnavailable',
} as const;

/** ConditionInput is a condition without its timestamps. */
export interface ConditionInput {
  type: ConditionType;
  status: DeploymentCondition['status'];
  reason: string;
  message: string;
}

/** newCondition stamps both times of a condition with `nowMs` (NewDeploymentCondition). */
export function newCondition(input: ConditionInput, nowMs: number): DeploymentCondition {
  const time = rfc3339(nowMs);
  return { ...input, lastUpdateTime: time, lastTransitionTime: time };
}

/** getCondition returns the condition of `type`, if any (GetDeploymentCondition). */
export function getCondition(status: DeepReadonly<DeploymentStatus> | undefined, type: ConditionType): DeepReadonly<DeploymentCondition> | undefined {
  return status?.conditions?.find((condition) => condition.type === type);
}

/** removeCondition drops the condition of `type` from `status` (mutated). */
export function removeCondition(status: DeploymentStatus, type: ConditionType): void {
  const kept = (status.conditions ?? []).filter((condition) => condition.type !== type);
  if (kept.length > 0) status.conditions = kept;
  else delete status.conditions;
}

/**
 * setCondition puts `condition` into `status` (mutated), as SetDeploymentCondition does: a
 * condition of the same type with the same status and reason is left as it is; one with the
 * same status keeps its lastTransitionTime; the new condition goes to the end of the list.
 */
export function setCondition(status: DeploymentStatus, condition: DeploymentCondition): void {
  const current = getCondition(status, condition.type as ConditionType);
  if (current && current.status === condition.status && current.reason === condition.reason) return;
  const next = current?.status === condition.status ? { ...condition, lastTransitionTime: current.lastTransitionTime } : condition;
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== condition.type), next];
}

/** compactStatus drops zero counts and empty lists, as Go's omitempty leaves them off the wire,
 * so a computed status compares equal to the stored one. Returns a new object. */
export function compactStatus(status: DeepReadonly<DeploymentStatus> | undefined): DeploymentStatus {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(status ?? {})) {
    if (value === undefined || value === 0 || (Array.isArray(value) && value.length === 0)) continue;
    out[key] = structuredClone(value);
  }
  // collisionCount is a pointer in Go: 0 is a value worth keeping once it has been set.
  if (status?.collisionCount !== undefined) out['collisionCount'] = status.collisionCount;
  return out as DeploymentStatus;
}

/** sameStatus compares two statuses the way the API stores them (see compactStatus). */
export function sameStatus(a: DeepReadonly<DeploymentStatus> | undefined, b: DeepReadonly<DeploymentStatus> | undefined): boolean {
  return deepEqual(compactStatus(a), compactStatus(b));
}

/**
 * calculateStatus derives the Deployment's status from its ReplicaSets (calculateStatus):
 * counts from their status (updatedReplicas from the new one), unavailableReplicas from
 * their spec, the existing conditions, and Available True once availableReplicas reaches
 * replicas − maxUnavailable. Returns a new, compacted status; never mutates its inputs.
 */
export function calculateStatus(
  allRSs: ReadonlyArray<ReadonlyReplicaSet | undefined>,
  newRS: ReadonlyReplicaSet | undefined,
  deployment: ReadonlyDeployment,
  nowMs: number,
): DeploymentStatus {
  const available = sumAvailableReplicas(allRSs);
  const status: DeploymentStatus = {
    observedGeneration: deployment.metadata.generation ?? 0,
    replicas: sumStatusReplicas(allRSs),
    updatedReplicas: sumStatusReplicas([newRS]),
    readyReplicas: sumReadyReplicas(allRSs),
    availableReplicas: available,
    // More available than wanted (while scaling down) is not negative unavailability.
    unavailableReplicas: Math.max(0, sumSpecReplicas(allRSs) - available),
    collisionCount: deployment.status?.collisionCount,
    conditions: structuredClone(deployment.status?.conditions ?? []) as DeploymentCondition[],
  };
  const minimum = desiredReplicas(deployment) - maxUnavailable(deployment);
  const availableCondition: ConditionInput =
    available >= minimum
      ? { type: 'Available', status: 'True', reason: Reasons.MinimumReplicasAvailable, message: 'Deployment has minimum availability.' }
      : { type: 'Available', status: 'False', reason: Reasons.MinimumReplicasUnavailable, message: 'Deployment does not have minimum availability.' };
  setCondition(status, newCondition(availableCondition, nowMs));
  return compactStatus(status);
}
