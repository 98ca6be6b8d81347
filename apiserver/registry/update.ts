/**
 * updateObject: kube-apiserver's GuaranteedUpdate for any kind. Read the current object,
 * let the caller compute the next one (PUT body, patch result, /status or /finalize body),
 * keep what the caller may not change, validate, and write only if something changed — a
 * no-op write keeps its resourceVersion and emits no watch event.
 */

import { isConflict } from '../../store/index.js';
import { admitThen, andThen, type MaybePromise, startAdmission, validateThenWrite } from '../admission/chain.js';
import { ApiError, badRequest, conflict, invalid } from '../api/api-error.js';
import { deepEqual } from '../api/deep-equal.js';
import type { KubeObject, ResourceDefinition } from '../api/resource-definition.js';
import { checkRbacWrite } from '../authz/escalation.js';
import { asKube, objectRef, type RegistryContext, readStored, resourceName, storageDefinitionOf, strategyContext, strategyOf, type Target } from './context.js';
import { carryServerFields, validateMetadata } from './metadata.js';
import { toServed, toStored } from './object-codec.js';
import type { AsyncConversion, WriteOptions } from './write-options.js';

/** UpdateScope says which part of the object a request may write: the main resource
 * (everything but status), /status (only status), /finalize (only spec.finalizers), /approval
 * (only status.conditions, CertificateSigningRequests), or 'server' for the API server's own
 * subresources that write both (pods/binding). */
export type UpdateScope = 'main' | 'status' | 'finalize' | 'approval' | 'ephemeralcontainers' | 'server';

export interface UpdateRequest extends WriteOptions {
  scope: UpdateScope;
  /** Builds the next object (served version, decoded and validated by the schema) from a
   * private copy of the current one. May throw ApiError. */
  computeNext: (current: KubeObject) => KubeObject;
  /** The subresource admission plugins are told of, when it is not the scope's own
   * ('scale', 'binding'); the object they see is the whole object either way. */
  subresource?: string;
  /** Whether the client set no resourceVersion precondition, when the next object cannot tell
   * (a patch is applied to the current object, whose resourceVersion it then carries). */
  unconditional?: boolean;
}

/** UPDATE_ATTEMPTS bounds GuaranteedUpdate's retries of an unconditional update whose
 * object changed while an admission plugin was answering. */
const UPDATE_ATTEMPTS = 100;

/** updateObject applies one update and returns the resulting object in the served version
 * (the current one, unchanged, for a no-op). Throws ApiError 400/404/409/422. Synchronous
 * without `admission` (the server's own writers); with it, a Promise only when an admission
 * plugin answered asynchronously. */
export function updateObject(ctx: RegistryContext, target: Target, request: UpdateRequest & { admission?: undefined }): KubeObject;
export function updateObject(ctx: RegistryContext, target: Target, request: UpdateRequest): MaybePromise<KubeObject>;
export function updateObject(ctx: RegistryContext, target: Target, request: UpdateRequest): MaybePromise<KubeObject> {
  return attemptUpdate(ctx, target, request, 1);
}

function attemptUpdate(ctx: RegistryContext, target: Target, request: UpdateRequest, attempt: number): MaybePromise<KubeObject> {
  const stored = readStored(ctx, target);
  const { conversion } = request;
  if (conversion) return conversion.toServed(stored).then((current) => updateFrom(ctx, target, request, attempt, stored, current));
  return updateFrom(ctx, target, request, attempt, stored, toServed(target.def, stored));
}

/** updateFrom is one attempt from the stored object and its served form `current`. */
function updateFrom(
  ctx: RegistryContext,
  target: Target,
  request: UpdateRequest,
  attempt: number,
  stored: KubeObject,
  current: KubeObject,
): MaybePromise<KubeObject> {
  const { def } = target;
  const proposed = request.computeNext(structuredClone(current));
  checkPreconditions(target, current, proposed);
  // Without a precondition the client asked for "whatever is there now": a conflict after an
  // asynchronous admission step is retried on the new object, as GuaranteedUpdate does.
  const unconditional = request.unconditional ?? !proposed.metadata.resourceVersion;
  const next = scoped(request.scope, current, proposed, def.subresources.status === true);
  carryServerFields(def, current, next);
  // Added ephemeral containers get the container defaults, as the decoded body would.
  if (request.scope === 'main' || request.scope === 'ephemeralcontainers') def.defaults?.(next);
  checkRbacWrite({ authorization: ctx.authorization, user: ctx.user, def, namespace: target.namespace, object: next, old: current });
  // Before the strategy, as in kube-apiserver: values a strategy keeps or assigns are not
  // attributed to the writer. May throw the 409 of a conflicting apply.
  request.fieldTracker?.track(current, next);
  const subresource = request.scope === 'main' || request.scope === 'server' ? undefined : request.scope;
  const admission = startAdmission(ctx, request, {
    operation: 'UPDATE',
    def,
    subresource: request.subresource ?? subresource ?? '',
    namespace: def.namespaced ? target.namespace : '',
    name: target.name,
    object: next,
    oldObject: current,
    dryRun: request.dryRun,
  });
  return admitThen(ctx, admission, () => {
    const admitted = admission?.attributes.object ?? next;
    strategyOf(ctx, def).beforeUpdate?.(admitted, current, strategyContext(ctx), subresource);
    const errors = [...validateMetadata(def, admitted, current), ...(def.validate?.(admitted, current, subresource) ?? [])];
    if (errors.length > 0) throw invalid(resourceName(target), errors);
    return andThen(storedForm(ctx, def, admitted, request.conversion), (nextStored) => {
      nextStored.metadata.resourceVersion = stored.metadata.resourceVersion;
      return validateThenWrite(ctx, admission, () => {
        if (deepEqual(nextStored, stored)) return current;
        if (request.dryRun) return servedForm(def, nextStored, request.conversion);
        try {
          return servedForm(def, writeOrRemove(ctx, target, nextStored, stored), request.conversion);
        } catch (err) {
          const awaited = admission !== undefined || request.conversion !== undefined;
          if (!awaited || !unconditional || !isApiConflict(err) || attempt >= UPDATE_ATTEMPTS) throw err;
          return attemptUpdate(ctx, target, request, attempt + 1);
        }
      });
    });
  });
}

/** storedForm is `served` in the storage version (through `conversion` when given). */
export function storedForm(
  ctx: RegistryContext,
  def: ResourceDefinition,
  served: KubeObject,
  conversion: AsyncConversion | undefined,
): MaybePromise<KubeObject> {
  return conversion ? conversion.toStored(served) : toStored(def, served, storageDefinitionOf(ctx, def));
}

/** servedForm is `stored` in the served version of `def` (through `conversion` when given). */
export function servedForm(def: ResourceDefinition, stored: KubeObject, conversion: AsyncConversion | undefined): MaybePromise<KubeObject> {
  return conversion ? conversion.toServed(stored) : toServed(def, stored);
}

function isApiConflict(err: unknown): boolean {
  return err instanceof ApiError && err.code === 409;
}

function checkPreconditions(target: Target, current: KubeObject, proposed: KubeObject): void {
  const { name, namespace, resourceVersion, uid } = proposed.metadata;
  if (name !== undefined && name !== target.name) {
    throw badRequest(`the name of the object (${name}) does not match the name on the URL (${target.name})`);
  }
  if (target.def.namespaced && namespace !== undefined && namespace !== target.namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  if (resourceVersion && resourceVersion !== current.metadata.resourceVersion) throw conflict(resourceName(target));
  if (uid && uid !== current.metadata.uid) {
    throw conflict(resourceName(target), `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${current.metadata.uid}`);
  }
}

function scoped(scope: UpdateScope, current: KubeObject, proposed: KubeObject, hasStatus: boolean): KubeObject {
  switch (scope) {
    case 'main': {
      if (hasStatus) setOrDelete(proposed, 'status', current['status']);
      return proposed;
    }
    case 'server':
      return proposed;
    case 'status': {
      const next = structuredClone(current);
      setOrDelete(next, 'status', proposed['status']);
      return next;
    }
    case 'approval': {
      const next = structuredClone(current);
      const conditions = (proposed['status'] as { conditions?: unknown } | undefined)?.conditions;
      const { conditions: _old, ...status } = (next['status'] ?? {}) as Record<string, unknown>;
      next['status'] = conditions === undefined ? status : { ...status, conditions };
      return next;
    }
    case 'ephemeralcontainers': {
      const next = structuredClone(current);
      const spec = (next['spec'] ?? {}) as Record<string, unknown>;
      setOrDelete(spec as KubeObject, 'ephemeralContainers', (proposed['spec'] as { ephemeralContainers?: unknown } | undefined)?.ephemeralContainers);
      next['spec'] = spec;
      return next;
    }
    case 'finalize': {
      const next = structuredClone(current);
      const spec = (next['spec'] ?? {}) as Record<string, unknown>;
      spec['finalizers'] = (proposed['spec'] as { finalizers?: string[] } | undefined)?.finalizers ?? [];
      next['spec'] = spec;
      return next;
    }
    default: {
      const unreachable: never = scope;
      throw new Error(`unknown update scope ${String(unreachable)}`);
    }
  }
}

function setOrDelete(object: KubeObject, key: string, value: unknown): void {
  if (value === undefined) delete object[key];
  else object[key] = value;
}

/** shouldRemove: an object marked for deletion whose last finalizer is gone (and whose grace
 * period is over) is removed by the update that cleared it, as Kubernetes does. */
export function shouldRemove(ctx: RegistryContext, target: Target, object: KubeObject): boolean {
  const meta = object.metadata;
  if (!meta.deletionTimestamp || (meta.finalizers ?? []).length > 0 || (meta.deletionGracePeriodSeconds ?? 0) > 0) return false;
  return strategyOf(ctx, target.def).canBeRemoved?.(object) ?? true;
}

function writeOrRemove(ctx: RegistryContext, target: Target, next: KubeObject, stored: KubeObject): KubeObject {
  const expectedRevision = Number(stored.metadata.resourceVersion);
  const { actor } = ctx;
  try {
    if (shouldRemove(ctx, target, next)) {
      ctx.store.update(objectRef(target), next, { expectedRevision, actor });
      return asKube(ctx.store.delete(objectRef(target), { actor }));
    }
    return asKube(ctx.store.update(objectRef(target), next, { expectedRevision, actor }));
  } catch (err) {
    if (isConflict(err)) throw conflict(resourceName(target));
    throw err;
  }
}
