/**
 * Discovery: which kinds the API server serves right now (client-go's discovery client,
 * reduced to what controllers need). It reads aggregated discovery (`/api` and `/apis` with
 * the apidiscovery.k8s.io/v2 Accept), keeps each group's preferred version only — so a kind
 * served at two versions over one storage (autoscaling/v2 and v1 HPAs) appears once — and
 * turns each resource into a ResourceDefinition that KubeClient.resource() accepts.
 *
 * Definitions the client was built with (KubeClientOptions.definitions) are reused; other
 * kinds (every kind, for a client built without any: loading all built-in schemas would
 * weigh on each process that runs discovery) get a schema-less definition: the HTTP client
 * needs only group, version, plural, kind and scope, and never validates what the server sends.
 */
import { z } from 'zod';
import type { AnyResourceDefinition, KubeObject, ResourceDefinition } from '../../../apiserver/api/resource-definition.js';
import { createHttpTransport, type HttpTransport, type TransportOptions } from './http-transport.js';

/** AGGREGATED_DISCOVERY_ACCEPT asks for APIGroupDiscoveryList, falling back to plain JSON. */
export const AGGREGATED_DISCOVERY_ACCEPT = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';

/** DiscoveredResource is one served kind at its group's preferred version; `verbs` is what
 * discovery listed (so `verbs.includes('deletecollection')` is reliable). */
export type DiscoveredResource = ResourceDefinition & { verbs: string[] };

/** DiscoveryEntry is the part of an aggregated-discovery resource a controller needs. */
export interface DiscoveryEntry {
  group: string;
  version: string;
  plural: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
}

interface AggregatedResource {
  resource?: unknown;
  responseKind?: { kind?: unknown };
  scope?: unknown;
  verbs?: unknown;
}

interface AggregatedGroupList {
  items?: Array<{ metadata?: { name?: unknown }; versions?: Array<{ version?: unknown; resources?: AggregatedResource[] }> }>;
}

/**
 * parseAggregatedDiscovery extracts the resources of each group's preferred version (the
 * first one listed: the server lists versions in preference order) from an
 * APIGroupDiscoveryList. Subresources are not resources and are skipped, as are entries
 * missing a name or kind. Pure; never throws on odd input (it yields fewer entries).
 */
export function parseAggregatedDiscovery(body: unknown): DiscoveryEntry[] {
  const entries: DiscoveryEntry[] = [];
  for (const group of (body as AggregatedGroupList | undefined)?.items ?? []) {
    const preferred = group.versions?.[0];
    const groupName = typeof group.metadata?.name === 'string' ? group.metadata.name : '';
    if (!preferred || typeof preferred.version !== 'string') continue;
    for (const resource of preferred.resources ?? []) {
      const entry = entryOf(groupName, preferred.version, resource);
      if (entry) entries.push(entry);
    }
  }
  return entries;
}

function entryOf(group: string, version: string, resource: AggregatedResource): DiscoveryEntry | undefined {
  const plural = resource.resource;
  const kind = resource.responseKind?.kind;
  if (typeof plural !== 'string' || typeof kind !== 'string' || plural === '' || kind === '') return undefined;
  const verbs = Array.isArray(resource.verbs) ? resource.verbs.filter((v): v is string => typeof v === 'string') : [];
  return { group, version, plural, kind, namespaced: resource.scope === 'Namespaced', verbs };
}

/** DiscoveryClient knows how to ask the server which kinds it serves. */
export interface DiscoveryClient {
  /** Served kinds at their preferred versions, core group first. Rejects with ApiError or
   * NetworkError when either discovery document cannot be read. */
  discover(): Promise<DiscoveredResource[]>;
  /** Closes idle connections; later calls open new ones. */
  close(): void;
}

/** DiscoveryClientOptions configures createDiscoveryClient. */
export interface DiscoveryClientOptions {
  /** Where and how to connect; the Accept header is replaced by AGGREGATED_DISCOVERY_ACCEPT. */
  transport: TransportOptions;
  /** Definitions to reuse for kinds they describe (group, version and plural match). */
  definitions: readonly AnyResourceDefinition[];
}

/**
 * createDiscoveryClient returns a DiscoveryClient. It connects on first use, with its own
 * keep-alive transport (discovery needs its own Accept header). The definitions it returns
 * are memoised by their discovered shape, so repeated discovery hands out the same objects
 * and KubeClient.resource()'s per-definition client cache does not grow with every call.
 */
export function createDiscoveryClient(options: DiscoveryClientOptions): DiscoveryClient {
  let transport: HttpTransport | undefined;
  const memo = new Map<string, DiscoveredResource>();
  const known = new Map(options.definitions.map((def) => [resourceId(def), def]));
  const toDefinition = (entry: DiscoveryEntry): DiscoveredResource => {
    const id = `${resourceId(entry)}|${entry.kind}|${entry.namespaced}|${entry.verbs.join(',')}`;
    let def = memo.get(id);
    if (!def) {
      def = definitionOf(entry, known.get(resourceId(entry)));
      memo.set(id, def);
    }
    return def;
  };
  return {
    async discover() {
      const headers = { ...options.transport.headers, Accept: AGGREGATED_DISCOVERY_ACCEPT };
      const http = (transport ??= createHttpTransport({ ...options.transport, headers }));
      const [core, groups] = await Promise.all([http.send({ method: 'GET', path: '/api' }), http.send({ method: 'GET', path: '/apis' })]);
      return [...parseAggregatedDiscovery(core), ...parseAggregatedDiscovery(groups)].map(toDefinition);
    },
    close: () => transport?.close(),
  };
}

function resourceId(def: Pick<DiscoveryEntry, 'group' | 'version' | 'plural'>): string {
  return `${def.group}/${def.version}/${def.plural}`;
}

/** PassthroughSchema stands in for the schema of a kind known only from discovery; clients
 * never parse with it. */
const PassthroughSchema = z.custom<KubeObject>((value) => typeof value === 'object' && value !== null);

function definitionOf(entry: DiscoveryEntry, known: ResourceDefinition | undefined): DiscoveredResource {
  if (known && known.kind === entry.kind && known.namespaced === entry.namespaced) return { ...known, verbs: [...entry.verbs] };
  return {
    group: entry.group,
    version: entry.version,
    kind: entry.kind,
    plural: entry.plural,
    singular: entry.kind.toLowerCase(),
    shortNames: [],
    categories: [],
    namespaced: entry.namespaced,
    schema: PassthroughSchema,
    tracksGeneration: false,
    subresources: {},
    printColumns: [],
    verbs: [...entry.verbs],
    storage: { resource: entry.group ? `${entry.plural}.${entry.group}` : entry.plural },
  };
}
