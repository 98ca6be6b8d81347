/**
 * Resizing a ReplicaSet on behalf of its Deployment (sync.go scaleReplicaSet /
 * scaleReplicaSetAndRecordEvent): one PUT that sets spec.replicas and the desired/max-replicas
 * annotations together, and a ScalingReplicaSet event when the size changed.
 *
 * Event wording is kube-controller-manager v1.31's, which put the old size first
 * (kubernetes/kubernetes#125118): `Scaled up replica set web-7d4b8c6 from 0 to 3`. v1.28–v1.30
 * said `... to 3 from 0`, and earlier releases `... to 3`.
 */

import type { Deployment } from '../../apiserver/api/apps/deployment.js';
import type { ReplicaSet } from '../../apiserver/api/apps/replica-set.js';
import type { ReadonlyReplicaSet } from './replica-sets.js';
import { desiredReplicas, specReplicas } from './replica-sets.js';
import { replicasAnnotationsNeedUpdate, setReplicasAnnotations } from './revision.js';
import { maxSurge } from './rolling-math.js';
import type { SyncState } from './sync-state.js';
import { remember } from './sync-state.js';

/** ScalingOperation is the word of a ScalingReplicaSet event. */
export type ScalingOperation = 'up' | 'down';

/** SCALING_REPLICA_SET is the reason of the events the Deployment controller records. */
export const SCALING_REPLICA_SET = 'ScalingReplicaSet';

/** scalingMessage is the ScalingReplicaSet event message (v1.31 wording). */
export function scalingMessage(operation: ScalingOperation, rsName: string, from: number, to: number): string {
  return `Scaled ${operation} replica set ${rsName} from ${from} to ${to}`;
}

/** ScaleResult says whether the size changed and holds the ReplicaSet as it now is. */
export interface ScaleResult {
  scaled: boolean;
  rs: ReadonlyReplicaSet;
}

/**
 * scaleReplicaSet moves `rs` to `newScale` replicas and brings its desired/max-replicas
 * annotations to the Deployment's current size, in one update carrying rs's resourceVersion
 * (a 409 propagates). Does nothing when neither changes. Records the event with `operation`
 * when the size changed. The sync state then holds the updated ReplicaSet.
 */
export async function scaleReplicaSet(state: SyncState, rs: ReadonlyReplicaSet, newScale: number, operation: ScalingOperation): Promise<ScaleResult> {
  const d = state.deployment;
  const oldScale = specReplicas(rs);
  const replicas = desiredReplicas(d);
  const maxReplicas = replicas + maxSurge(d);
  const sizeNeedsUpdate = oldScale !== newScale;
  if (!sizeNeedsUpdate && !replicasAnnotationsNeedUpdate(rs, replicas, maxReplicas)) return { scaled: false, rs };
  // NOTE: `rs` may be a shared cache object; edit a copy.
  const copy = structuredClone(rs) as ReplicaSet;
  copy.spec.replicas = newScale;
  setReplicasAnnotations(copy, replicas, maxReplicas);
  const updated = remember(state, await state.deps.replicaSets.update(copy));
  if (sizeNeedsUpdate) recordScaling(state, { operation, rsName: rs.metadata.name ?? '', from: oldScale, to: newScale });
  return { scaled: sizeNeedsUpdate, rs: updated };
}

/** scaleReplicaSetAndRecordEvent scales `rs` to `newScale` unless it already has that size,
 * naming the direction from the sizes. */
export async function scaleReplicaSetAndRecordEvent(state: SyncState, rs: ReadonlyReplicaSet, newScale: number): Promise<ScaleResult> {
  if (specReplicas(rs) === newScale) return { scaled: false, rs };
  return scaleReplicaSet(state, rs, newScale, specReplicas(rs) < newScale ? 'up' : 'down');
}

interface Scaling {
  operation: ScalingOperation;
  rsName: string;
  from: number;
  to: number;
}

/** recordScaling records a ScalingReplicaSet event about the Deployment. */
export function recordScaling(state: SyncState, { operation, rsName, from, to }: Scaling): void {
  state.deps.recorder.event(eventSubject(state.deployment), 'Normal', SCALING_REPLICA_SET, scalingMessage(operation, rsName, from, to));
}

/** eventSubject makes sure the Deployment an event is about names its kind and apiVersion
 * (list items from some servers omit them; involvedObject needs both). */
export function eventSubject(d: Deployment): Deployment {
  return { ...d, apiVersion: d.apiVersion ?? 'apps/v1', kind: d.kind ?? 'Deployment' };
}
