/**
 * What a CRD's schema does to its custom resources, over real HTTP: invalid CRDs are refused
 * with kube-apiserver's causes; custom resources are defaulted, pruned (unknown fields warned
 * about or refused per fieldValidation), validated against the OpenAPI schema and its CEL
 * rules (transition rules included), and nullable fields keep their nulls.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CRDS_PATH, CRONTAB_SCHEMA, createCrd, cronTab, cronTabCrd } from '../support/crds.js';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const CRONTABS = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const MERGE = 'application/merge-patch+json';

describe('CRD validation', () => {
  const cluster = useTestCluster({ lifetime: 'file' });
  const url = (path: string) => `${cluster.url}${path}`;
  const causes = (body: any) => (body.details?.causes ?? []).map((c: any) => `${c.field}: ${c.message}`);

  beforeAll(async () => {
    await createCrd(cluster.url, cronTabCrd());
  });

  it('refuses a CRD whose name, versions and names are wrong, naming each problem', async () => {
    const crd = cronTabCrd();
    crd.metadata.name = 'wrong.stable.example.com';
    crd.spec.versions.push({ ...crd.spec.versions[0], name: 'v2' });
    crd.spec.names.listKind = 'CronTab';
    crd.spec.scope = 'Everywhere';
    const res = await request(url(CRDS_PATH), { method: 'POST', body: crd });
    expect(res.status).toBe(422);
    expect(res.body.reason).toBe('Invalid');
    expect(res.body.message).toMatch(/^CustomResourceDefinition\.apiextensions\.k8s\.io "wrong\.stable\.example\.com" is invalid: \[/);
    expect(causes(res.body)).toEqual(
      expect.arrayContaining([
        'metadata.name: Invalid value: "wrong.stable.example.com": must be spec.names.plural+"."+spec.group',
        'spec.scope: Unsupported value: "Everywhere": supported values: "Cluster", "Namespaced"',
        expect.stringMatching(/^spec\.versions: Invalid value: .*: must have exactly one version marked as storage version$/),
        'spec.names.listKind: Invalid value: "CronTab": kind and listKind may not be the same',
      ]),
    );
  });

  it('refuses a CRD whose schema is not structural or whose CEL rule does not compile', async () => {
    const crd = cronTabCrd({ group: 'bad.example.com' });
    const schema = structuredClone(crd.spec.versions[0].schema.openAPIV3Schema);
    schema.properties.spec.properties.cronSpec = {};
    schema.properties.spec['x-kubernetes-validations'] = [{ rule: 'self.replicas >' }];
    crd.spec.versions[0].schema.openAPIV3Schema = schema;
    const res = await request(url(CRDS_PATH), { method: 'POST', body: crd });
    expect(res.status).toBe(422);
    const found = causes(res.body);
    expect(found).toContainEqual(
      'spec.validation.openAPIV3Schema.properties[spec].properties[cronSpec].type: Required value: must not be empty for specified object fields',
    );
    expect(found.some((c: string) => c.startsWith('spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: '))).toBe(
      true,
    );
  });

  it('refuses a status subresource with a root schema that is not an object, and scale paths outside spec/status', async () => {
    const crd = cronTabCrd({ group: 'root.example.com' });
    crd.spec.versions[0].subresources.scale.specReplicasPath = '.status.replicas';
    crd.spec.versions[0].additionalPrinterColumns = [{ name: 'X', type: 'float', jsonPath: 'spec.x' }];
    const res = await request(url(CRDS_PATH), { method: 'POST', body: crd });
    expect(res.status).toBe(422);
    expect(causes(res.body)).toEqual(
      expect.arrayContaining([
        'spec.subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec',
        'spec.additionalPrinterColumns[0].type: Invalid value: "float": must be one of boolean,date,integer,number,string',
        'spec.additionalPrinterColumns[0].JSONPath: Invalid value: "spec.x": must be a simple json path starting with .',
      ]),
    );
  });

  it('defaults custom resources from the schema', async () => {
    const created = await request(url(CRONTABS), { method: 'POST', body: cronTab('defaulted') });
    expect(created.status).toBe(201);
    expect(created.body.spec).toMatchObject({ color: 'red', minReplicas: 0 });
    expect((await request(url(`${CRONTABS}/defaulted`))).body.spec.color).toBe('red');
  });

  it('prunes unknown fields: warned about by default, refused with fieldValidation=Strict, kept under preserve-unknown-fields', async () => {
    const body = cronTab('pruned', { bogus: 1, extra: { anything: { goes: true } } });
    const strict = await request(url(`${CRONTABS}?fieldValidation=Strict`), { method: 'POST', body });
    expect(strict.status).toBe(400);
    expect(strict.body.message).toBe('CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.bogus"');
    const created = await request(url(CRONTABS), { method: 'POST', body });
    expect(created.status).toBe(201);
    expect(created.headers.get('warning')).toContain('unknown field \\"spec.bogus\\"');
    expect(created.body.spec.bogus).toBeUndefined();
    expect(created.body.spec.extra).toEqual({ anything: { goes: true } });
    expect((await request(url(`${CRONTABS}/pruned`))).body.spec.bogus).toBeUndefined();
  });

  it('answers schema violations with 422 and one cause per field, worded as kube-apiserver', async () => {
    const res = await request(url(CRONTABS), { method: 'POST', body: cronTab('invalid', { replicas: 11, color: 'purple', cronSpec: 'bad' }) });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/^CronTab\.stable\.example\.com "invalid" is invalid: \[/);
    expect(res.body.details).toMatchObject({ name: 'invalid', group: 'stable.example.com', kind: 'CronTab' });
    expect(causes(res.body)).toEqual(
      expect.arrayContaining([
        'spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10',
        'spec.color: Unsupported value: "purple": supported values: "red", "green", "blue"',
      ]),
    );
    expect(causes(res.body).some((c: string) => c.startsWith('spec.cronSpec: Invalid value: "bad": spec.cronSpec in body should match'))).toBe(true);
  });

  it('checks a pattern with the linear-time engine: a catastrophic-backtracking pattern and hostile value get a prompt 422', async () => {
    // A backtracking engine needs about 2^50000 steps for this pair; the test would time out.
    const crd = cronTabCrd({ group: 'hostile.example.com', shortNames: [] });
    const schema = structuredClone(CRONTAB_SCHEMA);
    (schema.properties.spec.properties as Record<string, unknown>).word = { type: 'string', pattern: '^(a+)+$' };
    crd.spec.versions[0].schema.openAPIV3Schema = schema;
    await createCrd(cluster.url, crd);
    const base = '/apis/hostile.example.com/v1/namespaces/default/crontabs';

    const hostile = await request(url(base), { method: 'POST', body: cronTab('hostile', { word: `${'a'.repeat(50_000)}!` }, 'hostile.example.com/v1') });
    expect(hostile.status).toBe(422);
    expect(
      causes(hostile.body).some((c: string) => c.startsWith('spec.word: Invalid value: "aaa') && c.endsWith("spec.word in body should match '^(a+)+$'")),
    ).toBe(true);

    expect((await request(url(base), { method: 'POST', body: cronTab('fine', { word: 'a'.repeat(50_000) }, 'hostile.example.com/v1') })).status).toBe(201);
    expect((await request(url(`${base}/fine`))).status).toBe(200);
  });

  it('runs CEL rules, and transition rules against the old object', async () => {
    const failing = await request(url(CRONTABS), { method: 'POST', body: cronTab('cel', { replicas: 1, minReplicas: 2 }) });
    expect(failing.status).toBe(422);
    // As kube-apiserver ≥ 1.35 words it: an object's value is omitted, a scalar's shown.
    expect(causes(failing.body)).toEqual(['spec: Invalid value: replicas should be greater than or equal to minReplicas']);

    expect((await request(url(CRONTABS), { method: 'POST', body: cronTab('frozen', { immutableField: 'a' }) })).status).toBe(201);
    const changed = await request(url(`${CRONTABS}/frozen`), { method: 'PATCH', contentType: MERGE, body: { spec: { immutableField: 'b' } } });
    expect(changed.status).toBe(422);
    expect(causes(changed.body)).toEqual(['spec.immutableField: Invalid value: "b": immutableField is immutable']);
    const unchanged = await request(url(`${CRONTABS}/frozen`), { method: 'PATCH', contentType: MERGE, body: { spec: { image: 'other' } } });
    expect(unchanged.status).toBe(200);
  });

  it('applies a default added to the CRD later to stored objects as they are read', async () => {
    const crd = await createCrd(cluster.url, cronTabCrd({ group: 'later.example.com', shortNames: [] }));
    const base = '/apis/later.example.com/v1/namespaces/default/crontabs';
    expect((await request(url(base), { method: 'POST', body: cronTab('old', {}, 'later.example.com/v1') })).status).toBe(201);
    expect((await request(url(`${base}/old`))).body.spec.timezone).toBeUndefined();
    crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.timezone = { type: 'string', default: 'UTC' };
    const updated = await request(url(`${CRDS_PATH}/crontabs.later.example.com`), { method: 'PUT', body: crd });
    expect(updated.status).toBe(200);
    expect(updated.body.metadata.generation).toBe(2);
    await eventually(async () => expect((await request(url(`${base}/old`))).body.spec.timezone).toBe('UTC'));
  });

  it('keeps null in a nullable field and drops it (then defaults) elsewhere', async () => {
    const body = cronTab('nulls', { note: null, color: null });
    const created = await request(url(CRONTABS), { method: 'POST', body });
    expect(created.status).toBe(201);
    expect(created.body.spec.note).toBeNull();
    expect(created.body.spec.color).toBe('red');
  });
});
