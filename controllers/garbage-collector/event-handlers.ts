/**
 * The garbage collector's informer handlers (kube's graph builder, reduced to "who must be
 * looked at again"). They only enqueue uids: synchronous, no API calls, never throwing. They
 * read the monitors' caches to find dependents and owners, which is allowed: reads are free
 * and decide nothing.
 */

import { deepEqual } from '../../apiserver/api/deep-equal.js';
import type { KubeObject } from '../../apiserver/api/resource-definition.js';
import type { DeepReadonly, EventHandlers, WorkQueue } from '../runtime/types.js';
import { DeletionPhase, deletionPhase, isWaitingForDependents } from './decisions.js';
import { gcKey } from './keys.js';
import type { MonitorSet } from './monitors.js';

/** HandlerDeps are what the handlers read and feed. */
export interface HandlerDeps {
  queue: Pick<WorkQueue, 'add'>;
  monitors: Pick<MonitorSet, 'find' | 'dependentsOf'>;
}

type Cached = DeepReadonly<KubeObject>;

/**
 * garbageCollectorHandlers returns the handlers every monitor shares:
 * - an object that has owners, or is being deleted, is enqueued on every add and update
 *   (resyncs included), so a missed event is repaired by the next one;
 * - when an object starts being deleted (or its deletion phase changes), or disappears, its
 *   dependents are enqueued — they may now be garbage or need releasing — and so is it;
 * - when a dependent disappears or its references change, owners of it that wait in the
 *   foreground are enqueued: it may have been the last thing they waited for;
 * - a name reused by a newcomer (uid changed) counts as the old object's disappearance.
 */
export function garbageCollectorHandlers(deps: HandlerDeps): EventHandlers<KubeObject> {
  return {
    onAdd: (object) => objectAdded(deps, object),
    onUpdate: (old, cur) => {
      if (old.metadata.uid !== cur.metadata.uid) {
        objectGone(deps, old);
        return objectAdded(deps, cur);
      }
      if (hasOwners(cur) || isDeleting(cur)) enqueue(deps, cur);
      const isResync = old === cur;
      if (isDeleting(cur) && (isResync || deletionPhase(old) !== deletionPhase(cur))) enqueueDependents(deps, cur);
      if (isResync || isDeleting(cur) || !deepEqual(old.metadata.ownerReferences, cur.metadata.ownerReferences)) {
        enqueueWaitingOwners(deps, [...(old.metadata.ownerReferences ?? []), ...(cur.metadata.ownerReferences ?? [])]);
      }
    },
    onDelete: (object) => objectGone(deps, object),
  };
}

function objectAdded(deps: HandlerDeps, object: Cached): void {
  if (hasOwners(object) || isDeleting(object)) enqueue(deps, object);
  if (isDeleting(object)) enqueueDependents(deps, object);
}

function objectGone(deps: HandlerDeps, object: Cached): void {
  enqueue(deps, object);
  enqueueDependents(deps, object);
  enqueueWaitingOwners(deps, object.metadata.ownerReferences ?? []);
}

function enqueue(deps: HandlerDeps, object: Cached): void {
  if (object.metadata.uid) deps.queue.add(gcKey(object.metadata.uid));
}

function enqueueDependents(deps: HandlerDeps, owner: Cached): void {
  if (!owner.metadata.uid) return;
  for (const dependent of deps.monitors.dependentsOf(owner.metadata.uid)) enqueue(deps, dependent.object);
}

/** enqueueWaitingOwners enqueues the referenced owners that are deleting in the foreground. */
function enqueueWaitingOwners(deps: HandlerDeps, references: ReadonlyArray<{ readonly uid: string }>): void {
  for (const { uid } of references) {
    const owner = deps.monitors.find(uid);
    if (owner && isWaitingForDependents(owner.object)) deps.queue.add(gcKey(uid));
  }
}

function hasOwners(object: Cached): boolean {
  return (object.metadata.ownerReferences ?? []).length > 0;
}

function isDeleting(object: Cached): boolean {
  return deletionPhase(object) !== DeletionPhase.Live;
}
