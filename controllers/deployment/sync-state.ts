/**
 * What one sync of one Deployment works with: the controller's dependencies, a private copy
 * of the Deployment, and its ReplicaSets as this sync has last seen them. The write helpers
 * here keep that state current after each write, so a later step of the same sync sends the
 * resourceVersion the previous step produced instead of a stale one (Kubernetes resends the
 * cached object and lets the 409 requeue; the outcome is the same, with fewer conflicts).
 */
import type { Deployment } from '../../apiserver/api/apps/deployment.js';
import type { ReplicaSet } from '../../apiserver/api/apps/replica-set.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { Clock, EventRecorder, Lister, Logger, ResourceClient } from '../runtime/types.js';
import type { ReadonlyReplicaSet } from './replica-sets.js';
import { REVISION_ANNOTATION, setDeploymentRevision } from './revision.js';
import type { DeploymentStatus } from './status.js';
import { sameStatus } from './status.js';

/** DeploymentDeps are what the Deployment reconciler reads from and writes to. */
export interface DeploymentDeps {
  deploymentLister: Lister<Deployment>;
  replicaSetLister: Lister<ReplicaSet>;
  podLister: Lister<Pod>;
  deployments: ResourceClient<Deployment>;
  replicaSets: ResourceClient<ReplicaSet>;
  recorder: EventRecorder;
  clock: Clock;
  logger: Logger;
}

/** SyncState is one sync of one Deployment. */
export interface SyncState {
  readonly deps: DeploymentDeps;
  /** A structuredClone of the cached Deployment; writes below keep its status, revision
   * annotation and resourceVersion equal to what the server holds. */
  readonly deployment: Deployment;
  /** The ReplicaSets this Deployment controls (after adoption and release). */
  replicaSets: ReadonlyReplicaSet[];
}

/** remember replaces `rs` in the sync's ReplicaSets (by uid) with the version a write returned. */
export function remember(state: SyncState, rs: ReadonlyReplicaSet): ReadonlyReplicaSet {
  state.replicaSets = state.replicaSets.map((known) => (known.metadata.uid === rs.metadata.uid ? rs : known));
  if (!state.replicaSets.includes(rs)) state.replicaSets.push(rs);
  return rs;
}

/** currentOf returns the sync's latest copy of `rs` (after any write this sync made). */
export function currentOf(state: SyncState, rs: ReadonlyReplicaSet): ReadonlyReplicaSet {
  return state.replicaSets.find((known) => known.metadata.uid === rs.metadata.uid) ?? rs;
}

/**
 * writeStatus writes `status` through /status when it differs from the Deployment's current
 * status, carrying the resourceVersion (a 409 propagates: the queue retries on fresh state).
 * Afterwards `state.deployment` holds the written status and the new resourceVersion.
 */
export async function writeStatus(state: SyncState, status: DeploymentStatus): Promise<void> {
  const d = state.deployment;
  if (sameStatus(d.status, status)) return;
  const written = await state.deps.deployments.updateStatus({ ...d, status });
  d.status = status;
  d.metadata.resourceVersion = written.metadata.resourceVersion;
}

/**
 * writeRevision sets the Deployment's deployment.kubernetes.io/revision annotation to
 * `revision` if it differs. Kubernetes writes it together with the status (its status
 * strategy keeps metadata changes); our /status stores only status, so it goes in an update
 * of the Deployment itself, with the resourceVersion as precondition. Annotations are
 * not spec: the generation does not move.
 */
export async function writeRevision(state: SyncState, revision: string): Promise<void> {
  const d = state.deployment;
  if (d.metadata.annotations?.[REVISION_ANNOTATION] === revision) return;
  // An update, not a patch: the deployment controller's role (system:controller:deployment-controller)
  // may update Deployments but not patch them.
  const next = structuredClone(d) as Deployment;
  next.metadata.annotations = { ...next.metadata.annotations, [REVISION_ANNOTATION]: revision };
  const written = await state.deps.deployments.update(next);
  setDeploymentRevision(d, revision);
  d.metadata.resourceVersion = written.metadata.resourceVersion;
}
