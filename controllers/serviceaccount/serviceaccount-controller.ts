/**
 * The service-account controller (kube-controller-manager's serviceaccount controller):
 * every active namespace has a `default` ServiceAccount, created when the namespace appears
 * and again whenever it is deleted. Terminating namespaces are left alone (the API server
 * refuses new objects in them anyway).
 */
import { isAlreadyExists } from '../../apiserver/api/api-error.js';
import { type Namespace, namespaceDefinition } from '../../apiserver/api/core/namespace.js';
import { type ServiceAccount, serviceAccountDefinition } from '../../apiserver/api/core/service-account.js';
import { newControllerManagedBy } from '../runtime/builder.js';
import type { Controller } from '../runtime/controller.js';
import type { Manager } from '../runtime/manager.js';
import { isActiveNamespace, isRefusedByTerminatingNamespace } from '../runtime/namespaces.js';
import { requestKey } from '../runtime/reconciler.js';
import type { DeepReadonly, Lister, Reconciler, ResourceClient } from '../runtime/types.js';

/** SERVICEACCOUNT_CONTROLLER_NAME names the controller in logs and counters. */
export const SERVICEACCOUNT_CONTROLLER_NAME = 'serviceaccount';
/** The ServiceAccounts every namespace gets (kube-controller-manager's default list). */
export const DEFAULT_SERVICE_ACCOUNTS = ['default'];

export interface ServiceAccountReconcilerDeps {
  namespaceLister: Lister<Namespace>;
  accountLister: Lister<ServiceAccount>;
  accounts: Pick<ResourceClient<ServiceAccount>, 'create'>;
}

/** createServiceAccountReconciler returns the Reconciler of one namespace (keyed by its name). */
export function createServiceAccountReconciler(deps: ServiceAccountReconcilerDeps): Reconciler {
  return {
    reconcile: async ({ name: namespace }) => {
      if (!isActiveNamespace(deps.namespaceLister.get('', namespace))) return {};
      for (const name of DEFAULT_SERVICE_ACCOUNTS) {
        if (deps.accountLister.get(namespace, name)) continue;
        try {
          await deps.accounts.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } });
        } catch (err) {
          if (!isAlreadyExists(err) && !isRefusedByTerminatingNamespace(err)) throw err;
        }
      }
      return {};
    },
  };
}

/** registerServiceAccountController: namespaces wake themselves; a deleted default
 * ServiceAccount wakes its namespace. */
export function registerServiceAccountController(manager: Manager, { workers = 1 }: { workers?: number } = {}): Controller {
  const namespaceLister = manager.informer(namespaceDefinition).lister;
  const accountLister = manager.informer(serviceAccountDefinition).lister;
  const namespaceOf = (account: DeepReadonly<ServiceAccount>) => [requestKey({ namespace: '', name: account.metadata.namespace ?? '' })];
  return newControllerManagedBy(manager)
    .named(SERVICEACCOUNT_CONTROLLER_NAME)
    .for(namespaceDefinition)
    .watches(serviceAccountDefinition, namespaceOf, {
      predicates: { add: () => false, update: () => false, delete: (account) => DEFAULT_SERVICE_ACCOUNTS.includes(account.metadata.name ?? '') },
    })
    .workers(workers)
    .complete(() => createServiceAccountReconciler({ namespaceLister, accountLister, accounts: manager.client.resource(serviceAccountDefinition) }));
}
