/**
 * Resolves a request path under /api/v1 or /apis/{group}/{version} against the live
 * registry: collection or object, namespace, subresource, and the legacy /watch/ prefix.
 * Resolution happens per request, so kinds added at run time are routable at once.
 */
import { pathNotFound } from '../api/api-error.js';
import type { Registry } from '../api/registry.js';
import type { ResourceDefinition } from '../api/resource-definition.js';

export interface ResourcePath {
  def: ResourceDefinition;
  /** '' for cluster-scoped kinds and for all-namespaces collections. */
  namespace: string;
  name?: string;
  subresource?: string;
  /** The path used the deprecated /watch/ prefix. */
  watchPrefix: boolean;
}

/** resolveResourcePath maps path segments (after the group/version) to a served resource, or
 * throws the 404 Kubernetes returns for unknown paths. Returns undefined for the bare
 * group-version path (its discovery document). */
export function resolveResourcePath(registry: Registry, group: string, version: string, segments: string[]): ResourcePath | undefined {
  if (segments.length === 0) return undefined;
  const watchPrefix = segments[0] === 'watch';
  const rest = watchPrefix ? segments.slice(1) : segments;
  const namespaced = rest[0] === 'namespaces' && rest.length >= 3 ? registry.find(group, version, rest[2]!) : undefined;
  const path = namespaced?.namespaced
    ? { def: namespaced, namespace: rest[1]!, name: rest[3], subresource: rest[4], extra: rest.length > 5 }
    : clusterPath(registry, group, version, rest);
  if (!path || path.extra || (path.name === undefined && path.subresource !== undefined)) throw pathNotFound();
  if (path.subresource !== undefined && !hasSubresource(path.def, path.subresource)) throw pathNotFound();
  return { def: path.def, namespace: path.namespace, name: path.name, subresource: path.subresource, watchPrefix };
}

function clusterPath(registry: Registry, group: string, version: string, rest: string[]) {
  const def = registry.find(group, version, rest[0]!);
  if (!def) return undefined;
  // Namespaced objects are only addressable under namespaces/{ns}/; only their
  // all-namespaces collection lives at the top.
  if (def.namespaced && rest.length > 1) return undefined;
  return { def, namespace: '', name: rest[1], subresource: rest[2], extra: rest.length > 3 };
}

/** hasSubresource: does the served version serve `subresource` (status, scale, or an extra one)? */
export function hasSubresource(def: ResourceDefinition, subresource: string): boolean {
  if (subresource === 'status') return def.subresources.status === true;
  if (subresource === 'scale') return def.subresources.scale !== undefined;
  return def.subresources.extra?.includes(subresource) ?? false;
}
