import { notFound, pathNotFound } from '../api/api-error.js';
export function objectRef(target) {
    return { resource: target.def.storage.resource, namespace: target.def.namespaced ? target.namespace : '', name: target.name };
}
export function resourceName(target) {
    return { group: target.def.group, resource: target.def.plural, kind: target.def.kind, name: target.name };
}
/** storageDefinitionOf returns the served version whose shape is stored for `def`. */
export function storageDefinitionOf(ctx, def) {
    if (!def.storage.toStorage)
        return def;
    const storageDef = ctx.registry.storageDefinition(def.storage.resource);
    if (!storageDef)
        throw pathNotFound();
    return storageDef;
}
/** rfc3339 formats a time as Kubernetes' metav1.Time (UTC, seconds precision). */
export function rfc3339(ms) {
    return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
/** asKube views a stored object as a KubeObject (the store only knows metadata.resourceVersion). */
export function asKube(stored) {
    return stored;
}
/** readStored fetches the stored object or throws a Kubernetes-worded 404. */
export function readStored(ctx, target) {
    try {
        return asKube(ctx.store.get(objectRef(target)));
    }
    catch (err) {
        if (err.code === 'NotFound')
            throw notFound(resourceName(target));
        throw err;
    }
}
//# sourceMappingURL=context.js.map