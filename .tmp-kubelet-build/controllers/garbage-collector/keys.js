/**
 * The garbage collector's work-queue keys. It works on object identities, not names: an
 * owner and its dependents may be of any kind, and a name can be reused by a newcomer that
 * must never inherit the verdict on its predecessor. So a key is the object's uid (as the
 * nodes of Kubernetes' dependency graph are), carried as the name of a cluster-scope Request.
 */
import { parseKey, requestKey } from '../runtime/reconciler.js';
/** gcKey is the work-queue key of the object with `uid`. Throws on an empty uid (only
 * persisted objects, which always have one, are queued). */
export function gcKey(uid) {
    if (!uid)
        throw new Error('gcKey: object has no metadata.uid');
    return requestKey({ namespace: '', name: uid });
}
/** gcKeyOf is the work-queue key of `object` (see gcKey). */
export function gcKeyOf(object) {
    return gcKey(object.metadata.uid ?? '');
}
/** uidOfRequest reads back the uid a key made by gcKey carries. */
export function uidOfRequest(request) {
    return request.name;
}
/** uidOfKey reads back the uid of a key made by gcKey (for tests and logs). */
export function uidOfKey(key) {
    return uidOfRequest(parseKey(key));
}
//# sourceMappingURL=keys.js.map