/**
 * NamespaceLifecycle, as kube-apiserver's plugin: objects can only be created in a namespace
 * that exists and is not being terminated; the namespaces the cluster needs (default,
 * kube-system, kube-public) cannot be deleted.
 */
import { forbidden, notFound } from '../../api/api-error.js';
import { qualifiedResource } from '../../api/resource-definition.js';
import { namespaceOf } from '../chain.js';
import type { AdmissionPlugin } from '../plugin.js';

/** IMMORTAL_NAMESPACES are kube-apiserver's immortalNamespaces. */
const IMMORTAL_NAMESPACES = new Set(['default', 'kube-system', 'kube-public']);

export const namespaceLifecycle: AdmissionPlugin = {
  name: 'NamespaceLifecycle',
  handles: (operation, def) => (operation === 'CREATE' && def.namespaced) || (operation === 'DELETE' && def.storage.resource === 'namespaces'),
  admit(ctx, attributes) {
    const { operation, def, namespace, name } = attributes;
    if (operation === 'DELETE') {
      if (IMMORTAL_NAMESPACES.has(name)) throw forbidden(`namespaces "${name}" is forbidden: this namespace may not be deleted`, { kind: 'namespaces', name });
      return;
    }
    const ns = namespaceOf(ctx, attributes);
    if (ns === undefined) throw notFound({ group: '', resource: 'namespaces', name: namespace });
    if (ns.metadata.deletionTimestamp) {
      throw forbidden(
        `${qualifiedResource(def)} "${name}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`,
        {
          kind: def.plural,
          group: def.group,
          causes: [{ reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }],
        },
      );
    }
  },
};
