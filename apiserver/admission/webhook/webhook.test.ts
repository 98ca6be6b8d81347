/**
 * Admission webhooks through a real server and real HTTPS webhook servers on port 0: what is
 * sent, how answers (allowed, denied, patched, warned) and failures (down, hostile, slow)
 * come back to the client, and which requests a webhook is sent (rules, selectors, conditions).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/support/eventually.js';
import { request } from '../../../test/support/http.js';
import { useTestCluster } from '../../../test/support/use-test-cluster.js';
import { jsonPatch, reviewAnswer, startWebhookServer, type TestWebhookServer } from '../../../test/support/webhook-server.js';

const cluster = useTestCluster({ lifetime: 'file' });
let hook: TestWebhookServer;
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  hook = await startWebhookServer(['hook.default.svc']);
});
afterAll(async () => {
  await hook.stop();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const ADMISSION = '/apis/admissionregistration.k8s.io/v1';
let configurations = 0;

/** configure creates a webhook configuration with one webhook for ConfigMaps labelled
 * `test=<selector>`, and deletes it after the test. */
async function configure(kind: 'mutating' | 'validating', webhook: Record<string, unknown>, selector: string): Promise<void> {
  const name = `${kind}-${++configurations}`;
  const body = {
    metadata: { name },
    webhooks: [
      {
        clientConfig: { url: hook.url('/hook'), caBundle: hook.caBundle },
        rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
        objectSelector: { matchLabels: { test: selector } },
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        ...webhook,
      },
    ],
  };
  const path = `${cluster.url}${ADMISSION}/${kind}webhookconfigurations`;
  const created = await request(path, { method: 'POST', body });
  expect(created.status).toBe(201);
  cleanups.push(() => request(`${path}/${name}`, { method: 'DELETE' }));
}

let objects = 0;
function createConfigMap(selector: string, extra: Record<string, unknown> = {}, namespace = 'default') {
  const body = { metadata: { name: `cm-${++objects}`, labels: { test: selector } }, data: { a: 'b' }, ...extra };
  return request(`${cluster.url}/api/v1/namespaces/${namespace}/configmaps`, { method: 'POST', body });
}

describe('mutating webhooks', () => {
  it('sends an AdmissionReview v1 and applies the JSON patch, warnings as Warning headers', async () => {
    const reviews: any[] = [];
    hook.handle((review) => {
      reviews.push(review);
      return reviewAnswer(review, { ...jsonPatch([{ op: 'add', path: '/metadata/labels/injected', value: 'yes' }]), warnings: ['injected a label'] });
    });
    await configure('mutating', { name: 'inject.test.io' }, 'mutate');
    const created = await eventually(async () => {
      const response = await createConfigMap('mutate');
      expect(response.body.metadata.labels).toEqual({ test: 'mutate', injected: 'yes' });
      return response;
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('warning')).toContain('injected a label');
    const request = reviews.at(-1).request;
    expect(reviews.at(-1)).toMatchObject({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' });
    expect(request).toMatchObject({
      kind: { group: '', version: 'v1', kind: 'ConfigMap' },
      resource: { group: '', version: 'v1', resource: 'configmaps' },
      requestKind: { group: '', version: 'v1', kind: 'ConfigMap' },
      name: created.body.metadata.name,
      namespace: 'default',
      operation: 'CREATE',
      userInfo: { username: 'system:anonymous' },
      oldObject: null,
      dryRun: false,
      options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
    });
    expect(request.object.data).toEqual({ a: 'b' });
    expect(typeof request.uid).toBe('string');
  });

  it('reinvokes an IfNeeded webhook once a later webhook changed the object', async () => {
    const calls: string[] = [];
    hook.handle((review, req) => {
      const which = new URL(req.url ?? '', 'https://x').pathname.split('/').at(-1) ?? '';
      calls.push(which);
      const labels = review.request.object.metadata.labels;
      if (which === 'second' && !labels.second) return reviewAnswer(review, jsonPatch([{ op: 'add', path: '/metadata/labels/second', value: 'x' }]));
      return reviewAnswer(review);
    });
    await configure(
      'mutating',
      { name: 'first.test.io', reinvocationPolicy: 'IfNeeded', clientConfig: { url: hook.url('/hook/first'), caBundle: hook.caBundle } },
      'reinvoke',
    );
    await configure('mutating', { name: 'second.test.io', clientConfig: { url: hook.url('/hook/second'), caBundle: hook.caBundle } }, 'reinvoke');
    await eventually(async () => {
      calls.length = 0;
      const response = await createConfigMap('reinvoke');
      expect(response.body.metadata.labels.second).toBe('x');
      expect(calls).toEqual(['first', 'second', 'first']);
    });
  });

  it('answers 500 Internal error for a patch that cannot be applied or breaks the object, whatever the failurePolicy', async () => {
    hook.handle((review) => reviewAnswer(review, jsonPatch([{ op: 'replace', path: '/data', value: 5 }])));
    await configure('mutating', { name: 'breaks.test.io', failurePolicy: 'Ignore' }, 'broken-patch');
    const response = await eventually(async () => {
      const answer = await createConfigMap('broken-patch');
      expect(answer.status).toBe(500);
      return answer;
    });
    expect(response.body).toMatchObject({ reason: 'InternalError', code: 500 });
    expect(response.body.message).toMatch(/^Internal error occurred: /);
    hook.handle((review) => reviewAnswer(review, jsonPatch([{ op: 'remove', path: '/nope' }])));
    expect((await createConfigMap('broken-patch')).status).toBe(500);
  });
});

describe('operations', () => {
  it('sends UPDATE with the old object and DELETE with only the old one; v1beta1 when asked', async () => {
    const requests: any[] = [];
    hook.handle((review) => {
      requests.push({ apiVersion: review.apiVersion, ...review.request });
      return reviewAnswer(review);
    });
    await configure(
      'validating',
      {
        name: 'ops.test.io',
        admissionReviewVersions: ['v1beta1', 'v1'],
        rules: [{ operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      },
      'ops',
    );
    const name = await eventually(async () => {
      requests.length = 0;
      const created = await createConfigMap('ops');
      expect(requests).toHaveLength(1);
      return created.body.metadata.name as string;
    });
    const path = `${cluster.url}/api/v1/namespaces/default/configmaps/${name}`;
    const patched = await request(path, { method: 'PATCH', body: { data: { a: 'c' } }, contentType: 'application/merge-patch+json' });
    expect(patched.status).toBe(200);
    expect((await request(path, { method: 'DELETE' })).status).toBe(200);
    expect(requests.map((r) => [r.apiVersion, r.operation, r.object?.data?.a ?? null, r.oldObject?.data?.a ?? null, r.options?.kind])).toEqual([
      ['admission.k8s.io/v1beta1', 'CREATE', 'b', null, 'CreateOptions'],
      ['admission.k8s.io/v1beta1', 'UPDATE', 'c', 'b', 'UpdateOptions'],
      ['admission.k8s.io/v1beta1', 'DELETE', null, 'c', 'DeleteOptions'],
    ]);
  });
});

describe('validating webhooks', () => {
  it('rejects with the webhook message, as kube-apiserver words it', async () => {
    hook.handle((review) =>
      reviewAnswer(review, { allowed: review.request.object.data?.ok === 'yes', status: { code: 403, reason: 'Forbidden', message: 'data.ok must be yes' } }),
    );
    await configure('validating', { name: 'deny.test.io' }, 'deny');
    const denied = await eventually(async () => {
      const response = await createConfigMap('deny');
      expect(response.status).toBe(403);
      return response;
    });
    expect(denied.body).toMatchObject({ reason: 'Forbidden', message: 'admission webhook "deny.test.io" denied the request: data.ok must be yes' });
    expect((await createConfigMap('deny', { data: { ok: 'yes' } })).status).toBe(201);
  });

  it('rejects without explanation with 400 when the webhook gives no status', async () => {
    hook.handle((review) => ({ ...(reviewAnswer(review) as object), response: { uid: review.request.uid, allowed: false } }));
    await configure('validating', { name: 'silent.test.io' }, 'silent');
    const response = await eventually(async () => {
      const answer = await createConfigMap('silent');
      expect(answer.status).toBe(400);
      return answer;
    });
    expect(response.body.message).toBe('admission webhook "silent.test.io" denied the request without explanation');
  });
});

describe('failures', () => {
  it('failurePolicy Fail answers 500 failed calling webhook when the webhook is down; Ignore admits', async () => {
    const down = await startWebhookServer();
    await down.stop();
    await configure('validating', { name: 'down.test.io', clientConfig: { url: down.url('/x'), caBundle: down.caBundle } }, 'down-fail');
    await configure(
      'validating',
      { name: 'ignored.test.io', failurePolicy: 'Ignore', clientConfig: { url: down.url('/x'), caBundle: down.caBundle } },
      'down-ignore',
    );
    const failed = await eventually(async () => {
      const answer = await createConfigMap('down-fail');
      expect(answer.status).toBe(500);
      return answer;
    });
    expect(failed.body.message).toMatch(
      new RegExp(
        `^Internal error occurred: failed calling webhook "down.test.io": failed to call webhook: Post "https://127.0.0.1:${down.port}/x\\?timeout=10s": .*ECONNREFUSED`,
      ),
    );
    expect((await createConfigMap('down-ignore')).status).toBe(201);
  });

  it.each([
    ['invalid JSON', (_review: any, _req: unknown, res: any) => res.writeHead(200).end('{not json'), /received invalid webhook response/],
    [
      'a wrong uid',
      (review: any) => ({ ...(reviewAnswer(review) as any), response: { uid: 'other', allowed: true } }),
      /expected response.uid=".*", got "other"/,
    ],
    ['no response', (review: any) => ({ apiVersion: review.apiVersion, kind: 'AdmissionReview' }), /webhook response was absent/],
    ['a huge body', (_review: any, _req: unknown, res: any) => res.writeHead(200).end(`"${'x'.repeat(7 * 1024 * 1024)}"`), /too large/],
    ['a 500', (_review: any, _req: unknown, res: any) => res.writeHead(500).end('boom'), /an error on the server \("boom"\)/],
  ])('a hostile answer (%s) is a failed call: 500 under Fail', async (_label, handler, reason) => {
    hook.handle(handler as never);
    const selector = `hostile-${++objects}`;
    await configure('validating', { name: 'hostile.test.io' }, selector);
    const answer = await eventually(async () => {
      const response = await createConfigMap(selector);
      expect(response.status).toBe(500);
      return response;
    });
    expect(answer.body.message).toMatch(/^Internal error occurred: failed calling webhook "hostile.test.io": /);
    expect(answer.body.message).toMatch(reason);
  });

  it('gives up on a webhook slower than timeoutSeconds', async () => {
    hook.handle(() => new Promise(() => {})); // never answers
    await configure('validating', { name: 'slow.test.io', timeoutSeconds: 1 }, 'slow');
    const answer = await eventually(async () => {
      const response = await createConfigMap('slow');
      expect(response.status).toBe(500);
      return response;
    });
    expect(answer.body.message).toMatch(/failed calling webhook "slow.test.io": failed to call webhook: Post ".*\?timeout=1s": context deadline exceeded/);
  });
});

describe('matching', () => {
  it('sends only what the namespaceSelector and matchConditions select', async () => {
    const names: string[] = [];
    hook.handle((review) => {
      names.push(`${review.request.namespace}/${review.request.name}`);
      return reviewAnswer(review);
    });
    await request(`${cluster.url}/api/v1/namespaces`, { method: 'POST', body: { metadata: { name: 'hooked', labels: { hooked: 'yes' } } } });
    await configure(
      'validating',
      {
        name: 'selective.test.io',
        namespaceSelector: { matchLabels: { hooked: 'yes' } },
        matchConditions: [{ name: 'no-skip', expression: "!('skip' in object.data)" }],
      },
      'select',
    );
    await eventually(async () => {
      const response = await createConfigMap('select', {}, 'hooked');
      expect(names).toContain(`hooked/${response.body.metadata.name}`);
    });
    names.length = 0;
    await createConfigMap('select', {}, 'default');
    await createConfigMap('select', { data: { skip: 'x' } }, 'hooked');
    expect(names).toEqual([]);
  });

  it('routes clientConfig.service to the Service endpoints and checks the certificate for <svc>.<ns>.svc', async () => {
    hook.handle((review) => reviewAnswer(review, { allowed: false, status: { message: 'via service' } }));
    const api = `${cluster.url}/api/v1/namespaces/default`;
    await request(`${api}/services`, { method: 'POST', body: { metadata: { name: 'hook' }, spec: { ports: [{ port: 443, targetPort: hook.port }] } } });
    await request(`${api}/endpoints`, {
      method: 'POST',
      body: { metadata: { name: 'hook' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ port: hook.port }] }] },
    });
    cleanups.push(() => request(`${api}/services/hook`, { method: 'DELETE' }));
    await configure(
      'validating',
      { name: 'service.test.io', clientConfig: { service: { namespace: 'default', name: 'hook', path: '/hook' }, caBundle: hook.caBundle } },
      'service',
    );
    const denied = await eventually(async () => {
      const response = await createConfigMap('service');
      expect(response.status).toBe(400);
      return response;
    });
    expect(denied.body.message).toBe('admission webhook "service.test.io" denied the request: via service');
  });

  it('refuses a certificate the caBundle does not verify', async () => {
    const other = await startWebhookServer();
    cleanups.push(() => other.stop());
    await configure('validating', { name: 'untrusted.test.io', clientConfig: { url: hook.url('/hook'), caBundle: other.caBundle } }, 'untrusted');
    const answer = await eventually(async () => {
      const response = await createConfigMap('untrusted');
      expect(response.status).toBe(500);
      return response;
    });
    expect(answer.body.message).toMatch(/failed calling webhook "untrusted.test.io": failed to call webhook: Post ".*": /);
  });
});

describe('matchPolicy', () => {
  const hpas = (version: string) => `${cluster.url}/apis/autoscaling/${version}/namespaces/default/horizontalpodautoscalers`;
  const v2Rule = { operations: ['CREATE'], apiGroups: ['autoscaling'], apiVersions: ['v2'], resources: ['horizontalpodautoscalers'] };
  let hpaCount = 0;
  const hpaSpec = { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 3 };
  const hpaV1 = () => ({
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: `hpa-${++hpaCount}`, labels: { test: 'equivalent' } },
    spec: { ...hpaSpec, targetCPUUtilizationPercentage: 50 },
  });
  const hpaV2 = () => ({
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: `hpa-${++hpaCount}`, labels: { test: 'equivalent' } },
    spec: hpaSpec,
  });

  it('sends an equivalent version converted (Equivalent), its patch converted back; Exact is not called', async () => {
    const reviews: any[] = [];
    hook.handle((review, req) => {
      if (req.url?.startsWith('/exact')) return reviewAnswer(review, { allowed: false, status: { message: 'exact saw it' } });
      reviews.push(review);
      const patch = [
        { op: 'replace', path: '/spec/maxReplicas', value: 9 },
        { op: 'replace', path: '/spec/metrics/0/resource/target/averageUtilization', value: 70 },
      ];
      return reviewAnswer(review, jsonPatch(patch));
    });
    const selector = { matchLabels: { test: 'equivalent' } };
    const clientConfig = (path: string) => ({ url: hook.url(path), caBundle: hook.caBundle });
    await configure('mutating', { name: 'equivalent.test.io', rules: [v2Rule], objectSelector: selector, clientConfig: clientConfig('/equivalent') }, '');
    await configure(
      'validating',
      { name: 'exact.test.io', matchPolicy: 'Exact', rules: [v2Rule], objectSelector: selector, clientConfig: clientConfig('/exact') },
      '',
    );
    // The Exact webhook is live: it denies what is addressed to autoscaling/v2.
    await eventually(async () => expect((await request(hpas('v2'), { method: 'POST', body: hpaV2() })).body.message).toContain('exact saw it'));

    const created = await request(hpas('v1'), { method: 'POST', body: hpaV1() });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ apiVersion: 'autoscaling/v1', spec: { maxReplicas: 9, targetCPUUtilizationPercentage: 70 } });
    const sent = reviews.at(-1).request;
    expect(sent).toMatchObject({
      kind: { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' },
      resource: { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' },
      requestKind: { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' },
      requestResource: { group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers' },
    });
    expect(sent.object).toMatchObject({
      apiVersion: 'autoscaling/v2',
      spec: { metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { averageUtilization: 50 } } }] },
    });
    expect(sent.object.spec.targetCPUUtilizationPercentage).toBeUndefined();
  });
});
