import { REVISION_ANNOTATION, setDeploymentRevision } from './revision.js';
import { sameStatus } from './status.js';
/** remember replaces `rs` in the sync's ReplicaSets (by uid) with the version a write returned. */
export function remember(state, rs) {
    state.replicaSets = state.replicaSets.map((known) => (known.metadata.uid === rs.metadata.uid ? rs : known));
    if (!state.replicaSets.includes(rs))
        state.replicaSets.push(rs);
    return rs;
}
/** currentOf returns the sync's latest copy of `rs` (after any write this sync made). */
export function currentOf(state, rs) {
    return state.replicaSets.find((known) => known.metadata.uid === rs.metadata.uid) ?? rs;
}
/**
 * writeStatus writes `status` through /status when it differs from the Deployment's current
 * status, carrying the resourceVersion (a 409 propagates: the queue retries on fresh state).
 * Afterwards `state.deployment` holds the written status and the new resourceVersion.
 */
export async function writeStatus(state, status) {
    const d = state.deployment;
    if (sameStatus(d.status, status))
        return;
    const written = await state.deps.deployments.updateStatus({ ...d, status });
    d.status = status;
    d.metadata.resourceVersion = written.metadata.resourceVersion;
}
/**
 * writeRevision sets the Deployment's deployment.kubernetes.io/revision annotation to
 * `revision` if it differs. Kubernetes writes it together with the status (its status
 * strategy keeps metadata changes); our /status stores only status, so it goes in a merge
 * patch of the Deployment itself, with the resourceVersion as precondition. Annotations are
 * not spec: the generation does not move.
 */
export async function writeRevision(state, revision) {
    const d = state.deployment;
    if (d.metadata.annotations?.[REVISION_ANNOTATION] === revision)
        return;
    const patch = { metadata: { resourceVersion: d.metadata.resourceVersion, annotations: { [REVISION_ANNOTATION]: revision } } };
    const written = await state.deps.deployments.patch(d.metadata.namespace ?? '', d.metadata.name ?? '', patch, { type: 'merge' });
    setDeploymentRevision(d, revision);
    d.metadata.resourceVersion = written.metadata.resourceVersion;
}
//# sourceMappingURL=sync-state.js.map