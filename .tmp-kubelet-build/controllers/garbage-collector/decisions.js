/** FOREGROUND_FINALIZER marks an owner that waits until its blocking dependents are gone. */
export const FOREGROUND_FINALIZER = 'foregroundDeletion';
/** ORPHAN_FINALIZER marks an owner whose dependents lose their reference to it and stay. */
export const ORPHAN_FINALIZER = 'orphan';
/**
 * DeletionPhase is where an object stands, as the garbage collector sees it:
 * - `live`: not being deleted; collect it if its owners are gone;
 * - `orphan`: deleting with the orphan finalizer: release the dependents, then the finalizer;
 * - `foreground`: deleting with foregroundDeletion: wait for blocking dependents, then the finalizer;
 * - `deleting`: deleting for other reasons (grace period, someone else's finalizer): nothing to do.
 */
export const DeletionPhase = { Live: 'live', Orphan: 'orphan', Foreground: 'foreground', Deleting: 'deleting' };
/** deletionPhase classifies `object` (see DeletionPhase). Orphaning comes first when both
 * finalizers are present, as in Kubernetes, so dependents are released before anything waits. */
export function deletionPhase(object) {
    const { deletionTimestamp, finalizers = [] } = object.metadata;
    if (!deletionTimestamp)
        return DeletionPhase.Live;
    if (finalizers.includes(ORPHAN_FINALIZER))
        return DeletionPhase.Orphan;
    if (finalizers.includes(FOREGROUND_FINALIZER))
        return DeletionPhase.Foreground;
    return DeletionPhase.Deleting;
}
/** isWaitingForDependents: the object is being deleted in the foreground. */
export function isWaitingForDependents(object) {
    return deletionPhase(object) === DeletionPhase.Foreground;
}
/**
 * decideOwnerAction decides a dependent's fate from its owners' states (pure):
 * - with at least one solid owner (present or unresolvable), it stays, and its references to
 *   absent owners and to owners waiting in the foreground are dropped (so those owners can go);
 * - with no solid owner it is deleted: in the foreground when a waiting owner must wait for it
 *   (its reference blocks owner deletion, or it has dependents of its own), else in the background;
 * - `recheck` asks for another look later because an owner's kind could not be resolved.
 * An object without references is kept.
 */
export function decideOwnerAction({ references, states, hasDependents }) {
    const recheck = states.includes('unresolvable');
    const solid = references.filter((_, i) => states[i] === 'present' || states[i] === 'unresolvable');
    const waiting = references.filter((_, i) => states[i] === 'waiting');
    const dangling = references.filter((_, i) => states[i] === 'absent');
    if (references.length === 0)
        return { type: 'keep', recheck: false };
    if (solid.length > 0) {
        const ownerUids = [...dangling, ...waiting].map((reference) => reference.uid);
        return ownerUids.length === 0 ? { type: 'keep', recheck } : { type: 'removeReferences', ownerUids, recheck };
    }
    const mustBlock = waiting.some((reference) => reference.blockOwnerDeletion === true) || (waiting.length > 0 && hasDependents);
    return { type: 'delete', propagationPolicy: mustBlock ? 'Foreground' : 'Background' };
}
/** referencesWithout is `references` minus those to `ownerUids` (pure; a fresh array). */
export function referencesWithout(references, ownerUids) {
    return references.filter((reference) => !ownerUids.includes(reference.uid)).map((reference) => structuredClone(reference));
}
/** isBlockingReference: `reference` points at `ownerUid` and blocks that owner's foreground deletion. */
export function isBlockingReference(reference, ownerUid) {
    return reference.uid === ownerUid && reference.blockOwnerDeletion === true;
}
/** groupOfApiVersion is the API group of `apiVersion` (`apps/v1` → `apps`, `v1` → ''). */
export function groupOfApiVersion(apiVersion) {
    const slash = apiVersion.indexOf('/');
    return slash < 0 ? '' : apiVersion.slice(0, slash);
}
//# sourceMappingURL=decisions.js.map