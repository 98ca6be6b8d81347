/**
 * The namespace controller's wiring: a shared Namespace informer whose every add and update
 * enqueues the namespace, and workers running the reconciler (reconcile.ts). Nothing here
 * makes decisions.
 */

import { ignoreDeletes, newControllerManagedBy } from '../runtime/builder.js';
import type { Controller } from '../runtime/controller.js';
import { KINDS } from '../runtime/kinds.js';
import type { Manager } from '../runtime/manager.js';
import { createNamespaceReconciler } from './reconcile.js';

/** NAMESPACE_CONTROLLER_NAME names the controller in logs and counters. */
export const NAMESPACE_CONTROLLER_NAME = 'namespace';

/** NamespaceControllerOptions configures registerNamespaceController; every field has a default. */
export interface NamespaceControllerOptions {
  /** Concurrent reconciles (of different namespaces). Default 10, as kube-controller-manager's --concurrent-namespace-syncs. */
  workers?: number;
  /** Cluster time before a terminating namespace whose content is not gone yet is looked at again. Default 2 s. */
  recheckMs?: number;
  /** Resync period of the Namespace informer, if this registrant creates it. Default 5 min. */
  resyncMs?: number;
}

/**
 * registerNamespaceController adds the namespace controller to `manager` (call before
 * manager.start()). Once running, it keeps live namespaces Active and empties terminating
 * ones: it deletes every namespaced object in them (kinds from discovery, so custom kinds
 * too), reports progress as status conditions, and finally clears the `kubernetes`
 * finalizer through /finalize so the API server removes the namespace. Returns the
 * controller (for its stats).
 */
export function registerNamespaceController(manager: Manager, options: NamespaceControllerOptions = {}): Controller {
  return (
    newControllerManagedBy(manager)
      .named(NAMESPACE_CONTROLLER_NAME)
      // Every update is enqueued (resyncs included): deletion starts with one, and a namespace
      // stuck on remaining content is looked at again even if a requeue was lost.
      .for(KINDS.namespace, { informer: { resyncMs: options.resyncMs ?? 5 * 60_000 }, predicates: ignoreDeletes })
      .workers(options.workers ?? 10)
      .complete(({ lister }) =>
        createNamespaceReconciler({
          namespaceLister: lister(KINDS.namespace),
          client: manager.client,
          clock: manager.clock,
          logger: manager.logger,
          recheckMs: options.recheckMs ?? 2_000,
        }),
      )
  );
}
