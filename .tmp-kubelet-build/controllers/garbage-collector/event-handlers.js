import { deepEqual } from '../../apiserver/api/deep-equal.js';
import { deletionPhase, DeletionPhase, isWaitingForDependents } from './decisions.js';
import { gcKey } from './keys.js';
/**
 * garbageCollectorHandlers returns the handlers every monitor shares:
 * - an object that has owners, or is being deleted, is enqueued on every add and update
 *   (resyncs included), so a missed event is repaired by the next one;
 * - when an object starts being deleted (or its deletion phase changes), or disappears, its
 *   dependents are enqueued — they may now be garbage or need releasing — and so is it;
 * - when a dependent disappears or its references change, owners of it that wait in the
 *   foreground are enqueued: it may have been the last thing they waited for;
 * - a name reused by a newcomer (uid changed) counts as the old object's disappearance.
 */
export function garbageCollectorHandlers(deps) {
    return {
        onAdd: (object) => objectAdded(deps, object),
        onUpdate: (old, cur) => {
            if (old.metadata.uid !== cur.metadata.uid) {
                objectGone(deps, old);
                return objectAdded(deps, cur);
            }
            if (hasOwners(cur) || isDeleting(cur))
                enqueue(deps, cur);
            const isResync = old === cur;
            if (isDeleting(cur) && (isResync || deletionPhase(old) !== deletionPhase(cur)))
                enqueueDependents(deps, cur);
            if (isResync || isDeleting(cur) || !deepEqual(old.metadata.ownerReferences, cur.metadata.ownerReferences)) {
                enqueueWaitingOwners(deps, [...(old.metadata.ownerReferences ?? []), ...(cur.metadata.ownerReferences ?? [])]);
            }
        },
        onDelete: (object) => objectGone(deps, object),
    };
}
function objectAdded(deps, object) {
    if (hasOwners(object) || isDeleting(object))
        enqueue(deps, object);
    if (isDeleting(object))
        enqueueDependents(deps, object);
}
function objectGone(deps, object) {
    enqueue(deps, object);
    enqueueDependents(deps, object);
    enqueueWaitingOwners(deps, object.metadata.ownerReferences ?? []);
}
function enqueue(deps, object) {
    if (object.metadata.uid)
        deps.queue.add(gcKey(object.metadata.uid));
}
function enqueueDependents(deps, owner) {
    if (!owner.metadata.uid)
        return;
    for (const dependent of deps.monitors.dependentsOf(owner.metadata.uid))
        enqueue(deps, dependent.object);
}
/** enqueueWaitingOwners enqueues the referenced owners that are deleting in the foreground. */
function enqueueWaitingOwners(deps, references) {
    for (const { uid } of references) {
        const owner = deps.monitors.find(uid);
        if (owner && isWaitingForDependents(owner.object))
            deps.queue.add(gcKey(uid));
    }
}
function hasOwners(object) {
    return (object.metadata.ownerReferences ?? []).length > 0;
}
function isDeleting(object) {
    return deletionPhase(object) !== DeletionPhase.Live;
}
//# sourceMappingURL=event-handlers.js.map