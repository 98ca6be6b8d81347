/**
 * The scheduler's informer handlers (kube's eventhandlers.go). They only move keys in the
 * scheduling queue — synchronous, no API calls, never throwing:
 *   - an unscheduled pod of ours enters the queue; a relevant change to it retries it;
 *   - a pod that got bound, was deleted or is no longer ours leaves the queue;
 *   - a change that may free or add room retries the unschedulable pods: a node added, a
 *     node's allocatable/labels/taints/cordon changed, an assigned pod deleted or finished;
 *     a newly bound pod retries only pods with hard topology spread constraints (it can raise
 *     the smallest domain count; it cannot free resources).
 */
import type { Node } from '../apiserver/api/core/node.js';
import type { Pod } from '../apiserver/api/core/pod.js';
import { deepEqual } from '../apiserver/api/deep-equal.js';
import { keyOf, parseKey } from '../controllers/runtime/reconciler.js';
import type { EventHandlers, Lister } from '../controllers/runtime/types.js';
import { LAST_DECISION_ANNOTATION } from './explain.js';
import type { ReadonlyNode, ReadonlyPod } from './framework.js';
import type { SchedulingQueue } from './scheduling-queue.js';
import { isTerminal } from './snapshot.js';

/** DEFAULT_SCHEDULER_NAME is the schedulerName pods get by default. */
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

/** isAssigned is true once the pod has a node. */
export function isAssigned(pod: ReadonlyPod): boolean {
  return !!pod.spec.nodeName;
}

/** shouldSchedule: unassigned, not being deleted, not finished, not held by scheduling
 * gates, and ours by schedulerName (an empty schedulerName means the default scheduler). */
export function shouldSchedule(pod: ReadonlyPod, schedulerName: string): boolean {
  if (isAssigned(pod) || pod.metadata.deletionTimestamp || isTerminal(pod)) return false;
  if ((pod.spec.schedulingGates ?? []).length > 0) return false;
  return (pod.spec.schedulerName || DEFAULT_SCHEDULER_NAME) === schedulerName;
}

/** isSchedulingRelevantUpdate ignores what cannot change a decision: status, resourceVersion,
 * managedFields and the scheduler's own annotation (its write must not retry the pod). */
export function isSchedulingRelevantUpdate(old: ReadonlyPod, cur: ReadonlyPod): boolean {
  const annotations = (pod: ReadonlyPod) => {
    const { [LAST_DECISION_ANNOTATION]: _ours, ...rest } = pod.metadata.annotations ?? {};
    return rest;
  };
  return !deepEqual(old.spec, cur.spec) || !deepEqual(old.metadata.labels ?? {}, cur.metadata.labels ?? {}) || !deepEqual(annotations(old), annotations(cur));
}

/** HandlerDeps are what the handlers read and feed. */
export interface HandlerDeps {
  queue: SchedulingQueue;
  podLister: Lister<Pod>;
  schedulerName: string;
}

/** podEventHandlers keep the queue in step with pods (see the module comment). */
export function podEventHandlers(deps: HandlerDeps): EventHandlers<Pod> {
  const { queue, schedulerName } = deps;
  return {
    onAdd(pod) {
      if (shouldSchedule(pod, schedulerName)) queue.add(pod);
      else if (isAssigned(pod)) queue.moveAllToActiveOrBackoff((key) => hasHardSpreadConstraints(deps, key));
    },
    onUpdate(old, cur) {
      if (old.metadata.resourceVersion === cur.metadata.resourceVersion) return;
      if (shouldSchedule(cur, schedulerName)) {
        if (isSchedulingRelevantUpdate(old, cur)) queue.update(cur);
        else queue.add(cur);
        return;
      }
      queue.delete(keyOf(cur));
      if (isAssigned(cur)) assignedPodUpdated(deps, old, cur);
    },
    onDelete(pod) {
      queue.delete(keyOf(pod));
      if (isAssigned(pod) && !isTerminal(pod)) queue.moveAllToActiveOrBackoff();
    },
  };
}

function assignedPodUpdated(deps: HandlerDeps, old: ReadonlyPod, cur: ReadonlyPod): void {
  // Finishing or starting to terminate frees the pod's resources or spread slot.
  const freed = (isTerminal(cur) && !isTerminal(old)) || (!!cur.metadata.deletionTimestamp && !old.metadata.deletionTimestamp);
  if (freed) deps.queue.moveAllToActiveOrBackoff();
  else if (!isAssigned(old) || !deepEqual(old.metadata.labels ?? {}, cur.metadata.labels ?? {})) {
    deps.queue.moveAllToActiveOrBackoff((key) => hasHardSpreadConstraints(deps, key));
  }
}

function hasHardSpreadConstraints(deps: HandlerDeps, key: string): boolean {
  const { namespace, name } = parseKey(key);
  const pod = deps.podLister.get(namespace, name);
  return (pod?.spec.topologySpreadConstraints ?? []).some((c) => c.whenUnsatisfiable === 'DoNotSchedule');
}

/** isNodeSchedulingRelevantUpdate ignores heartbeats: only allocatable, labels, taints and
 * the cordon flag can make a pod fit. */
export function isNodeSchedulingRelevantUpdate(old: ReadonlyNode, cur: ReadonlyNode): boolean {
  return (
    !deepEqual(old.status?.allocatable ?? {}, cur.status?.allocatable ?? {}) ||
    !deepEqual(old.metadata.labels ?? {}, cur.metadata.labels ?? {}) ||
    !deepEqual(old.spec?.taints ?? [], cur.spec?.taints ?? []) ||
    !!old.spec?.unschedulable !== !!cur.spec?.unschedulable
  );
}

/** nodeEventHandlers retry unschedulable pods when a node appears or changes usefully. */
export function nodeEventHandlers(queue: SchedulingQueue): EventHandlers<Node> {
  return {
    onAdd: () => queue.moveAllToActiveOrBackoff(),
    onUpdate(old, cur) {
      if (old.metadata.resourceVersion !== cur.metadata.resourceVersion && isNodeSchedulingRelevantUpdate(old, cur)) queue.moveAllToActiveOrBackoff();
    },
  };
}
