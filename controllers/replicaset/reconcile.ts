/**
 * The ReplicaSet reconciler (Kubernetes' syncReplicaSet): read the ReplicaSet and its pods
 * from the informer caches, claim the pods, create or delete until spec.replicas are running,
 * and report what it saw in status. Level-triggered: it never asks what event woke it, so a
 * missed or repeated event, a restart or a concurrent edit all converge the same way.
 */

import { isConflict, isNotFound } from '../../apiserver/api/api-error.js';
import type { ReplicaSet } from '../../apiserver/api/apps/replica-set.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { type LabelSelectorQuery, labelSelectorFromStructured } from '../../apiserver/api/labels.js';
import { controllerRefOf, isControlledBy } from '../../apiserver/api/machinery/owner-references.js';
import type { Expectations } from '../runtime/expectations.js';
import { CONTROLLER_UID_INDEX, OWNER_UID_INDEX } from '../runtime/indexers.js';
import { isPodActive, isPodTerminating, type ReadonlyPod } from '../runtime/pods/pod-state.js';
import { reconcileLogger, requestKey, terminalError } from '../runtime/reconciler.js';
import type { Clock, DeepReadonly, EventRecorder, Lister, Logger, Reconciler, Request, ResourceClient, Result } from '../runtime/types.js';
import { claimPods } from './claim-pods.js';
import { manageReplicas } from './manage-replicas.js';
import type { OwnerKind } from './owners.js';
import { calculateStatus, type ReplicaSetStatus, statusNeedsUpdate } from './status.js';

/**
 * ReplicaSetReconcilerDeps are the reconciler's collaborators. The pod lister must carry the
 * OWNER_UID_INDEX index and the ReplicaSet lister the CONTROLLER_UID_INDEX index.
 */
export interface ReplicaSetReconcilerDeps {
  replicaSetLister: Lister<ReplicaSet>;
  podLister: Lister<Pod>;
  /** Reads and status writes of the controller's objects (ReplicaSets, or ReplicationControllers seen as ReplicaSets). */
  replicaSets: Pick<ResourceClient<ReplicaSet>, 'get' | 'updateStatus'>;
  pods: ResourceClient<Pod>;
  /** The kind pods and events name as owner; a ReplicaSet when absent. */
  owner?: OwnerKind;
  /** The kind's status has no terminatingReplicas (ReplicationControllerStatus): never report it. */
  omitTerminatingReplicas?: boolean;
  recorder: EventRecorder;
  expectations: Expectations;
  clock: Clock;
  logger: Logger;
}

type ReadonlyReplicaSet = DeepReadonly<ReplicaSet>;

/**
 * createReplicaSetReconciler returns the Reconciler of the ReplicaSet controller. A reconcile
 * returns {} when the ReplicaSet is gone; throws (for a rate-limited retry) when claiming,
 * creating, deleting or the status write failed; throws a terminal error for a selector that
 * cannot be parsed; and asks to be requeued after minReadySeconds while ready pods are
 * waiting to become available.
 */
export function createReplicaSetReconciler(deps: ReplicaSetReconcilerDeps): Reconciler {
  return { reconcile: (request, signal) => syncReplicaSet(deps, request, signal) };
}

async function syncReplicaSet(deps: ReplicaSetReconcilerDeps, request: Request, signal: AbortSignal): Promise<Result> {
  const key = requestKey(request);
  const rs = deps.replicaSetLister.get(request.namespace, request.name);
  if (rs === undefined) {
    deps.expectations.delete(key);
    return {};
  }
  // Unmet expectations mean our own recent creates/deletes are not in the cache yet: the pod
  // count below would be stale, so this pass only claims pods and refreshes status.
  const needsSync = deps.expectations.satisfied(key);
  const selector = selectorOf(rs);
  const candidates = podsOf(deps.podLister, rs, selector);
  const owned = await claimPods({ rs, owner: deps.owner, selector, pods: deps.pods, replicaSets: deps.replicaSets }, candidates.filter(isPodActive));
  // A ReplicaSet being deleted neither creates nor deletes: the garbage collector takes its pods.
  const acts = needsSync && rs.metadata.deletionTimestamp === undefined;
  const manageError = acts ? await manage(deps, { rs, key, owned, signal }) : undefined;
  const terminatingPods = terminatingPodsOf(rs, selector, candidates);
  const status = calculateStatus(rs, { activePods: owned, terminatingPods, manageError, nowMs: deps.clock.now() });
  if (deps.omitTerminatingReplicas) delete status.terminatingReplicas;
  const written = await writeStatus(deps, rs, status);
  if (manageError !== undefined) throw manageError;
  return availabilityRequeue(written);
}

/** selectorOf parses spec.selector; a selector the API server let through but we cannot
 * parse is user intent no retry will fix, hence terminal. */
function selectorOf(rs: ReadonlyReplicaSet): LabelSelectorQuery {
  try {
    return labelSelectorFromStructured(structuredClone(rs.spec.selector) as ReplicaSet['spec']['selector']);
  } catch (err) {
    throw terminalError(err);
  }
}

/**
 * podsOf lists the pods that may belong to the ReplicaSet: those its selector matches (orphans
 * to adopt, its own) and those still pointing at it whose labels changed (to release).
 * NOTE: these are the informer's shared objects; nothing downstream may modify them.
 */
function podsOf(podLister: Lister<Pod>, rs: ReadonlyReplicaSet, selector: LabelSelectorQuery): ReadonlyPod[] {
  const namespace = rs.metadata.namespace ?? '';
  const matching = selector.isNothing() ? [] : podLister.list(namespace, selector.toString());
  const owned = podLister.byIndex(OWNER_UID_INDEX, rs.metadata.uid ?? '').filter((pod) => pod.metadata.namespace === namespace);
  const byName = new Map<string, ReadonlyPod>();
  for (const pod of [...matching, ...owned]) byName.set(pod.metadata.name ?? '', pod);
  return [...byName.values()];
}

/** terminatingPodsOf are the pods the ReplicaSet still owns that are shutting down: they no
 * longer count as replicas but are reported as terminatingReplicas. */
function terminatingPodsOf(rs: ReadonlyReplicaSet, selector: LabelSelectorQuery, candidates: readonly ReadonlyPod[]): ReadonlyPod[] {
  return candidates.filter((pod) => isPodTerminating(pod) && isControlledBy(pod, rs.metadata.uid) && selector.matches(pod.metadata.labels));
}

interface ManageStep {
  rs: ReadonlyReplicaSet;
  key: string;
  owned: readonly ReadonlyPod[];
  signal: AbortSignal;
}

async function manage(deps: ReplicaSetReconcilerDeps, { rs, key, owned, signal }: ManageStep): Promise<Error | undefined> {
  return manageReplicas({
    rs,
    owner: deps.owner,
    key,
    ownedPods: owned,
    relatedPods: relatedPodsOf(deps, rs),
    pods: deps.pods,
    recorder: deps.recorder,
    expectations: deps.expectations,
    logger: reconcileLogger(deps.logger),
    nowMs: deps.clock.now(),
    signal,
  });
}

/**
 * relatedPodsOf returns the pods of every ReplicaSet that shares this one's controller (a
 * Deployment's old and new ReplicaSets), so that scaling down spreads the survivors across
 * nodes for the whole Deployment. As in Kubernetes, a ReplicaSet without a controller has no
 * related pods and its pods are not ranked by co-location.
 */
function relatedPodsOf(deps: ReplicaSetReconcilerDeps, rs: ReadonlyReplicaSet): ReadonlyPod[] {
  const controllerUid = controllerRefOf(rs)?.uid;
  if (controllerUid === undefined) return [];
  const seen = new Map<string, ReadonlyPod>();
  for (const sibling of deps.replicaSetLister.byIndex(CONTROLLER_UID_INDEX, controllerUid)) {
    for (const pod of podsOf(deps.podLister, sibling, selectorOrNothing(sibling))) seen.set(pod.metadata.uid ?? '', pod);
  }
  return [...seen.values()];
}

function selectorOrNothing(rs: ReadonlyReplicaSet): LabelSelectorQuery {
  try {
    return selectorOf(rs);
  } catch {
    // A sibling with an invalid selector selects nothing; its own reconcile reports it.
    return labelSelectorFromStructured(undefined);
  }
}

/**
 * writeStatus PUTs `status` to /status when it differs from what the ReplicaSet reports,
 * carrying the resourceVersion it was computed from. Returns the ReplicaSet as it now stands.
 * A 409 is usually our own previous status write that the cache has not caught up with yet,
 * so, as Kubernetes does, it re-reads the ReplicaSet once and writes the same status onto
 * the fresh object; a second conflict is thrown and the queue retries with a fresher view.
 */
async function writeStatus(deps: ReplicaSetReconcilerDeps, rs: ReadonlyReplicaSet, status: ReplicaSetStatus): Promise<ReadonlyReplicaSet> {
  if (!statusNeedsUpdate(rs, status)) return rs;
  try {
    return await putStatus(deps, rs, status);
  } catch (err) {
    if (isNotFound(err)) return rs; // deleted meanwhile: the next reconcile returns {}.
    if (!isConflict(err)) throw err;
  }
  const fresh = await deps.replicaSets.get(rs.metadata.namespace ?? '', rs.metadata.name ?? '');
  if (fresh.metadata.uid !== rs.metadata.uid) return rs; // re-created: its own reconcile follows.
  return putStatus(deps, fresh, status);
}

async function putStatus(deps: ReplicaSetReconcilerDeps, rs: ReadonlyReplicaSet, status: ReplicaSetStatus): Promise<ReplicaSet> {
  // NOTE: `rs` may be the informer's shared object; edit a copy.
  const copy = structuredClone(rs) as ReplicaSet;
  copy.status = status;
  return deps.replicaSets.updateStatus(copy);
}

/**
 * availabilityRequeue looks again after minReadySeconds when every pod is ready but some
 * are not yet available: no pod event will announce that time has passed.
 */
function availabilityRequeue(rs: ReadonlyReplicaSet): Result {
  const minReadySeconds = rs.spec.minReadySeconds ?? 0;
  const { readyReplicas = 0, availableReplicas = 0 } = rs.status ?? {};
  const replicas = rs.spec.replicas ?? 1;
  if (minReadySeconds > 0 && readyReplicas === replicas && availableReplicas !== replicas) return { requeueAfterMs: minReadySeconds * 1000 };
  return {};
}
