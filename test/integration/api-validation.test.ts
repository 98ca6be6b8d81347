/** Request decoding and validation: 400 / 413 / 415 / 422 Status bodies, fieldValidation,
 * YAML bodies, and that a rejected write leaves nothing behind. */
import { describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { configMap, deployment, names, paths } from '../support/objects.js';
import { startTestCluster } from '../support/test-cluster.js';
import { useTestCluster } from '../support/use-test-cluster.js';

describe('API request validation', () => {
  const cluster = useTestCluster();
  const url = (path: string) => `${cluster.url}${path}`;

  /** expectNoWrite runs `write` and checks it changed neither the revision nor the list. */
  async function expectNoWrite(collection: string, write: () => Promise<void>): Promise<void> {
    const revision = cluster.server.store.currentRevision;
    const before = await request(url(collection));
    await write();
    const after = await request(url(collection));
    expect(cluster.server.store.currentRevision).toBe(revision);
    expect(after.body.items).toEqual(before.body.items);
    expect(after.body.metadata.resourceVersion).toBe(before.body.metadata.resourceVersion);
  }

  describe('malformed bodies', () => {
    it('answers 400 naming the JSON syntax error', async () => {
      await expectNoWrite(paths.deployments(), async () => {
        const res = await request(url(paths.deployments()), { method: 'POST', raw: '{"apiVersion":"apps/v1",' });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'BadRequest', code: 400 });
        expect(res.body.message).toMatch(/^the request body is not valid JSON: .*JSON/);
      });
    });

    it('answers 400 for an empty body and for a body that is not an object', async () => {
      const empty = await request(url(paths.configmaps()), { method: 'POST', raw: '' });
      expect(empty.status).toBe(400);
      expect(empty.body.message).toBe('the request body is empty: expected a JSON document');
      const array = await request(url(paths.configmaps()), { method: 'POST', raw: '[1,2]' });
      expect(array.status).toBe(400);
      expect(array.body.message).toBe('the request body must be a JSON object, got an array');
    });

    it('answers 400 when a field has the wrong type', async () => {
      const body = deployment('web');
      body.spec.replicas = 'two';
      await expectNoWrite(paths.deployments(), async () => {
        const res = await request(url(paths.deployments()), { method: 'POST', body });
        expect(res.status).toBe(400);
        expect(res.body.reason).toBe('BadRequest');
        expect(res.body.message).toBe('Deployment in version "v1" cannot be handled as a Deployment: spec.replicas: expected number, got string');
      });
    });

    it('answers 400 when apiVersion or kind do not match the URL', async () => {
      const wrongKind = { ...configMap('c'), kind: 'Secret' };
      const res = await request(url(paths.configmaps()), { method: 'POST', body: wrongKind });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('the kind in the data (Secret) does not match the expected kind (ConfigMap)');
      const wrongVersion = { ...deployment('web'), apiVersion: 'apps/v1beta1' };
      const res2 = await request(url(paths.deployments()), { method: 'POST', body: wrongVersion });
      expect(res2.status).toBe(400);
      expect(res2.body.message).toBe('the API version in the data (apps/v1beta1) does not match the expected API version (apps/v1)');
    });

    it('answers 400 for a malformed patch body', async () => {
      await request(url(paths.configmaps()), { method: 'POST', body: configMap('c') });
      await expectNoWrite(paths.configmaps(), async () => {
        const bad = await request(url(paths.configmap('c')), { method: 'PATCH', raw: '{nope', contentType: 'application/merge-patch+json' });
        expect(bad.status).toBe(400);
        expect(bad.body.message).toMatch(/^the request body is not valid JSON/);
        const notArray = await request(url(paths.configmap('c')), { method: 'PATCH', body: { op: 'add' }, contentType: 'application/json-patch+json' });
        expect(notArray.status).toBe(400);
        expect(notArray.body.message).toBe('the application/json-patch+json body must be a JSON array, got an object');
      });
    });
  });

  describe('semantic validation (422)', () => {
    it('reports a selector that does not match the template labels', async () => {
      const body = deployment('web');
      body.spec.template.metadata.labels = { app: 'other' };
      await expectNoWrite(paths.deployments(), async () => {
        const res = await request(url(paths.deployments()), { method: 'POST', body });
        expect(res.status).toBe(422);
        expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Invalid', code: 422 });
        expect(res.body.message).toBe(
          'Deployment.apps "web" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`',
        );
        expect(res.body.details).toMatchObject({ name: 'web', group: 'apps', kind: 'Deployment' });
        expect(res.body.details.causes).toEqual([
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`',
            field: 'spec.template.metadata.labels',
          },
        ]);
      });
    });

    it('reports negative replicas', async () => {
      const body = deployment('web', -1);
      const res = await request(url(paths.deployments()), { method: 'POST', body });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
      expect(res.body.details.causes.map((c: any) => c.field)).toEqual(['spec.replicas']);
    });

    it('reports an invalid name', async () => {
      const res = await request(url(paths.configmaps()), { method: 'POST', body: configMap('Bad_Name') });
      expect(res.status).toBe(422);
      expect(res.body.message).toMatch(/^ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/);
      expect(res.body.details.causes[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'metadata.name' });
    });

    it('reports a missing name', async () => {
      const res = await request(url(paths.configmaps()), { method: 'POST', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} } });
      expect(res.status).toBe(422);
      expect(res.body.details.causes).toEqual([
        { reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' },
      ]);
    });

    it('lists every problem as a cause', async () => {
      const body = deployment('web', -3);
      body.spec.template.metadata.labels = { app: 'other' };
      body.metadata.labels = { 'bad key!': 'x' };
      const res = await request(url(paths.deployments()), { method: 'POST', body });
      expect(res.status).toBe(422);
      expect(res.body.details.causes.map((c: any) => c.field).sort()).toEqual(['metadata.labels', 'spec.replicas', 'spec.template.metadata.labels']);
      expect(res.body.message).toMatch(/^Deployment.apps "web" is invalid: \[.*, .*, .*\]$/);
    });

    it('rejects an invalid update and keeps the stored object', async () => {
      const created = await request(url(paths.deployments()), { method: 'POST', body: deployment('web') });
      await expectNoWrite(paths.deployments(), async () => {
        const put = { ...structuredClone(created.body), spec: { ...created.body.spec, replicas: -1 } };
        expect((await request(url(paths.deployment('web')), { method: 'PUT', body: put })).status).toBe(422);
        const patch = await request(url(paths.deployment('web')), {
          method: 'PATCH',
          body: { spec: { selector: { matchLabels: { app: 'changed' } } } },
          contentType: 'application/merge-patch+json',
        });
        expect(patch.status).toBe(422);
        expect(patch.body.details.causes.map((c: any) => c.field)).toContain('spec.selector');
      });
      expect((await request(url(paths.deployment('web')))).body).toEqual(created.body);
    });
  });

  describe('immutability', () => {
    it('forbids changing the data of an immutable ConfigMap', async () => {
      await request(url(paths.configmaps()), { method: 'POST', body: { ...configMap('c'), immutable: true } });
      const res = await request(url(paths.configmap('c')), { method: 'PATCH', body: { data: { k: 'new' } }, contentType: 'application/merge-patch+json' });
      expect(res.status).toBe(422);
      expect(res.body.details.causes).toEqual([
        { reason: 'FieldValueForbidden', message: 'Forbidden: field is immutable when `immutable` is set', field: 'data' },
      ]);
      const labels = await request(url(paths.configmap('c')), {
        method: 'PATCH',
        body: { metadata: { labels: { ok: 'yes' } } },
        contentType: 'application/merge-patch+json',
      });
      expect(labels.status).toBe(200);
    });

    it("allows a pod's image to change but not the rest of its spec", async () => {
      await request(url(paths.pods()), {
        method: 'POST',
        body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'app', image: 'busybox:1.36' }] } },
      });
      const image = await request(url(paths.pod('p')), {
        method: 'PATCH',
        body: { spec: { containers: [{ name: 'app', image: 'busybox:1.37' }] } },
        contentType: 'application/strategic-merge-patch+json',
      });
      expect(image.status).toBe(200);
      expect(image.body.spec.containers[0].image).toBe('busybox:1.37');
      const policy = await request(url(paths.pod('p')), {
        method: 'PATCH',
        body: { spec: { restartPolicy: 'Never' } },
        contentType: 'application/merge-patch+json',
      });
      expect(policy.status).toBe(422);
      expect(policy.body.details.causes[0]).toMatchObject({ reason: 'FieldValueForbidden', field: 'spec' });
      expect(policy.body.details.causes[0].message).toMatch(/^Forbidden: pod updates may not change fields other than `spec.containers\[\*\].image`/);
    });
  });

  describe('fieldValidation', () => {
    function withUnknownField(): any {
      const body = deployment('web');
      body.spec.foo = 'bar';
      return body;
    }

    it('Strict rejects an unknown field with 400 naming its path', async () => {
      await expectNoWrite(paths.deployments(), async () => {
        const res = await request(url(`${paths.deployments()}?fieldValidation=Strict`), { method: 'POST', body: withUnknownField() });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({
          reason: 'BadRequest',
          code: 400,
          message: 'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.foo"',
        });
      });
    });

    it('Strict names nested unknown fields inside lists', async () => {
      const body = deployment('web');
      body.spec.template.spec.containers[0].colour = 'blue';
      body.metadata.extra = 1;
      const res = await request(url(`${paths.deployments()}?fieldValidation=Strict`), { method: 'POST', body });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(
        'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "metadata.extra", unknown field "spec.template.spec.containers[0].colour"',
      );
    });

    it('Warn accepts the object, drops the field and answers a Warning header', async () => {
      const res = await request(url(`${paths.deployments()}?fieldValidation=Warn`), { method: 'POST', body: withUnknownField() });
      expect(res.status).toBe(201);
      expect(res.headers.get('warning')).toBe('299 - "unknown field \\"spec.foo\\""');
      expect(res.body.spec.foo).toBeUndefined();
      expect((await request(url(paths.deployment('web')))).body.spec.foo).toBeUndefined();
    });

    it('Ignore silently drops the field', async () => {
      const res = await request(url(`${paths.deployments()}?fieldValidation=Ignore`), { method: 'POST', body: withUnknownField() });
      expect(res.status).toBe(201);
      expect(res.headers.get('warning')).toBeNull();
      expect(res.body.spec.foo).toBeUndefined();
    });

    it('applies to patches too, where kube-apiserver words the error without the decoding prefix', async () => {
      await request(url(paths.deployments()), { method: 'POST', body: deployment('web') });
      const strict = await request(url(`${paths.deployment('web')}?fieldValidation=Strict`), {
        method: 'PATCH',
        body: { spec: { foo: 1 } },
        contentType: 'application/merge-patch+json',
      });
      expect(strict.status).toBe(400);
      expect(strict.body.message).toBe('strict decoding error: unknown field "spec.foo"');
      const warn = await request(url(`${paths.deployment('web')}?fieldValidation=Warn`), {
        method: 'PATCH',
        body: { spec: { foo: 1 } },
        contentType: 'application/strategic-merge-patch+json',
      });
      expect(warn.status).toBe(200);
      expect(warn.headers.get('warning')).toContain('unknown field \\"spec.foo\\"');
    });

    it('rejects an unknown fieldValidation value', async () => {
      const res = await request(url(`${paths.configmaps()}?fieldValidation=Loose`), { method: 'POST', body: configMap('c') });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('fieldValidation must be one of Strict, Warn or Ignore, got "Loose"');
    });
  });

  describe('media types', () => {
    it('answers 415 for a protobuf body on create of a kind that takes none (protobuf: api-protobuf.test.ts)', async () => {
      await expectNoWrite(paths.events(), async () => {
        const res = await request(url(paths.events()), {
          method: 'POST',
          raw: Buffer.from([0x6b, 0x38, 0x73, 0x00, 0x0a, 0x00]),
          contentType: 'application/vnd.kubernetes.protobuf',
        });
        expect(res.status).toBe(415);
        expect(res.body).toMatchObject({
          kind: 'Status',
          reason: 'UnsupportedMediaType',
          code: 415,
          message: 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml',
        });
      });
    });

    it('lists protobuf among the accepted types of a kind that takes it', async () => {
      const res = await request(url(paths.deployments()), { method: 'POST', raw: 'name: web', contentType: 'text/plain' });
      expect(res.status).toBe(415);
      expect(res.body.message).toBe(
        'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
      );
    });

    it('answers 415 for a PATCH whose Content-Type is not a patch type', async () => {
      await request(url(paths.configmaps()), { method: 'POST', body: configMap('c') });
      for (const contentType of ['application/vnd.kubernetes.protobuf', 'application/json', 'text/plain']) {
        const res = await request(url(paths.configmap('c')), { method: 'PATCH', raw: '{"data":{"k":"x"}}', contentType });
        expect(res.status, contentType).toBe(415);
        expect(res.body.reason).toBe('UnsupportedMediaType');
        expect(res.body.message).toBe(
          'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
        );
      }
      expect((await request(url(paths.configmap('c')))).body.data).toEqual({ k: 'v' });
    });

    it('accepts a JSON body with a charset parameter', async () => {
      const res = await request(url(paths.configmaps()), { method: 'POST', body: configMap('c'), contentType: 'application/json; charset=utf-8' });
      expect(res.status).toBe(201);
    });

    it('accepts a YAML body', async () => {
      const yaml = [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata:',
        '  name: web',
        'spec:',
        '  replicas: 3',
        '  selector:',
        '    matchLabels: {app: web}',
        '  template:',
        '    metadata:',
        '      labels: {app: web}',
        '    spec:',
        '      containers:',
        '      - name: nginx',
        '        image: nginx:1.25',
        '',
      ].join('\n');
      const res = await request(url(paths.deployments()), { method: 'POST', raw: yaml, contentType: 'application/yaml' });
      expect(res.status).toBe(201);
      expect(res.body.spec.replicas).toBe(3);
      expect(res.body.spec.template.spec.containers[0].image).toBe('nginx:1.25');
    });

    it('answers 400 for broken YAML', async () => {
      const res = await request(url(paths.configmaps()), { method: 'POST', raw: 'metadata: [unclosed', contentType: 'application/yaml' });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^the request body is not valid YAML: /);
    });

    it('normalises Go client nulls (creationTimestamp: null, empty structs)', async () => {
      const body = deployment('web');
      body.metadata.creationTimestamp = null;
      body.spec.template.metadata.creationTimestamp = null;
      body.spec.strategy = {};
      body.spec.template.spec.containers[0].resources = {};
      body.status = {};
      const res = await request(url(`${paths.deployments()}?fieldValidation=Strict`), { method: 'POST', body });
      expect(res.status).toBe(201);
      expect(res.body.metadata.creationTimestamp).toMatch(/Z$/);
      expect(res.body.spec.strategy.type).toBe('RollingUpdate');
    });
  });

  describe('body limit', () => {
    it('answers 413 for a body over the limit and stores nothing', async () => {
      const small = await startTestCluster({ bodyLimitBytes: 1024 });
      try {
        const before = small.server.store.currentRevision;
        const res = await request(`${small.url}${paths.configmaps()}`, { method: 'POST', body: configMap('big', {}, { k: 'x'.repeat(4096) }) });
        expect(res.status).toBe(413);
        expect(res.body).toMatchObject({ kind: 'Status', reason: 'RequestEntityTooLarge', code: 413, message: 'Request entity too large: limit is 1024' });
        expect(small.server.store.currentRevision).toBe(before);
        const list = await request(`${small.url}${paths.configmaps()}`);
        expect(names(list.body)).toEqual([]);
        const fits = await request(`${small.url}${paths.configmaps()}`, { method: 'POST', body: configMap('small') });
        expect(fits.status).toBe(201);
      } finally {
        await small.stop();
      }
    });
  });
});
