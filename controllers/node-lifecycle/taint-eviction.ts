/**
 * The taint eviction reconciler, one pod per reconcile (kube's NoExecuteTaintManager plus the
 * part of the pod GC that cleans up after it):
 *
 *   pod on a node with NoExecute taints ──► evict at the time eviction-plan.ts computes
 *                                           (DisruptionTarget condition, event, graceful delete)
 *   pod terminating on an unreachable node ─► force-delete (grace 0) once its grace period ends
 *
 * Why the second step: an evicted pod on an unreachable node cannot be stopped by its kubelet,
 * so it would stay Terminating until the node returns. Kubernetes' pod GC force-deletes such
 * pods only when the node also carries the out-of-service taint (an operator's confirmation
 * that the machine is really down); kubesim's nodes are simulated, so it does so whenever the
 * node is unreachable, and the replacements the ReplicaSet already created are what remain.
 */
import { isConflict, isNotFound } from '../../apiserver/api/api-error.js';
import type { Node, Taint } from '../../apiserver/api/core/node.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { rfc3339 } from '../../apiserver/api/machinery/time.js';
import { reconcileLogger } from '../runtime/reconciler.js';
import type { Clock, DeepReadonly, DeleteOptions, EventRecorder, Lister, Logger, Reconciler, Request, ResourceClient, Result } from '../runtime/types.js';
import { PodActionKind, planPodAction, type TaintClock } from './eviction-plan.js';

type ReadonlyPod = DeepReadonly<Pod>;

/** The condition Kubernetes puts on a pod the taint manager is about to delete. */
export const DISRUPTION_TARGET_CONDITION = {
  type: 'DisruptionTarget',
  status: 'True',
  reason: 'DeletionByTaintManager',
  message: 'Taint manager: deleting due to NoExecute taint',
} as const;

/** TaintEvictionDeps are the reconciler's collaborators. */
export interface TaintEvictionDeps {
  podLister: Lister<Pod>;
  nodeLister: Lister<Node>;
  pods: ResourceClient<Pod>;
  recorder: EventRecorder;
  taintClock: TaintClock;
  clock: Clock;
  logger: Logger;
}

/**
 * createTaintEvictionReconciler returns the Reconciler for pod keys (see the module comment).
 * A reconcile returns {} when there is nothing (more) to do, `{ requeueAfterMs }` until an
 * eviction or force-deletion is due, and throws when a write failed. A pod that is gone, or
 * was replaced by another of the same name (uid precondition), counts as done.
 */
export function createTaintEvictionReconciler(deps: TaintEvictionDeps): Reconciler {
  return { reconcile: (request) => syncPod(deps, request) };
}

async function syncPod(deps: TaintEvictionDeps, request: Request): Promise<Result> {
  const pod = deps.podLister.get(request.namespace, request.name);
  const nodeName = pod?.spec.nodeName;
  if (pod === undefined || !nodeName) return {};
  const node = deps.nodeLister.get('', nodeName);
  const action = planPodAction({ pod, node, addedAtMs: deps.taintClock.forNode(node, nodeName) });
  switch (action.kind) {
    case PodActionKind.None:
      return {};
    case PodActionKind.Evict:
      return whenDue(deps, action.atMs, () => evictPod(deps, pod, action.taint));
    case PodActionKind.ForceDelete:
      return whenDue(deps, action.atMs, () => forceDeletePod(deps, pod));
    default: {
      const unhandled: never = action;
      throw new Error(`unhandled pod action ${JSON.stringify(unhandled)}`);
    }
  }
}

/** whenDue runs `act` if `atMs` has come, and otherwise asks to be looked at again then. */
async function whenDue(deps: TaintEvictionDeps, atMs: number, act: () => Promise<void>): Promise<Result> {
  const waitMs = atMs - deps.clock.now();
  if (waitMs > 0) return { requeueAfterMs: waitMs };
  await act();
  return {};
}

/**
 * evictPod marks the pod as a disruption target and deletes it with its own grace period, as
 * Kubernetes' taint manager does, then records TaintManagerEviction. The delete is
 * conditional on the version just written: a worker that decided on an older cached version
 * (the status write's own watch event wakes the pod again before the deletion shows) gets a
 * 409 and leaves it to the next pass instead of deleting and reporting twice.
 */
async function evictPod(deps: TaintEvictionDeps, pod: ReadonlyPod, taint: DeepReadonly<Taint>): Promise<void> {
  const marked = await addDisruptionCondition(deps, pod);
  if (marked === undefined) return;
  if (!(await deletePod(deps, marked, { preconditions: { uid: marked.metadata.uid, resourceVersion: marked.metadata.resourceVersion } }))) return;
  const { namespace = '', name = '' } = pod.metadata;
  deps.recorder.event(marked, 'Normal', 'TaintManagerEviction', `Marking for deletion Pod ${namespace}/${name}`);
  const fields = { pod: `${namespace}/${name}`, node: pod.spec.nodeName, taint: `${taint.key}:${taint.effect}` };
  reconcileLogger(deps.logger).info(fields, 'evicting pod from tainted node');
}

/** forceDeletePod removes a pod its silent kubelet cannot confirm deleted (grace period 0). */
async function forceDeletePod(deps: TaintEvictionDeps, pod: ReadonlyPod): Promise<void> {
  if (await deletePod(deps, pod, { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid } })) {
    const { namespace, name } = pod.metadata;
    reconcileLogger(deps.logger).info({ pod: `${namespace}/${name}`, node: pod.spec.nodeName }, 'force-deleted pod terminating on unreachable node');
  }
}

/** deletePod deletes the pod under `options`' preconditions; false when it was already gone
 * or a precondition failed (another pod of the same name, or a newer version): the watch
 * event of that change brings the pod back here to be decided afresh. */
async function deletePod(deps: TaintEvictionDeps, pod: ReadonlyPod, options: DeleteOptions): Promise<boolean> {
  const { namespace = '', name = '' } = pod.metadata;
  try {
    await deps.pods.delete(namespace, name, options);
    return true;
  } catch (err) {
    if (isNotFound(err) || isConflict(err)) return false;
    throw err;
  }
}

/** addDisruptionCondition writes the DisruptionTarget condition through /status unless the pod
 * has it, and returns the pod as it now stands (undefined when it is gone). A 409 is thrown:
 * the retry re-decides on fresh state. */
async function addDisruptionCondition(deps: TaintEvictionDeps, pod: ReadonlyPod): Promise<ReadonlyPod | undefined> {
  const conditions = pod.status?.conditions ?? [];
  if (conditions.some((c) => c.type === DISRUPTION_TARGET_CONDITION.type && c.status === 'True')) return pod;
  // NOTE: `pod` is the informer's shared object; edit a copy.
  const copy = structuredClone(pod) as Pod;
  const others = (copy.status?.conditions ?? []).filter((c) => c.type !== DISRUPTION_TARGET_CONDITION.type);
  const condition = { ...DISRUPTION_TARGET_CONDITION, lastTransitionTime: rfc3339(deps.clock.now()) };
  copy.status = { ...copy.status, conditions: [...others, condition] };
  try {
    return await deps.pods.updateStatus(copy);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
