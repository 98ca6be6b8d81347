/**
 * Deleting everything in a namespace (kube's namespaced resources deleter, in our own words):
 * for every namespaced kind discovery lists, delete the whole collection in one request
 * (deletecollection) or, for kinds without that verb, list and delete one by one; then list
 * again and count what is left — objects in a grace period or held by finalizers — and the
 * finalizers that hold them.
 */
import { ApiError, isNotFound } from '../../apiserver/api/api-error.js';
import type { DiscoveredResource } from '../runtime/client/discovery.js';
import type { KubeClient } from '../runtime/client/http-client.js';
import { collectionPath, deleteBody } from '../runtime/client/resource-path.js';
import type { DeleteOptions } from '../runtime/types.js';
import type { DeletionReport } from './conditions.js';

/** DELETE_OPTIONS: Background, so the API server never adds an `orphan` finalizer that would
 * leave dependents behind; the namespace is emptied completely anyway. */
const DELETE_OPTIONS: DeleteOptions = { propagationPolicy: 'Background' };

/** isDeletableNamespaced: the namespace controller can list and delete this kind's objects. */
export function isDeletableNamespaced(resource: DiscoveredResource): boolean {
  return resource.namespaced && resource.verbs.includes('list') && resource.verbs.includes('delete');
}

/** qualifiedName names a kind in condition messages as Kubernetes does: `pods.`, `deployments.apps`. */
export function qualifiedName(resource: Pick<DiscoveredResource, 'plural' | 'group'>): string {
  return `${resource.plural}.${resource.group}`;
}

interface KindOutcome {
  resource: DiscoveredResource;
  remaining: number;
  finalizers: string[];
  error?: string;
}

/**
 * deleteAllContent deletes the content of `namespace` for every kind in `resources` (those
 * that are not deletable and namespaced are skipped), all kinds in parallel, and reports
 * what remains. A failure for one kind is recorded in `contentErrors` and does not stop the
 * others. Never rejects for API errors.
 */
export async function deleteAllContent(client: KubeClient, namespace: string, resources: readonly DiscoveredResource[]): Promise<DeletionReport> {
  const outcomes = await Promise.all(resources.filter(isDeletableNamespaced).map((resource) => deleteKind(client, namespace, resource)));
  const remainingByResource = new Map<string, number>();
  const remainingByFinalizer = new Map<string, number>();
  for (const outcome of outcomes) {
    if (outcome.remaining > 0) remainingByResource.set(qualifiedName(outcome.resource), outcome.remaining);
    for (const finalizer of outcome.finalizers) remainingByFinalizer.set(finalizer, (remainingByFinalizer.get(finalizer) ?? 0) + 1);
  }
  const contentErrors = outcomes.flatMap((o) => (o.error === undefined ? [] : [o.error]));
  return { contentErrors, remainingByResource, remainingByFinalizer };
}

async function deleteKind(client: KubeClient, namespace: string, resource: DiscoveredResource): Promise<KindOutcome> {
  try {
    const collected = resource.verbs.includes('deletecollection') && (await deleteCollection(client, namespace, resource));
    if (!collected) await deleteEach(client, namespace, resource);
    const left = (await client.resource(resource).list({ namespace })).items;
    return { resource, remaining: left.length, finalizers: left.flatMap((o) => o.metadata.finalizers ?? []) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { resource, remaining: 0, finalizers: [], error: `${qualifiedName(resource)}: ${message}` };
  }
}

/** deleteCollection: one DELETE on the collection; false when the server does not serve it
 * after all (405 or 404), so the caller falls back to deleting one by one. */
async function deleteCollection(client: KubeClient, namespace: string, resource: DiscoveredResource): Promise<boolean> {
  try {
    const body = deleteBody(DELETE_OPTIONS);
    await client.raw({ method: 'DELETE', path: collectionPath(resource, namespace), ...(body ? { body, contentType: 'application/json' } : {}) });
    return true;
  } catch (err) {
    if (isMethodNotAllowed(err) || isNotFound(err)) return false;
    throw err;
  }
}

function isMethodNotAllowed(err: unknown): boolean {
  return err instanceof ApiError && err.code === 405;
}

async function deleteEach(client: KubeClient, namespace: string, resource: DiscoveredResource): Promise<void> {
  const objects = client.resource(resource);
  const { items } = await objects.list({ namespace });
  for (const item of items) {
    // Already marked for deletion: deleting again changes nothing.
    if (item.metadata.deletionTimestamp) continue;
    try {
      await objects.delete(namespace, item.metadata.name ?? '', { ...DELETE_OPTIONS, preconditions: { uid: item.metadata.uid ?? '' } });
    } catch (err) {
      if (!isNotFound(err) && !isMethodNotAllowed(err)) throw err;
    }
  }
}
