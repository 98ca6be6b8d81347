/**
 * /openapi/v2 as kube-apiserver serves it: a Swagger 2.0 document describing exactly what
 * /openapi/v3 describes (every served kind's paths, operations and models), the same document
 * as the gnostic protobuf message kubectl and Helm read (decoded here with the server's own
 * wire reader, as a client would with the .proto), ETag revalidation, and a rebuild when a CRD
 * comes or goes.
 */
import { describe, expect, it } from 'vitest';
import { ProtobufReader, WireTypes } from '../../apiserver/api/protobuf/wire.js';
import { ALL_VERBS } from '../../apiserver/api/resource-definition.js';
import { CRDS_PATH, createCrd, cronTabCrd } from '../support/crds.js';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const PROTOBUF = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Fields is a decoded message: field number → its values (bytes for strings and messages). */
type Fields = Map<number, Array<Uint8Array | bigint>>;

/** fieldsOf reads one message (given as its bytes) field by field. */
function fieldsOf(message: Uint8Array | bigint | undefined): Fields {
  if (!(message instanceof Uint8Array)) throw new Error('not a message');
  const reader = new ProtobufReader(message);
  const out: Fields = new Map();
  while (!reader.done()) {
    const { field, wireType } = reader.tag();
    let value: Uint8Array | bigint;
    if (wireType === WireTypes.bytes) value = reader.bytes();
    else if (wireType === WireTypes.varint) value = reader.varint();
    else if (wireType === WireTypes.fixed64) value = reader.fixed64();
    else throw new Error(`unexpected wire type ${wireType} in field ${field}`);
    out.set(field, [...(out.get(field) ?? []), value]);
  }
  return out;
}

/** text is a string field's value. */
const text = (value: Uint8Array | bigint | undefined) => (value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : '');

/** named reads repeated Named* entries (NamedSchema, NamedPathItem, NamedAny): 1 name, 2 value. */
function named(entries: Array<Uint8Array | bigint> | undefined): Array<[string, Uint8Array]> {
  return (entries ?? []).map((entry) => {
    const fields = fieldsOf(entry);
    return [text(fields.get(1)?.[0]), fields.get(2)?.[0] as Uint8Array];
  });
}

describe('/openapi/v2', () => {
  const cluster = useTestCluster();
  const url = (path: string) => `${cluster.url}${path}`;

  it('is one Swagger 2.0 document with the paths and models /openapi/v3 publishes, per group-version', async () => {
    const v2 = await request(url('/openapi/v2'));
    expect(v2.status).toBe(200);
    expect(v2.headers.get('content-type')).toMatch(/^application\/json/);
    expect(v2.body).toMatchObject({ swagger: '2.0', info: { title: 'Kubernetes', version: 'v1.33.0' } });
    const root = await request(url('/openapi/v3'));
    for (const { serverRelativeURL } of Object.values<any>(root.body.paths)) {
      const v3 = (await request(url(serverRelativeURL))).body;
      for (const [path, item] of Object.entries<any>(v3.paths)) {
        const v2Item = v2.body.paths[path];
        expect(v2Item, path).toBeDefined();
        for (const method of METHODS.filter((m) => item[m])) {
          expect(v2Item[method]?.operationId, `${method} ${path}`).toBe(item[method].operationId);
          expect(v2Item[method]['x-kubernetes-group-version-kind']).toEqual(item[method]['x-kubernetes-group-version-kind']);
          expect(v2Item[method]['x-kubernetes-action']).toBe(item[method]['x-kubernetes-action']);
        }
        expect(METHODS.filter((m) => v2Item[m])).toEqual(METHODS.filter((m) => item[m]));
      }
      for (const [id, schema] of Object.entries<any>(v3.components.schemas)) {
        expect(v2.body.definitions[id], id).toBeDefined();
        expect(Object.keys(v2.body.definitions[id].properties ?? {}).sort()).toEqual(Object.keys(schema.properties ?? {}).sort());
        if (schema['x-kubernetes-group-version-kind']) {
          expect(v2.body.definitions[id]['x-kubernetes-group-version-kind']).toEqual(schema['x-kubernetes-group-version-kind']);
        }
      }
    }
  });

  it('has, for every served kind, a model carrying its GVK and the paths of its verbs', async () => {
    const { body } = await request(url('/openapi/v2'));
    const gvkOf = (def: { group: string; version: string; kind: string }) => ({ group: def.group, kind: def.kind, version: def.version });
    for (const def of cluster.server.context.registry.all()) {
      const models = Object.values<any>(body.definitions).filter((model) =>
        (model['x-kubernetes-group-version-kind'] ?? []).some((gvk: any) => gvk.group === def.group && gvk.version === def.version && gvk.kind === def.kind),
      );
      expect(models, `${def.group}/${def.version} ${def.kind}`).toHaveLength(1);
      const operations = Object.values<any>(body.paths).flatMap((item) => METHODS.flatMap((method) => (item[method] ? [item[method]] : [])));
      const ofKind = operations.filter((op) => JSON.stringify(op['x-kubernetes-group-version-kind']) === JSON.stringify(gvkOf(def)));
      const actions = new Set(ofKind.map((op) => op['x-kubernetes-action']));
      const verbs: readonly string[] = def.verbs ?? ALL_VERBS;
      const expected = verbs.flatMap(
        (verb) => ({ create: ['post'], delete: ['delete'], get: ['get'], list: ['list'], patch: ['patch'], update: ['put'] })[verb] ?? [],
      );
      expect([...actions].sort(), `${def.group}/${def.version} ${def.kind}`).toEqual([...new Set(expected)].sort());
    }
  });

  it('names models and operations as Kubernetes does, with Swagger 2.0 parameters and responses', async () => {
    const { body } = await request(url('/openapi/v2'));
    const deployment = body.definitions['io.k8s.api.apps.v1.Deployment'];
    expect(deployment['x-kubernetes-group-version-kind']).toEqual([{ group: 'apps', kind: 'Deployment', version: 'v1' }]);
    // Swagger 2.0 has no allOf wrappers around references: the $ref sits beside its description.
    expect(deployment.properties.metadata).toMatchObject({ $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' });
    expect(body.definitions['io.k8s.api.apps.v1.DeploymentList'].properties.items.items).toEqual({ $ref: '#/definitions/io.k8s.api.apps.v1.Deployment' });
    const item = body.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'];
    expect(item.parameters).toEqual([
      { name: 'namespace', in: 'path', required: true, type: 'string', uniqueItems: true },
      { name: 'name', in: 'path', required: true, type: 'string', uniqueItems: true },
    ]);
    expect(item.patch).toMatchObject({
      operationId: 'patchAppsV1NamespacedDeployment',
      'x-kubernetes-action': 'patch',
      'x-kubernetes-group-version-kind': { group: 'apps', kind: 'Deployment', version: 'v1' },
      responses: { '200': { description: 'OK', schema: { $ref: '#/definitions/io.k8s.api.apps.v1.Deployment' } } },
    });
    expect(item.patch.consumes).toContain('application/strategic-merge-patch+json');
    expect(item.patch.parameters).toContainEqual({
      name: 'body',
      in: 'body',
      required: true,
      schema: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch' },
    });
    expect(item.patch.parameters).toContainEqual({ name: 'fieldValidation', in: 'query', type: 'string', uniqueItems: true });
    expect(body.paths['/api/v1/namespaces/{namespace}/pods'].post.operationId).toBe('createCoreV1NamespacedPod');
    expect(body.paths['/apis/rbac.authorization.k8s.io/v1/clusterroles/{name}'].get.operationId).toBe('readRbacAuthorizationV1ClusterRole');
    // int-or-string in Swagger 2.0 terms (no anyOf in v2).
    expect(body.definitions['io.k8s.api.core.v1.ServicePort'].properties.targetPort.$ref).toBe('#/definitions/io.k8s.apimachinery.pkg.util.intstr.IntOrString');
    expect(body.definitions['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toEqual({
      type: 'string',
      format: 'int-or-string',
      'x-kubernetes-int-or-string': true,
    });
  });

  it('every $ref points at a model the document defines', async () => {
    const { body } = await request(url('/openapi/v2'));
    const refs = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === '$ref' && typeof value === 'string') refs.add(value);
          else walk(value);
        }
      }
    };
    walk(body);
    const dangling = [...refs].filter((ref) => !body.definitions[ref.replace('#/definitions/', '')]);
    expect(dangling).toEqual([]);
  });

  it('is the gnostic openapi.v2.Document protobuf message when asked as kubectl asks', async () => {
    const json = (await request(url('/openapi/v2'))).body;
    const res = await fetch(url('/openapi/v2?timeout=32s'), { headers: { Accept: `${PROTOBUF}, application/json` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    const doc = fieldsOf(new Uint8Array(await res.arrayBuffer()));
    expect(text(doc.get(1)?.[0])).toBe('2.0');
    expect(text(fieldsOf(doc.get(2)?.[0]).get(2)?.[0])).toBe('v1.33.0');

    // Definitions (9) → NamedSchema: the same model names in the same order.
    const definitions = named(fieldsOf(doc.get(9)?.[0]).get(1));
    expect(definitions.map(([name]) => name)).toEqual(Object.keys(json.definitions));
    // Paths (8) → NamedPathItem (field 2).
    const paths = named(fieldsOf(doc.get(8)?.[0]).get(2));
    expect(paths.map(([name]) => name)).toEqual(Object.keys(json.paths));

    // The Deployment model: description (4), properties (25), and its GVK as a NamedAny (31)
    // whose Any carries the value as YAML text (field 2), which kubectl parses.
    const [, deployment] = definitions.find(([name]) => name === 'io.k8s.api.apps.v1.Deployment')!;
    const schema = fieldsOf(deployment);
    expect(text(schema.get(4)?.[0])).toBe(json.definitions['io.k8s.api.apps.v1.Deployment'].description);
    const properties = named(fieldsOf(schema.get(25)?.[0]).get(1)).map(([name]) => name);
    expect(properties).toEqual(Object.keys(json.definitions['io.k8s.api.apps.v1.Deployment'].properties));
    expect(named(schema.get(31)).map(([name, any]) => [name, JSON.parse(text(fieldsOf(any).get(2)?.[0]))])).toEqual([
      ['x-kubernetes-group-version-kind', [{ group: 'apps', kind: 'Deployment', version: 'v1' }]],
    ]);

    // The PATCH operation (PathItem field 8): operationId (5) and its query parameters
    // (ParametersItem 1 → Parameter 2 → NonBodyParameter 3 → QueryParameterSubSchema, name 4).
    const [, item] = paths.find(([name]) => name === '/apis/apps/v1/namespaces/{namespace}/deployments/{name}')!;
    const patch = fieldsOf(fieldsOf(item).get(8)?.[0]);
    expect(text(patch.get(5)?.[0])).toBe('patchAppsV1NamespacedDeployment');
    const queryNames = (patch.get(8) ?? []).flatMap((parametersItem) => {
      const nonBody = fieldsOf(fieldsOf(parametersItem).get(1)?.[0]).get(2)?.[0];
      const query = nonBody && fieldsOf(nonBody).get(3)?.[0];
      return query ? [text(fieldsOf(query).get(4)?.[0])] : [];
    });
    expect(queryNames).toContain('fieldValidation');
  });

  it('carries an ETag and answers If-None-Match with 304, for JSON and protobuf alike', async () => {
    const first = await fetch(url('/openapi/v2'));
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9A-F]{128}"$/);
    expect(first.headers.get('vary')).toBe('Accept');
    const again = await fetch(url('/openapi/v2'), { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const protobuf = await fetch(url('/openapi/v2'), { headers: { Accept: PROTOBUF, 'If-None-Match': etag } });
    expect(protobuf.status).toBe(304);
    const stale = await fetch(url('/openapi/v2'), { headers: { 'If-None-Match': '"0"' } });
    expect(stale.status).toBe(200);
  });

  it('refuses a media type it cannot produce', async () => {
    const res = await request(url('/openapi/v2'), { accept: 'text/html' });
    expect(res.status).toBe(406);
    expect(res.body).toMatchObject({ kind: 'Status', code: 406, reason: 'NotAcceptable' });
  });

  it('is rebuilt when a CRD is created and when it is deleted, with a new ETag each time', async () => {
    const before = await fetch(url('/openapi/v2'));
    const etagBefore = before.headers.get('etag');
    const crd = cronTabCrd({ group: 'v2.example.com', plural: 'widgets', kind: 'Widget' });
    await createCrd(cluster.url, crd);
    const withCrd = await request(url('/openapi/v2'));
    expect(withCrd.headers.get('etag')).not.toBe(etagBefore);
    const widget = withCrd.body.definitions['com.example.v2.v1.Widget'];
    expect(widget['x-kubernetes-group-version-kind']).toEqual([{ group: 'v2.example.com', kind: 'Widget', version: 'v1' }]);
    expect(widget.properties.spec.properties.replicas).toMatchObject({ type: 'integer', minimum: 0, maximum: 10 });
    const patch = withCrd.body.paths['/apis/v2.example.com/v1/namespaces/{namespace}/widgets/{name}'].patch;
    expect(patch.operationId).toBe('patchV2ExampleComV1NamespacedWidget');
    // Custom resources take no strategic merge patch, in either document.
    expect(patch.consumes).toEqual(['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml']);
    await eventually(async () => {
      const v3 = await request(url('/openapi/v3/apis/v2.example.com/v1'));
      const content = v3.body.paths['/apis/v2.example.com/v1/namespaces/{namespace}/widgets/{name}'].patch.requestBody.content;
      expect(Object.keys(content)).not.toContain('application/strategic-merge-patch+json');
    });

    expect((await request(url(`${CRDS_PATH}/${crd.metadata.name}`), { method: 'DELETE' })).status).toBe(200);
    await eventually(async () => {
      const after = await request(url('/openapi/v2'));
      expect(after.body.definitions['com.example.v2.v1.Widget']).toBeUndefined();
      expect(after.headers.get('etag')).toBe(etagBefore);
    });
  });
});
