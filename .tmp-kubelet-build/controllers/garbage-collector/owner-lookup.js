/**
 * Owner lookup: what is known about the owner one ownerReference points at. The monitors'
 * caches may say "present"; only the API server may say "absent".
 */
import { isNotFound } from '../../apiserver/api/api-error.js';
import { groupOfApiVersion, isWaitingForDependents } from './decisions.js';
/**
 * lookupOwner finds the state of the owner `reference` names, for a dependent in `namespace`
 * ('' for cluster-scoped dependents):
 * - an owner kind discovery does not list is `unresolvable` (never treated as absent);
 * - a namespaced owner of a cluster-scoped dependent is `absent`, as Kubernetes decides (such
 *   a reference can never be satisfied);
 * - a cache hit on the reference's uid is `present` or `waiting`;
 * - otherwise a live GET decides: 404, or an object with another uid (a newcomer that reused
 *   the name), is `absent`.
 * Rejects with the API error of a GET that failed otherwise (the reconcile retries).
 */
export async function lookupOwner(deps, namespace, reference) {
    const resource = deps.monitors.resourceForKind(groupOfApiVersion(reference.apiVersion), reference.kind);
    if (!resource)
        return 'unresolvable';
    if (resource.namespaced && !namespace)
        return 'absent';
    const cached = deps.monitors.findOfKind(resource, reference.uid);
    if (cached)
        return stateOf(cached);
    // NOTE: a cache miss proves nothing. The owner's informer may simply not have seen it yet
    // (a Pod created right after its ReplicaSet, or an owner of a kind we do not watch);
    // deleting on a miss would kill freshly created dependents. Ask the server.
    return liveState(deps.client.resource(resource), resource.namespaced ? namespace : '', reference);
}
async function liveState(client, namespace, reference) {
    try {
        const live = await client.get(namespace, reference.name);
        // The uid check is what tells a replaced owner from the one the reference meant.
        return live.metadata.uid === reference.uid ? stateOf(live) : 'absent';
    }
    catch (err) {
        if (isNotFound(err))
            return 'absent';
        throw err;
    }
}
function stateOf(owner) {
    return isWaitingForDependents(owner) ? 'waiting' : 'present';
}
//# sourceMappingURL=owner-lookup.js.map