/**
 * The StatefulSet reconciler (Kubernetes' StatefulSetController.sync): read the set, its
 * pods and revisions from the caches, settle the revisions, plan and carry out the sync,
 * trim the history and report status through /status. Level-triggered: a missed or
 * repeated event, a restart or a stale cache all converge the same way (creates that meet
 * an existing pod and deletes of a pod already gone are no-ops; deletes carry the uid).
 */

import { isConflict, isNotFound } from '../../apiserver/api/api-error.js';
import type { StatefulSet } from '../../apiserver/api/apps/stateful-set.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { isPodAvailable, isPodReady } from '../../apiserver/api/core/pod-conditions.js';
import type { DeepReadonly, Reconciler, Request, Result } from '../runtime/types.js';
import { runActions } from './actions.js';
import { type ReadonlyStatefulSet, SET_UID_INDEX, type StatefulSetDeps } from './deps.js';
import { ordinalOf, podRevision, startOrdinal } from './identity.js';
import { type PlanInput, type PodView, planSync, resolveMaxUnavailable } from './plan.js';
import { computeStatus, type StatefulSetStatus, statusNeedsUpdate } from './status.js';
import { type SetRevisions, syncRevisions, truncateHistory } from './sync-revisions.js';

/** createStatefulSetReconciler returns the Reconciler of the StatefulSet controller. */
export function createStatefulSetReconciler(deps: StatefulSetDeps): Reconciler {
  return { reconcile: (request) => syncStatefulSet(deps, request) };
}

async function syncStatefulSet(deps: StatefulSetDeps, request: Request): Promise<Result> {
  const set = deps.setLister.get(request.namespace, request.name);
  // A set being deleted does nothing more: the garbage collector takes its pods.
  if (set === undefined || set.metadata.deletionTimestamp !== undefined) return {};
  const revisions = await syncRevisions(deps, set).catch((err: unknown) => recordCollision(deps, set, err));
  const views = podViews(deps, set);
  const input = planInput(set, revisions, views);
  let failure: unknown;
  try {
    await runActions(deps, set, revisions, planSync(input));
    await truncateHistory(
      deps,
      set,
      revisions,
      views.map((pod) => pod.revision),
    );
  } catch (err) {
    failure = err;
  }
  const status = computeStatus({
    generation: set.metadata.generation,
    strategy: input.strategy,
    currentRevision: revisions.current.metadata.name ?? '',
    updateRevision: revisions.update.metadata.name ?? '',
    collisionCount: revisions.collisionCount,
    pods: views,
  });
  await writeStatus(deps, set, status);
  if (failure !== undefined) throw failure;
  return availabilityRequeue(set, status);
}

/** podViews lists the pods the set controls (with a parsable ordinal) as the plan sees them. */
function podViews(deps: StatefulSetDeps, set: ReadonlyStatefulSet): PodView[] {
  const setName = set.metadata.name ?? '';
  const minReadySeconds = set.spec.minReadySeconds ?? 0;
  const nowMs = deps.clock.now();
  return deps.podLister
    .byIndex(SET_UID_INDEX, set.metadata.uid ?? '')
    .filter((pod) => pod.metadata.namespace === set.metadata.namespace && ordinalOf(setName, pod.metadata.name) >= 0)
    .map((pod) => podView(setName, pod, minReadySeconds, nowMs));
}

function podView(setName: string, pod: DeepReadonly<Pod>, minReadySeconds: number, nowMs: number): PodView {
  const phase = pod.status?.phase;
  const runningReady = phase === 'Running' && isPodReady(pod);
  return {
    ordinal: ordinalOf(setName, pod.metadata.name),
    name: pod.metadata.name ?? '',
    uid: pod.metadata.uid ?? '',
    revision: podRevision(pod),
    terminating: pod.metadata.deletionTimestamp !== undefined,
    finished: phase === 'Succeeded' || phase === 'Failed',
    runningReady,
    available: runningReady && isPodAvailable(pod, minReadySeconds, nowMs),
  };
}

function planInput(set: ReadonlyStatefulSet, revisions: SetRevisions, pods: PodView[]): PlanInput {
  const replicas = set.spec.replicas ?? 1;
  const rollingUpdate = set.spec.updateStrategy?.rollingUpdate;
  return {
    replicas,
    start: startOrdinal(set),
    policy: set.spec.podManagementPolicy ?? 'OrderedReady',
    strategy: set.spec.updateStrategy?.type ?? 'RollingUpdate',
    partition: rollingUpdate?.partition ?? 0,
    maxUnavailable: resolveMaxUnavailable(rollingUpdate?.maxUnavailable, replicas),
    updateRevision: revisions.update.metadata.name ?? '',
    pods,
  };
}

/** recordCollision persists a bumped collisionCount (so the next sync hashes differently)
 * and rethrows the error for a retry. */
async function recordCollision(deps: StatefulSetDeps, set: ReadonlyStatefulSet, err: unknown): Promise<never> {
  const collisionCount = (err as { collisionCount?: unknown }).collisionCount;
  if (typeof collisionCount === 'number') {
    // An update of /status, as its role (system:controller:statefulset-controller) allows no patch there.
    await deps.sets.updateStatus({ ...(structuredClone(set) as StatefulSet), status: { ...set.status, collisionCount } as StatefulSetStatus });
  }
  throw err;
}

/** writeStatus PUTs the status when it changed; a conflict is retried once on a fresh read. */
async function writeStatus(deps: StatefulSetDeps, set: ReadonlyStatefulSet, status: StatefulSetStatus): Promise<void> {
  if (!statusNeedsUpdate(set, status)) return;
  const put = (from: ReadonlyStatefulSet) =>
    deps.sets.updateStatus({ ...(structuredClone(from) as StatefulSet), status: { ...from.status, ...status } as StatefulSetStatus });
  try {
    await put(set);
    return;
  } catch (err) {
    if (isNotFound(err)) return;
    if (!isConflict(err)) throw err;
  }
  const fresh = await deps.sets.get(set.metadata.namespace ?? '', set.metadata.name ?? '');
  if (fresh.metadata.uid === set.metadata.uid) await put(fresh);
}

/** availabilityRequeue looks again after minReadySeconds while ready pods are not yet
 * available: no event announces that time has passed. */
function availabilityRequeue(set: ReadonlyStatefulSet, status: StatefulSetStatus): Result {
  const minReadySeconds = set.spec.minReadySeconds ?? 0;
  if (minReadySeconds > 0 && (status.readyReplicas ?? 0) > (status.availableReplicas ?? 0)) return { requeueAfterMs: minReadySeconds * 1000 };
  return {};
}
