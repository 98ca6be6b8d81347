/**
 * The ResourceQuota controller (kube-controller-manager's resourcequota): keeps each quota's
 * `status.hard` equal to `spec.hard` and `status.used` equal to what its namespace uses
 * (apiserver/api/core/quota-usage.ts, shared with quota admission). As in Kubernetes, creates
 * are charged by the API server's admission, so only what can release usage (an update, a
 * delete) of a counted object triggers a recount, as do a new quota, a changed spec and every
 * resync. Writes only when the status differs.
 */
import { computeUsage, type NamespaceObjects } from '../../apiserver/api/core/quota-usage.js';

import type { ResourceQuota } from '../../apiserver/api/core/resource-quota.js';
import { deepEqual } from '../../apiserver/api/deep-equal.js';
import { type AnyKindRef, type KubeObject, qualifiedResource } from '../../apiserver/api/resource-definition.js';
import { type BuildContext, newControllerManagedBy } from '../runtime/builder.js';
import type { Controller } from '../runtime/controller.js';
import { KINDS } from '../runtime/kinds.js';
import type { Manager } from '../runtime/manager.js';
import { keyOf } from '../runtime/reconciler.js';
import type { Clock, DeepReadonly, Lister, Reconciler, ResourceClient } from '../runtime/types.js';

/** RESOURCEQUOTA_CONTROLLER_NAME names the controller in logs and counters. */
export const RESOURCEQUOTA_CONTROLLER_NAME = 'resourcequota';

/** TRACKED are the kinds whose objects a quota counts (by name or as `count/<resource>`). */
const TRACKED: AnyKindRef[] = [
  KINDS.pod,
  KINDS.service,
  KINDS.secret,
  KINDS.configMap,
  KINDS.persistentVolumeClaim,
  KINDS.replicationController,
  KINDS.resourceQuota,
  KINDS.deployment,
  KINDS.replicaSet,
  KINDS.statefulSet,
  KINDS.daemonSet,
  KINDS.job,
  KINDS.cronJob,
];

/** ResourceQuotaReconcilerDeps are the reconciler's collaborators. */
export interface ResourceQuotaReconcilerDeps {
  quotaLister: Lister<ResourceQuota>;
  /** The namespace's objects of every tracked kind, by group-qualified resource (`deployments.apps`). */
  objectsIn(namespace: string): NamespaceObjects;
  quotas: Pick<ResourceClient<ResourceQuota>, 'updateStatus'>;
  clock: Clock;
}

/** createResourceQuotaReconciler returns the Reconciler that writes a quota's hard and used. */
export function createResourceQuotaReconciler(deps: ResourceQuotaReconcilerDeps): Reconciler {
  return {
    reconcile: async (request) => {
      const quota = deps.quotaLister.get(request.namespace, request.name);
      if (quota === undefined || quota.metadata.deletionTimestamp !== undefined) return {};
      const status = {
        hard: { ...(quota.spec?.hard ?? {}) },
        used: computeUsage({ quota, objects: deps.objectsIn(request.namespace), nowMs: deps.clock.now() }),
      };
      if (deepEqual(quota.status ?? {}, status)) return {};
      // NOTE: `quota` is the informer's shared object; write a copy. A 409 (stale cache) is retried by the queue.
      await deps.quotas.updateStatus({ ...(structuredClone(quota) as ResourceQuota), status });
      return {};
    },
  };
}

/** registerResourceQuotaController adds the controller to `manager`: a quota wakes itself
 * when added, when its spec changes and on resyncs (not when admission charges its status);
 * an update or delete of a tracked object wakes every quota of its namespace. */
export function registerResourceQuotaController(manager: Manager, { workers = 5 }: { workers?: number } = {}): Controller {
  const quotaLister = manager.informer(KINDS.resourceQuota).lister;
  const quotasOfNamespace = (object: DeepReadonly<KubeObject>) => quotaLister.list(object.metadata.namespace ?? '').map(keyOf);
  let builder = newControllerManagedBy(manager)
    .named(RESOURCEQUOTA_CONTROLLER_NAME)
    .for(KINDS.resourceQuota, { predicates: { update: (old, cur) => isResync(old, cur) || !deepEqual(old.spec, cur.spec) } });
  // A recount on an add could read a quota already charged for an object the cache has not
  // shown yet, and undo the charge: adds are admission's to count. For the same reason a
  // quota's own updates (admission's charges among them) do not recount its neighbours.
  for (const definition of TRACKED) {
    const predicates = definition === KINDS.resourceQuota ? { add: () => false, update: () => false } : { add: () => false };
    builder = builder.watches(definition, quotasOfNamespace, { predicates });
  }
  return builder.workers(workers).complete((context) =>
    createResourceQuotaReconciler({
      quotaLister,
      objectsIn: (namespace) => objectsIn(context, namespace),
      quotas: manager.client.resource(KINDS.resourceQuota),
      clock: manager.clock,
    }),
  );
}

const isResync = (old: DeepReadonly<KubeObject>, cur: DeepReadonly<KubeObject>) => old.metadata.resourceVersion === cur.metadata.resourceVersion;

function objectsIn(context: BuildContext, namespace: string): NamespaceObjects {
  return new Map(TRACKED.map((definition) => [qualifiedResource(definition), context.lister(definition).list(namespace)]));
}
