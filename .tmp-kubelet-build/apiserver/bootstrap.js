/**
 * bootstrapCluster creates what every cluster has from the start: the namespaces default,
 * kube-system, kube-public and kube-node-lease, and the `kubernetes` Service in default.
 * Idempotent: objects that exist (a reopened data dir) are left alone.
 */
import { isAlreadyExists, isNotFound } from './api/api-error.js';
import { readStored } from './registry/context.js';
import { createObject } from './registry/create.js';
import { decodeObject } from './registry/object-codec.js';
export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
// Checked before creating: a create of an existing object may fail on something other than
// its name first (the `kubernetes` Service's cluster IP is already allocated, 422).
function exists(ctx, def, namespace, name) {
    try {
        readStored(ctx, { def, namespace, name });
        return true;
    }
    catch (err) {
        if (isNotFound(err))
            return false;
        throw err;
    }
}
function ensure(ctx, apiVersion, kind, namespace, body) {
    const def = ctx.registry.findByKind(apiVersion, kind);
    if (!def)
        throw new Error(`bootstrap: ${apiVersion} ${kind} is not served`);
    if (exists(ctx, def, namespace, body.metadata.name))
        return;
    try {
        const object = decodeObject(def, { apiVersion, kind, ...body }, { fieldValidation: 'Strict', warnings: [] });
        createObject(ctx, { def, namespace }, object, { dryRun: false });
    }
    catch (err) {
        if (!isAlreadyExists(err))
            throw err;
    }
}
export function bootstrapCluster(ctx, options) {
    for (const name of SYSTEM_NAMESPACES)
        ensure(ctx, 'v1', 'Namespace', '', { metadata: { name } });
    ensure(ctx, 'v1', 'Service', 'default', {
        metadata: { name: 'kubernetes', labels: { component: 'apiserver', provider: 'kubernetes' } },
        spec: { clusterIP: '10.96.0.1', ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: options.apiPort }] },
    });
}
//# sourceMappingURL=bootstrap.js.map