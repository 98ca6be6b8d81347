/**
 * The DaemonSet controller's informer handlers (Kubernetes' addDaemonset/…, addPod/updatePod/
 * deletePod, addNode/updateNode/deleteNode). They only enqueue DaemonSet keys and tick off
 * expectations: synchronous, no API calls, never throwing.
 */
import type { DaemonSet } from '../../apiserver/api/apps/daemon-set.js';
import type { Node } from '../../apiserver/api/core/node.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { isPodReady } from '../../apiserver/api/core/pod-conditions.js';
import { deepEqual } from '../../apiserver/api/deep-equal.js';
import { controllerRefOf } from '../../apiserver/api/machinery/owner-references.js';
import type { Expectations } from '../runtime/expectations.js';
import type { ReadonlyPod } from '../runtime/pods/pod-state.js';
import { keyOf } from '../runtime/reconciler.js';
import type { EventHandlers, Lister, WorkQueue } from '../runtime/types.js';
import type { ReadonlyDaemonSet, ReadonlyNode } from './node-eligibility.js';

/** HandlerDeps are what the handlers read and feed. */
export interface HandlerDeps {
  daemonSetLister: Lister<DaemonSet>;
  expectations: Expectations;
  queue: WorkQueue;
}

/** daemonSetEventHandlers enqueue a DaemonSet on every add, update (resyncs included, so a
 * failed create is retried) and delete; a delete or re-creation drops its expectations. */
export function daemonSetEventHandlers({ expectations, queue }: HandlerDeps): EventHandlers<DaemonSet> {
  const deleted = (ds: ReadonlyDaemonSet) => {
    expectations.delete(keyOf(ds));
    queue.add(keyOf(ds));
  };
  return {
    onAdd: (ds) => queue.add(keyOf(ds)),
    onUpdate: (old, cur) => {
      if (old.metadata.uid !== cur.metadata.uid) deleted(old);
      queue.add(keyOf(cur));
    },
    onDelete: deleted,
  };
}

/**
 * podEventHandlers wake the DaemonSet controlling a pod: its appearance is an observed
 * creation, its deletion (or the start of a graceful one) an observed deletion, and a pod that
 * became ready wakes it again after minReadySeconds. Orphans wake nobody (no adoption).
 */
export function podEventHandlers(deps: HandlerDeps): EventHandlers<Pod> {
  const deleted = (pod: ReadonlyPod) => {
    const ds = ownerOf(deps, pod);
    if (ds === undefined) return;
    deps.expectations.deletionObserved(keyOf(ds), keyOf(pod));
    deps.queue.add(keyOf(ds));
  };
  return {
    onAdd: (pod) => {
      if (pod.metadata.deletionTimestamp !== undefined) return deleted(pod);
      const ds = ownerOf(deps, pod);
      if (ds === undefined) return;
      deps.expectations.creationObserved(keyOf(ds));
      deps.queue.add(keyOf(ds));
    },
    onUpdate: (old, cur) => {
      if (old.metadata.resourceVersion === cur.metadata.resourceVersion) return;
      if (cur.metadata.deletionTimestamp !== undefined) return deleted(cur);
      const ds = ownerOf(deps, cur);
      if (ds === undefined) return;
      deps.queue.add(keyOf(ds));
      const minReadySeconds = ds.spec.minReadySeconds ?? 0;
      if (minReadySeconds > 0 && !isPodReady(old) && isPodReady(cur)) deps.queue.addAfter(keyOf(ds), (minReadySeconds + 1) * 1000);
    },
    onDelete: deleted,
  };
}

/** ownerOf resolves a pod's controller reference to a cached DaemonSet with the same uid. */
function ownerOf(deps: HandlerDeps, pod: ReadonlyPod): ReadonlyDaemonSet | undefined {
  const reference = controllerRefOf(pod);
  if (reference === undefined || reference.kind !== 'DaemonSet' || !reference.apiVersion.startsWith('apps/')) return undefined;
  const ds = deps.daemonSetLister.get(pod.metadata.namespace ?? '', reference.name);
  return ds?.metadata.uid === reference.uid ? ds : undefined;
}

/**
 * nodeEventHandlers wake every DaemonSet when a node appears or disappears, or when something
 * that decides eligibility changed: labels, taints, cordon, or a condition's status (not the
 * heartbeat timestamps kubelets write every few seconds).
 */
export function nodeEventHandlers(deps: HandlerDeps): EventHandlers<Node> {
  const all = () => {
    for (const ds of deps.daemonSetLister.list()) deps.queue.add(keyOf(ds));
  };
  return { onAdd: all, onDelete: all, onUpdate: (old, cur) => (nodeChangeMatters(old, cur) ? all() : undefined) };
}

/** nodeChangeMatters is true when an update may change which DaemonSets belong on the node. */
export function nodeChangeMatters(old: ReadonlyNode, cur: ReadonlyNode): boolean {
  const conditions = (node: ReadonlyNode) => (node.status?.conditions ?? []).map((c) => `${c.type}=${c.status}`).sort();
  return (
    !deepEqual(old.metadata.labels ?? {}, cur.metadata.labels ?? {}) ||
    !deepEqual(old.spec ?? {}, cur.spec ?? {}) ||
    !deepEqual(conditions(old), conditions(cur))
  );
}
