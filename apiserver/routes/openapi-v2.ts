/**
 * /openapi/v2: one Swagger 2.0 document of every served kind, built from the same schemas
 * (schemaDocumentFor) and operations (openapi-operations.ts) as /openapi/v3. kubectl reads it
 * as protobuf (a gnostic openapi_v2.Document, openapi-v2-protobuf.ts) where v3 is missing or
 * when asked (`kubectl explain --output=plaintext-openapiv2`, client-side validation when the
 * server cannot validate a kind); Helm and older clients read it too. As kube-apiserver does,
 * the document carries an ETag (a hash of its JSON form) and answers a matching
 * If-None-Match with 304; it is rebuilt whenever the registry changes (CRDs come and go).
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../api/api-error.js';
import type { Registry } from '../api/registry.js';
import type { ResourceDefinition } from '../api/resource-definition.js';
import { type SchemaNode, schemaDocumentFor } from '../api/schema-node.js';
import { type KindOperation, kindPaths, kindSchemaId, OPENAPI_INFO_VERSION, PATCH_ID, PATCH_MODEL, patchContentTypes } from './openapi-operations.js';
import { encodeOpenApiV2 } from './openapi-v2-protobuf.js';

export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

const REF = '#/definitions/';
const LIST_META_ID = 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta';

const QUERY_TYPES: Record<string, string> = { limit: 'integer', gracePeriodSeconds: 'integer', watch: 'boolean', force: 'boolean' };
const PRODUCES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

/** toSwagger rewrites an OpenAPI 3 flavoured schema node into what Swagger 2.0 can say, as
 * Kubernetes' v2 documents do: a lone `allOf` wrapper becomes its `$ref` with the sibling
 * description, int-or-string is `type: string, format: int-or-string`, and the keywords v2
 * lacks (`anyOf`, `oneOf`, `not`, `nullable`) are dropped. */
export function toSwagger(node: unknown): unknown {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED.has(key)) continue;
    // Only schema-valued keywords are walked: defaults, enums and extensions are data.
    if (key === 'properties') out[key] = mapValues(value as Record<string, unknown>, toSwagger);
    else if (key === 'allOf') out[key] = (value as unknown[]).map(toSwagger);
    else if (key === 'items' || key === 'additionalProperties') out[key] = toSwagger(value);
    else out[key] = value;
  }
  if (out['x-kubernetes-int-or-string'] === true) Object.assign(out, { type: 'string', format: 'int-or-string' });
  const allOf = out['allOf'];
  if (Array.isArray(allOf) && allOf.length === 1) {
    delete out['allOf'];
    return { ...(allOf[0] as object), ...out };
  }
  return out;
}

/** DROPPED are the schema keywords Swagger 2.0 has no place for. */
const DROPPED = new Set(['anyOf', 'oneOf', 'not', 'nullable']);

const mapValues = (record: Record<string, unknown>, f: (v: unknown) => unknown) => Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));

const gvkOf = (def: ResourceDefinition, kind = def.kind) => ({ group: def.group, kind, version: def.version });

function parameter(name: string, location: 'path' | 'query') {
  return { name, in: location, type: QUERY_TYPES[name] ?? 'string', uniqueItems: true, ...(location === 'path' ? { required: true } : {}) };
}

function operation(def: ResourceDefinition, op: KindOperation) {
  const kindRef = { $ref: `${REF}${kindSchemaId(def)}` };
  const bodyRef = op.body === 'patch' ? { $ref: `${REF}${PATCH_ID}` } : kindRef;
  const response = op.action === 'list' ? { $ref: `${REF}${kindSchemaId(def)}List` } : kindRef;
  return {
    consumes: op.body === 'patch' ? patchContentTypes(def) : ['*/*'],
    produces: PRODUCES,
    schemes: ['https'],
    operationId: op.operationId,
    parameters: [...(op.body ? [{ name: 'body', in: 'body', required: true, schema: bodyRef }] : []), ...op.query.map((p) => parameter(p, 'query'))],
    responses: {
      '200': { description: 'OK', schema: response },
      ...(op.action === 'post' ? { '201': { description: 'Created', schema: kindRef } } : {}),
      '401': { description: 'Unauthorized' },
    },
    'x-kubernetes-action': op.action,
    'x-kubernetes-group-version-kind': gvkOf(def),
  };
}

/** listDefinition is the `<Kind>List` model a list operation answers with. */
function listDefinition(def: ResourceDefinition) {
  return {
    description: `${def.kind}List is a list of ${def.kind} objects.`,
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: { type: 'string' },
      items: { type: 'array', items: { $ref: `${REF}${kindSchemaId(def)}` } },
      kind: { type: 'string' },
      metadata: { $ref: `${REF}${LIST_META_ID}` },
    },
    'x-kubernetes-group-version-kind': [gvkOf(def, `${def.kind}List`)],
  };
}

/** SHARED_DEFINITIONS are the models the operations name that no kind's schema carries. */
const SHARED_DEFINITIONS: Record<string, unknown> = {
  [PATCH_ID]: PATCH_MODEL,
  [LIST_META_ID]: {
    description: 'ListMeta describes metadata that synthetic resources must have, including lists and various status objects.',
    type: 'object',
    properties: {
      continue: { type: 'string' },
      remainingItemCount: { type: 'integer', format: 'int64' },
      resourceVersion: { type: 'string' },
      selfLink: { type: 'string' },
    },
  },
};

/** swaggerDocument builds the Swagger 2.0 document of every served kind. */
export function swaggerDocument(registry: Registry) {
  const definitions: Record<string, unknown> = { ...SHARED_DEFINITIONS };
  const paths: Record<string, unknown> = {};
  for (const def of registry.all()) {
    const doc = schemaDocumentFor(def);
    for (const [id, node] of Object.entries(doc.definitions)) definitions[id] ??= toSwagger(node);
    const kindId = kindSchemaId(def);
    definitions[kindId] = { ...(definitions[kindId] as SchemaNode), 'x-kubernetes-group-version-kind': [gvkOf(def)] };
    definitions[`${kindId}List`] = listDefinition(def);
    for (const item of kindPaths(def)) {
      paths[item.path] = {
        ...Object.fromEntries(item.operations.map((op) => [op.method, operation(def, op)])),
        parameters: item.pathParams.map((p) => parameter(p, 'path')),
      };
    }
  }
  return { swagger: '2.0', info: { title: 'Kubernetes', version: OPENAPI_INFO_VERSION }, paths: sortKeys(paths), definitions: sortKeys(definitions) };
}

const sortKeys = (record: Record<string, unknown>) => Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

interface RenderedV2 {
  json: string;
  etag: string;
  protobuf?: Buffer;
}

/** OpenApiV2Cache renders the document once per registry generation (it is large); the
 * protobuf form is encoded on first request. */
class OpenApiV2Cache {
  private generation = -1;
  private rendered: RenderedV2 | undefined;

  constructor(private readonly registry: Registry) {}

  current(): RenderedV2 {
    if (!this.rendered || this.generation !== this.registry.generation) {
      const json = JSON.stringify(swaggerDocument(this.registry));
      // kube-openapi's ETag: the upper-case hex SHA-512 of the JSON document, quoted.
      this.rendered = { json, etag: `"${createHash('sha512').update(json).digest('hex').toUpperCase()}"` };
      this.generation = this.registry.generation;
    }
    return this.rendered;
  }

  protobuf(): Buffer {
    const rendered = this.current();
    rendered.protobuf ??= encodeOpenApiV2(JSON.parse(rendered.json));
    return rendered.protobuf;
  }
}

/** negotiate picks the representation an Accept header asks for: JSON (also for a missing
 * header and wildcards), protobuf, or undefined when neither is acceptable. */
export function negotiate(accept: string | undefined): 'json' | 'protobuf' | undefined {
  if (!accept) return 'json';
  const ranges = accept
    .split(',')
    .map((part, index) => {
      const [type = '', ...params] = part.split(';').map((s) => s.trim());
      const q = Number(params.find((p) => p.startsWith('q='))?.slice(2) ?? '1');
      return { type: type.toLowerCase(), q: Number.isNaN(q) ? 1 : q, index };
    })
    .filter((range) => range.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { type } of ranges) {
    if (type === OPENAPI_V2_PROTOBUF) return 'protobuf';
    if (type === 'application/json' || type === 'application/*' || type === '*/*') return 'json';
  }
  return undefined;
}

/** registerOpenApiV2Route serves /openapi/v2 as JSON or protobuf, with ETag revalidation. */
export function registerOpenApiV2Route(app: FastifyInstance, registry: Registry): void {
  const cache = new OpenApiV2Cache(registry);
  app.get('/openapi/v2', async (request, reply) => {
    const format = negotiate(request.headers.accept);
    if (!format) throw new ApiError('NotAcceptable', 406, `only the following media types are accepted: application/json, ${OPENAPI_V2_PROTOBUF}`);
    const { etag } = cache.current();
    reply.header('ETag', etag).header('Vary', 'Accept');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    // Asked for as the protobuf media type, sent as octet-stream, as kube-openapi does (Go's
    // mime parser, which clients run on Content-Type, rejects the `@` in the former).
    if (format === 'protobuf') return reply.type('application/octet-stream').send(cache.protobuf());
    return reply.type('application/json').send(cache.current().json);
  });
}
