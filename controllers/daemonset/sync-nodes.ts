/**
 * Acting on a DaemonSet's plans (Kubernetes' syncNodes): create a pod pinned to each node
 * that needs one, in slow-start batches, and delete the chosen pods, recording expectations
 * first so the next reconcile waits for the cache to show the results. Every create and
 * delete is reported as an event on the DaemonSet.
 */
import { isNotFound } from '../../apiserver/api/api-error.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { KubeObject } from '../../apiserver/api/resource-definition.js';
import type { Expectations } from '../runtime/expectations.js';
import type { ReadonlyPod } from '../runtime/pods/pod-state.js';
import { keyOf } from '../runtime/reconciler.js';
import { slowStartBatch } from '../runtime/slow-start.js';
import type { EventRecorder, ResourceClient } from '../runtime/types.js';
import { newDaemonPod } from './daemon-pods.js';
import type { ReadonlyDaemonSet } from './node-eligibility.js';

/** BURST_REPLICAS caps the creates of one reconcile, as the DaemonSet controller's 250. */
export const BURST_REPLICAS = 250;

/** SyncContext is what syncNodes acts with. */
export interface SyncContext {
  ds: ReadonlyDaemonSet;
  /** The DaemonSet's work-queue key, under which expectations are recorded. */
  key: string;
  hash: string;
  pods: ResourceClient<Pod>;
  recorder: EventRecorder;
  expectations: Expectations;
  signal: AbortSignal;
}

/** SyncWork is what to do: nodes to create a pod on, pods to delete. */
export interface SyncWork {
  nodesToCreate: readonly string[];
  podsToDelete: readonly ReadonlyPod[];
}

/** syncNodes deletes then creates as planned and returns the first failure (never throws),
 * so the caller can still write status before retrying. */
export async function syncNodes(context: SyncContext, work: SyncWork): Promise<Error | undefined> {
  const nodes = work.nodesToCreate.slice(0, BURST_REPLICAS);
  const victims = work.podsToDelete;
  context.expectations.expectCreations(context.key, nodes.length);
  context.expectations.expectDeletions(context.key, victims.map(keyOf));
  const deleteErrors = await Promise.all(victims.map((pod) => deletePod(context, pod)));
  const queue = [...nodes];
  const { successes, error } = await slowStartBatch({ count: nodes.length, signal: context.signal }, () => createPod(context, queue.shift() ?? ''));
  // The informer will never see pods that failed or were never attempted.
  for (let skipped = nodes.length - successes; skipped > 0; skipped--) context.expectations.creationObserved(context.key);
  return deleteErrors.find((e) => e !== undefined) ?? (error === undefined ? undefined : asError(error));
}

async function createPod({ ds, hash, pods, recorder }: SyncContext, nodeName: string): Promise<void> {
  try {
    const created = await pods.create(newDaemonPod(ds, nodeName, hash));
    recorder.event(eventTarget(ds), 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
  } catch (err) {
    recorder.event(eventTarget(ds), 'Warning', 'FailedCreate', `Error creating: ${asError(err).message}`);
    throw err;
  }
}

async function deletePod(context: SyncContext, pod: ReadonlyPod): Promise<Error | undefined> {
  try {
    await removePod(context, pod);
    return undefined;
  } catch (err) {
    context.expectations.deletionObserved(context.key, keyOf(pod));
    return isNotFound(err) ? undefined : asError(err);
  }
}

/**
 * removePod deletes one pod (immediately, with grace 0, when `force`) and records the event.
 * Throws the API error (after a FailedDelete event unless the pod was already gone).
 */
export async function removePod(
  { ds, pods, recorder }: Pick<SyncContext, 'ds' | 'pods' | 'recorder'>,
  pod: ReadonlyPod,
  { force = false }: { force?: boolean } = {},
): Promise<void> {
  const { namespace = '', name = '', uid } = pod.metadata;
  try {
    await pods.delete(namespace, name, force ? { gracePeriodSeconds: 0, preconditions: { uid } } : undefined);
    recorder.event(eventTarget(ds), 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
  } catch (err) {
    if (!isNotFound(err)) recorder.event(eventTarget(ds), 'Warning', 'FailedDelete', `Error deleting: ${asError(err).message}`);
    throw err;
  }
}

/** eventTarget names the DaemonSet with its kind (cached list items may lack it); a shallow
 * copy, the cache object itself is untouched. */
function eventTarget(ds: ReadonlyDaemonSet): KubeObject {
  return { ...(ds as KubeObject), apiVersion: 'apps/v1', kind: 'DaemonSet' };
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
