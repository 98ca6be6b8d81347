/**
 * Closing the gap between spec.replicas and the pods a ReplicaSet owns (Kubernetes'
 * manageReplicas): create the missing pods from the template in slow-start batches, or delete
 * the surplus in deletion-rank order, recording expectations for the pod informer to meet.
 */

import { isNotFound } from '../../apiserver/api/api-error.js';
import type { ReplicaSet } from '../../apiserver/api/apps/replica-set.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { KubeObject } from '../../apiserver/api/resource-definition.js';
import type { Expectations } from '../runtime/expectations.js';
import type { ReadonlyPod } from '../runtime/pods/pod-state.js';
import { keyOf } from '../runtime/reconciler.js';
import { slowStartBatch } from '../runtime/slow-start.js';
import type { DeepReadonly, EventRecorder, Logger, ResourceClient } from '../runtime/types.js';
import { newControllerRef, type OwnerKind, REPLICA_SET_KIND } from './owners.js';
import { getPodsToDelete } from './pods-to-delete.js';

/** BURST_REPLICAS caps the creates or deletes of one reconcile, as Kubernetes' BurstReplicas. */
export const BURST_REPLICAS = 500;

/** ManageContext is everything manageReplicas acts with. */
export interface ManageContext {
  rs: DeepReadonly<ReplicaSet>;
  /** The kind pods and events name as owner; a ReplicaSet when absent. */
  owner?: OwnerKind;
  /** The ReplicaSet's work-queue key, under which expectations are recorded. */
  key: string;
  /** The active pods it owns (after claiming). */
  ownedPods: readonly ReadonlyPod[];
  /** Active pods of the ReplicaSets sharing its controller, for the deletion rank. */
  relatedPods: readonly ReadonlyPod[];
  pods: ResourceClient<Pod>;
  recorder: EventRecorder;
  expectations: Expectations;
  logger: Logger;
  nowMs: number;
  signal: AbortSignal;
}

/**
 * manageReplicas creates or deletes pods until the ReplicaSet owns spec.replicas active pods
 * (at most BURST_REPLICAS per call). It records an event for every create and delete, and
 * returns the first failure instead of throwing it, so that the caller can still write the
 * status (with a ReplicaFailure condition) before retrying.
 */
export async function manageReplicas(context: ManageContext): Promise<Error | undefined> {
  const diff = (context.rs.spec.replicas ?? 1) - context.ownedPods.length;
  if (diff > 0) return createPods(context, Math.min(diff, BURST_REPLICAS));
  if (diff < 0) return deletePods(context, Math.min(-diff, BURST_REPLICAS));
  return undefined;
}

async function createPods(context: ManageContext, count: number): Promise<Error | undefined> {
  const { key, expectations, signal } = context;
  context.logger.info({ need: context.rs.spec.replicas, creating: count }, 'Too few replicas');
  // Expect every create before issuing any, so a pod event that arrives before we finish
  // cannot leave the expectations satisfied too early.
  expectations.expectCreations(key, count);
  const { successes, error } = await slowStartBatch({ count, signal }, () => createPod(context));
  // The informer will never see the pods that failed or were skipped: stop waiting for them.
  for (let skipped = count - successes; skipped > 0; skipped--) expectations.creationObserved(key);
  return error === undefined ? undefined : asError(error);
}

async function createPod({ rs, owner, pods, recorder }: ManageContext): Promise<void> {
  try {
    const created = await pods.create(podFromTemplate(rs, owner));
    recorder.event(eventTarget(rs, owner), 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
  } catch (err) {
    recorder.event(eventTarget(rs, owner), 'Warning', 'FailedCreate', `Error creating: ${asError(err).message}`);
    throw err;
  }
}

/**
 * podFromTemplate builds a new pod as Kubernetes' GetPodFromTemplate does: the template's
 * labels, annotations, finalizers and spec (deep-copied: the ReplicaSet is a shared cache
 * object), a `<rs-name>-` generateName for the server to complete, and the ReplicaSet's
 * controller reference. Throws when the ReplicaSet has no template.
 */
export function podFromTemplate(rs: DeepReadonly<ReplicaSet>, owner: OwnerKind = REPLICA_SET_KIND): Pod {
  if (rs.spec.template === undefined) throw new Error(`${owner.kind} ${rs.metadata.namespace}/${rs.metadata.name} has no pod template`);
  const template = structuredClone(rs.spec.template) as NonNullable<ReplicaSet['spec']['template']>;
  const metadata: Pod['metadata'] = {
    generateName: `${rs.metadata.name}-`,
    namespace: rs.metadata.namespace,
    ownerReferences: [newControllerRef(rs, owner)],
  };
  if (template.metadata?.labels) metadata.labels = template.metadata.labels;
  if (template.metadata?.annotations) metadata.annotations = template.metadata.annotations;
  if (template.metadata?.finalizers) metadata.finalizers = template.metadata.finalizers;
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: template.spec };
}

async function deletePods(context: ManageContext, count: number): Promise<Error | undefined> {
  const { key, expectations, ownedPods, relatedPods, nowMs } = context;
  context.logger.info({ need: context.rs.spec.replicas, deleting: count }, 'Too many replicas');
  const victims = getPodsToDelete(ownedPods, count, { relatedPods, nowMs });
  // Expect each deletion by pod key: it is observed twice (deletionTimestamp, then DELETED)
  // but must be counted once.
  expectations.expectDeletions(key, victims.map(podKey));
  const errors = await Promise.all(victims.map((pod) => deletePod(context, pod)));
  return errors.find((error) => error !== undefined);
}

async function deletePod({ rs, owner, key, pods, recorder, expectations }: ManageContext, pod: ReadonlyPod): Promise<Error | undefined> {
  const { namespace = '', name = '' } = pod.metadata;
  try {
    await pods.delete(namespace, name);
    recorder.event(eventTarget(rs, owner), 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
    return undefined;
  } catch (err) {
    // The informer will not report a deletion that did not happen (or already happened).
    expectations.deletionObserved(key, podKey(pod));
    if (isNotFound(err)) return undefined;
    recorder.event(eventTarget(rs, owner), 'Warning', 'FailedDelete', `Error deleting: ${asError(err).message}`);
    return asError(err);
  }
}

/** podKey is the key (`namespace/name`) under which deletions are expected and observed. */
export function podKey(pod: ReadonlyPod): string {
  return keyOf(pod);
}

/** eventTarget names the ReplicaSet in events with its kind: list items from the API server
 * (and so cache objects) may lack apiVersion/kind, which `kubectl describe` filters on.
 * A shallow copy: the shared cache object itself is not touched. */
function eventTarget(rs: DeepReadonly<ReplicaSet>, owner: OwnerKind = REPLICA_SET_KIND): KubeObject {
  return { ...(rs as KubeObject), apiVersion: owner.apiVersion, kind: owner.kind };
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
