/** PATCH_CONTENT_TYPES maps each patch type to the Content-Type the server dispatches on. */
export const PATCH_CONTENT_TYPES = {
    json: 'application/json-patch+json',
    merge: 'application/merge-patch+json',
    strategic: 'application/strategic-merge-patch+json',
    apply: 'application/apply-patch+yaml',
};
/** collectionPath is the list/create/watch path; `namespace` is ignored for cluster-scoped
 * kinds, and undefined (all namespaces) drops the namespace segment. */
export function collectionPath(def, namespace) {
    const base = def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
    const scope = def.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
    return `${base}${scope}/${def.plural}`;
}
/** objectPath is the path of one object, or of its subresource. */
export function objectPath(def, namespace, name, subresource) {
    const path = `${collectionPath(def, namespace)}/${encodeURIComponent(name)}`;
    return subresource ? `${path}/${subresource}` : path;
}
/** listQuery renders ListOptions (minus namespace, which is in the path). */
export function listQuery(options) {
    return {
        labelSelector: options.labelSelector || undefined,
        fieldSelector: options.fieldSelector || undefined,
        limit: options.limit,
        continue: options.continue || undefined,
        resourceVersion: options.resourceVersion || undefined,
        resourceVersionMatch: options.resourceVersion ? options.resourceVersionMatch : undefined,
    };
}
/** watchQuery renders WatchOptions plus `watch=true`. */
export function watchQuery(options) {
    return {
        watch: true,
        labelSelector: options.labelSelector || undefined,
        fieldSelector: options.fieldSelector || undefined,
        resourceVersion: options.resourceVersion || undefined,
        allowWatchBookmarks: options.allowWatchBookmarks || undefined,
        timeoutSeconds: options.timeoutSeconds,
        sendInitialEvents: options.sendInitialEvents,
    };
}
/** writeQuery renders fieldManager and dryRun (`All`, the only value Kubernetes accepts). */
export function writeQuery(options, defaultFieldManager) {
    return { fieldManager: options?.fieldManager ?? defaultFieldManager, dryRun: options?.dryRun ? 'All' : undefined };
}
/** deleteBody renders DeleteOptions as the body kubectl sends. */
export function deleteBody(options) {
    if (!options)
        return undefined;
    return JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', ...options });
}
//# sourceMappingURL=resource-path.js.map