import { maxSurge } from './rolling-math.js';
import { desiredReplicas, specReplicas } from './replica-sets.js';
import { replicasAnnotationsNeedUpdate, setReplicasAnnotations } from './revision.js';
import { remember } from './sync-state.js';
/** SCALING_REPLICA_SET is the reason of the events the Deployment controller records. */
export const SCALING_REPLICA_SET = 'ScalingReplicaSet';
/** scalingMessage is the ScalingReplicaSet event message (v1.31 wording). */
export function scalingMessage(operation, rsName, from, to) {
    return `Scaled ${operation} replica set ${rsName} from ${from} to ${to}`;
}
/**
 * scaleReplicaSet moves `rs` to `newScale` replicas and brings its desired/max-replicas
 * annotations to the Deployment's current size, in one update carrying rs's resourceVersion
 * (a 409 propagates). Does nothing when neither changes. Records the event with `operation`
 * when the size changed. The sync state then holds the updated ReplicaSet.
 */
export async function scaleReplicaSet(state, rs, newScale, operation) {
    const d = state.deployment;
    const oldScale = specReplicas(rs);
    const replicas = desiredReplicas(d);
    const maxReplicas = replicas + maxSurge(d);
    const sizeNeedsUpdate = oldScale !== newScale;
    if (!sizeNeedsUpdate && !replicasAnnotationsNeedUpdate(rs, replicas, maxReplicas))
        return { scaled: false, rs };
    // NOTE: `rs` may be a shared cache object; edit a copy.
    const copy = structuredClone(rs);
    copy.spec.replicas = newScale;
    setReplicasAnnotations(copy, replicas, maxReplicas);
    const updated = remember(state, await state.deps.replicaSets.update(copy));
    if (sizeNeedsUpdate)
        recordScaling(state, { operation, rsName: rs.metadata.name ?? '', from: oldScale, to: newScale });
    return { scaled: sizeNeedsUpdate, rs: updated };
}
/** scaleReplicaSetAndRecordEvent scales `rs` to `newScale` unless it already has that size,
 * naming the direction from the sizes. */
export async function scaleReplicaSetAndRecordEvent(state, rs, newScale) {
    if (specReplicas(rs) === newScale)
        return { scaled: false, rs };
    return scaleReplicaSet(state, rs, newScale, specReplicas(rs) < newScale ? 'up' : 'down');
}
/** recordScaling records a ScalingReplicaSet event about the Deployment. */
export function recordScaling(state, { operation, rsName, from, to }) {
    state.deps.recorder.event(eventSubject(state.deployment), 'Normal', SCALING_REPLICA_SET, scalingMessage(operation, rsName, from, to));
}
/** eventSubject makes sure the Deployment an event is about names its kind and apiVersion
 * (list items from some servers omit them; involvedObject needs both). */
export function eventSubject(d) {
    return { ...d, apiVersion: d.apiVersion ?? 'apps/v1', kind: d.kind ?? 'Deployment' };
}
//# sourceMappingURL=scale-replica-set.js.map