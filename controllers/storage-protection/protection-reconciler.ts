/**
 * One protection loop's reconcile (kube's pvc-protection and pv-protection controllers share
 * its shape): an object without the finalizer gets it; a deleted one loses it once it is no
 * longer in use, so its deletion completes; otherwise nothing.
 */
import { isNotFound } from '../../apiserver/api/api-error.js';
import type { KubeObject } from '../../apiserver/api/resource-definition.js';
import type { DeepReadonly, Lister, Reconciler, ResourceClient, Result } from '../runtime/types.js';

export interface ProtectionDeps<T extends KubeObject> {
  finalizer: string;
  lister: Lister<T>;
  client: Pick<ResourceClient<T>, 'update'>;
  /** Whether something still uses the object (a pod mounts the claim, a claim holds the volume). */
  inUse(object: DeepReadonly<T>): boolean;
}

export function createProtectionReconciler<T extends KubeObject>(deps: ProtectionDeps<T>): Reconciler {
  return {
    reconcile: async ({ namespace, name }) => {
      const object = deps.lister.get(namespace, name);
      if (object === undefined) return {};
      const finalizers = object.metadata.finalizers ?? [];
      const has = finalizers.includes(deps.finalizer);
      const deleting = object.metadata.deletionTimestamp !== undefined;
      if (!deleting && !has) return write(deps, object, [...finalizers, deps.finalizer]);
      if (deleting && has && !deps.inUse(object))
        return write(
          deps,
          object,
          finalizers.filter((f) => f !== deps.finalizer),
        );
      return {};
    },
  };
}

async function write<T extends KubeObject>(deps: ProtectionDeps<T>, object: DeepReadonly<T>, finalizers: string[]): Promise<Result> {
  const copy = structuredClone(object) as T;
  copy.metadata.finalizers = finalizers;
  try {
    await deps.client.update(copy);
  } catch (err) {
    // Gone already; a conflict is retried with a fresher cache (the error requeues).
    if (!isNotFound(err)) throw err;
  }
  return {};
}
