/**
 * API discovery, generated from the live registry: aggregated discovery (apidiscovery.k8s.io
 * v2/v2beta1, what kubectl asks for first, served with its exact media type) and the legacy
 * documents (APIVersions, APIGroupList, APIGroup, APIResourceList).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pathNotFound } from '../api/api-error.js';
import type { Registry } from '../api/registry.js';
import { ALL_VERBS, type ResourceDefinition } from '../api/resource-definition.js';
import { aggregatedDiscoveryVersion } from '../request/accept.js';

interface SubresourceInfo {
  name: string;
  group: string;
  version: string;
  kind: string;
  verbs: string[];
}

const EXTRA_SUBRESOURCES: Record<string, Omit<SubresourceInfo, 'name'>> = {
  binding: { group: '', version: 'v1', kind: 'Binding', verbs: ['create'] },
  eviction: { group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] },
  token: { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', verbs: ['create'] },
  log: { group: '', version: 'v1', kind: 'Pod', verbs: ['get'] },
  finalize: { group: '', version: 'v1', kind: 'Namespace', verbs: ['update'] },
  approval: { group: 'certificates.k8s.io', version: 'v1', kind: 'CertificateSigningRequest', verbs: ['get', 'patch', 'update'] },
  ephemeralcontainers: { group: '', version: 'v1', kind: 'Pod', verbs: ['get', 'patch', 'update'] },
};

function subresourcesOf(def: ResourceDefinition): SubresourceInfo[] {
  const list: SubresourceInfo[] = [];
  if (def.subresources.status) list.push({ name: 'status', group: def.group, version: def.version, kind: def.kind, verbs: ['get', 'patch', 'update'] });
  if (def.subresources.scale) list.push({ name: 'scale', group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] });
  for (const name of def.subresources.extra ?? []) {
    const info = EXTRA_SUBRESOURCES[name];
    if (info) list.push({ name, ...info });
  }
  return list;
}

const verbsOf = (def: ResourceDefinition) => [...(def.verbs ?? ALL_VERBS)];

function aggregatedResource(def: ResourceDefinition) {
  return {
    resource: def.plural,
    responseKind: { group: def.group, version: def.version, kind: def.kind },
    scope: def.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: def.singular,
    verbs: verbsOf(def),
    ...(def.shortNames.length ? { shortNames: def.shortNames } : {}),
    ...(def.categories.length ? { categories: def.categories } : {}),
    subresources: subresourcesOf(def).map((s) => ({
      subresource: s.name,
      responseKind: { group: s.group, version: s.version, kind: s.kind },
      verbs: s.verbs,
    })),
  };
}

/** aggregatedDiscovery builds the APIGroupDiscoveryList for the core group (`/api`) or for the named groups (`/apis`). */
export function aggregatedDiscovery(registry: Registry, core: boolean, version: 'v2' | 'v2beta1') {
  const groups = registry.groups().filter((g) => (g.name === '') === core);
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: `apidiscovery.k8s.io/${version}`,
    metadata: {},
    items: groups.map((group) => ({
      metadata: { name: group.name, creationTimestamp: null },
      versions: group.versions.map((v) => ({
        version: v,
        freshness: 'Current',
        resources: registry.inGroupVersion(group.name, v).map(aggregatedResource),
      })),
    })),
  };
}

/** resourceList builds the legacy APIResourceList of one group-version. */
export function resourceList(registry: Registry, group: string, version: string) {
  const defs = registry.inGroupVersion(group, version);
  if (defs.length === 0) throw pathNotFound();
  const resources = defs.flatMap((def) => [
    {
      name: def.plural,
      singularName: def.singular,
      namespaced: def.namespaced,
      kind: def.kind,
      verbs: verbsOf(def),
      ...(def.shortNames.length ? { shortNames: def.shortNames } : {}),
      ...(def.categories.length ? { categories: def.categories } : {}),
    },
    ...subresourcesOf(def).map((s) => ({
      name: `${def.plural}/${s.name}`,
      singularName: '',
      namespaced: def.namespaced,
      ...(s.group !== def.group || s.version !== def.version ? { group: s.group, version: s.version } : {}),
      kind: s.kind,
      verbs: s.verbs,
    })),
  ]);
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group ? `${group}/${version}` : version, resources };
}

function apiGroup(name: string, versions: string[]) {
  const entries = versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
  return { name, versions: entries, preferredVersion: entries[0] };
}

/** registerDiscoveryRoutes serves /api, /apis and /apis/{group}. Per-group-version resource
 * lists are served by the resource routes (they share the path prefix). */
export function registerDiscoveryRoutes(app: FastifyInstance, registry: Registry): void {
  const aggregatedOr = (core: boolean, legacy: (request: FastifyRequest) => unknown) => async (request: FastifyRequest, reply: FastifyReply) => {
    const version = aggregatedDiscoveryVersion(request.headers.accept);
    if (!version) return legacy(request);
    reply.header('Content-Type', `application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`);
    reply.header('Vary', 'Accept');
    // A Buffer: fastify would rewrite the media type of a string body (quoting its parameters
    // and appending a charset), and clients compare it as kube-apiserver sends it.
    return Buffer.from(JSON.stringify(aggregatedDiscovery(registry, core, version)));
  };
  app.get(
    '/api',
    aggregatedOr(true, (request) => ({
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: request.headers.host ?? '' }],
    })),
  );
  app.get(
    '/apis',
    aggregatedOr(false, () => ({
      kind: 'APIGroupList',
      apiVersion: 'v1',
      groups: registry
        .groups()
        .filter((g) => g.name !== '')
        .map((g) => apiGroup(g.name, g.versions)),
    })),
  );
  app.get<{ Params: { group: string } }>('/apis/:group', async (request) => {
    const group = registry.groups().find((g) => g.name === request.params.group && g.name !== '');
    if (!group) throw pathNotFound();
    return { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(group.name, group.versions) };
  });
}
