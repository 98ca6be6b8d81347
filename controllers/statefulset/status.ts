/**
 * The StatefulSet status a sync reports (Kubernetes' computeReplicaStatus and
 * completeRollingUpdate), as a pure function of the pods it saw and the revisions it chose.
 */
import type { StatefulSet } from '../../apiserver/api/apps/stateful-set.js';
import { deepEqual } from '../../apiserver/api/deep-equal.js';
import type { DeepReadonly } from '../runtime/types.js';
import type { PodView } from './plan.js';

/** StatefulSetStatus is the status object written through /status. */
export type StatefulSetStatus = NonNullable<StatefulSet['status']>;

/** StatusInput is what the status is computed from. */
export interface StatusInput {
  generation: number | undefined;
  strategy: 'RollingUpdate' | 'OnDelete';
  currentRevision: string;
  updateRevision: string;
  collisionCount: number | undefined;
  pods: readonly PodView[];
}

/**
 * computeStatus counts every pod of the set (replicas), the Running+Ready ones (ready) and
 * those available for minReadySeconds, and the non-terminating pods at the current and
 * update revisions. Once a RollingUpdate has every pod updated and ready, the update
 * revision becomes the current one.
 */
export function computeStatus(input: StatusInput): StatefulSetStatus {
  const live = input.pods.filter((pod) => !pod.terminating);
  const status: StatefulSetStatus = {
    observedGeneration: input.generation,
    replicas: input.pods.length,
    readyReplicas: input.pods.filter((pod) => pod.runningReady).length,
    availableReplicas: input.pods.filter((pod) => pod.available).length,
    currentReplicas: live.filter((pod) => pod.revision === input.currentRevision).length,
    updatedReplicas: live.filter((pod) => pod.revision === input.updateRevision).length,
    currentRevision: input.currentRevision,
    updateRevision: input.updateRevision,
    collisionCount: input.collisionCount ?? 0,
  };
  const complete = status.updatedReplicas === status.replicas && status.readyReplicas === status.replicas;
  if (input.strategy === 'RollingUpdate' && complete) {
    status.currentReplicas = status.updatedReplicas;
    status.currentRevision = input.updateRevision;
  }
  return status;
}

/** statusNeedsUpdate is true when `status` differs from what the set reports. */
export function statusNeedsUpdate(set: DeepReadonly<StatefulSet>, status: StatefulSetStatus): boolean {
  const { conditions: _conditions, ...current } = set.status ?? {};
  return !deepEqual(current, status);
}
