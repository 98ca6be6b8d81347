/**
 * Equivalent resources, as kube-apiserver's EquivalentResourceRegistry: the served versions
 * that read and write the same stored objects (kube keys them by storage prefix, kubesim by
 * `def.storage.resource`) — autoscaling/v1 and v2 HorizontalPodAutoscalers, events.k8s.io/v1
 * and core v1 Events, the served versions of a CRD. Admission webhooks and policies with
 * matchPolicy Equivalent match a request through any of them.
 */
import type { Registry } from '../api/registry.js';
import type { ResourceDefinition } from '../api/resource-definition.js';
import { hasSubresource } from '../routes/resource-path.js';

// Per registry, cleared when a CRD adds or removes versions.
const cache = new WeakMap<Registry, Map<ResourceDefinition, readonly ResourceDefinition[]>>();

/** equivalentsOf lists the other served versions of `def`'s resource, in registration order,
 * that serve `subresource` too ('' for the main resource). */
export function equivalentsOf(registry: Registry, def: ResourceDefinition, subresource: string): readonly ResourceDefinition[] {
  const all = equivalentVersions(registry, def);
  return subresource === '' ? all : all.filter((other) => hasSubresource(other, subresource));
}

function equivalentVersions(registry: Registry, def: ResourceDefinition): readonly ResourceDefinition[] {
  let byDef = cache.get(registry);
  if (byDef === undefined) {
    const fresh = new Map<ResourceDefinition, readonly ResourceDefinition[]>();
    cache.set(registry, fresh);
    registry.onChange(() => fresh.clear());
    byDef = fresh;
  }
  let equivalents = byDef.get(def);
  if (equivalents === undefined) {
    equivalents = registry.all().filter((other) => other !== def && other.storage.resource === def.storage.resource);
    byDef.set(def, equivalents);
  }
  return equivalents;
}
