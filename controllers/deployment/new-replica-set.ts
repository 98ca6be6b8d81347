/**
 * Finding, updating and creating a Deployment's new ReplicaSet — the one whose template is
 * the Deployment's (sync.go getAllReplicaSetsAndSyncRevision / getNewReplicaSet).
 *
 * Revisions: the new ReplicaSet carries max(old revisions) + 1. A ReplicaSet made current
 * again (`kubectl rollout undo` patches the template back) is "found" rather than created and
 * has its revision raised the same way, and the Deployment's revision annotation follows.
 *
 * Names: `<deployment>-<pod-template-hash>`, deterministic so a retried create is idempotent.
 * If the name is taken by a ReplicaSet that is not this template's (a hash collision), the
 * Deployment's status.collisionCount is bumped, which changes the hash, and the sync retried.
 */
import { isAlreadyExists } from '../../apiserver/api/api-error.js';
import type { Deployment } from '../../apiserver/api/apps/deployment.js';
import type { ReplicaSet } from '../../apiserver/api/apps/replica-set.js';
import { controllerRefOf, newControllerRef } from '../../apiserver/api/machinery/owner-references.js';
import type { LabelSelector, OwnerReference } from '../../apiserver/api/meta.js';
import { computeHash, POD_TEMPLATE_HASH_LABEL } from '../runtime/pods/pod-template-hash.js';
import { hasProgressDeadline } from './progress.js';
import type { ReadonlyReplicaSet } from './replica-sets.js';
import { equalIgnoreHash, findNewReplicaSet, findOldReplicaSets } from './replica-sets.js';
import { maxRevision, REVISION_ANNOTATION, setNewReplicaSetAnnotations } from './revision.js';
import { maxSurge, newRSNewReplicas } from './rolling-math.js';
import { eventSubject, recordScaling } from './scale-replica-set.js';
import { type ConditionInput, getCondition, newCondition, Reasons, setCondition } from './status.js';
import type { SyncState } from './sync-state.js';
import { remember, writeRevision, writeStatus } from './sync-state.js';

/** ReplicaSetsOfDeployment are the new ReplicaSet (if any) and all the old ones. */
export interface ReplicaSetsOfDeployment {
  newRS: ReadonlyReplicaSet | undefined;
  oldRSs: ReadonlyReplicaSet[];
}

/**
 * getAllReplicaSetsAndSyncRevision splits the Deployment's ReplicaSets into new and old and
 * brings the new one's annotations and revision (and the Deployment's) up to date; with
 * `create` it creates the new ReplicaSet when none exists (getAllReplicaSetsAndSyncRevision).
 */
export async function getAllReplicaSetsAndSyncRevision(state: SyncState, create: boolean): Promise<ReplicaSetsOfDeployment> {
  const oldRSs = findOldReplicaSets(state.deployment, state.replicaSets).all;
  const newRS = await getNewReplicaSet(state, oldRSs, create);
  return { newRS, oldRSs };
}

async function getNewReplicaSet(state: SyncState, oldRSs: ReadonlyReplicaSet[], create: boolean): Promise<ReadonlyReplicaSet | undefined> {
  const newRevision = maxRevision(oldRSs) + 1;
  const existing = findNewReplicaSet(state.deployment, state.replicaSets);
  if (existing) return syncExistingNewReplicaSet(state, existing, newRevision);
  return create ? createNewReplicaSet(state, oldRSs, newRevision) : undefined;
}

/**
 * syncExistingNewReplicaSet copies the Deployment's annotations and minReadySeconds onto the
 * new ReplicaSet and raises its revision; if that changed anything it is written and the
 * sync continues with it (the Deployment catches up on the next sync, as in Kubernetes).
 * Otherwise the Deployment's revision annotation follows the ReplicaSet's, and a Deployment
 * with a deadline but no Progressing condition yet gets FoundNewReplicaSet.
 */
async function syncExistingNewReplicaSet(state: SyncState, existing: ReadonlyReplicaSet, newRevision: number): Promise<ReadonlyReplicaSet> {
  const d = state.deployment;
  // NOTE: `existing` may be a shared cache object; edit a copy.
  const copy = structuredClone(existing) as ReplicaSet;
  const annotationsChanged = setNewReplicaSetAnnotations(d, copy, { newRevision, exists: true, maxSurge: maxSurge(d) });
  if (annotationsChanged || (copy.spec.minReadySeconds ?? 0) !== (d.spec.minReadySeconds ?? 0)) {
    copy.spec.minReadySeconds = d.spec.minReadySeconds;
    return remember(state, await state.deps.replicaSets.update(copy));
  }
  await writeRevision(state, copy.metadata.annotations?.[REVISION_ANNOTATION] ?? '');
  if (hasProgressDeadline(d) && !getCondition(d.status, 'Progressing')) {
    const message = `Found new replica set "${copy.metadata.name ?? ''}"`;
    await writeCondition(state, { type: 'Progressing', status: 'True', reason: Reasons.FoundNewReplicaSet, message });
  }
  return existing;
}

/** writeCondition sets one condition on the Deployment's status and writes it if it changed. */
async function writeCondition(state: SyncState, condition: ConditionInput): Promise<void> {
  const status = structuredClone(state.deployment.status ?? {});
  setCondition(status, newCondition(condition, state.deps.clock.now()));
  await writeStatus(state, status);
}

/** newReplicaSetFor builds the ReplicaSet for the Deployment's current template: named and
 * labelled with the template hash, controlled by the Deployment, not yet sized. */
export function newReplicaSetFor(d: Deployment): ReplicaSet {
  const hash = computeHash(d.spec.template, d.status?.collisionCount);
  const template = structuredClone(d.spec.template);
  const labels = { ...template.metadata?.labels, [POD_TEMPLATE_HASH_LABEL]: hash };
  template.metadata = { ...template.metadata, labels };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: `${d.metadata.name ?? ''}-${hash}`, namespace: d.metadata.namespace, ownerReferences: [controllerRefTo(d)], labels },
    spec: { replicas: 0, minReadySeconds: d.spec.minReadySeconds, selector: withHashLabel(d.spec.selector, hash), template },
  };
}

/** controllerRefTo is the ownerReference a Deployment puts on its ReplicaSets (NewControllerRef). */
export function controllerRefTo(d: Deployment): OwnerReference {
  return newControllerRef(d, 'apps/v1', 'Deployment');
}

function withHashLabel(selector: LabelSelector, hash: string): LabelSelector {
  const copy = structuredClone(selector);
  return { ...copy, matchLabels: { ...copy.matchLabels, [POD_TEMPLATE_HASH_LABEL]: hash } };
}

/**
 * createNewReplicaSet creates the new ReplicaSet sized by newRSNewReplicas, records the
 * scale-up event, moves the Deployment's revision to it and sets Progressing
 * NewReplicaSetCreated. An AlreadyExists that is our own ReplicaSet (slow cache) counts as
 * found; any other is a hash collision. Other failures are reported on the Deployment
 * (Progressing False ReplicaSetCreateError, a Warning event) and rethrown.
 */
async function createNewReplicaSet(state: SyncState, oldRSs: ReadonlyReplicaSet[], newRevision: number): Promise<ReadonlyReplicaSet> {
  const d = state.deployment;
  const rs = newReplicaSetFor(d);
  rs.spec.replicas = newRSNewReplicas(d, [...oldRSs, rs], rs);
  setNewReplicaSetAnnotations(d, rs, { newRevision, exists: false, maxSurge: maxSurge(d) });
  const created = await createOrFind(state, rs);
  if (created.alreadyExisted) {
    await writeRevision(state, String(newRevision));
    return created.rs;
  }
  const replicas = rs.spec.replicas ?? 0;
  if (replicas > 0) recordScaling(state, { operation: 'up', rsName: rs.metadata.name ?? '', from: 0, to: replicas });
  await writeRevision(state, String(newRevision));
  if (hasProgressDeadline(d)) {
    const message = `Created new replica set "${rs.metadata.name ?? ''}"`;
    await writeCondition(state, { type: 'Progressing', status: 'True', reason: Reasons.NewReplicaSetCreated, message });
  }
  return created.rs;
}

interface Created {
  rs: ReadonlyReplicaSet;
  alreadyExisted: boolean;
}

async function createOrFind(state: SyncState, rs: ReplicaSet): Promise<Created> {
  try {
    return { rs: remember(state, await state.deps.replicaSets.create(rs)), alreadyExisted: false };
  } catch (err) {
    if (isAlreadyExists(err)) return { rs: remember(state, await ownReplicaSetOrCollision(state, rs, err)), alreadyExisted: true };
    await reportCreateFailure(state, rs, err);
    throw err;
  }
}

/** ownReplicaSetOrCollision returns the existing ReplicaSet of that name if it is ours with
 * our template; otherwise bumps status.collisionCount and rethrows `err` so the sync is
 * retried with a different hash. */
async function ownReplicaSetOrCollision(state: SyncState, rs: ReplicaSet, err: unknown): Promise<ReadonlyReplicaSet> {
  const { deps, deployment: d } = state;
  const namespace = rs.metadata.namespace ?? '';
  const name = rs.metadata.name ?? '';
  // The cache may not have it yet (we just lost a create race); then ask the server.
  const existing = deps.replicaSetLister.get(namespace, name) ?? (await deps.replicaSets.get(namespace, name));
  const controller = controllerRefOf(existing);
  if (controller?.uid === d.metadata.uid && equalIgnoreHash(d.spec.template, existing.spec.template)) return existing;
  const collisionCount = (d.status?.collisionCount ?? 0) + 1;
  deps.logger.info({ replicaSet: name, collisionCount }, 'Found a hash collision for deployment - bumping collisionCount to resolve it');
  await writeStatus(state, { ...structuredClone(d.status ?? {}), collisionCount });
  throw err;
}

async function reportCreateFailure(state: SyncState, rs: ReplicaSet, err: unknown): Promise<void> {
  const message = `Failed to create new replica set "${rs.metadata.name ?? ''}": ${err instanceof Error ? err.message : String(err)}`;
  if (hasProgressDeadline(state.deployment)) {
    // The create error is the one worth retrying on; a failed status write here is only logged.
    await writeCondition(state, { type: 'Progressing', status: 'False', reason: Reasons.FailedRSCreate, message }).catch((writeErr: unknown) =>
      state.deps.logger.warn({ err: writeErr }, 'could not report the ReplicaSet create failure in status'),
    );
  }
  state.deps.recorder.event(eventSubject(state.deployment), 'Warning', Reasons.FailedRSCreate, message);
}
