import { getAllReplicaSetsAndSyncRevision } from './new-replica-set.js';
import { deploymentComplete } from './progress.js';
import { desiredReplicas, filterActive, sumStatusReplicas } from './replica-sets.js';
import { scaleReplicaSetAndRecordEvent } from './scale-replica-set.js';
import { cleanupDeployment, syncRolloutStatus } from './sync.js';
/** rolloutRecreate takes one step of a Recreate rollout (rolloutRecreate). */
export async function rolloutRecreate(state, podsByReplicaSet) {
    // Do not create the new ReplicaSet yet: it must not scale up before the old ones are down.
    const found = await getAllReplicaSetsAndSyncRevision(state, false);
    const { oldRSs } = found;
    if (await scaleDownOldReplicaSets(state, filterActive(oldRSs)))
        return syncRolloutStatus(state, [...oldRSs, found.newRS], found.newRS);
    if (oldPodsRunning(found.newRS, oldRSs, podsByReplicaSet))
        return syncRolloutStatus(state, [...oldRSs, found.newRS], found.newRS);
    const { newRS } = found.newRS ? found : await getAllReplicaSetsAndSyncRevision(state, true);
    if (newRS === undefined)
        throw new Error('rolloutRecreate: no new ReplicaSet after creating it');
    const scaled = await scaleReplicaSetAndRecordEvent(state, newRS, desiredReplicas(state.deployment));
    const d = state.deployment;
    if (d.status && deploymentComplete(d, d.status))
        await cleanupDeployment(state, oldRSs);
    return syncRolloutStatus(state, [...oldRSs, scaled.rs], scaled.rs);
}
/** scaleDownOldReplicaSets scales every active old ReplicaSet to 0; true if any changed. */
async function scaleDownOldReplicaSets(state, activeOldRSs) {
    let scaled = false;
    for (const rs of activeOldRSs) {
        if ((await scaleReplicaSetAndRecordEvent(state, rs, 0)).scaled)
            scaled = true;
    }
    return scaled;
}
/**
 * oldPodsRunning: an old ReplicaSet still reports pods, or a pod of one (or of a ReplicaSet
 * no longer known) is in any phase but Succeeded/Failed — Unknown counts as running, since
 * it may be (oldPodsRunning). Pods of the new ReplicaSet are ignored.
 */
export function oldPodsRunning(newRS, oldRSs, podsByReplicaSet) {
    if (sumStatusReplicas(oldRSs) > 0)
        return true;
    for (const [uid, pods] of podsByReplicaSet) {
        if (newRS !== undefined && uid === newRS.metadata.uid)
            continue;
        if (pods.some((pod) => pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed'))
            return true;
    }
    return false;
}
//# sourceMappingURL=recreate.js.map