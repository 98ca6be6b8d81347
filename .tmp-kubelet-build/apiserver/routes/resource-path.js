/**
 * Resolves a request path under /api/v1 or /apis/{group}/{version} against the live
 * registry: collection or object, namespace, subresource, and the legacy /watch/ prefix.
 * Resolution happens per request, so kinds added at run time are routable at once.
 */
import { pathNotFound } from '../api/api-error.js';
/** resolveResourcePath maps path segments (after the group/version) to a served resource, or
 * throws the 404 Kubernetes returns for unknown paths. Returns undefined for the bare
 * group-version path (its discovery document). */
export function resolveResourcePath(registry, group, version, segments) {
    if (segments.length === 0)
        return undefined;
    const watchPrefix = segments[0] === 'watch';
    const rest = watchPrefix ? segments.slice(1) : segments;
    const namespaced = rest[0] === 'namespaces' && rest.length >= 3 ? registry.find(group, version, rest[2]) : undefined;
    const path = namespaced?.namespaced
        ? { def: namespaced, namespace: rest[1], name: rest[3], subresource: rest[4], extra: rest.length > 5 }
        : clusterPath(registry, group, version, rest);
    if (!path || path.extra || (path.name === undefined && path.subresource !== undefined))
        throw pathNotFound();
    if (path.subresource !== undefined && !hasSubresource(path.def, path.subresource))
        throw pathNotFound();
    return { def: path.def, namespace: path.namespace, name: path.name, subresource: path.subresource, watchPrefix };
}
function clusterPath(registry, group, version, rest) {
    const def = registry.find(group, version, rest[0]);
    if (!def)
        return undefined;
    // Namespaced objects are only addressable under namespaces/{ns}/; only their
    // all-namespaces collection lives at the top.
    if (def.namespaced && rest.length > 1)
        return undefined;
    return { def, namespace: '', name: rest[1], subresource: rest[2], extra: rest.length > 3 };
}
function hasSubresource(def, subresource) {
    if (subresource === 'status')
        return def.subresources.status === true;
    if (subresource === 'scale')
        return def.subresources.scale !== undefined;
    return def.subresources.extra?.includes(subresource) ?? false;
}
//# sourceMappingURL=resource-path.js.map