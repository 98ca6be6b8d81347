/** Deleting a Namespace moves it to Terminating; it is removed only when the namespace
 * controller has emptied it and cleared spec.finalizers (through /finalize). */
import type { KubeObject } from '../../api/resource-definition.js';
import type { KindStrategy } from '../strategy.js';

interface NamespaceShape {
  spec?: { finalizers?: string[] };
  status?: { phase?: string };
}

export const namespaceStrategy: KindStrategy = {
  returnDeletedObject: true,
  canBeRemoved(namespace: KubeObject): boolean {
    return ((namespace as NamespaceShape).spec?.finalizers ?? []).length === 0;
  },
  onMarkedForDeletion(namespace: KubeObject): void {
    const ns = namespace as KubeObject & NamespaceShape;
    ns.status = { ...ns.status, phase: 'Terminating' };
  },
};
