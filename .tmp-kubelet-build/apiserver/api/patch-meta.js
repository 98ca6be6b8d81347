/**
 * Patch strategy declarations, attached to zod schemas with `.meta()` so that one source
 * (the schema) feeds strategic merge patch, server-side apply and the OpenAPI documents
 * (which carry them as the same `x-kubernetes-*` extensions Kubernetes publishes).
 *
 * Kubernetes declares these with struct tags (`patchStrategy:"merge" patchMergeKey:"name"`);
 * the JSON-schema spelling is what `kubectl apply` reads from OpenAPI v3.
 */
/** A list of objects merged by the value of `key` (containers by name, ports by containerPort). */
export function mergeByKey(key) {
    return {
        'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-patch-merge-key': key,
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': [key],
    };
}
/** A list of scalars merged as a set (finalizers). */
export const mergeScalars = {
    'x-kubernetes-patch-strategy': 'merge',
    'x-kubernetes-list-type': 'set',
};
/** A map or struct whose patch may carry `$retainKeys` (e.g. Deployment.spec.strategy,
 * volume sources): keys not listed are cleared. */
export const retainKeys = { 'x-kubernetes-patch-strategy': 'retainKeys' };
/** A list of objects merged by key whose patch may also carry `$retainKeys` in its items. */
export function mergeByKeyRetainKeys(key) {
    return { ...mergeByKey(key), 'x-kubernetes-patch-strategy': 'merge,retainKeys' };
}
//# sourceMappingURL=patch-meta.js.map