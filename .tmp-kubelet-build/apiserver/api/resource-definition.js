export const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
/** apiVersionOf returns `group/version`, or just `version` for the core group. */
export function apiVersionOf(def) {
    return def.group ? `${def.group}/${def.version}` : def.version;
}
/** qualifiedResource is how Kubernetes names a resource in messages: `deployments.apps`, `pods`. */
export function qualifiedResource(def) {
    return def.group ? `${def.plural}.${def.group}` : def.plural;
}
//# sourceMappingURL=resource-definition.js.map