/**
 * The typed REST client every kubesim component uses (client-go's dynamic + typed clients in
 * one): a ResourceClient per ResourceDefinition, all sharing one keep-alive transport.
 * Errors are ApiError rebuilt from the server's Status (isNotFound, isConflict, ...) or
 * NetworkError when the server could not be reached.
 */
import { badRequest } from '../../../apiserver/api/api-error.js';
import { builtinDefinitions } from '../../../apiserver/api/builtin.js';
import { apiVersionOf } from '../../../apiserver/api/resource-definition.js';
import { silentLogger } from '../logger.js';
import { createDiscoveryClient } from './discovery.js';
import { createHttpTransport } from './http-transport.js';
import { PATCH_CONTENT_TYPES, collectionPath, deleteBody, listQuery, objectPath, watchQuery, writeQuery } from './resource-path.js';
import { watchStream } from './watch-stream.js';
/** createKubeClient builds a KubeClient (see KubeClientOptions). It sends nothing until used. */
export function createKubeClient(options) {
    const transport = createHttpTransport(options);
    const definitions = options.definitions ?? builtinDefinitions();
    const logger = options.logger ?? silentLogger;
    // Server-side apply requires a manager: fall back to the product part of the User-Agent.
    const applyFieldManager = options.defaultFieldManager ?? (options.userAgent.split('/')[0] || 'kubesim');
    const discovery = createDiscoveryClient({ transport: options, definitions });
    const cache = new Map();
    const resource = (def) => {
        let client = cache.get(def);
        if (!client) {
            client = new HttpResourceClient({ def, transport, defaultFieldManager: options.defaultFieldManager, applyFieldManager, logger });
            cache.set(def, client);
        }
        return client;
    };
    return {
        server: options.server,
        resource,
        forKind(apiVersion, kind) {
            const def = definitions.find((d) => apiVersionOf(d) === apiVersion && d.kind === kind);
            if (!def)
                throw new Error(`no resource definition for ${apiVersion} ${kind}: pass it in KubeClientOptions.definitions`);
            return resource(def);
        },
        discover: () => discovery.discover(),
        raw: (request) => transport.send(request),
        close: () => {
            transport.close();
            discovery.close();
        },
    };
}
/** HttpResourceClient implements ResourceClient over HttpTransport. Returned objects are
 * freshly decoded, so they belong to the caller. */
class HttpResourceClient {
    parts;
    definition;
    def;
    constructor(parts) {
        this.parts = parts;
        this.def = parts.def;
        this.definition = parts.def;
    }
    get(namespace, name) {
        return this.send({ method: 'GET', path: this.objectPath(namespace, name) });
    }
    async list(options = {}) {
        const list = await this.send({ method: 'GET', path: collectionPath(this.definition, options.namespace), query: listQuery(options) });
        // Kubernetes may leave items' apiVersion/kind to the list (as client-go's UnstructuredList
        // fills them in): set them so cached objects always say what they are.
        for (const item of list.items) {
            item.apiVersion ??= apiVersionOf(this.def);
            item.kind ??= this.def.kind;
        }
        return list;
    }
    watch(options) {
        const request = { method: 'GET', path: collectionPath(this.definition, options.namespace), query: watchQuery(options), signal: options.signal };
        const logger = this.parts.logger.child({ resource: this.def.plural, namespace: options.namespace });
        return { [Symbol.asyncIterator]: () => watchStream(this.parts.transport, request, logger) };
    }
    create(object, options) {
        const path = collectionPath(this.definition, this.namespaceOf(object, 'create'));
        return this.send({ method: 'POST', path, query: this.writeQuery(options), ...json(object) });
    }
    update(object, options) {
        return this.put(object, undefined, options);
    }
    updateStatus(object, options) {
        return this.put(object, 'status', options);
    }
    patch(namespace, name, patch, options) {
        const isApply = options.type === 'apply';
        const fieldManager = options.fieldManager ?? this.parts.defaultFieldManager ?? (isApply ? this.parts.applyFieldManager : undefined);
        const query = { ...this.writeQuery({ ...options, fieldManager }), force: isApply && options.force ? true : undefined };
        const body = typeof patch === 'string' ? patch : JSON.stringify(patch);
        const path = this.objectPath(namespace, name, options.subresource);
        return this.send({ method: 'PATCH', path, query, body, contentType: PATCH_CONTENT_TYPES[options.type] });
    }
    async delete(namespace, name, options) {
        const body = deleteBody(options);
        const request = { method: 'DELETE', path: this.objectPath(namespace, name) };
        const result = await this.send(body ? { ...request, body, contentType: 'application/json' } : request);
        // A Success Status means the object is gone; an object means it lingers (finalizers, grace).
        return isSuccessStatus(result) ? undefined : result;
    }
    getScale(namespace, name) {
        return this.send({ method: 'GET', path: this.objectPath(namespace, name, 'scale') });
    }
    updateScale(namespace, name, scale) {
        const body = { apiVersion: 'autoscaling/v1', kind: 'Scale', ...scale };
        return this.send({ method: 'PUT', path: this.objectPath(namespace, name, 'scale'), ...json(body) });
    }
    put(object, subresource, options) {
        const path = this.objectPath(this.namespaceOf(object, 'update'), object.metadata.name ?? '', subresource);
        return this.send({ method: 'PUT', path, query: this.writeQuery(options), ...json(object) });
    }
    async send(request) {
        return (await this.parts.transport.send(request));
    }
    objectPath(namespace, name, subresource) {
        if (!name)
            throw badRequest(`client: ${this.def.kind} name is required`);
        return objectPath(this.definition, namespace, name, subresource);
    }
    /** namespaceOf is the namespace a write goes to; namespaced kinds must name one. */
    namespaceOf(object, verb) {
        const namespace = object.metadata.namespace ?? '';
        if (this.def.namespaced && !namespace)
            throw badRequest(`client: cannot ${verb} a ${this.def.kind} without metadata.namespace`);
        return this.def.namespaced ? namespace : '';
    }
    writeQuery(options) {
        return writeQuery(options, this.parts.defaultFieldManager);
    }
}
function json(body) {
    return { body: JSON.stringify(body), contentType: 'application/json' };
}
function isSuccessStatus(body) {
    const status = body;
    return status === undefined || (status.kind === 'Status' && status.status === 'Success');
}
//# sourceMappingURL=http-client.js.map