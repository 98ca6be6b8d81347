/**
 * The ReplicaSet controller's informer handlers (Kubernetes' addPod/updatePod/deletePod and
 * addRS/updateRS/deleteRS). They only enqueue ReplicaSet keys and tick off expectations: they
 * are synchronous, never call the API and never throw.
 */
import type { ReplicaSet } from '../../apiserver/api/apps/replica-set.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { isPodReady } from '../../apiserver/api/core/pod-conditions.js';
import { deepEqual } from '../../apiserver/api/deep-equal.js';
import { labelSelectorFromStructured } from '../../apiserver/api/labels.js';
import { controllerRefOf } from '../../apiserver/api/machinery/owner-references.js';
import type { Expectations } from '../runtime/expectations.js';
import type { ReadonlyPod } from '../runtime/pods/pod-state.js';
import { keyOf } from '../runtime/reconciler.js';
import type { DeepReadonly, EventHandlers, Lister, WorkQueue } from '../runtime/types.js';
import { podKey } from './manage-replicas.js';
import { type OwnerKind, resolveControllerRef } from './owners.js';

/** HandlerDeps are what the handlers read and feed. */
export interface HandlerDeps {
  replicaSetLister: Lister<ReplicaSet>;
  /** The kind pods' controller references must name; a ReplicaSet when absent. */
  owner?: OwnerKind;
  expectations: Expectations;
  queue: WorkQueue;
}

type ReadonlyReplicaSet = DeepReadonly<ReplicaSet>;

/**
 * replicaSetEventHandlers enqueue a ReplicaSet on every add, update and delete. Every update
 * is enqueued, not only spec changes, so that a resync retries ReplicaSets whose last create
 * failed. A delete (or a re-creation under the same name, seen as an update with a new uid)
 * drops the old object's expectations so the new one starts clean.
 */
export function replicaSetEventHandlers({ expectations, queue }: HandlerDeps): EventHandlers<ReplicaSet> {
  const deleted = (rs: ReadonlyReplicaSet) => {
    expectations.delete(keyOf(rs));
    queue.add(keyOf(rs));
  };
  return {
    onAdd: (rs) => queue.add(keyOf(rs)),
    onUpdate: (old, cur) => {
      if (old.metadata.uid !== cur.metadata.uid) deleted(old);
      queue.add(keyOf(cur));
    },
    onDelete: deleted,
  };
}

/**
 * podEventHandlers wake the ReplicaSets a pod change concerns:
 * - a pod with a controller reference wakes only that ReplicaSet (and counts as an observed
 *   creation or deletion for its expectations);
 * - an orphan wakes every ReplicaSet whose selector matches it, so one can adopt it;
 * - a change of labels or of controller reference wakes the old owner as well as the new;
 * - a pod that became ready wakes its ReplicaSet again after minReadySeconds, when it will
 *   count as available (no event announces that).
 */
export function podEventHandlers(deps: HandlerDeps): EventHandlers<Pod> {
  return {
    onAdd: (pod) => podAdded(deps, pod),
    onUpdate: (old, cur) => podUpdated(deps, old, cur),
    onDelete: (pod) => podDeleted(deps, pod),
  };
}

function podAdded(deps: HandlerDeps, pod: ReadonlyPod): void {
  // After a restart a pod may first appear already terminating: that is not a creation.
  if (pod.metadata.deletionTimestamp !== undefined) return podDeleted(deps, pod);
  const reference = controllerRefOf(pod);
  if (reference === undefined) {
    // Never a creation observation: no ReplicaSet waits for an orphan to appear.
    for (const rs of matchingReplicaSets(deps, pod)) deps.queue.add(keyOf(rs));
    return;
  }
  const rs = resolveControllerRef(deps.replicaSetLister, pod.metadata.namespace ?? '', reference, deps.owner);
  if (rs === undefined) return;
  deps.expectations.creationObserved(keyOf(rs));
  deps.queue.add(keyOf(rs));
}

function podUpdated(deps: HandlerDeps, old: ReadonlyPod, cur: ReadonlyPod): void {
  // A resync delivers the same version again: nothing changed.
  if (old.metadata.resourceVersion === cur.metadata.resourceVersion) return;
  const labelsChanged = !deepEqual(old.metadata.labels ?? {}, cur.metadata.labels ?? {});
  if (cur.metadata.deletionTimestamp !== undefined) {
    // A graceful deletion starts with this update; the ReplicaSet should replace the pod now,
    // not when the kubelet finally removes it.
    podDeleted(deps, cur);
    if (labelsChanged) podDeleted(deps, old);
    return;
  }
  const oldReference = controllerRefOf(old);
  const curReference = controllerRefOf(cur);
  const referenceChanged = !deepEqual(oldReference, curReference);
  if (referenceChanged && oldReference !== undefined) enqueueOwner(deps, old);
  if (curReference !== undefined) return ownedPodUpdated(deps, old, cur);
  if (labelsChanged || referenceChanged) for (const rs of matchingReplicaSets(deps, cur)) deps.queue.add(keyOf(rs));
}

function ownedPodUpdated(deps: HandlerDeps, old: ReadonlyPod, cur: ReadonlyPod): void {
  const rs = enqueueOwner(deps, cur);
  const minReadySeconds = rs?.spec.minReadySeconds ?? 0;
  if (rs !== undefined && minReadySeconds > 0 && !isPodReady(old) && isPodReady(cur)) {
    // One extra second absorbs clock skew between the ready time and our timer.
    deps.queue.addAfter(keyOf(rs), (minReadySeconds + 1) * 1000);
  }
}

function podDeleted(deps: HandlerDeps, pod: ReadonlyPod): void {
  // Nobody waits for an orphan to disappear.
  const reference = controllerRefOf(pod);
  if (reference === undefined) return;
  const rs = resolveControllerRef(deps.replicaSetLister, pod.metadata.namespace ?? '', reference, deps.owner);
  if (rs === undefined) return;
  deps.expectations.deletionObserved(keyOf(rs), podKey(pod));
  deps.queue.add(keyOf(rs));
}

/** enqueueOwner wakes the ReplicaSet controlling `pod`, if it is cached; returns it. */
function enqueueOwner(deps: HandlerDeps, pod: ReadonlyPod): ReadonlyReplicaSet | undefined {
  const reference = controllerRefOf(pod);
  const rs = reference && resolveControllerRef(deps.replicaSetLister, pod.metadata.namespace ?? '', reference, deps.owner);
  if (rs !== undefined) deps.queue.add(keyOf(rs));
  return rs;
}

/**
 * matchingReplicaSets are the ReplicaSets in the pod's namespace whose selector matches its
 * labels. As in Kubernetes, an empty selector matches nothing here (it must not claim every
 * pod), and an unparsable one is skipped.
 */
function matchingReplicaSets(deps: HandlerDeps, pod: ReadonlyPod): ReadonlyReplicaSet[] {
  return deps.replicaSetLister.list(pod.metadata.namespace ?? '').filter((rs) => {
    try {
      const selector = labelSelectorFromStructured(structuredClone(rs.spec.selector) as ReplicaSet['spec']['selector']);
      return !selector.isEverything() && selector.matches(pod.metadata.labels);
    } catch {
      return false; // an invalid selector matches nothing; its own reconcile reports it
    }
  });
}
