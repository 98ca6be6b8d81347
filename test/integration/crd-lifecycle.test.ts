/**
 * CustomResourceDefinitions over real HTTP: a created CRD gets NamesAccepted and Established,
 * its resource appears in discovery, OpenAPI and Tables, custom resources can be created,
 * listed, watched, updated and deleted (namespaced and cluster-scoped), a conflicting CRD is
 * not served, and deleting a CRD removes its objects and its routes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApiServer } from '../../apiserver/start-api-server.js';
import { CRDS_PATH, createCrd, cronTab, cronTabCrd, waitForCondition } from '../support/crds.js';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http.js';
import { useTestCluster } from '../support/use-test-cluster.js';
import { openWatch } from '../support/watch-client.js';

const TABLE = 'application/json;as=Table;g=meta.k8s.io;v=v1';
const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const CRONTABS = '/apis/stable.example.com/v1/namespaces/default/crontabs';

describe('CustomResourceDefinitions', () => {
  const cluster = useTestCluster({ lifetime: 'file' });
  const url = (path: string) => `${cluster.url}${path}`;

  beforeAll(async () => {
    await createCrd(cluster.url, cronTabCrd());
  });

  it('are served as apiextensions.k8s.io/v1 with short names, category and the default table', async () => {
    const list = await request(url('/apis/apiextensions.k8s.io/v1'));
    const crdResource = list.body.resources.find((r: any) => r.name === 'customresourcedefinitions');
    expect(crdResource).toMatchObject({ kind: 'CustomResourceDefinition', namespaced: false, shortNames: ['crd', 'crds'], categories: ['api-extensions'] });
    expect(list.body.resources.map((r: any) => r.name)).toContain('customresourcedefinitions/status');
    const table = await request(url(CRDS_PATH), { accept: TABLE });
    expect(table.body.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Created At']);
    expect(table.body.rows[0].cells[0]).toBe('crontabs.stable.example.com');
  });

  it('reports NamesAccepted, Established, accepted names and the stored version', async () => {
    const crd = (await request(url(`${CRDS_PATH}/crontabs.stable.example.com`))).body;
    expect(crd.metadata.generation).toBe(1);
    expect(crd.status.acceptedNames).toEqual({
      plural: 'crontabs',
      singular: 'crontab',
      kind: 'CronTab',
      listKind: 'CronTabList',
      shortNames: ['ct'],
      categories: ['all'],
    });
    expect(crd.status.storedVersions).toEqual(['v1']);
    const conditions = Object.fromEntries(crd.status.conditions.map((c: any) => [c.type, c]));
    expect(conditions['NamesAccepted']).toMatchObject({ status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
    expect(conditions['Established']).toMatchObject({ status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' });
    expect(crd.spec.conversion).toEqual({ strategy: 'None' });
  });

  it('appear in discovery, legacy and aggregated', async () => {
    const groups = await request(url('/apis'));
    expect(groups.body.groups).toContainEqual({
      name: 'stable.example.com',
      versions: [{ groupVersion: 'stable.example.com/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'stable.example.com/v1', version: 'v1' },
    });
    const resources = await request(url('/apis/stable.example.com/v1'));
    expect(resources.body.resources.map((r: any) => r.name)).toEqual(['crontabs', 'crontabs/status', 'crontabs/scale']);
    expect(resources.body.resources[0]).toMatchObject({ singularName: 'crontab', namespaced: true, kind: 'CronTab', shortNames: ['ct'], categories: ['all'] });
    const aggregated = await request(url('/apis'), { accept: AGGREGATED });
    const group = aggregated.body.items.find((g: any) => g.metadata.name === 'stable.example.com');
    expect(group.versions[0].resources[0]).toMatchObject({ resource: 'crontabs', scope: 'Namespaced', responseKind: { kind: 'CronTab', version: 'v1' } });
  });

  it('publish the CRD schema in OpenAPI v3, with apiVersion, kind and metadata', async () => {
    const root = await request(url('/openapi/v3'));
    expect(root.body.paths['apis/stable.example.com/v1']).toBeDefined();
    const doc = await request(url('/openapi/v3/apis/stable.example.com/v1'));
    const schema = doc.body.components.schemas['com.example.stable.v1.CronTab'];
    expect(schema['x-kubernetes-group-version-kind']).toEqual([{ group: 'stable.example.com', kind: 'CronTab', version: 'v1' }]);
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['apiVersion', 'kind', 'metadata', 'spec', 'status']));
    expect(schema.properties.spec.properties.ports['x-kubernetes-list-map-keys']).toEqual(['name']);
    expect(doc.body.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}'].patch).toBeDefined();
  });

  it('serve CRUD, watch and the printer columns of custom resources', async () => {
    const watch = await openWatch(url(`${CRONTABS}?watch=true`));
    try {
      const created = await request(url(CRONTABS), { method: 'POST', body: cronTab('nightly', { replicas: 3 }) });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        apiVersion: 'stable.example.com/v1',
        kind: 'CronTab',
        metadata: { name: 'nightly', namespace: 'default', generation: 1 },
      });
      expect((await watch.next())?.type).toBe('ADDED');

      const got = await request(url(`${CRONTABS}/nightly`));
      got.body.spec.image = 'my-cron-image:2';
      const updated = await request(url(`${CRONTABS}/nightly`), { method: 'PUT', body: got.body });
      expect(updated.status).toBe(200);
      expect(updated.body.metadata.generation).toBe(2);
      const modified = await watch.next();
      expect(modified).toMatchObject({ type: 'MODIFIED', object: { spec: { image: 'my-cron-image:2' } } });

      await request(url(`${CRONTABS}/nightly/status`), {
        method: 'PATCH',
        contentType: 'application/merge-patch+json',
        body: { status: { conditions: [{ type: 'Ready', status: 'True' }] } },
      });
      const table = await request(url(CRONTABS), { accept: TABLE });
      expect(table.body.columnDefinitions.map((c: any) => [c.name, c.type, c.priority])).toEqual([
        ['Name', 'string', 0],
        ['Spec', 'string', 0],
        ['Replicas', 'integer', 0],
        ['Ready', 'string', 0],
        ['Image', 'string', 1],
        ['Age', 'date', 0],
      ]);
      expect(table.body.rows[0].cells).toEqual(['nightly', '* * * * */5', 3, 'True', 'my-cron-image:2', expect.stringMatching(/^\d+s$/)]);

      const listed = await request(url('/apis/stable.example.com/v1/crontabs'));
      expect(listed.body).toMatchObject({ kind: 'CronTabList', apiVersion: 'stable.example.com/v1' });
      expect(listed.body.items.map((i: any) => i.metadata.name)).toEqual(['nightly']);

      expect((await request(url(`${CRONTABS}/nightly`), { method: 'DELETE' })).status).toBe(200);
      await watch.next(); // the status write
      expect((await watch.next())?.type).toBe('DELETED');
      expect((await request(url(`${CRONTABS}/nightly`))).status).toBe(404);
    } finally {
      watch.close();
    }
  });

  it('serve cluster-scoped custom resources at the top level only', async () => {
    await createCrd(cluster.url, cronTabCrd({ group: 'cluster.example.com', scope: 'Cluster', shortNames: [] }));
    const base = '/apis/cluster.example.com/v1/crontabs';
    const created = await request(url(base), { method: 'POST', body: cronTab('global', {}, 'cluster.example.com/v1') });
    expect(created.status).toBe(201);
    expect(created.body.metadata.namespace).toBeUndefined();
    expect((await request(url(`${base}/global`))).status).toBe(200);
    expect((await request(url('/apis/cluster.example.com/v1/namespaces/default/crontabs/global'))).status).toBe(404);
    const table = await request(url('/apis/cluster.example.com/v1'));
    expect(table.body.resources[0].namespaced).toBe(false);
  });

  it('do not serve a CRD whose kind another CRD of the group holds: NamesAccepted False', async () => {
    const clash = cronTabCrd({ plural: 'crontabs2', kind: 'CronTab', shortNames: [] });
    clash.spec.names.singular = 'crontab2';
    expect((await request(url(CRDS_PATH), { method: 'POST', body: clash })).status).toBe(201);
    const crd = await waitForCondition(cluster.url, 'crontabs2.stable.example.com', 'NamesAccepted', 'False');
    const conditions = Object.fromEntries(crd.status.conditions.map((c: any) => [c.type, c]));
    // Every name is checked; the last conflict found (listKind, after kind) is the one reported.
    expect(conditions['NamesAccepted']).toMatchObject({ reason: 'ListKindConflict', message: '"CronTabList" is already in use' });
    expect(conditions['Established']).toMatchObject({ status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' });
    expect(crd.status.acceptedNames).toEqual({ plural: 'crontabs2', singular: 'crontab2', kind: '', categories: ['all'] });
    expect((await request(url('/apis/stable.example.com/v1/namespaces/default/crontabs2'))).status).toBe(404);
  });

  it('do not let a CRD shadow a built-in resource of its group', async () => {
    const leases = cronTabCrd({ group: 'coordination.k8s.io', plural: 'leases', kind: 'Lease', shortNames: [] });
    leases.metadata.annotations = { 'api-approved.kubernetes.io': 'unapproved, testing' };
    expect((await request(url(CRDS_PATH), { method: 'POST', body: leases })).status).toBe(201);
    const crd = await waitForCondition(cluster.url, 'leases.coordination.k8s.io', 'NamesAccepted', 'False');
    expect(crd.status.conditions.find((c: any) => c.type === 'NamesAccepted')).toMatchObject({
      reason: 'ListKindConflict',
      message: '"LeaseList" is already in use',
    });
    const lease = await request(url('/apis/coordination.k8s.io/v1/namespaces/default/leases'));
    expect(lease.body.kind).toBe('LeaseList');
  });

  it('deleting a CRD deletes its custom resources, then the CRD and its routes', async () => {
    await createCrd(cluster.url, cronTabCrd({ group: 'doomed.example.com', shortNames: [] }));
    const base = '/apis/doomed.example.com/v1/namespaces/default/crontabs';
    for (const name of ['a', 'b']) expect((await request(url(base), { method: 'POST', body: cronTab(name, {}, 'doomed.example.com/v1') })).status).toBe(201);
    const held = cronTab('held', {}, 'doomed.example.com/v1');
    held.metadata.finalizers = ['example.com/hold'];
    expect((await request(url(base), { method: 'POST', body: held })).status).toBe(201);

    const deleted = await request(url(`${CRDS_PATH}/crontabs.doomed.example.com`), { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(deleted.body.metadata.finalizers).toEqual(['customresourcecleanup.apiextensions.k8s.io']);
    expect(deleted.body.status.conditions.find((c: any) => c.type === 'Terminating')).toMatchObject({ status: 'True', reason: 'InstanceDeletionPending' });

    // The held object waits for its own finalizer; the CRD waits for it, refusing new objects.
    await eventually(async () => expect((await request(url(base))).body.items.map((i: any) => i.metadata.name)).toEqual(['held']));
    const crd = await waitForCondition(cluster.url, 'crontabs.doomed.example.com', 'Terminating', 'True');
    expect(crd.status.conditions.find((c: any) => c.type === 'Terminating').reason).toBe('InstanceDeletionInProgress');
    expect((await request(url(base), { method: 'POST', body: cronTab('late', {}, 'doomed.example.com/v1') })).status).toBe(405);

    const release = await request(url(`${base}/held`), {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: { metadata: { finalizers: null } },
    });
    expect(release.status).toBe(200);
    await eventually(async () => expect((await request(url(`${CRDS_PATH}/crontabs.doomed.example.com`))).status).toBe(404), { timeoutMs: 15_000 });
    expect((await request(url(base))).status).toBe(404);
    expect((await request(url('/apis'))).body.groups.map((g: any) => g.name)).not.toContain('doomed.example.com');
    expect(cluster.server.store.list({ resource: 'crontabs.doomed.example.com' }).items).toEqual([]);
  });
});

describe('CustomResourceDefinitions across a restart', () => {
  it('are served again, with their objects, from a reopened data dir', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubesim-crd-'));
    const dataDir = join(dir, 'data');
    let server = await startApiServer({ dataDir, host: '127.0.0.1', port: 0 });
    try {
      await createCrd(server.url, cronTabCrd());
      expect((await request(`${server.url}${CRONTABS}`, { method: 'POST', body: cronTab('kept') })).status).toBe(201);
      await server.close();
      server = await startApiServer({ dataDir, host: '127.0.0.1', port: 0 });
      // Served before the first request: no waiting.
      const kept = await request(`${server.url}${CRONTABS}/kept`);
      expect(kept.status).toBe(200);
      expect(kept.body.spec.replicas).toBe(1);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
