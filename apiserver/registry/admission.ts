/**
 * Namespace lifecycle admission, as kube-apiserver's NamespaceLifecycle plugin: objects can
 * only be created in a namespace that exists and is not being terminated.
 */

import type { StoredObject } from '../../store/index.js';
import { forbidden, notFound } from '../api/api-error.js';
import type { ResourceDefinition } from '../api/resource-definition.js';
import type { RegistryContext } from './context.js';

/** admitCreate throws 404 when the namespace is missing and 403 when it is terminating. */
export function admitCreate(ctx: RegistryContext, def: ResourceDefinition, namespace: string, name: string): void {
  if (!def.namespaced) return;
  let ns: StoredObject;
  try {
    ns = ctx.store.get({ resource: 'namespaces', namespace: '', name: namespace });
  } catch {
    throw notFound({ group: '', resource: 'namespaces', name: namespace });
  }
  if ((ns.metadata as { deletionTimestamp?: string }).deletionTimestamp) {
    throw forbidden(`${qualified(def)} "${name}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`, {
      kind: def.plural,
      group: def.group,
      causes: [{ reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }],
    });
  }
}

function qualified(def: ResourceDefinition): string {
  return def.group ? `${def.plural}.${def.group}` : def.plural;
}
