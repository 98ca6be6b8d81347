/**
 * Namespace lifecycle admission, as kube-apiserver's NamespaceLifecycle plugin: objects can
 * only be created in a namespace that exists and is not being terminated.
 */
import { forbidden, notFound } from '../api/api-error.js';
/** admitCreate throws 404 when the namespace is missing and 403 when it is terminating. */
export function admitCreate(ctx, def, namespace, name) {
    if (!def.namespaced)
        return;
    let ns;
    try {
        ns = ctx.store.get({ resource: 'namespaces', namespace: '', name: namespace });
    }
    catch {
        throw notFound({ group: '', resource: 'namespaces', name: namespace });
    }
    if (ns.metadata.deletionTimestamp) {
        throw forbidden(`${qualified(def)} "${name}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`, {
            kind: def.plural,
            group: def.group,
            causes: [{ reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }],
        });
    }
}
function qualified(def) {
    return def.group ? `${def.plural}.${def.group}` : def.plural;
}
//# sourceMappingURL=admission.js.map