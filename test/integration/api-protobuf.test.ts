/**
 * Protobuf request bodies through a real API server: the bodies kubectl 1.32/1.33 recorded
 * (apiserver/protobuf/testdata) create objects that read back as JSON; updates and /scale
 * take protobuf too; broken bodies get a 400 or 415 Status and change nothing.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bytes, entry, envelope, int, msg, str } from '../../apiserver/api/protobuf/testing/proto-writer.js';
import { request } from '../support/http.js';
import { paths } from '../support/objects.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const recorded = (name: string) => readFileSync(new URL(`../../apiserver/protobuf/testdata/${name}.pb`, import.meta.url));

describe('protobuf request bodies', () => {
  const cluster = useTestCluster({ lifetime: 'file' });
  const url = (path: string) => `${cluster.url}${path}`;
  const post = (path: string, raw: Uint8Array) =>
    request(url(`${path}?fieldManager=kubectl-create&fieldValidation=Strict`), { method: 'POST', raw: Buffer.from(raw), contentType: PROTOBUF });

  it('creates what kubectl create deployment|service|namespace|configmap|secret sends', async () => {
    const writes: Array<[string, string]> = [
      ['create-namespace', paths.namespaces()],
      ['create-deployment', paths.deployments()],
      ['create-service-clusterip', '/api/v1/namespaces/default/services'],
      ['create-configmap', paths.configmaps()],
      ['create-secret-generic', '/api/v1/namespaces/default/secrets'],
      ['create-serviceaccount', '/api/v1/namespaces/default/serviceaccounts'],
    ];
    for (const [fixture, path] of writes) {
      const res = await post(path, recorded(fixture));
      expect(res.status, `${fixture}: ${JSON.stringify(res.body)}`).toBe(201);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    }
    const deployment = (await request(url(paths.deployment('web')))).body;
    expect(deployment.spec).toMatchObject({ replicas: 2, selector: { matchLabels: { app: 'web' } }, strategy: { type: 'RollingUpdate' } });
    expect(deployment.spec.template.spec.containers).toEqual([
      expect.objectContaining({ name: 'nginx', image: 'nginx:1.25', ports: [{ containerPort: 80, protocol: 'TCP' }], imagePullPolicy: 'IfNotPresent' }),
    ]);
    const service = (await request(url('/api/v1/namespaces/default/services/web'))).body;
    expect(service.spec).toMatchObject({
      type: 'ClusterIP',
      selector: { app: 'web' },
      ports: [{ name: '80-8080', port: 80, targetPort: 8080, protocol: 'TCP' }],
    });
    expect(service.spec.clusterIP).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect((await request(url(paths.namespace('demo')))).body.status).toEqual({ phase: 'Active' });
    expect((await request(url(paths.configmap('cfg')))).body.data).toEqual({ a: 'b' });
    expect((await request(url('/api/v1/namespaces/default/secrets/s'))).body).toMatchObject({ type: 'Opaque', data: { k: 'dg==' } });
  });

  it('creates the HPAs of kubectl autoscale: autoscaling/v2 from 1.33, autoscaling/v1 from 1.32', async () => {
    const hpas = '/namespaces/default/horizontalpodautoscalers';
    expect((await post(`/apis/autoscaling/v2${hpas}`, recorded('autoscale-v2'))).status).toBe(201);
    expect((await post(`/apis/autoscaling/v1${hpas}`, recorded('autoscale-v1-no-cpu'))).status).toBe(201);
    const web = (await request(url(`/apis/autoscaling/v1${hpas}/web`))).body;
    expect(web.spec).toEqual({
      scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
      minReplicas: 2,
      maxReplicas: 5,
      targetCPUUtilizationPercentage: 80,
    });
    const hpa2 = (await request(url(`/apis/autoscaling/v2${hpas}/hpa2`))).body;
    expect(hpa2.spec).toMatchObject({
      minReplicas: 1,
      maxReplicas: 3,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
    });
  });

  // Written field number by field number from k8s.io/api/admissionregistration/v1's
  // generated.proto (not through the server's tables), as client-go marshals them.
  it('creates the admissionregistration kinds an operator installs through a typed client', async () => {
    const selector = (key: string, value: string) => entry(1, key, value); // LabelSelector.matchLabels
    const rule = [str(1, 'CREATE'), msg(2, str(1, 'apps'), str(2, 'v1'), str(3, 'deployments'), str(4, 'Namespaced'))];
    const mutating = envelope(
      'admissionregistration.k8s.io/v1',
      'MutatingWebhookConfiguration',
      msg(1, str(1, 'pb-mutating')),
      msg(
        2,
        str(1, 'inject.pb.example.com'),
        msg(2, msg(1, str(1, 'hooks'), str(2, 'injector'), str(3, '/mutate'), int(4, 8443)), bytes(2, Buffer.from('CA PEM'))),
        msg(3, ...rule),
        str(4, 'Ignore'),
        msg(5, selector('team', 'a')),
        str(6, 'NoneOnDryRun'),
        int(7, 5),
        str(8, 'v1'),
        str(9, 'Exact'),
        str(10, 'IfNeeded'),
        msg(11, selector('inject', 'true')),
        msg(12, str(1, 'not-system'), str(2, '!request.userInfo.username.startsWith("system:")')),
      ),
    );
    expect((await post('/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', mutating)).status).toBe(201);
    const webhook = (await request(url('/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/pb-mutating'))).body.webhooks[0];
    expect(webhook).toEqual({
      name: 'inject.pb.example.com',
      clientConfig: { service: { namespace: 'hooks', name: 'injector', path: '/mutate', port: 8443 }, caBundle: Buffer.from('CA PEM').toString('base64') },
      rules: [{ operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'], scope: 'Namespaced' }],
      failurePolicy: 'Ignore',
      matchPolicy: 'Exact',
      namespaceSelector: { matchLabels: { team: 'a' } },
      objectSelector: { matchLabels: { inject: 'true' } },
      sideEffects: 'NoneOnDryRun',
      timeoutSeconds: 5,
      admissionReviewVersions: ['v1'],
      reinvocationPolicy: 'IfNeeded',
      matchConditions: [{ name: 'not-system', expression: '!request.userInfo.username.startsWith("system:")' }],
    });

    // ValidatingWebhook numbers objectSelector 10 and matchConditions 11.
    const validating = envelope(
      'admissionregistration.k8s.io/v1',
      'ValidatingWebhookConfiguration',
      msg(1, str(1, 'pb-validating')),
      msg(2, str(1, 'check.pb.example.com'), msg(2, str(3, 'https://hooks.example.com/check')), str(6, 'None'), str(8, 'v1'), msg(10, selector('a', 'b'))),
    );
    expect((await post('/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', validating)).status).toBe(201);
    const validatingHook = (await request(url('/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/pb-validating'))).body.webhooks[0];
    expect(validatingHook).toMatchObject({ clientConfig: { url: 'https://hooks.example.com/check' }, objectSelector: { matchLabels: { a: 'b' } } });

    const policy = envelope(
      'admissionregistration.k8s.io/v1',
      'ValidatingAdmissionPolicy',
      msg(1, str(1, 'pb-policy')),
      msg(
        2,
        msg(1, str(1, 'example.com/v1'), str(2, 'Limits')),
        msg(2, msg(3, str(1, 'web'), msg(2, ...rule)), str(7, 'Equivalent')),
        msg(3, str(1, 'object.spec.replicas <= params.max'), str(2, 'too many replicas'), str(3, 'Forbidden')),
        str(4, 'Fail'),
        msg(5, str(1, 'replicas'), str(2, 'string(object.spec.replicas)')),
        msg(7, str(1, 'replicas'), str(2, 'object.spec.replicas')),
      ),
    );
    expect((await post('/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies', policy)).status).toBe(201);
    const policySpec = (await request(url('/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/pb-policy'))).body.spec;
    expect(policySpec).toMatchObject({
      paramKind: { apiVersion: 'example.com/v1', kind: 'Limits' },
      matchConstraints: {
        resourceRules: [
          { resourceNames: ['web'], operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'], scope: 'Namespaced' },
        ],
        matchPolicy: 'Equivalent',
      },
      validations: [{ expression: 'object.spec.replicas <= params.max', message: 'too many replicas', reason: 'Forbidden' }],
      failurePolicy: 'Fail',
      auditAnnotations: [{ key: 'replicas', valueExpression: 'string(object.spec.replicas)' }],
      variables: [{ name: 'replicas', expression: 'object.spec.replicas' }],
    });

    const binding = envelope(
      'admissionregistration.k8s.io/v1',
      'ValidatingAdmissionPolicyBinding',
      msg(1, str(1, 'pb-binding')),
      msg(2, str(1, 'pb-policy'), msg(2, str(1, 'limits'), str(2, 'default'), str(4, 'Deny')), str(4, 'Deny'), str(4, 'Audit')),
    );
    expect((await post('/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings', binding)).status).toBe(201);
    const bindingSpec = (await request(url('/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings/pb-binding'))).body.spec;
    expect(bindingSpec).toEqual({
      policyName: 'pb-policy',
      paramRef: { name: 'limits', namespace: 'default', parameterNotFoundAction: 'Deny' },
      validationActions: ['Deny', 'Audit'],
    });
  });

  it('takes protobuf on update and on /scale', async () => {
    const current = (await request(url(paths.configmap('cfg')))).body;
    const body = envelope('v1', 'ConfigMap', msg(1, str(1, 'cfg'), str(3, 'default'), str(6, current.metadata.resourceVersion)), entry(2, 'a', 'changed'));
    const updated = await request(url(paths.configmap('cfg')), { method: 'PUT', raw: Buffer.from(body), contentType: PROTOBUF });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toEqual({ a: 'changed' });

    const scale = envelope('autoscaling/v1', 'Scale', msg(1, str(1, 'web'), str(3, 'default')), msg(2, int(1, 0)));
    const scaled = await request(url(`${paths.deployment('web')}/scale`), { method: 'PUT', raw: Buffer.from(scale), contentType: PROTOBUF });
    expect(scaled.status).toBe(200);
    expect(scaled.body.spec).toEqual({ replicas: 0 });
    expect((await request(url(paths.deployment('web')))).body.spec.replicas).toBe(0);
  });

  it('answers truncated or garbage protobuf with a 400 Status, writes nothing and keeps serving', async () => {
    const revision = cluster.server.store.currentRevision;
    const whole = recorded('create-deployment');
    for (const raw of [whole.subarray(0, 100), Buffer.from('k8s\0\xff\xff\xff', 'latin1'), Buffer.from('{"kind":"Deployment"}'), Buffer.alloc(0)]) {
      const res = await post(paths.deployments(), raw);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400 });
      expect(res.body.message).toMatch(/^the body of the request could not be decoded as application\/vnd\.kubernetes\.protobuf: /);
    }
    expect(cluster.server.store.currentRevision).toBe(revision);
    expect((await request(url('/version'))).status).toBe(200);
    expect((await request(url(paths.deployments()))).body.items).toHaveLength(1);
  });

  it('answers 415 for a protobuf body of a kind that takes none, or one naming another unknown kind', async () => {
    const node = await post('/api/v1/nodes', envelope('v1', 'Node', msg(1, str(1, 'n1'))));
    expect(node.status).toBe(415);
    expect(node.body).toMatchObject({
      reason: 'UnsupportedMediaType',
      message: 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml',
    });
    const wrongKind = await post(paths.configmaps(), envelope('v1', 'Node', msg(1, str(1, 'n1'))));
    expect(wrongKind.status).toBe(415);
    expect(wrongKind.body.message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    );
  });

  it('rejects a protobuf object of another kind than the endpoint serves, as for JSON', async () => {
    const res = await post(paths.configmaps(), envelope('v1', 'Secret', msg(1, str(1, 'x'))));
    expect(res.status).toBe(400);
    expect(res.body.reason).toBe('BadRequest');
  });

  it('warns about protobuf fields it ignores', async () => {
    const res = await post(paths.configmaps(), envelope('v1', 'ConfigMap', msg(1, str(1, 'warned')), str(42, 'from the future')));
    expect(res.status).toBe(201);
    expect(res.headers.get('warning')).toBe('299 - "protobuf field 42 of io.k8s.api.core.v1.ConfigMap is not supported by kubesim and was ignored"');
  });
});
