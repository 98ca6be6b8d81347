/**
 * Regression tests for request bodies that once crashed, froze or half-wrote the server: deep
 * nesting in every body type, huge and repetitive YAML. Each must be answered with a 4xx Status,
 * leave the object as it was, and leave the server answering at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRDS_PATH, createCrd, cronTabCrd } from '../support/crds.js';
import { request } from '../support/http.js';
import { startTestCluster, type TestCluster } from '../support/test-cluster.js';

const CM = '/api/v1/namespaces/default/configmaps';
const CRONTABS = '/apis/stable.example.com/v1/namespaces/default/crontabs';

const nestedArray = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const nestedObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

describe('hostile request bodies', () => {
  let cluster: TestCluster;
  const url = (path: string) => `${cluster.url}${path}`;

  beforeAll(async () => {
    cluster = await startTestCluster();
    await request(url(CM), { method: 'POST', body: { metadata: { name: 'target' }, data: { k: 'v' } } });
    await createCrd(cluster.url, cronTabCrd());
    const crontab = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'ct' }, spec: { replicas: 1, extra: {} } };
    expect((await request(url(CRONTABS), { method: 'POST', body: crontab })).status).toBe(201);
  });
  afterAll(() => cluster.stop());

  async function expectUnchangedAndAlive(path: string, before: unknown): Promise<void> {
    const after = await request(url(path));
    expect(after.body).toEqual(before);
    expect((await request(url('/readyz'))).status).toBe(200);
  }

  async function expectStatus4xx(response: { status: number; body: any }): Promise<void> {
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.body).toMatchObject({ kind: 'Status', status: 'Failure' });
  }

  const deepBodies: Array<[string, string, string, (depth: number) => string]> = [
    ['create as YAML (flow)', 'POST', 'application/yaml', (d) => `metadata: {name: deep}\ndata: ${nestedArray(d)}`],
    ['create as JSON', 'POST', 'application/json', (d) => `{"metadata":{"name":"deep"},"x":${nestedObject(d)}}`],
    ['create, JSON sent as YAML', 'POST', 'application/yaml', (d) => `{"metadata":{"name":"deep"},"x":${nestedArray(d)}}`],
    ['merge patch', 'PATCH', 'application/merge-patch+json', (d) => `{"x":${nestedObject(d)}}`],
    ['strategic merge patch', 'PATCH', 'application/strategic-merge-patch+json', (d) => `{"x":${nestedObject(d)}}`],
    ['JSON patch', 'PATCH', 'application/json-patch+json', (d) => `[{"op":"add","path":"/x","value":${nestedArray(d)}}]`],
    [
      'server-side apply',
      'PATCH',
      'application/apply-patch+yaml',
      (d) => `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"target"},"x":${nestedArray(d)}}`,
    ],
  ];

  it.each(deepBodies)('answers 400 to 10,000 levels of nesting in a %s', async (_name, method, contentType, body) => {
    const path = method === 'POST' ? CM : `${CM}/target${contentType.startsWith('application/apply') ? '?fieldManager=t' : ''}`;
    const before = (await request(url(`${CM}/target`))).body;
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await request(url(path), { method, raw: body(10_000), contentType });
      await expectStatus4xx(response);
      expect(response.body.message).toMatch(/more than 1000 levels deep/);
    }
    await expectUnchangedAndAlive(`${CM}/target`, before);
  });

  it.each(deepBodies)('survives nesting just inside the bound in a %s', async (_name, method, contentType, body) => {
    const path = method === 'POST' ? CM : `${CM}/target${contentType.startsWith('application/apply') ? '?fieldManager=t' : ''}`;
    const response = await request(url(path), { method, raw: body(990), contentType });
    expect(response.status).toBeLessThan(500);
    if (method === 'POST' && response.status === 201) await request(url(`${CM}/deep`), { method: 'DELETE' });
    expect((await request(url('/readyz'))).status).toBe(200);
  });

  it('keeps deep preserved fields of a custom resource within the bound, and refuses deeper ones', async () => {
    const deep = (levels: number) => `{"spec":{"extra":${nestedObject(levels)}}}`;
    const inside = await request(url(`${CRONTABS}/ct`), { method: 'PATCH', raw: deep(990), contentType: 'application/merge-patch+json' });
    expect(inside.status).toBeLessThan(500);
    const before = (await request(url(`${CRONTABS}/ct`))).body;
    await expectStatus4xx(await request(url(`${CRONTABS}/ct`), { method: 'PATCH', raw: deep(5_000), contentType: 'application/merge-patch+json' }));
    await expectUnchangedAndAlive(`${CRONTABS}/ct`, before);
  });

  it('answers a YAML map of 20,000 keys with 400 naming the bound, and one of 5,000 normally', async () => {
    const keys = (n: number) => `metadata: {name: many}\ndata:\n${Array.from({ length: n }, (_, i) => `  k${i}: v`).join('\n')}\n`;
    const refused = await request(url(CM), { method: 'POST', raw: keys(20_000), contentType: 'application/yaml' });
    await expectStatus4xx(refused);
    expect(refused.body.message).toMatch(/more than 10000 entries; send large objects as JSON/);
    const accepted = await request(url(CM), { method: 'POST', raw: keys(5_000), contentType: 'application/yaml' });
    expect(accepted.status).toBe(201);
    expect(Object.keys(accepted.body.data)).toHaveLength(5_000);
  });

  it('refuses deep nesting in a CRD schema too', async () => {
    // 3,000 schema levels are 6,000 JSON levels: built as text, which JSON.stringify could not.
    const schema = `${'{"type":"object","properties":{"a":'.repeat(3_000)}{"type":"string"}${'}}'.repeat(3_000)}`;
    const crd = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"deeps.example.com"},"spec":{"group":"example.com","names":{"plural":"deeps","kind":"Deep"},"scope":"Namespaced","versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":${schema}}}]}}`;
    await expectStatus4xx(await request(url(CRDS_PATH), { method: 'POST', raw: crd }));
    expect((await request(url('/readyz'))).status).toBe(200);
  });

  it.each([
    ['create', 'POST', CM, 'application/json', '{"metadata":{"name":"hw"},"data":{"k":"v"},"€":1}'],
    ['create (dry run)', 'POST', `${CM}?dryRun=All`, 'application/json', '{"metadata":{"name":"hw-dry"},"data":{"k":"v"},"€":1}'],
    ['merge patch', 'PATCH', `${CM}/target`, 'application/merge-patch+json', '{"data":{"k":"CHANGED"},"€":1,"ü":2}'],
  ])('answers a %s with an unknown field named in non-Latin-1 text with success and the warnings, in UTF-8', async (_name, method, path, contentType, raw) => {
    const response = await fetch(url(path), { method, headers: { 'Content-Type': contentType }, body: raw });
    expect(response.status).toBeLessThan(300);
    const warnings = response.headers.get('warning') ?? '';
    // fetch hands header bytes over as Latin-1: read them back as the UTF-8 they are.
    expect(Buffer.from(warnings, 'latin1').toString('utf8')).toContain('unknown field \\"€\\"');
    if (method === 'PATCH') expect(Buffer.from(warnings, 'latin1').toString('utf8')).toContain('unknown field \\"ü\\"');
    expect(((await response.json()) as { kind: string }).kind).toBe('ConfigMap');
  });

  it('echoes a bad value in an error only in part, however large it is', async () => {
    // 150 values of 15,000 characters: without the caps the answer would repeat 4.5 MB.
    const huge = 'x'.repeat(15_000);
    const labels = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`l${i}`, huge]));
    const response = await request(url(CM), { method: 'POST', body: { metadata: { name: 'echo', labels } } });
    expect(response.status).toBe(422);
    expect(JSON.stringify(response.body).length).toBeLessThan(500_000);
    expect(response.body.message).toContain('...(13978 more characters)');
    expect(response.body.message).toContain('and 50 more errors');
    expect(response.body.details.causes).toHaveLength(150);
  });

  it.each([
    ['configmaps', 'data', 'x'.repeat(1_000_000), 'must be no more than 253 characters'],
    ['configmaps', 'data', 'a/b', "a valid config key must consist of alphanumeric characters, '-', '_' or '.'"],
    ['configmaps', 'binaryData', '..hidden', "must not start with '..'"],
    ['secrets', 'data', 'k'.repeat(254), 'must be no more than 253 characters'],
  ])('refuses a %s %s key %#, as Kubernetes does', async (resource, field, key, message) => {
    const value = field === 'data' && resource === 'configmaps' ? 'v' : 'dg==';
    const response = await request(url(`/api/v1/namespaces/default/${resource}`), {
      method: 'POST',
      body: { metadata: { name: `key-${resource}` }, [field]: { [key]: value } },
    });
    expect(response.status).toBe(422);
    expect(response.body.details.causes[0].field).toBe(
      `${field}[${key}]`.slice(0, 1024) + (key.length > 1000 ? `...(${key.length + field.length + 2 - 1024} more characters)` : ''),
    );
    expect(response.body.message).toContain(message);
    expect(JSON.stringify(response.body).length).toBeLessThan(20_000);
  });

  it('refuses a 32-bit field past its range (a ReplicaSet of 2147483648 pods once made 6,500 before it was stopped)', async () => {
    const rs = {
      metadata: { name: 'huge' },
      spec: {
        replicas: 2147483648,
        selector: { matchLabels: { a: 'b' } },
        template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      },
    };
    const response = await request(url('/apis/apps/v1/namespaces/default/replicasets'), { method: 'POST', body: rs });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.body.message).toContain('spec.replicas');
    expect(response.body.message).toContain('2147483647');
    const fits = await request(url('/apis/apps/v1/namespaces/default/replicasets'), {
      method: 'POST',
      body: { ...rs, spec: { ...rs.spec, replicas: 2147483647 } },
    });
    expect(fits.status).toBe(201);
  });
});
