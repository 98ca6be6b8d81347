/**
 * OpenAPI v3, generated from the zod schemas in the registry: a root document listing one
 * document per group-version (with a content hash, as kube-apiserver does), and per
 * group-version documents whose PATCH operations carry `fieldValidation` and the GVK, which
 * is how kubectl decides to let the server validate (`create -f`, `apply`, `edit`), and
 * whose component schemas `kubectl explain` walks. /openapi/v2 (openapi-v2.ts) renders the
 * same schemas and operations (openapi-operations.ts) as one Swagger 2.0 document.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { pathNotFound } from '../api/api-error.js';
import type { Registry } from '../api/registry.js';
import type { ResourceDefinition } from '../api/resource-definition.js';
import { type SchemaNode, schemaDocumentFor } from '../api/schema-node.js';
import { type KindOperation, kindPaths, kindSchemaId, OPENAPI_INFO_VERSION, PATCH_ID, PATCH_MODEL, patchContentTypes } from './openapi-operations.js';
import { registerOpenApiV2Route } from './openapi-v2.js';

const REF_FROM = '#/definitions/';
const REF_TO = '#/components/schemas/';

/** toComponents rewrites `#/definitions/` refs to OpenAPI components, and wraps refs that
 * have sibling keys (descriptions) in allOf, as Kubernetes' published documents do. */
function toComponents(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toComponents);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = toComponents(value);
  if (typeof out['$ref'] === 'string') {
    const ref = (out['$ref'] as string).replace(REF_FROM, REF_TO);
    delete out['$ref'];
    return Object.keys(out).length === 0 ? { $ref: ref } : { ...out, allOf: [{ $ref: ref }] };
  }
  return out;
}

const param = (name: string, location: 'path' | 'query') => ({
  name,
  in: location,
  ...(location === 'path' ? { required: true } : {}),
  schema: { type: 'string' },
});

function requestBody(def: ResourceDefinition, op: KindOperation, ref: { $ref: string }) {
  if (op.body === 'patch') {
    const schema = { $ref: `${REF_TO}${PATCH_ID}` };
    return { requestBody: { required: true, content: Object.fromEntries(patchContentTypes(def).map((type) => [type, { schema }])) } };
  }
  if (op.body === 'object') return { requestBody: { required: true, content: { '*/*': { schema: ref } } } };
  return {};
}

function operation(def: ResourceDefinition, op: KindOperation) {
  const ref = { $ref: `${REF_TO}${kindSchemaId(def)}` };
  return {
    operationId: op.operationId,
    parameters: op.query.map((p) => param(p, 'query')),
    ...requestBody(def, op, ref),
    responses: { '200': { description: 'OK', content: { 'application/json': { schema: ref } } } },
    'x-kubernetes-action': op.action,
    'x-kubernetes-group-version-kind': { group: def.group, kind: def.kind, version: def.version },
  };
}

/** pathsOf renders the kind's paths (openapi-operations.ts) as OpenAPI v3 path items. */
function pathsOf(def: ResourceDefinition): Record<string, unknown> {
  return Object.fromEntries(
    kindPaths(def).map((item) => [
      item.path,
      {
        parameters: item.pathParams.map((p) => param(p, 'path')),
        ...Object.fromEntries(item.operations.map((op) => [op.method, operation(def, op)])),
      },
    ]),
  );
}

/** groupVersionDocument builds the OpenAPI v3 document of one group-version. */
export function groupVersionDocument(registry: Registry, group: string, version: string) {
  const defs = registry.inGroupVersion(group, version);
  if (defs.length === 0) throw pathNotFound();
  const schemas: Record<string, SchemaNode> = {};
  const paths: Record<string, unknown> = {};
  for (const def of defs) {
    const doc = schemaDocumentFor(def);
    for (const [id, node] of Object.entries(doc.definitions)) schemas[id] = toComponents(node) as SchemaNode;
    const kindId = kindSchemaId(def);
    schemas[kindId] = { ...schemas[kindId], 'x-kubernetes-group-version-kind': [{ group: def.group, kind: def.kind, version: def.version }] };
    Object.assign(paths, pathsOf(def));
  }
  schemas[PATCH_ID] = PATCH_MODEL as unknown as SchemaNode;
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: OPENAPI_INFO_VERSION }, paths, components: { schemas } };
}

/** OpenApiCache renders documents once per registry generation (they are large). */
class OpenApiCache {
  private generation = -1;
  private documents = new Map<string, { body: string; hash: string }>();

  constructor(private readonly registry: Registry) {}

  document(group: string, version: string): { body: string; hash: string } {
    if (this.generation !== this.registry.generation) {
      this.documents.clear();
      this.generation = this.registry.generation;
    }
    const key = `${group}/${version}`;
    let entry = this.documents.get(key);
    if (!entry) {
      const body = JSON.stringify(groupVersionDocument(this.registry, group, version));
      entry = { body, hash: createHash('sha256').update(body).digest('hex').slice(0, 32).toUpperCase() };
      this.documents.set(key, entry);
    }
    return entry;
  }
}

/** registerOpenApiRoutes serves /openapi/v3, /openapi/v3/{api/v1 | apis/g/v} and /openapi/v2. */
export function registerOpenApiRoutes(app: FastifyInstance, registry: Registry): void {
  registerOpenApiV2Route(app, registry);
  const cache = new OpenApiCache(registry);
  app.get('/openapi/v3', async () => {
    const paths: Record<string, { serverRelativeURL: string }> = {};
    for (const group of registry.groups()) {
      for (const version of group.versions) {
        const prefix = group.name ? `apis/${group.name}/${version}` : `api/${version}`;
        paths[prefix] = { serverRelativeURL: `/openapi/v3/${prefix}?hash=${cache.document(group.name, version).hash}` };
      }
    }
    return { paths };
  });
  const serve = (group: string, version: string, reply: { header: (k: string, v: string) => unknown }) => {
    reply.header('Content-Type', 'application/json');
    return cache.document(group, version).body;
  };
  app.get<{ Params: { version: string } }>('/openapi/v3/api/:version', async (request, reply) => serve('', request.params.version, reply));
  app.get<{ Params: { group: string; version: string } }>('/openapi/v3/apis/:group/:version', async (request, reply) =>
    serve(request.params.group, request.params.version, reply),
  );
}
