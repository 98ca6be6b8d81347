/**
 * The garbage collector's reconcile of one object, named by uid (kube's attemptToDeleteItem,
 * attemptToOrphan and processDeletingDependentsItem, in our own words):
 *
 *   deletion phase ─ orphan     ─► drop every dependent's reference to it ─► drop `orphan`
 *                  ─ foreground ─► blocking dependents left (checked live)? ─ yes ─► wake them, look again later
 *                                                                            └ no ──► drop `foregroundDeletion`
 *                  ─ deleting   ─► nothing (a grace period or someone else's finalizer runs)
 *                  ─ live       ─► look up each owner ─► keep / drop dangling references / delete it
 */
import type { KubeObject } from '../../apiserver/api/resource-definition.js';
import type { KubeClient } from '../runtime/client/http-client.js';
import { reconcileLogger } from '../runtime/reconciler.js';
import type { DeepReadonly, Logger, Reconciler, Result } from '../runtime/types.js';
import { deleteExactly, getLive, type ObjectIdentity, removeFinalizer, removeOwnerReferences } from './actions.js';
import { DeletionPhase, decideOwnerAction, deletionPhase, FOREGROUND_FINALIZER, isBlockingReference, ORPHAN_FINALIZER, type OwnerAction } from './decisions.js';
import { uidOfRequest } from './keys.js';
import type { MonitoredObject, MonitorSet } from './monitors.js';
import { lookupOwner } from './owner-lookup.js';

/** GarbageCollectorReconcilerDeps are what the reconciler reads and writes through. */
export interface GarbageCollectorReconcilerDeps {
  monitors: Pick<MonitorSet, 'find' | 'dependentsOf' | 'resourceForKind' | 'findOfKind'>;
  client: Pick<KubeClient, 'resource'>;
  /** Queues another object (by uid) for its own reconcile. */
  enqueue(uid: string): void;
  logger: Logger;
  /** Cluster time before an owner still waiting in the foreground, or a dependent with an
   * owner of unknown kind, is looked at again (events usually come first). */
  recheckMs: number;
}

/**
 * createGarbageCollectorReconciler returns the Reconciler for GC work-queue keys (keys.ts).
 * An object no cache holds any more is done ({}): its disappearance already woke whoever it
 * concerned. Errors from the API (409 included) reject, so the key is retried with backoff.
 */
export function createGarbageCollectorReconciler(deps: GarbageCollectorReconcilerDeps): Reconciler {
  return {
    async reconcile(request) {
      const item = deps.monitors.find(uidOfRequest(request));
      if (!item) return {};
      const phase = deletionPhase(item.object);
      switch (phase) {
        case DeletionPhase.Orphan:
          return orphanDependents(deps, item);
        case DeletionPhase.Foreground:
          return finishForegroundDeletion(deps, item);
        case DeletionPhase.Deleting:
          return {};
        case DeletionPhase.Live:
          return collectIfOwnersGone(deps, item);
        default:
          return assertNever(phase);
      }
    },
  };
}

/** orphanDependents releases every known dependent, then the owner's `orphan` finalizer. */
async function orphanDependents(deps: GarbageCollectorReconcilerDeps, owner: MonitoredObject): Promise<Result> {
  const ownerUid = owner.object.metadata.uid ?? '';
  for (const dependent of deps.monitors.dependentsOf(ownerUid)) {
    await removeOwnerReferences(deps.client.resource(dependent.resource), identityOf(dependent.object), [ownerUid]);
  }
  await removeFinalizer(deps.client.resource(owner.resource), identityOf(owner.object), ORPHAN_FINALIZER);
  reconcileLogger(deps.logger).info({ owner: describe(owner) }, 'orphaned dependents');
  return {};
}

/**
 * finishForegroundDeletion removes `foregroundDeletion` once no dependent blocks it. The
 * cache proposes candidates; each is confirmed with a live read, so a dependent whose delete
 * event has not arrived yet does not hold the owner. Live blockers that are not being
 * deleted yet are queued: their own reconcile deletes them (or drops their reference to
 * this owner when another owner keeps them).
 */
async function finishForegroundDeletion(deps: GarbageCollectorReconcilerDeps, owner: MonitoredObject): Promise<Result> {
  const ownerUid = owner.object.metadata.uid ?? '';
  const blocking = await liveBlockingDependents(deps, ownerUid);
  if (blocking.length === 0) {
    await removeFinalizer(deps.client.resource(owner.resource), identityOf(owner.object), FOREGROUND_FINALIZER);
    reconcileLogger(deps.logger).info({ owner: describe(owner) }, 'foreground deletion: no blocking dependents left');
    return {};
  }
  for (const dependent of blocking) {
    if (deletionPhase(dependent) === DeletionPhase.Live && dependent.metadata.uid) deps.enqueue(dependent.metadata.uid);
  }
  return { requeueAfterMs: deps.recheckMs };
}

async function liveBlockingDependents(deps: GarbageCollectorReconcilerDeps, ownerUid: string): Promise<KubeObject[]> {
  const candidates = deps.monitors
    .dependentsOf(ownerUid)
    .filter(({ object }) => (object.metadata.ownerReferences ?? []).some((r) => isBlockingReference(r, ownerUid)));
  const live = await Promise.all(candidates.map(({ resource, object }) => getLive(deps.client.resource(resource), identityOf(object))));
  return live.filter((object): object is KubeObject => (object?.metadata.ownerReferences ?? []).some((r) => isBlockingReference(r, ownerUid)));
}

/** collectIfOwnersGone judges a live object by its owners (decisions.ts) and acts. */
async function collectIfOwnersGone(deps: GarbageCollectorReconcilerDeps, item: MonitoredObject): Promise<Result> {
  const references = item.object.metadata.ownerReferences ?? [];
  if (references.length === 0) return {};
  const namespace = item.object.metadata.namespace ?? '';
  const states = await Promise.all(references.map((reference) => lookupOwner(deps, namespace, reference)));
  const hasDependents = deps.monitors.dependentsOf(item.object.metadata.uid ?? '').length > 0;
  return act(deps, item, decideOwnerAction({ references, states, hasDependents }));
}

async function act(deps: GarbageCollectorReconcilerDeps, item: MonitoredObject, action: OwnerAction): Promise<Result> {
  const client = deps.client.resource(item.resource);
  const recheck = (again: boolean): Result => (again ? { requeueAfterMs: deps.recheckMs } : {});
  switch (action.type) {
    case 'keep':
      return recheck(action.recheck);
    case 'removeReferences':
      await removeOwnerReferences(client, identityOf(item.object), action.ownerUids);
      reconcileLogger(deps.logger).info({ object: describe(item), ownerUids: action.ownerUids }, 'removed references to absent or foreground-deleting owners');
      return recheck(action.recheck);
    case 'delete': {
      // The cached resourceVersion makes the delete conditional on what was judged.
      const target = { ...identityOf(item.object), resourceVersion: item.object.metadata.resourceVersion };
      await deleteExactly(client, target, { policy: action.propagationPolicy, logger: reconcileLogger(deps.logger) });
      return {};
    }
    default:
      return assertNever(action);
  }
}

function identityOf(object: DeepReadonly<KubeObject> | KubeObject): ObjectIdentity {
  const { namespace = '', name = '', uid = '' } = object.metadata;
  return { namespace, name, uid };
}

function describe({ resource, object }: MonitoredObject): string {
  const { namespace, name } = object.metadata;
  return `${resource.plural}${resource.group ? `.${resource.group}` : ''} ${namespace ? `${namespace}/` : ''}${name ?? ''}`;
}

function assertNever(value: never): never {
  throw new Error(`garbage collector: unhandled case ${JSON.stringify(value)}`);
}
