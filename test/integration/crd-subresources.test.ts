/**
 * Custom resources beyond CRUD, over real HTTP: two served versions over one storage version,
 * the status and scale subresources, and the patch types kube-apiserver takes for them (JSON
 * and merge patch, server-side apply by list-map keys; strategic merge patch is a 415).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createCrd, cronTab, cronTabCrd } from '../support/crds.js';
import { request } from '../support/http.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const V1 = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const V1BETA1 = '/apis/stable.example.com/v1beta1/namespaces/default/crontabs';
const MERGE = 'application/merge-patch+json';
const APPLY = 'application/apply-patch+yaml';

describe('custom resource versions, subresources and patches', () => {
  const cluster = useTestCluster({ lifetime: 'file' });
  const url = (path: string) => `${cluster.url}${path}`;

  beforeAll(async () => {
    await createCrd(cluster.url, cronTabCrd({ withBeta: true }));
  });

  it('serves every served version over one storage, v1 preferred', async () => {
    const group = await request(url('/apis/stable.example.com'));
    expect(group.body.versions.map((v: any) => v.version)).toEqual(['v1', 'v1beta1']);
    expect(group.body.preferredVersion.version).toBe('v1');

    const created = await request(url(V1BETA1), { method: 'POST', body: cronTab('beta', {}, 'stable.example.com/v1beta1') });
    expect(created.status).toBe(201);
    expect(created.body.apiVersion).toBe('stable.example.com/v1beta1');
    const asV1 = await request(url(`${V1}/beta`));
    expect(asV1.body).toMatchObject({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', spec: { image: 'my-cron-image' } });
    expect(cluster.server.store.get({ resource: 'crontabs.stable.example.com', namespace: 'default', name: 'beta' })['apiVersion']).toBe(
      'stable.example.com/v1',
    );
    const wrongVersion = await request(url(V1), { method: 'POST', body: cronTab('x', {}, 'stable.example.com/v1beta1') });
    expect(wrongVersion.status).toBe(400);
  });

  it('keeps status to /status: dropped on create, ignored by the main resource', async () => {
    const body = { ...cronTab('st'), status: { replicas: 5 } };
    const created = await request(url(V1), { method: 'POST', body });
    expect(created.body.status).toBeUndefined();
    const put = await request(url(`${V1}/st/status`), {
      method: 'PUT',
      body: { ...created.body, status: { replicas: 2 }, spec: { ...created.body.spec, image: 'ignored' } },
    });
    expect(put.status).toBe(200);
    expect(put.body.status).toEqual({ replicas: 2 });
    expect(put.body.spec.image).toBe('my-cron-image');
    expect(put.body.metadata.generation).toBe(1);
    const main = await request(url(`${V1}/st`), { method: 'PATCH', contentType: MERGE, body: { status: { replicas: 9 }, spec: { image: 'new' } } });
    expect(main.body.status).toEqual({ replicas: 2 });
    expect(main.body.metadata.generation).toBe(2);
  });

  it('without a status subresource, status is written with the object and counts as spec', async () => {
    const crd = cronTabCrd({ group: 'plain.example.com', shortNames: [] });
    delete crd.spec.versions[0].subresources;
    await createCrd(cluster.url, crd);
    const base = '/apis/plain.example.com/v1/namespaces/default/crontabs';
    const created = await request(url(base), { method: 'POST', body: { ...cronTab('p', {}, 'plain.example.com/v1'), status: { replicas: 1 } } });
    expect(created.body.status).toEqual({ replicas: 1 });
    expect((await request(url(`${base}/p/status`))).status).toBe(404);
    const patched = await request(url(`${base}/p`), { method: 'PATCH', contentType: MERGE, body: { status: { replicas: 2 } } });
    expect(patched.body).toMatchObject({ status: { replicas: 2 }, metadata: { generation: 2 } });
  });

  it('serves /scale from the CRD paths, and scales through it', async () => {
    await request(url(V1), { method: 'POST', body: cronTab('scaled', { replicas: 2 }) });
    await request(url(`${V1}/scaled/status`), { method: 'PATCH', contentType: MERGE, body: { status: { replicas: 2, selector: 'app=cron' } } });
    const scale = await request(url(`${V1}/scaled/scale`));
    expect(scale.body).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 2 }, status: { replicas: 2, selector: 'app=cron' } });
    const patched = await request(url(`${V1}/scaled/scale`), { method: 'PATCH', contentType: MERGE, body: { spec: { replicas: 4 } } });
    expect(patched.status).toBe(200);
    expect(patched.body.spec.replicas).toBe(4);
    expect((await request(url(`${V1}/scaled`))).body.spec.replicas).toBe(4);
    // The schema still applies to a scale write (maximum 10).
    const tooMany = await request(url(`${V1}/scaled/scale`), { method: 'PATCH', contentType: MERGE, body: { spec: { replicas: 11 } } });
    expect(tooMany.status).toBe(422);
  });

  it('takes JSON and merge patches, and answers strategic merge patch with 415', async () => {
    await request(url(V1), { method: 'POST', body: cronTab('patched') });
    const merge = await request(url(`${V1}/patched`), { method: 'PATCH', contentType: MERGE, body: { spec: { image: 'merged' } } });
    expect(merge.body.spec.image).toBe('merged');
    const json = await request(url(`${V1}/patched`), {
      method: 'PATCH',
      contentType: 'application/json-patch+json',
      body: [{ op: 'replace', path: '/spec/replicas', value: 3 }],
    });
    expect(json.body.spec.replicas).toBe(3);
    const smp = await request(url(`${V1}/patched`), { method: 'PATCH', contentType: 'application/strategic-merge-patch+json', body: { spec: { image: 'x' } } });
    expect(smp.status).toBe(415);
    expect(smp.body).toMatchObject({
      reason: 'UnsupportedMediaType',
      message:
        'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    });
  });

  it('server-side applies by the schema: list-map items by key, with ownership and conflicts', async () => {
    const apply = (manager: string, body: unknown, force = false) =>
      request(url(`${V1}/applied?fieldManager=${manager}${force ? '&force=true' : ''}`), { method: 'PATCH', contentType: APPLY, body });
    const first = await apply('alice', {
      apiVersion: 'stable.example.com/v1',
      kind: 'CronTab',
      metadata: { name: 'applied' },
      spec: { cronSpec: '* * * * *', image: 'a', replicas: 1, ports: [{ name: 'http', port: 80 }] },
    });
    expect(first.status).toBe(201);
    const second = await apply('bob', {
      apiVersion: 'stable.example.com/v1',
      kind: 'CronTab',
      metadata: { name: 'applied' },
      spec: { ports: [{ name: 'metrics', port: 9090 }] },
    });
    expect(second.status).toBe(200);
    expect(second.body.spec.ports).toEqual([
      { name: 'http', port: 80 },
      { name: 'metrics', port: 9090 },
    ]);
    expect(second.body.metadata.managedFields.map((m: any) => m.manager)).toEqual(['alice', 'bob']);
    const conflict = await apply('bob', { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'applied' }, spec: { image: 'b' } });
    expect(conflict.status).toBe(409);
    expect(conflict.body.message).toContain('conflict with "alice"');
    expect(conflict.body.message).toContain('.spec.image');
  });
});
