/**
 * deleteObject: kube-apiserver's delete flow. Preconditions, then either remove the object
 * at once, or mark it (deletionTimestamp) when finalizers, a propagation policy or a
 * graceful kind (Pods) say it must wait; the update that clears the last finalizer removes it.
 */
import { isConflict } from '../../store/index.js';
import { runPolicyAdmission } from '../admission/policy/interim-wiring.js';
import { conflict } from '../api/api-error.js';
import { deepEqual } from '../api/deep-equal.js';
import { rfc3339 } from '../api/machinery/time.js';
import type { DeleteRequest, KubeObject } from '../api/resource-definition.js';
import { asKube, objectRef, type RegistryContext, readStored, resourceName, strategyOf, type Target } from './context.js';
import { toServed } from './object-codec.js';
import { shouldRemove } from './update.js';

export const FOREGROUND_FINALIZER = 'foregroundDeletion';
export const ORPHAN_FINALIZER = 'orphan';

export interface DeleteOutcome {
  /** The object as it is now: still present (marked for deletion) or as it was removed. */
  object: KubeObject;
  removed: boolean;
}

/** deleteObject deletes or marks `target`. Throws ApiError 404, or 409 on a failed precondition. */
export function deleteObject(ctx: RegistryContext, target: Target, request: DeleteRequest): DeleteOutcome {
  const stored = readStored(ctx, target);
  checkPreconditions(target, stored, request);
  // interim VAP wiring (replaced by the admission chain)
  const admission = { def: target.def, subresource: '', namespace: target.namespace, name: target.name, oldObject: toServed(target.def, stored) };
  runPolicyAdmission(ctx, { operation: 'DELETE', ...admission, dryRun: request.dryRun === true });
  const strategy = strategyOf(ctx, target.def);
  const next = structuredClone(stored);
  applyPropagationFinalizers(next, request.propagationPolicy);
  const grace = strategy.gracePeriodSeconds?.(next, request);
  markForDeletion(next, grace, ctx.now(), strategy.onMarkedForDeletion);
  if (shouldRemove(ctx, target, next)) return { object: toServed(target.def, request.dryRun ? next : remove(ctx, target, stored)), removed: true };
  if (request.dryRun || deepEqual(next, stored)) return { object: toServed(target.def, next), removed: false };
  const updated = asKube(ctx.store.update(objectRef(target), next, { expectedRevision: Number(stored.metadata.resourceVersion), actor: ctx.actor }));
  return { object: toServed(target.def, updated), removed: false };
}

function checkPreconditions(target: Target, stored: KubeObject, request: DeleteRequest): void {
  const { uid, resourceVersion } = request.preconditions ?? {};
  if (uid && uid !== stored.metadata.uid) {
    throw conflict(resourceName(target), `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${stored.metadata.uid}`);
  }
  if (resourceVersion && resourceVersion !== stored.metadata.resourceVersion) {
    throw conflict(
      resourceName(target),
      `Precondition failed: ResourceVersion in precondition: ${resourceVersion}, ResourceVersion in object meta: ${stored.metadata.resourceVersion}`,
    );
  }
}

/** applyPropagationFinalizers turns an explicit propagation policy into the finalizer the
 * garbage collector acts on; without one, existing finalizers decide (Background). */
function applyPropagationFinalizers(object: KubeObject, policy: DeleteRequest['propagationPolicy']): void {
  if (!policy) return;
  const others = (object.metadata.finalizers ?? []).filter((f) => f !== FOREGROUND_FINALIZER && f !== ORPHAN_FINALIZER);
  const added = policy === 'Foreground' ? [FOREGROUND_FINALIZER] : policy === 'Orphan' ? [ORPHAN_FINALIZER] : [];
  const finalizers = [...others, ...added];
  if (finalizers.length > 0) object.metadata.finalizers = finalizers;
  else delete object.metadata.finalizers;
}

function markForDeletion(object: KubeObject, grace: number | undefined, nowMs: number, onMarked?: (o: KubeObject) => void): void {
  const meta = object.metadata;
  if (!meta.deletionTimestamp) {
    meta.deletionTimestamp = rfc3339(nowMs + (grace ?? 0) * 1000);
    meta.deletionGracePeriodSeconds = grace ?? 0;
    onMarked?.(object);
    return;
  }
  // A second delete may only shorten a running grace period (kubectl delete --grace-period=0 --force).
  const remaining = meta.deletionGracePeriodSeconds ?? 0;
  const requested = grace ?? 0;
  if (requested < remaining) {
    meta.deletionGracePeriodSeconds = requested;
    meta.deletionTimestamp = rfc3339(nowMs + requested * 1000);
  }
}

function remove(ctx: RegistryContext, target: Target, stored: KubeObject): KubeObject {
  try {
    return asKube(ctx.store.delete(objectRef(target), { expectedRevision: Number(stored.metadata.resourceVersion), actor: ctx.actor }));
  } catch (err) {
    if (isConflict(err)) throw conflict(resourceName(target));
    throw err;
  }
}
