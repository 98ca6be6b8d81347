/**
 * The DaemonSet reconciler (Kubernetes' syncDaemonSet): read the DaemonSet, the nodes and its
 * pods from the caches; create and delete pods node by node (manage-plan.ts); when the cache
 * has caught up with our own writes, advance a RollingUpdate (rolling-update.ts); remove pods
 * bound to nodes that no longer exist; and report what it saw in status. Level-triggered.
 */

import { isConflict, isNotFound } from '../../apiserver/api/api-error.js';
import type { DaemonSet } from '../../apiserver/api/apps/daemon-set.js';
import type { Node } from '../../apiserver/api/core/node.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { type LabelSelectorQuery, labelSelectorFromStructured } from '../../apiserver/api/labels.js';
import { isControlledBy } from '../../apiserver/api/machinery/owner-references.js';
import type { Expectations } from '../runtime/expectations.js';
import type { ReadonlyPod } from '../runtime/pods/pod-state.js';
import { requestKey, terminalError } from '../runtime/reconciler.js';
import type { Clock, EventRecorder, Lister, Reconciler, Request, ResourceClient, Result } from '../runtime/types.js';
import { podsByNode, templateHash } from './daemon-pods.js';
import type { FailedPodBackoff } from './failed-pod-backoff.js';
import { planManage } from './manage-plan.js';
import type { ReadonlyDaemonSet } from './node-eligibility.js';
import { planRollingUpdate } from './rolling-update.js';
import { calculateStatus, statusNeedsUpdate } from './status.js';
import { removePod, type SyncContext, syncNodes } from './sync-nodes.js';

/** DAEMONSET_POD_INDEX files pods under their owners' uids (a name of our own, so the
 * ReplicaSet controller's index can share the pod informer in one process). */
export const DAEMONSET_POD_INDEX = 'daemonsetOwnerUid';

/** DaemonSetReconcilerDeps are the reconciler's collaborators; the pod lister carries DAEMONSET_POD_INDEX. */
export interface DaemonSetReconcilerDeps {
  daemonSetLister: Lister<DaemonSet>;
  nodeLister: Lister<Node>;
  podLister: Lister<Pod>;
  daemonSets: ResourceClient<DaemonSet>;
  pods: ResourceClient<Pod>;
  recorder: EventRecorder;
  expectations: Expectations;
  backoff: FailedPodBackoff;
  clock: Clock;
}

/**
 * createDaemonSetReconciler returns the DaemonSet controller's Reconciler. A reconcile returns
 * {} when the DaemonSet is gone; throws (rate-limited retry) when a create, delete or the
 * status write failed; throws a terminal error for an unparsable selector; and asks to be
 * requeued while a failed pod waits out its backoff or ready pods wait for minReadySeconds.
 */
export function createDaemonSetReconciler(deps: DaemonSetReconcilerDeps): Reconciler {
  return { reconcile: (request, signal) => syncDaemonSet(deps, request, signal) };
}

async function syncDaemonSet(deps: DaemonSetReconcilerDeps, request: Request, signal: AbortSignal): Promise<Result> {
  const key = requestKey(request);
  const ds = deps.daemonSetLister.get(request.namespace, request.name);
  if (ds === undefined) {
    deps.expectations.delete(key);
    return {};
  }
  const hash = templateHash(ds);
  const context: SyncContext = { ds, key, hash, pods: deps.pods, recorder: deps.recorder, expectations: deps.expectations, signal };
  const nodes = deps.nodeLister.list();
  const groups = podsByNode(podsOf(deps.podLister, ds, selectorOf(ds)));
  const nowMs = deps.clock.now();
  let requeueAfterMs: number | undefined;
  let error: Error | undefined;
  // A DaemonSet being deleted only reports status: the garbage collector takes its pods.
  if (ds.metadata.deletionTimestamp === undefined && deps.expectations.satisfied(key)) {
    const plan = planManage({ ds, nodes, podsByNode: groups, hash, backoff: deps.backoff, nowMs });
    requeueAfterMs = plan.requeueAfterMs;
    error = await syncNodes(context, { nodesToCreate: plan.nodesNeedingPods, podsToDelete: plan.podsToDelete });
    error ??= await removeOrphans(context, plan.orphanedPods);
    if (error === undefined && deps.expectations.satisfied(key) && isRollingUpdate(ds)) {
      error = await syncNodes(context, planToWork(planRollingUpdate({ ds, nodes, podsByNode: groups, hash, nowMs })));
    }
  }
  const written = await writeStatus(deps, ds, calculateStatus({ ds, nodes, podsByNode: groups, hash, nowMs }));
  if (error !== undefined) throw error;
  return earliest(requeueAfterMs, availabilityRequeueMs(written));
}

function planToWork(plan: { podsToDelete: readonly ReadonlyPod[]; nodesToCreate: readonly string[] }) {
  return { nodesToCreate: plan.nodesToCreate, podsToDelete: plan.podsToDelete };
}

function isRollingUpdate(ds: ReadonlyDaemonSet): boolean {
  return (ds.spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
}

/** selectorOf parses spec.selector; one the server accepted but we cannot parse is user
 * intent no retry fixes, hence terminal. */
function selectorOf(ds: ReadonlyDaemonSet): LabelSelectorQuery {
  try {
    return labelSelectorFromStructured(structuredClone(ds.spec.selector) as DaemonSet['spec']['selector']);
  } catch (err) {
    throw terminalError(err);
  }
}

/**
 * podsOf lists the pods the DaemonSet controls whose labels its selector still matches,
 * leaving out pods that are both being deleted and finished (they hold no node's slot).
 * NOTE: these are the informer's shared objects; nothing downstream may modify them.
 */
function podsOf(podLister: Lister<Pod>, ds: ReadonlyDaemonSet, selector: LabelSelectorQuery): ReadonlyPod[] {
  const uid = ds.metadata.uid ?? '';
  return podLister.byIndex(DAEMONSET_POD_INDEX, uid).filter((pod) => {
    const controlled = isControlledBy(pod, uid);
    const finished = pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
    const gone = finished && pod.metadata.deletionTimestamp !== undefined;
    return controlled && !gone && pod.metadata.namespace === ds.metadata.namespace && selector.matches(pod.metadata.labels);
  });
}

/**
 * removeOrphans force-deletes daemon pods bound to nodes that no longer exist. Kubernetes
 * leaves this to the pod garbage collector (gcOrphaned), which kubesim does not run; the
 * kubelet of a deleted node is gone, so no graceful shutdown could ever finish.
 */
async function removeOrphans(context: SyncContext, orphans: readonly ReadonlyPod[]): Promise<Error | undefined> {
  for (const pod of orphans) {
    try {
      await removePod(context, pod, { force: true });
    } catch (err) {
      if (!isNotFound(err)) return err instanceof Error ? err : new Error(String(err));
    }
  }
  return undefined;
}

/** writeStatus PUTs the status to /status when it changed; on a conflict it re-reads once and
 * writes the same status onto the fresh object. Returns the DaemonSet as it now stands. */
async function writeStatus(deps: DaemonSetReconcilerDeps, ds: ReadonlyDaemonSet, status: DaemonSet['status'] & object): Promise<ReadonlyDaemonSet> {
  if (!statusNeedsUpdate(ds, status)) return ds;
  const put = (target: ReadonlyDaemonSet) => deps.daemonSets.updateStatus({ ...(structuredClone(target) as DaemonSet), status });
  try {
    return await put(ds);
  } catch (err) {
    if (isNotFound(err)) return ds;
    if (!isConflict(err)) throw err;
  }
  const fresh = await deps.daemonSets.get(ds.metadata.namespace ?? '', ds.metadata.name ?? '');
  return fresh.metadata.uid === ds.metadata.uid ? put(fresh) : ds;
}

/** availabilityRequeueMs looks again after minReadySeconds while ready pods are not yet
 * available: no pod event announces that time has passed. */
function availabilityRequeueMs(ds: ReadonlyDaemonSet): number | undefined {
  const minReadySeconds = ds.spec.minReadySeconds ?? 0;
  const { numberReady = 0, numberAvailable = 0 } = ds.status ?? {};
  return minReadySeconds > 0 && numberReady !== numberAvailable ? minReadySeconds * 1000 : undefined;
}

function earliest(a: number | undefined, b: number | undefined): Result {
  const values = [a, b].filter((v): v is number => v !== undefined);
  return values.length === 0 ? {} : { requeueAfterMs: Math.min(...values) };
}
