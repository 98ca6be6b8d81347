/**
 * The typed REST client every kubesim component uses (client-go's dynamic + typed clients in
 * one): a ResourceClient per ResourceDefinition, all sharing one keep-alive transport.
 * Errors are ApiError rebuilt from the server's Status (isNotFound, isConflict, ...) or
 * NetworkError when the server could not be reached.
 */
import { badRequest } from '../../../apiserver/api/api-error.js';
import {
  type AnyKindRef,
  type AnyResourceDefinition,
  apiVersionOf,
  type KindRef,
  type KubeObject,
  type ResourceDefinition,
} from '../../../apiserver/api/resource-definition.js';
import { silentLogger } from '../logger.js';
import type { DeleteOptions, ListOptions, Logger, ObjectList, PatchOptions, ResourceClient, Scale, WatchEvent, WatchOptions, WriteOptions } from '../types.js';
import type { DiscoveredResource, DiscoveryClient } from './discovery.js';
import { type ClientTls, createHttpTransport, type HttpRequest, type HttpTransport } from './http-transport.js';
import { collectionPath, deleteBody, listQuery, objectPath, PATCH_CONTENT_TYPES, watchQuery, writeQuery } from './resource-path.js';
import { watchStream } from './watch-stream.js';

/** KubeClientOptions configures createKubeClient. */
export interface KubeClientOptions {
  /** API server URL, e.g. from loadKubeconfig(), or a comma-separated list of a cluster's API
   * servers: one is used at a time, the next takes over when it fails (server-pool.ts). */
  server: string;
  /** A bearer token, or a function giving the current one (a renewed service-account token). */
  token?: string | (() => string);
  /** CA and client certificate for an https server (from loadKubeconfig()). */
  tls?: ClientTls;
  /** Sent as User-Agent; name the component (`kubesim-replicaset-controller/0.1`). */
  userAgent: string;
  /** fieldManager for writes that do not name one (server-side apply requires one). */
  defaultFieldManager?: string;
  headers?: Record<string, string>;
  /** Kinds forKind() resolves (and discover() reuses); the built-in kinds when absent (add
   * CRDs here). Those are loaded on the first forKind(): every kind's schema is a large module
   * graph that most components, which name their kinds' definitions themselves, never need. */
  definitions?: readonly AnyResourceDefinition[];
  /** Receives undecodable watch frames and dropped connections; silent when absent. */
  logger?: Logger;
}

/**
 * KubeClient knows how to reach one API server. resource() and forKind() return clients
 * that share its connections; close() releases idle sockets when the component stops.
 */
export interface KubeClient {
  readonly server: string;
  resource<T extends KubeObject>(def: KindRef<T>): ResourceClient<T>;
  /** Client for `apiVersion`/`kind`; rejects when no known definition serves it. */
  forKind(apiVersion: string, kind: string): Promise<ResourceClient & { readonly definition: AnyResourceDefinition }>;
  /** Kinds the server serves now, at each group's preferred version (see discovery.ts);
   * each is usable with resource(). Rejects with ApiError or NetworkError. */
  discover(): Promise<DiscoveredResource[]>;
  /** Sends one request as-is and resolves with the decoded body (client-go's RESTClient):
   * for calls ResourceClient does not cover, such as deletecollection or namespaces/finalize. */
  raw(request: HttpRequest): Promise<unknown>;
  close(): void;
}

/** createKubeClient builds a KubeClient (see KubeClientOptions). It sends nothing until used. */
export function createKubeClient(options: KubeClientOptions): KubeClient {
  const transport = createHttpTransport(options);
  const definitions = lazyDefinitions(options.definitions);
  const logger = options.logger ?? silentLogger;
  // Server-side apply requires a manager: fall back to the product part of the User-Agent.
  const applyFieldManager = options.defaultFieldManager ?? (options.userAgent.split('/')[0] || 'kubesim');
  // Loaded on first use: discovery parses with zod, which most components never need.
  let discovery: Promise<DiscoveryClient> | undefined;
  const discoveryClient = () =>
    (discovery ??= import('./discovery.js').then((m) => m.createDiscoveryClient({ transport: options, definitions: options.definitions ?? [] })));
  // Each entry's client has the T of its definition; resource() restores it.
  const cache = new Map<AnyKindRef, unknown>();
  const resource = <T extends KubeObject>(def: KindRef<T>): ResourceClient<T> => {
    let client = cache.get(def) as ResourceClient<T> | undefined;
    if (!client) {
      client = new HttpResourceClient<T>({ def, transport, defaultFieldManager: options.defaultFieldManager, applyFieldManager, logger });
      cache.set(def, client);
    }
    return client;
  };
  return {
    server: options.server,
    resource,
    async forKind(apiVersion, kind) {
      const def = (await definitions()).find((d) => apiVersionOf(d) === apiVersion && d.kind === kind);
      if (!def) throw new Error(`no resource definition for ${apiVersion} ${kind}: pass it in KubeClientOptions.definitions`);
      // The client of a full definition carries it: callers may look at its subresources.
      return resource(def) as ResourceClient & { readonly definition: AnyResourceDefinition };
    },
    discover: async () => (await discoveryClient()).discover(),
    raw: (request) => transport.send(request),
    close: () => {
      transport.close();
      void discovery?.then((client) => client.close());
    },
  };
}

/** lazyDefinitions returns `given`, or else loads the built-in kinds once, when first asked. */
function lazyDefinitions(given: readonly AnyResourceDefinition[] | undefined): () => Promise<readonly AnyResourceDefinition[]> {
  let loaded: Promise<readonly AnyResourceDefinition[]> | undefined;
  return () => (loaded ??= given ? Promise.resolve(given) : import('../../../apiserver/api/builtin.js').then((m) => m.builtinDefinitions()));
}

interface ResourceClientParts<T extends KubeObject> {
  def: KindRef<T>;
  transport: HttpTransport;
  defaultFieldManager: string | undefined;
  applyFieldManager: string;
  logger: Logger;
}

/** HttpResourceClient implements ResourceClient over HttpTransport. Returned objects are
 * freshly decoded, so they belong to the caller. */
class HttpResourceClient<T extends KubeObject> implements ResourceClient<T> {
  readonly definition: KindRef;
  private readonly def: KindRef<T>;

  constructor(private readonly parts: ResourceClientParts<T>) {
    this.def = parts.def;
    this.definition = parts.def as unknown as ResourceDefinition;
  }

  get(namespace: string, name: string): Promise<T> {
    return this.send({ method: 'GET', path: this.objectPath(namespace, name) });
  }

  async list(options: ListOptions = {}): Promise<ObjectList<T>> {
    const list = await this.send<ObjectList<T>>({ method: 'GET', path: collectionPath(this.definition, options.namespace), query: listQuery(options) });
    // Kubernetes may leave items' apiVersion/kind to the list (as client-go's UnstructuredList
    // fills them in): set them so cached objects always say what they are.
    for (const item of list.items) {
      item.apiVersion ??= apiVersionOf(this.def);
      item.kind ??= this.def.kind;
    }
    return list;
  }

  watch(options: WatchOptions): AsyncIterable<WatchEvent<T>> {
    const request: HttpRequest = {
      method: 'GET',
      path: collectionPath(this.definition, options.namespace),
      query: watchQuery(options),
      signal: options.signal,
    };
    const logger = this.parts.logger.child({ resource: this.def.plural, namespace: options.namespace });
    return { [Symbol.asyncIterator]: () => watchStream<T>(this.parts.transport, request, logger) };
  }

  create(object: T, options?: WriteOptions): Promise<T> {
    const path = collectionPath(this.definition, this.namespaceOf(object, 'create'));
    return this.send({ method: 'POST', path, query: this.writeQuery(options), ...json(object) });
  }

  update(object: T, options?: WriteOptions): Promise<T> {
    return this.put(object, undefined, options);
  }

  updateStatus(object: T, options?: WriteOptions): Promise<T> {
    return this.put(object, 'status', options);
  }

  patch(namespace: string, name: string, patch: unknown, options: PatchOptions): Promise<T> {
    const isApply = options.type === 'apply';
    const fieldManager = options.fieldManager ?? this.parts.defaultFieldManager ?? (isApply ? this.parts.applyFieldManager : undefined);
    const query = { ...this.writeQuery({ ...options, fieldManager }), force: isApply && options.force ? true : undefined };
    const body = typeof patch === 'string' ? patch : JSON.stringify(patch);
    const path = this.objectPath(namespace, name, options.subresource);
    return this.send({ method: 'PATCH', path, query, body, contentType: PATCH_CONTENT_TYPES[options.type] });
  }

  async delete(namespace: string, name: string, options?: DeleteOptions): Promise<T | undefined> {
    const body = deleteBody(options);
    const request: HttpRequest = { method: 'DELETE', path: this.objectPath(namespace, name) };
    const result = await this.send<T | { kind?: string; status?: string }>(body ? { ...request, body, contentType: 'application/json' } : request);
    // A Success Status means the object is gone; an object means it lingers (finalizers, grace).
    return isSuccessStatus(result) ? undefined : (result as T);
  }

  getScale(namespace: string, name: string): Promise<Scale> {
    return this.send({ method: 'GET', path: this.objectPath(namespace, name, 'scale') });
  }

  updateScale(namespace: string, name: string, scale: Scale): Promise<Scale> {
    const body: Scale = { apiVersion: 'autoscaling/v1', kind: 'Scale', ...scale };
    return this.send({ method: 'PUT', path: this.objectPath(namespace, name, 'scale'), ...json(body) });
  }

  private put(object: T, subresource: 'status' | undefined, options?: WriteOptions): Promise<T> {
    const path = this.objectPath(this.namespaceOf(object, 'update'), object.metadata.name ?? '', subresource);
    return this.send({ method: 'PUT', path, query: this.writeQuery(options), ...json(object) });
  }

  private async send<R = T>(request: HttpRequest): Promise<R> {
    return (await this.parts.transport.send(request)) as R;
  }

  private objectPath(namespace: string, name: string, subresource?: string): string {
    if (!name) throw badRequest(`client: ${this.def.kind} name is required`);
    return objectPath(this.definition, namespace, name, subresource);
  }

  /** namespaceOf is the namespace a write goes to; namespaced kinds must name one. */
  private namespaceOf(object: T, verb: string): string {
    const namespace = object.metadata.namespace ?? '';
    if (this.def.namespaced && !namespace) throw badRequest(`client: cannot ${verb} a ${this.def.kind} without metadata.namespace`);
    return this.def.namespaced ? namespace : '';
  }

  private writeQuery(options: WriteOptions | undefined) {
    return writeQuery(options, this.parts.defaultFieldManager);
  }
}

function json(body: unknown): Pick<HttpRequest, 'body' | 'contentType'> {
  return { body: JSON.stringify(body), contentType: 'application/json' };
}

function isSuccessStatus(body: unknown): boolean {
  const status = body as { kind?: unknown; status?: unknown } | undefined;
  return status === undefined || (status.kind === 'Status' && status.status === 'Success');
}
