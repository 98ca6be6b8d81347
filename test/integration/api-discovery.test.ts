/** /version, discovery (aggregated and legacy), OpenAPI v3 (v2: openapi-v2.test.ts), health endpoints, and a live
 * registry: kinds added or removed at run time are served without a restart. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigMapSchema, configMapDefinition } from '../../apiserver/api/core/config-map.js';
import type { ResourceDefinition } from '../../apiserver/api/resource-definition.js';
import { request } from '../support/http.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const AGGREGATED_ACCEPT =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
const AGGREGATED_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const CRUD_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

describe('discovery and OpenAPI', () => {
  const cluster = useTestCluster();
  const url = (path: string) => `${cluster.url}${path}`;

  it('/version reports Kubernetes 1.33 (so the kubectl dispatcher picks the newest bundled kubectl)', async () => {
    const res = await request(url('/version?timeout=5s'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ major: '1', minor: '33', gitVersion: 'v1.33.0', gitTreeState: 'clean' });
    for (const key of ['gitCommit', 'buildDate', 'goVersion', 'compiler', 'platform']) expect(res.body[key]).toEqual(expect.any(String));
  });

  it.each(['/healthz', '/livez', '/readyz'])('%s answers ok', async (path) => {
    const res = await request(url(path));
    expect(res.status).toBe(200);
    expect(res.body).toBe('ok');
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it('/readyz?verbose and /livez?verbose list their checks, and each check answers alone', async () => {
    const ready = await request(url('/readyz?verbose'));
    expect(ready.status).toBe(200);
    expect(ready.body).toBe('[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]shutdown ok\nreadyz check passed\n');
    expect((await request(url('/livez?verbose&exclude=etcd'))).body).toBe('[+]ping ok\n[+]log ok\n[+]etcd excluded: ok\nlivez check passed\n');
    expect((await request(url('/readyz/etcd'))).body).toBe('ok');
    expect((await request(url('/livez/nonesuch'))).status).toBe(404);
  });

  describe('aggregated discovery', () => {
    it("/apis answers with the exact aggregated media type and kubectl's deployment entry", async () => {
      const res = await request(url('/apis?timeout=32s'), { accept: AGGREGATED_ACCEPT });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(AGGREGATED_V2);
      expect(res.body.kind).toBe('APIGroupDiscoveryList');
      expect(res.body.apiVersion).toBe('apidiscovery.k8s.io/v2');
      const groups = res.body.items.map((g: any) => [g.metadata.name, g.versions.map((v: any) => v.version)]);
      expect(groups).toEqual([
        ['apps', ['v1']],
        ['authentication.k8s.io', ['v1']],
        ['authorization.k8s.io', ['v1']],
        ['autoscaling', ['v2', 'v1']],
        ['batch', ['v1']],
        ['certificates.k8s.io', ['v1']],
        ['coordination.k8s.io', ['v1']],
        ['discovery.k8s.io', ['v1']],
        ['events.k8s.io', ['v1']],
        ['metrics.k8s.io', ['v1beta1']],
        ['networking.k8s.io', ['v1']],
        ['node.k8s.io', ['v1']],
        ['policy', ['v1']],
        ['scheduling.k8s.io', ['v1']],
        ['storage.k8s.io', ['v1']],
        ['rbac.authorization.k8s.io', ['v1']],
        ['admissionregistration.k8s.io', ['v1']],
        ['flowcontrol.apiserver.k8s.io', ['v1']],
        ['apiextensions.k8s.io', ['v1']],
        ['apiregistration.k8s.io', ['v1']],
      ]);
      const apps = res.body.items[0].versions[0];
      expect(apps.freshness).toBe('Current');
      const deployments = apps.resources.find((r: any) => r.resource === 'deployments');
      expect({ ...deployments, subresources: undefined }).toEqual({
        resource: 'deployments',
        responseKind: { group: 'apps', version: 'v1', kind: 'Deployment' },
        scope: 'Namespaced',
        singularResource: 'deployment',
        shortNames: ['deploy'],
        categories: ['all'],
        verbs: CRUD_VERBS,
        subresources: undefined,
      });
      expect([...deployments.subresources].sort((a: any, b: any) => a.subresource.localeCompare(b.subresource))).toEqual([
        { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] },
        { subresource: 'status', responseKind: { group: 'apps', version: 'v1', kind: 'Deployment' }, verbs: ['get', 'patch', 'update'] },
      ]);
      const hpa = res.body.items
        .find((g: any) => g.metadata.name === 'autoscaling')
        .versions[0].resources.find((r: any) => r.resource === 'horizontalpodautoscalers');
      expect(hpa).toMatchObject({ shortNames: ['hpa'], categories: ['all'], responseKind: { version: 'v2' } });
    });

    it('/api answers the core group with name "" and the pod subresources', async () => {
      const res = await request(url('/api'), { accept: AGGREGATED_ACCEPT });
      expect(res.headers.get('content-type')).toBe(AGGREGATED_V2);
      expect(res.body.items).toHaveLength(1);
      expect(res.body.items[0].metadata.name).toBe('');
      const v1 = res.body.items[0].versions;
      expect(v1.map((v: any) => v.version)).toEqual(['v1']);
      const byName = Object.fromEntries(v1[0].resources.map((r: any) => [r.resource, r]));
      expect(Object.keys(byName)).toEqual(
        expect.arrayContaining(['pods', 'namespaces', 'nodes', 'events', 'configmaps', 'secrets', 'services', 'serviceaccounts']),
      );
      expect(byName.pods).toMatchObject({ scope: 'Namespaced', singularResource: 'pod', shortNames: ['po'], categories: ['all'] });
      expect(byName.pods.subresources.map((s: any) => s.subresource).sort()).toEqual(['binding', 'ephemeralcontainers', 'eviction', 'log', 'status']);
      expect(byName.pods.subresources.find((s: any) => s.subresource === 'log').verbs).toEqual(['get']);
      expect(byName.namespaces.scope).toBe('Cluster');
      expect(byName.nodes).toMatchObject({ scope: 'Cluster', shortNames: ['no'] });
    });

    it('answers v2beta1 when that is the first acceptable version', async () => {
      const res = await request(url('/apis'), { accept: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json' });
      expect(res.headers.get('content-type')).toBe('application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList');
      expect(res.body.apiVersion).toBe('apidiscovery.k8s.io/v2beta1');
    });
  });

  describe('legacy discovery', () => {
    it("/api answers APIVersions with this server's address", async () => {
      const res = await request(url('/api'));
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual({
        kind: 'APIVersions',
        versions: ['v1'],
        serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: new URL(cluster.url).host }],
      });
    });

    it('/apis answers an APIGroupList with preferred versions; /apis/{group} one APIGroup', async () => {
      const res = await request(url('/apis'));
      expect(res.body.kind).toBe('APIGroupList');
      const autoscaling = res.body.groups.find((g: any) => g.name === 'autoscaling');
      expect(autoscaling).toEqual({
        name: 'autoscaling',
        versions: [
          { groupVersion: 'autoscaling/v2', version: 'v2' },
          { groupVersion: 'autoscaling/v1', version: 'v1' },
        ],
        preferredVersion: { groupVersion: 'autoscaling/v2', version: 'v2' },
      });
      const apps = await request(url('/apis/apps'));
      expect(apps.body).toMatchObject({ kind: 'APIGroup', apiVersion: 'v1', name: 'apps', preferredVersion: { groupVersion: 'apps/v1', version: 'v1' } });
      expect((await request(url('/apis/nope'))).status).toBe(404);
    });

    it('/apis/apps/v1 lists deployments with their scale and status subresources', async () => {
      const res = await request(url('/apis/apps/v1?timeout=32s'));
      expect(res.body).toMatchObject({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'apps/v1' });
      const byName = Object.fromEntries(res.body.resources.map((r: any) => [r.name, r]));
      expect(byName['deployments']).toEqual({
        name: 'deployments',
        singularName: 'deployment',
        namespaced: true,
        kind: 'Deployment',
        verbs: CRUD_VERBS,
        shortNames: ['deploy'],
        categories: ['all'],
      });
      expect(byName['deployments/scale']).toEqual({
        name: 'deployments/scale',
        singularName: '',
        namespaced: true,
        group: 'autoscaling',
        version: 'v1',
        kind: 'Scale',
        verbs: ['get', 'patch', 'update'],
      });
      expect(byName['deployments/status']).toEqual({
        name: 'deployments/status',
        singularName: '',
        namespaced: true,
        kind: 'Deployment',
        verbs: ['get', 'patch', 'update'],
      });
      expect(byName['replicasets/scale']).toBeDefined();
    });

    it('/api/v1 lists the core resources and subresources', async () => {
      const res = await request(url('/api/v1'));
      expect(res.body.groupVersion).toBe('v1');
      const resourceNames = res.body.resources.map((r: any) => r.name);
      expect(resourceNames).toEqual(
        expect.arrayContaining([
          'pods',
          'pods/status',
          'pods/log',
          'pods/binding',
          'pods/eviction',
          'namespaces',
          'namespaces/finalize',
          'namespaces/status',
          'services',
          'configmaps',
          'events',
          'nodes',
        ]),
      );
      expect(res.body.resources.find((r: any) => r.name === 'namespaces')).toMatchObject({ namespaced: false, shortNames: ['ns'] });
      expect((await request(url('/api/v1'), { method: 'POST', body: {} })).status).toBe(405);
      expect((await request(url('/apis/apps/v2'))).status).toBe(404);
    });
  });

  describe('OpenAPI', () => {
    it('/openapi/v3 lists one document per group-version with a content hash', async () => {
      const res = await request(url('/openapi/v3'), { accept: 'application/json, */*' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.paths).sort()).toEqual([
        'api/v1',
        'apis/admissionregistration.k8s.io/v1',
        'apis/apiextensions.k8s.io/v1',
        'apis/apiregistration.k8s.io/v1',
        'apis/apps/v1',
        'apis/authentication.k8s.io/v1',
        'apis/authorization.k8s.io/v1',
        'apis/autoscaling/v1',
        'apis/autoscaling/v2',
        'apis/batch/v1',
        'apis/certificates.k8s.io/v1',
        'apis/coordination.k8s.io/v1',
        'apis/discovery.k8s.io/v1',
        'apis/events.k8s.io/v1',
        'apis/flowcontrol.apiserver.k8s.io/v1',
        'apis/metrics.k8s.io/v1beta1',
        'apis/networking.k8s.io/v1',
        'apis/node.k8s.io/v1',
        'apis/policy/v1',
        'apis/rbac.authorization.k8s.io/v1',
        'apis/scheduling.k8s.io/v1',
        'apis/storage.k8s.io/v1',
      ]);
      expect(res.body.paths['apis/apps/v1'].serverRelativeURL).toMatch(/^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{32}$/);
    });

    it('the apps/v1 document has a PATCH operation for Deployment with fieldValidation and the GVK', async () => {
      const root = await request(url('/openapi/v3'));
      const res = await request(url(`${root.body.paths['apis/apps/v1'].serverRelativeURL}&timeout=32s`));
      expect(res.status).toBe(200);
      expect(res.body.openapi).toBe('3.0.0');
      const item = res.body.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'];
      expect(item.patch['x-kubernetes-group-version-kind']).toEqual({ group: 'apps', kind: 'Deployment', version: 'v1' });
      expect(item.patch['x-kubernetes-action']).toBe('patch');
      expect(item.patch.parameters.map((p: any) => p.name)).toContain('fieldValidation');
      // The patch types, strategic merge included: kubectl's client-side apply looks for it.
      expect(Object.keys(item.patch.requestBody.content).sort()).toEqual([
        'application/apply-patch+yaml',
        'application/json-patch+json',
        'application/merge-patch+json',
        'application/strategic-merge-patch+json',
      ]);
      expect(item.patch.requestBody.content['application/merge-patch+json'].schema).toEqual({
        $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Patch',
      });
      expect(Object.keys(item.put.requestBody.content)).toEqual(['*/*']);
      expect(res.body.components.schemas['io.k8s.apimachinery.pkg.apis.meta.v1.Patch']).toMatchObject({ type: 'object' });
      const schema = Object.values(res.body.components.schemas).find((s: any) =>
        (s['x-kubernetes-group-version-kind'] ?? []).some((gvk: any) => gvk.kind === 'Deployment' && gvk.group === 'apps'),
      ) as any;
      expect(schema.properties).toHaveProperty('spec');
      expect(schema.properties).toHaveProperty('metadata');
    });

    it('the core document uses cluster-scoped paths for cluster-scoped kinds', async () => {
      const res = await request(url('/openapi/v3/api/v1'));
      expect(res.body.paths['/api/v1/nodes/{name}'].patch['x-kubernetes-group-version-kind']).toEqual({ group: '', kind: 'Node', version: 'v1' });
      expect(res.body.paths['/api/v1/namespaces/{namespace}/pods/{name}'].patch.parameters.map((p: any) => p.name)).toContain('fieldValidation');
    });

    it('/openapi/v3 answers 404 for a group-version it does not serve (/openapi/v2 has its own test file)', async () => {
      const res = await request(url('/openapi/v3/apis/nope/v1'));
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404, message: 'the server could not find the requested resource' });
    });
  });

  describe('live registry', () => {
    const widgetSchema = ConfigMapSchema.extend({
      apiVersion: z.literal('example.com/v1').optional(),
      kind: z.literal('Widget').optional(),
    }).meta({ id: 'com.example.v1.Widget', description: 'Widget is a test kind shaped like a ConfigMap.' });
    const widgetDefinition: ResourceDefinition<any> = {
      ...configMapDefinition,
      group: 'example.com',
      version: 'v1',
      kind: 'Widget',
      plural: 'widgets',
      singular: 'widget',
      shortNames: ['wg'],
      schema: widgetSchema,
      storage: { resource: 'widgets.example.com' },
    };
    const widgets = '/apis/example.com/v1/namespaces/default/widgets';
    const widget = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, data: { size: 'L' } };

    it('serves a kind added at run time (routes, discovery, OpenAPI) and stops when it is removed', async () => {
      const registry = cluster.server.context.registry;
      expect((await request(url(widgets))).status).toBe(404);
      const hashBefore = (await request(url('/openapi/v3'))).body.paths['apis/apps/v1'].serverRelativeURL;

      registry.add(widgetDefinition);
      const created = await request(url(widgets), { method: 'POST', body: widget });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'default' }, data: { size: 'L' } });
      const listed = await request(url(widgets));
      expect(listed.body.kind).toBe('WidgetList');
      expect(listed.body.items.map((i: any) => i.metadata.name)).toEqual(['w1']);
      const put = await request(url(`${widgets}/w1`), { method: 'PUT', body: { ...created.body, data: { size: 'XL' } } });
      expect(put.status).toBe(200);

      const aggregated = await request(url('/apis'), { accept: AGGREGATED_ACCEPT });
      const group = aggregated.body.items.find((g: any) => g.metadata.name === 'example.com');
      expect(group.versions[0].resources[0]).toMatchObject({
        resource: 'widgets',
        responseKind: { group: 'example.com', version: 'v1', kind: 'Widget' },
        shortNames: ['wg'],
      });
      expect((await request(url('/apis'))).body.groups.map((g: any) => g.name)).toContain('example.com');
      expect((await request(url('/apis/example.com/v1'))).body.resources.map((r: any) => r.name)).toEqual(['widgets']);

      const root = await request(url('/openapi/v3'));
      expect(root.body.paths['apis/apps/v1'].serverRelativeURL).toBe(hashBefore);
      const doc = await request(url(root.body.paths['apis/example.com/v1'].serverRelativeURL));
      expect(doc.body.paths['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}'].patch['x-kubernetes-group-version-kind']).toEqual({
        group: 'example.com',
        kind: 'Widget',
        version: 'v1',
      });

      registry.remove('example.com', 'v1', 'widgets');
      const gone = await request(url(`${widgets}/w1`));
      expect(gone.status).toBe(404);
      expect(gone.body.message).toBe('the server could not find the requested resource');
      expect((await request(url('/apis'), { accept: AGGREGATED_ACCEPT })).body.items.map((g: any) => g.metadata.name)).not.toContain('example.com');
      expect((await request(url('/apis/example.com/v1'))).status).toBe(404);
      expect(Object.keys((await request(url('/openapi/v3'))).body.paths)).not.toContain('apis/example.com/v1');
      expect((await request(url('/openapi/v3/apis/example.com/v1'))).status).toBe(404);

      // The objects stay in the store: serving the kind again brings them back.
      registry.add(widgetDefinition);
      expect((await request(url(`${widgets}/w1`))).body.data).toEqual({ size: 'XL' });
    });
  });
});
