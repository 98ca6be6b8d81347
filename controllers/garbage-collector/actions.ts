/**
 * The garbage collector's writes. Each reads the object live first and writes with its uid
 * and resourceVersion as preconditions, so it acts only on the exact object it judged (never
 * on a same-named newcomer) and never overwrites a change it did not see: a 409 makes the
 * reconcile retry with fresh state. An object that is already gone needs nothing.
 */
import { isConflict, isNotFound } from '../../apiserver/api/api-error.js';
import type { KubeObject } from '../../apiserver/api/resource-definition.js';
import type { DeleteOptions, Logger, ResourceClient } from '../runtime/types.js';
import { referencesWithout } from './decisions.js';

type Policy = NonNullable<DeleteOptions['propagationPolicy']>;

/** ObjectIdentity names one object exactly. */
export interface ObjectIdentity {
  namespace: string;
  name: string;
  uid: string;
}

/**
 * removeOwnerReferences drops the references to `ownerUids` from the object (a merge patch
 * of the remaining list). Does nothing when the object is gone, was replaced, or no longer
 * has such references. Rejects with 409 when it changed since the read (retry).
 */
export async function removeOwnerReferences(client: ResourceClient, target: ObjectIdentity, ownerUids: readonly string[]): Promise<void> {
  const live = await getLive(client, target);
  if (!live) return;
  const references = live.metadata.ownerReferences ?? [];
  const kept = referencesWithout(references, ownerUids);
  if (kept.length === references.length) return;
  await patchMetadata(client, live, { ownerReferences: kept.length > 0 ? kept : null });
}

/**
 * removeFinalizer drops `finalizer` from the object; when it was the last one of a deleting
 * object, the server removes the object. Does nothing when the object is gone, was replaced,
 * or does not have the finalizer. Rejects with 409 when it changed since the read (retry).
 */
export async function removeFinalizer(client: ResourceClient, target: ObjectIdentity, finalizer: string): Promise<void> {
  const live = await getLive(client, target);
  if (!live) return;
  const finalizers = live.metadata.finalizers ?? [];
  if (!finalizers.includes(finalizer)) return;
  const rest = finalizers.filter((f) => f !== finalizer);
  await patchMetadata(client, live, { finalizers: rest.length > 0 ? rest : null });
}

/**
 * deleteExactly deletes the object under `policy`, only if it still is the version that was
 * judged (`target.uid`, and `target.resourceVersion` when given). A 404, or a 409 after which
 * the object is found gone or replaced by a same-named newcomer, means it is already gone; a
 * 409 on a changed but still present object rejects, so the reconcile retries on fresh state
 * (its references may have changed: it may have been adopted).
 */
export async function deleteExactly(
  client: ResourceClient,
  target: ObjectIdentity & { resourceVersion?: string },
  options: { policy: Policy; logger: Logger },
): Promise<void> {
  const { namespace, name, uid, resourceVersion } = target;
  try {
    await client.delete(namespace, name, { propagationPolicy: options.policy, preconditions: { uid, resourceVersion } });
    options.logger.info({ namespace, name, uid, propagationPolicy: options.policy }, 'deleting an object whose owners are gone');
  } catch (err) {
    if (isNotFound(err)) return;
    if (isConflict(err) && !(await getLive(client, target))) return;
    throw err;
  }
}

/** getLive reads the object; undefined when it is gone or the name now holds another uid. */
export async function getLive(client: ResourceClient, target: ObjectIdentity): Promise<KubeObject | undefined> {
  try {
    const live = await client.get(target.namespace, target.name);
    return live.metadata.uid === target.uid ? live : undefined;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

async function patchMetadata(client: ResourceClient, live: KubeObject, changes: Record<string, unknown>): Promise<void> {
  const { namespace = '', name = '', uid, resourceVersion } = live.metadata;
  try {
    await client.patch(namespace, name, { metadata: { uid, resourceVersion, ...changes } }, { type: 'merge' });
  } catch (err) {
    // Removed between the read and the patch: nothing left to release.
    if (isNotFound(err)) return;
    throw err;
  }
}
