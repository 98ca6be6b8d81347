import { byCreationTimestamp, desiredReplicas } from './replica-sets.js';
/** REVISION_ANNOTATION records a ReplicaSet's (and its Deployment's) rollout sequence number. */
export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
/** REVISION_HISTORY_ANNOTATION lists the earlier revisions a resurrected ReplicaSet served. */
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
/** DESIRED_REPLICAS_ANNOTATION is the Deployment's replicas when the ReplicaSet was last scaled;
 * a mismatch is how the controller tells a scaling event from a rollout. */
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
/** MAX_REPLICAS_ANNOTATION is replicas + maxSurge at that moment, the base of proportions. */
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
/** CHANGE_CAUSE_ANNOTATION is copied from the Deployment like any other annotation; kubectl
 * rollout history prints it. */
export const CHANGE_CAUSE_ANNOTATION = 'kubernetes.io/change-cause';
/** MAX_REVISION_HISTORY_CHARS caps the revision-history annotation (~100 revisions). */
export const MAX_REVISION_HISTORY_CHARS = 2000;
/** Annotations the controller manages itself, never copied from Deployment to ReplicaSet or
 * back (annotationsToSkip). */
const SKIPPED_ANNOTATIONS = new Set([
    'kubectl.kubernetes.io/last-applied-configuration',
    REVISION_ANNOTATION,
    REVISION_HISTORY_ANNOTATION,
    DESIRED_REPLICAS_ANNOTATION,
    MAX_REPLICAS_ANNOTATION,
    'deprecated.deployment.rollback.to',
]);
/** parseGoInt parses a base-10 integer as strconv.Atoi does (optional sign, digits only);
 * undefined when `text` is not one. */
export function parseGoInt(text) {
    if (text === undefined || !/^[+-]?\d+$/.test(text))
        return undefined;
    return Number(text);
}
/** revisionOf returns an object's revision annotation: 0 when absent, undefined when it is not
 * an integer (such ReplicaSets are skipped when revisions are compared, as in Kubernetes). */
export function revisionOf(object) {
    const value = object.metadata.annotations?.[REVISION_ANNOTATION];
    return value === undefined ? 0 : parseGoInt(value);
}
/** maxRevision is the highest parseable revision among `rss` (0 for none) (MaxRevision). */
export function maxRevision(rss) {
    return rss.reduce((max, rs) => Math.max(max, revisionOf(rs) ?? 0), 0);
}
/** desiredReplicasAnnotation reads the desired-replicas annotation, undefined when absent or
 * not an integer. */
export function desiredReplicasAnnotation(rs) {
    return parseGoInt(rs.metadata.annotations?.[DESIRED_REPLICAS_ANNOTATION]);
}
/** maxReplicasAnnotation reads the max-replicas annotation, undefined when absent or not an
 * integer. */
export function maxReplicasAnnotation(rs) {
    return parseGoInt(rs.metadata.annotations?.[MAX_REPLICAS_ANNOTATION]);
}
/** replicasAnnotationsNeedUpdate reports whether desired/max-replicas differ from the given
 * values (ReplicasAnnotationsNeedUpdate). */
export function replicasAnnotationsNeedUpdate(rs, desired, max) {
    const annotations = rs.metadata.annotations ?? {};
    return annotations[DESIRED_REPLICAS_ANNOTATION] !== String(desired) || annotations[MAX_REPLICAS_ANNOTATION] !== String(max);
}
/** setReplicasAnnotations writes desired/max-replicas onto `rs` (mutated); true when they
 * changed (SetReplicasAnnotations). */
export function setReplicasAnnotations(rs, desired, max) {
    const changed = replicasAnnotationsNeedUpdate(rs, desired, max);
    const annotations = (rs.metadata.annotations ??= {});
    annotations[DESIRED_REPLICAS_ANNOTATION] = String(desired);
    annotations[MAX_REPLICAS_ANNOTATION] = String(max);
    return changed;
}
/** copyDeploymentAnnotations copies the Deployment's annotations, except those the controller
 * manages, onto `rs` (mutated); true when one changed. kubernetes.io/change-cause travels
 * this way. */
export function copyDeploymentAnnotations(deployment, rs) {
    const annotations = (rs.metadata.annotations ??= {});
    let changed = false;
    for (const [key, value] of Object.entries(deployment.metadata.annotations ?? {})) {
        if (SKIPPED_ANNOTATIONS.has(key) || annotations[key] === value)
            continue;
        annotations[key] = value;
        changed = true;
    }
    return changed;
}
/** appendRevisionHistory records `oldRevision` in the revision-history annotation, dropping
 * the oldest entries to stay within `limitChars` (the history part of SetNewReplicaSetAnnotations). */
function appendRevisionHistory(annotations, oldRevision, limitChars) {
    const history = annotations[REVISION_HISTORY_ANNOTATION] ?? '';
    if (history === '') {
        annotations[REVISION_HISTORY_ANNOTATION] = oldRevision;
        return;
    }
    const entries = history.split(',');
    let length = history.length + oldRevision.length + 1;
    let start = 0;
    while (length > limitChars && start < entries.length)
        length -= (entries[start++] ?? '').length + 1;
    if (length <= limitChars)
        annotations[REVISION_HISTORY_ANNOTATION] = [...entries.slice(start), oldRevision].join(',');
}
/**
 * setNewReplicaSetAnnotations brings the new ReplicaSet's annotations up to date
 * (SetNewReplicaSetAnnotations): copies the Deployment's, raises the revision to
 * `newRevision` when it is lower (keeping the old one in revision-history, which is what
 * makes `rollout undo` visible), and for a ReplicaSet being created sets desired/max-replicas.
 * Mutates `rs`; true when anything changed. A revision annotation that is not an integer is
 * left alone and reports no change, as Kubernetes does.
 */
export function setNewReplicaSetAnnotations(deployment, rs, options) {
    let changed = copyDeploymentAnnotations(deployment, rs);
    const annotations = (rs.metadata.annotations ??= {});
    const oldRevision = annotations[REVISION_ANNOTATION];
    const oldRevisionNumber = oldRevision === undefined || oldRevision === '' ? 0 : parseGoInt(oldRevision);
    if (oldRevisionNumber === undefined)
        return false;
    if (oldRevisionNumber < options.newRevision) {
        annotations[REVISION_ANNOTATION] = String(options.newRevision);
        if (oldRevision !== undefined)
            appendRevisionHistory(annotations, oldRevision, options.historyLimitChars ?? MAX_REVISION_HISTORY_CHARS);
        changed = true;
    }
    const replicas = desiredReplicas(deployment);
    if (!options.exists && setReplicasAnnotations(rs, replicas, replicas + options.maxSurge))
        changed = true;
    return changed;
}
/** setDeploymentRevision sets the Deployment's revision annotation (mutated); true when it
 * changed (SetDeploymentRevision). */
export function setDeploymentRevision(deployment, revision) {
    const annotations = (deployment.metadata.annotations ??= {});
    if (annotations[REVISION_ANNOTATION] === revision)
        return false;
    annotations[REVISION_ANNOTATION] = revision;
    return true;
}
/** byRevision orders ReplicaSets by revision, oldest first, falling back to creation order when
 * a revision is missing, unparseable or tied (ReplicaSetsByRevision). */
export function byRevision(a, b) {
    const left = revisionOf(a);
    const right = revisionOf(b);
    if (left === undefined || right === undefined || left === right)
        return byCreationTimestamp(a, b);
    return left - right;
}
/** NO_HISTORY_LIMIT is math.MaxInt32: a revisionHistoryLimit that keeps every revision. */
const NO_HISTORY_LIMIT = 2_147_483_647;
/**
 * historyToDelete picks the old ReplicaSets cleanupDeployment deletes: beyond the newest
 * revisionHistoryLimit of those not already being deleted, the oldest by revision, but only
 * those fully scaled down (spec and status replicas 0) whose controller has observed their
 * latest generation. Empty when the limit is unset or "unlimited".
 */
export function historyToDelete(deployment, oldRSs) {
    const limit = deployment.spec.revisionHistoryLimit;
    if (limit === undefined || limit === NO_HISTORY_LIMIT)
        return [];
    const cleanable = oldRSs.filter((rs) => rs.metadata.deletionTimestamp === undefined);
    const excess = cleanable.length - limit;
    if (excess <= 0)
        return [];
    return [...cleanable]
        .sort(byRevision)
        .slice(0, excess)
        .filter((rs) => isFullyScaledDown(rs));
}
function isFullyScaledDown(rs) {
    const observed = rs.status?.observedGeneration ?? 0;
    return (rs.status?.replicas ?? 0) === 0 && (rs.spec.replicas ?? 0) === 0 && (rs.metadata.generation ?? 0) <= observed;
}
//# sourceMappingURL=revision.js.map