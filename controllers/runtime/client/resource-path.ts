/**
 * REST paths and query parameters of a kind, derived from its KindRef exactly as
 * the server derives its routes (apiserver/routes/resource-path.ts), so the two cannot drift
 * apart: `/api/v1/namespaces/{ns}/pods/{name}`, `/apis/apps/v1/deployments`, ...
 */
import type { KindRef } from '../../../apiserver/api/resource-definition.js';
import type { DeleteOptions, ListOptions, PatchType, WatchOptions, WriteOptions } from '../types.js';
import type { QueryParams } from './http-transport.js';

/** PATCH_CONTENT_TYPES maps each patch type to the Content-Type the server dispatches on. */
export const PATCH_CONTENT_TYPES: Record<PatchType, string> = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

/** collectionPath is the list/create/watch path; `namespace` is ignored for cluster-scoped
 * kinds, and undefined (all namespaces) drops the namespace segment. */
export function collectionPath(def: KindRef, namespace: string | undefined): string {
  const base = def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
  const scope = def.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${base}${scope}/${def.plural}`;
}

/** objectPath is the path of one object, or of its subresource. */
export function objectPath(def: KindRef, namespace: string, name: string, subresource?: string): string {
  const path = `${collectionPath(def, namespace)}/${encodeURIComponent(name)}`;
  return subresource ? `${path}/${subresource}` : path;
}

/** listQuery renders ListOptions (minus namespace, which is in the path). */
export function listQuery(options: ListOptions): QueryParams {
  return {
    labelSelector: options.labelSelector || undefined,
    fieldSelector: options.fieldSelector || undefined,
    limit: options.limit,
    continue: options.continue || undefined,
    resourceVersion: options.resourceVersion || undefined,
    resourceVersionMatch: options.resourceVersion ? options.resourceVersionMatch : undefined,
  };
}

/** watchQuery renders WatchOptions plus `watch=true`. */
export function watchQuery(options: WatchOptions): QueryParams {
  return {
    watch: true,
    labelSelector: options.labelSelector || undefined,
    fieldSelector: options.fieldSelector || undefined,
    resourceVersion: options.resourceVersion || undefined,
    allowWatchBookmarks: options.allowWatchBookmarks || undefined,
    timeoutSeconds: options.timeoutSeconds,
    sendInitialEvents: options.sendInitialEvents,
  };
}

/** writeQuery renders fieldManager and dryRun (`All`, the only value Kubernetes accepts). */
export function writeQuery(options: WriteOptions | undefined, defaultFieldManager: string | undefined): QueryParams {
  return { fieldManager: options?.fieldManager ?? defaultFieldManager, dryRun: options?.dryRun ? 'All' : undefined };
}

/** deleteBody renders DeleteOptions as the body kubectl sends. */
export function deleteBody(options: DeleteOptions | undefined): string | undefined {
  if (!options) return undefined;
  return JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', ...options });
}
