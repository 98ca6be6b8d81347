/** What loops that put an object into every namespace share (the service-account controller,
 * the root CA publisher): which namespaces take new objects, and the refusal of one that does not. */
import { ApiError } from '../../apiserver/api/api-error.js';
import type { Namespace } from '../../apiserver/api/core/namespace.js';
import type { DeepReadonly } from './types.js';

/** isActiveNamespace: a namespace that exists and is not being deleted. */
export function isActiveNamespace(namespace: DeepReadonly<Namespace> | undefined): namespace is DeepReadonly<Namespace> {
  return namespace !== undefined && namespace.metadata.deletionTimestamp === undefined && namespace.status?.phase !== 'Terminating';
}

/** isRefusedByTerminatingNamespace: the 403 the API server answers a create in a namespace
 * being deleted with (the cache may not have seen the deletion yet). */
export function isRefusedByTerminatingNamespace(err: unknown): boolean {
  return err instanceof ApiError && err.code === 403;
}
