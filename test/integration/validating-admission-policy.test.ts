/**
 * ValidatingAdmissionPolicy over real HTTP: a Deny binding rejects with kube-apiserver's Status
 * (reason, code, message, causes), Warn sends a Warning header, params come from a ConfigMap
 * (with parameterNotFoundAction), messageExpression and variables shape the message, a
 * namespaceSelector and resourceNames narrow what matches, matchConditions and failurePolicy,
 * and expressions that do not compile are refused at write time. Policies apply once the
 * server's cache has seen them, so the first enforcement is awaited with `eventually`.
 */
import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const AR = '/apis/admissionregistration.k8s.io/v1';

const deploymentRules = { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] }] };
const policy = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name },
  spec: { matchConstraints: deploymentRules, ...spec },
});
const binding = (name: string, policyName: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name },
  spec: { policyName, validationActions: ['Deny'], ...spec },
});
const deployment = (name: string, replicas: number, labels: Record<string, string> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, labels },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
  },
});

describe('ValidatingAdmissionPolicy', () => {
  const cluster = useTestCluster();
  const post = (path: string, body: unknown) => request(`${cluster.url}${path}`, { method: 'POST', body });
  const createDeployment = (ns: string, body: unknown) => post(`/apis/apps/v1/namespaces/${ns}/deployments`, body);
  const setUp = async (...objects: Array<{ kind: string }>) => {
    for (const object of objects) {
      const path = object.kind === 'ValidatingAdmissionPolicy' ? '/validatingadmissionpolicies' : '/validatingadmissionpolicybindings';
      const created = await post(`${AR}${path}`, object);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
  };
  /** Waits until the server enforces what was just created: `probe` is refused. */
  const refused = (probe: () => Promise<{ status: number; body: any }>) =>
    eventually(async () => {
      const response = await probe();
      if (response.status < 400) throw new Error(`still admitted (${response.status})`);
      return response;
    });

  it('denies with kube-apiserver Status and admits what passes', async () => {
    await setUp(policy('max-replicas', { validations: [{ expression: 'object.spec.replicas <= 5' }] }), binding('max-replicas-binding', 'max-replicas'));
    const denied = await refused(() => createDeployment('default', deployment('big', 6)));
    const message =
      "deployments.apps \"big\" is forbidden: ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-binding' denied request: failed expression: object.spec.replicas <= 5";
    expect(denied.status).toBe(422);
    expect(denied.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message,
      reason: 'Invalid',
      details: {
        name: 'big',
        group: 'apps',
        kind: 'deployments',
        causes: [{ message: message.slice('deployments.apps "big" is forbidden: '.length) }],
      },
      code: 422,
    });
    expect((await createDeployment('default', deployment('small', 2))).status).toBe(201);
  });

  it('uses message, reason, messageExpression and variables', async () => {
    await setUp(
      policy('named', {
        variables: [
          { name: 'name', expression: 'object.metadata.name' },
          { name: 'tooLong', expression: 'size(variables.name) > 8' },
        ],
        validations: [
          { expression: '!variables.tooLong', messageExpression: "'name ' + variables.name + ' is longer than 8'", reason: 'Forbidden' },
          { expression: "!variables.name.startsWith('x')", message: 'no x names' },
        ],
      }),
      binding('named-binding', 'named'),
    );
    const long = await refused(() => createDeployment('default', deployment('much-too-long', 1)));
    expect(long.status).toBe(403);
    expect(long.body.reason).toBe('Forbidden');
    expect(long.body.message).toBe(
      "deployments.apps \"much-too-long\" is forbidden: ValidatingAdmissionPolicy 'named' with binding 'named-binding' denied request: name much-too-long is longer than 8",
    );
    const x = await createDeployment('default', deployment('xray', 1));
    expect(x.status).toBe(422);
    expect(x.body.message).toContain('denied request: no x names');
  });

  it('warns with a Warning header for a Warn binding', async () => {
    await setUp(
      policy('warn-replicas', { validations: [{ expression: 'object.spec.replicas % 2 == 1', message: 'use an odd number of replicas' }] }),
      binding('warn-replicas-binding', 'warn-replicas', { validationActions: ['Warn', 'Audit'] }),
    );
    const warned = await eventually(async () => {
      const response = await createDeployment('default', deployment(`even-${Math.random().toString(36).slice(2, 8)}`, 2));
      expect(response.status).toBe(201);
      expect(response.headers.get('warning')).toBeTruthy();
      return response;
    });
    expect(warned.headers.get('warning')).toBe(
      `299 - "Validation failed for ValidatingAdmissionPolicy 'warn-replicas' with binding 'warn-replicas-binding': use an odd number of replicas"`,
    );
  });

  it('reads params from a ConfigMap, denying when they are missing and the binding says Deny', async () => {
    const ns = await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    expect(ns.status).toBe(201);
    await setUp(
      policy('param-limit', {
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        validations: [{ expression: 'object.spec.replicas <= int(params.data.max)', messageExpression: "'at most ' + params.data.max + ' replicas'" }],
      }),
      binding('param-limit-binding', 'param-limit', { paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' } }),
    );
    const missing = await refused(() => createDeployment('shop', deployment('a', 1)));
    expect(missing.body.message).toBe(
      "deployments.apps \"a\" is forbidden: ValidatingAdmissionPolicy 'param-limit' with binding 'param-limit-binding' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction",
    );
    const limits = await post('/api/v1/namespaces/shop/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'limits' }, data: { max: '3' } });
    expect(limits.status).toBe(201);
    expect((await createDeployment('shop', deployment('a', 3))).status).toBe(201);
    const over = await createDeployment('shop', deployment('b', 4));
    expect(over.status).toBe(422);
    expect(over.body.message).toContain('denied request: at most 3 replicas');
    // A paramKind the server does not serve is a policy configuration error.
    await setUp(
      policy('unknown-params', {
        paramKind: { apiVersion: 'example.com/v1', kind: 'Limits' },
        matchConstraints: { ...deploymentRules, objectSelector: { matchLabels: { params: 'unknown' } } },
        validations: [{ expression: 'true' }],
      }),
      binding('unknown-params-binding', 'unknown-params', { paramRef: { name: 'x', parameterNotFoundAction: 'Allow' } }),
    );
    const unknown = await refused(() => createDeployment('shop', deployment('c', 1, { params: 'unknown' })));
    expect(unknown.body.message).toBe(
      "deployments.apps \"c\" is forbidden: ValidatingAdmissionPolicy 'unknown-params' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'example.com/v1, Kind=Limits'",
    );
  });

  it('applies only in namespaces its namespaceSelector picks, and not to excluded names', async () => {
    for (const [name, labels] of [
      ['prod', { env: 'prod' }],
      ['dev', { env: 'dev' }],
    ] as const) {
      expect((await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } })).status).toBe(201);
    }
    await setUp(
      policy('prod-only', {
        matchConstraints: {
          ...deploymentRules,
          namespaceSelector: { matchLabels: { env: 'prod' } },
          excludeResourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['*'], resources: ['deployments'], resourceNames: ['allowed'] }],
        },
        validations: [
          {
            expression: "has(object.metadata.labels) && 'team' in object.metadata.labels",
            messageExpression: "'deployments in ' + namespaceObject.metadata.name + ' (' + namespaceObject.metadata.labels.env + ') need a team label'",
          },
        ],
      }),
      binding('prod-only-binding', 'prod-only'),
    );
    const prod = await refused(() => createDeployment('prod', deployment('web', 1)));
    expect(prod.body.message).toContain('denied request: deployments in prod (prod) need a team label');
    expect((await createDeployment('prod', deployment('web', 1, { team: 'a' }))).status).toBe(201);
    expect((await createDeployment('prod', deployment('allowed', 1))).status).toBe(201);
    expect((await createDeployment('dev', deployment('web', 1))).status).toBe(201);
  });

  it('skips requests its matchConditions exclude and follows failurePolicy on errors', async () => {
    await setUp(
      policy('conditional', {
        failurePolicy: 'Ignore',
        matchConditions: [{ name: 'not-system', expression: "!request.userInfo.username.startsWith('system:node:')" }],
        validations: [{ expression: "object.metadata.annotations['owner'] != ''" }],
      }),
      binding('conditional-binding', 'conditional'),
      policy('strict', { validations: [{ expression: "object.metadata.annotations['owner'] != ''" }] }),
      binding('strict-binding', 'strict', { matchResources: { objectSelector: { matchLabels: { strict: 'yes' } } } }),
    );
    const strict = await refused(() => createDeployment('default', deployment('s', 1, { strict: 'yes' })));
    expect(strict.body.message).toBe(
      "deployments.apps \"s\" is forbidden: ValidatingAdmissionPolicy 'strict' with binding 'strict-binding' denied request: expression 'object.metadata.annotations['owner'] != ''' resulted in error: no such key: annotations",
    );
    // The same error under failurePolicy Ignore admits.
    expect((await createDeployment('default', deployment('lenient', 1))).status).toBe(201);
  });

  it('asks the server authorizer from expressions (AlwaysAllow here)', async () => {
    await setUp(
      policy('authz', {
        validations: [
          {
            expression:
              "authorizer.requestResource.check('create').allowed() && authorizer.group('').resource('secrets').namespace(request.namespace).check('get').allowed()",
          },
          { expression: "!authorizer.serviceAccount('default', 'app').path('/healthz').check('get').allowed()", message: 'healthz is readable' },
        ],
      }),
      binding('authz-binding', 'authz', { matchResources: { objectSelector: { matchLabels: { authz: 'yes' } } } }),
    );
    const denied = await refused(() => createDeployment('default', deployment('authz', 1, { authz: 'yes' })));
    expect(denied.body.message).toBe(
      "deployments.apps \"authz\" is forbidden: ValidatingAdmissionPolicy 'authz' with binding 'authz-binding' denied request: healthz is readable",
    );
  });

  it('never applies to policies and bindings themselves', async () => {
    const everything = {
      resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'] }],
      objectSelector: { matchLabels: { lock: 'yes' } },
    };
    const locked = { metadata: { name: 'lock-all', labels: { lock: 'yes' } } };
    await setUp(
      { ...policy('lock-all', { matchConstraints: everything, validations: [{ expression: 'false', message: 'locked' }] }), ...locked },
      { ...binding('lock-all', 'lock-all'), ...locked },
    );
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'locked', labels: { lock: 'yes' } } };
    const denied = await refused(() => post('/api/v1/namespaces/default/configmaps', configMap));
    expect(denied.body.message).toContain("ValidatingAdmissionPolicy 'lock-all' with binding 'lock-all' denied request: locked");
    const removed = await request(`${cluster.url}${AR}/validatingadmissionpolicybindings/lock-all`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
  });

  it('matches another served version with matchPolicy Equivalent, converting the object', async () => {
    const v2Rules = { resourceRules: [{ apiGroups: ['autoscaling'], apiVersions: ['v2'], operations: ['CREATE'], resources: ['horizontalpodautoscalers'] }] };
    const spec = (matchPolicy: string) => ({
      matchConstraints: { ...v2Rules, matchPolicy },
      validations: [
        {
          expression: 'object.spec.metrics.all(m, m.resource.target.averageUtilization <= 80)',
          messageExpression: "request.kind.version + ' ' + request.requestKind.version + ': too high'",
        },
      ],
    });
    await setUp(policy('equivalent', spec('Equivalent')), binding('equivalent', 'equivalent'), policy('exact', spec('Exact')), binding('exact', 'exact'));
    const hpa = {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 3, targetCPUUtilizationPercentage: 90 },
    };
    const denied = await refused(() => post('/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers', hpa));
    // The Equivalent policy matched the v1 request and saw it as v2.
    expect(denied.body.message).toBe(
      "horizontalpodautoscalers.autoscaling \"web\" is forbidden: ValidatingAdmissionPolicy 'equivalent' with binding 'equivalent' denied request: v2 v1: too high",
    );
    // Without it, the Exact policy does not match v1 requests.
    expect((await request(`${cluster.url}${AR}/validatingadmissionpolicybindings/equivalent`, { method: 'DELETE' })).status).toBe(200);
    const admitted = await eventually(async () => {
      const response = await post('/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers', hpa);
      expect(response.status).toBe(201);
      return response;
    });
    expect(admitted.body.spec.targetCPUUtilizationPercentage).toBe(90);
  });

  it('matches subresources only through rules that name them', async () => {
    const scaleRules = { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['deployments/scale'] }] };
    await setUp(
      policy('scale-limit', { matchConstraints: scaleRules, validations: [{ expression: "request.subResource == 'scale' && object.spec.replicas <= 10" }] }),
      binding('scale-limit', 'scale-limit'),
    );
    expect((await createDeployment('default', deployment('scaled', 1))).status).toBe(201);
    const scale = (replicas: number) =>
      request(`${cluster.url}/apis/apps/v1/namespaces/default/deployments/scaled/scale`, {
        method: 'PATCH',
        contentType: 'application/merge-patch+json',
        body: { spec: { replicas } },
      });
    const denied = await refused(() => scale(11));
    expect(denied.body.message).toContain("ValidatingAdmissionPolicy 'scale-limit' with binding 'scale-limit' denied request: failed expression:");
    expect((await scale(10)).status).toBe(200);
    // The main resource is not covered by a rule for its scale subresource.
    const whole = await request(`${cluster.url}/apis/apps/v1/namespaces/default/deployments/scaled`, {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: { spec: { replicas: 12 } },
    });
    expect(whole.status).toBe(200);
  });

  it('type-checks expressions against the matched kinds and records the generation', async () => {
    await setUp(
      policy('typed', {
        matchConstraints: {
          resourceRules: [
            { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments', 'replicasets'] },
            { apiGroups: ['*'], apiVersions: ['*'], operations: ['CREATE'], resources: ['configmaps'] },
          ],
        },
        validations: [{ expression: 'object.spec.replicas >= 0' }, { expression: 'object.spec.replica > 1', messageExpression: "'x' + object.spec.paused" }],
      }),
    );
    const path = `${cluster.url}${AR}/validatingadmissionpolicies/typed`;
    const checked = await eventually(async () => {
      const { body } = await request(path);
      expect(body.status?.observedGeneration).toBe(1);
      return body;
    });
    const issue = (kind: string, column: number, text: string) => `apps/v1, Kind=${kind}: ERROR: <input>:1:${column}: ${text}`;
    expect(checked.status.typeChecking.expressionWarnings).toEqual([
      {
        fieldRef: 'spec.validations[1].expression',
        warning: `${issue('Deployment', 12, "undefined field 'replica'")}\n | object.spec.replica > 1\n | ...........^\n\n${issue('ReplicaSet', 12, "undefined field 'replica'")}\n | object.spec.replica > 1\n | ...........^\n`,
      },
      {
        fieldRef: 'spec.validations[1].messageExpression',
        warning: `${issue('Deployment', 5, "found no matching overload for '_+_' applied to '(string, bool)'")}\n | 'x' + object.spec.paused\n | ....^\n\n${issue('ReplicaSet', 18, "undefined field 'paused'")}\n | 'x' + object.spec.paused\n | .................^\n`,
      },
    ]);
    // A fixed policy is checked again: no warnings, the new generation.
    const fixed = { ...checked, spec: { ...checked.spec, validations: [{ expression: 'object.spec.replicas >= 0' }] } };
    expect((await request(path, { method: 'PUT', body: fixed })).status).toBe(200);
    const again = await eventually(async () => {
      const { body } = await request(path);
      expect(body.status?.observedGeneration).toBe(2);
      return body;
    });
    expect(again.status.typeChecking).toEqual({});
  });

  it('refuses policies and webhook matchConditions that do not compile', async () => {
    const bad = await post(
      `${AR}/validatingadmissionpolicies`,
      policy('broken', {
        validations: [{ expression: 'object.spec.replicas <', messageExpression: '42' }, { expression: 'params.x' }],
        auditAnnotations: [{ key: 'k', valueExpression: 'request.operaton' }],
      }),
    );
    expect(bad.status).toBe(422);
    expect(bad.body.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        message:
          "Invalid value: \"object.spec.replicas <\": compilation failed: ERROR: <input>:1:23: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | object.spec.replicas <\n | ......................^",
        field: 'spec.validations[0].expression',
      },
      { reason: 'FieldValueInvalid', message: 'Invalid value: "42": must evaluate to string', field: 'spec.validations[0].messageExpression' },
      {
        reason: 'FieldValueInvalid',
        message: "Invalid value: \"params.x\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n | params.x\n | ^",
        field: 'spec.validations[1].expression',
      },
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "request.operaton": compilation failed: ERROR: <input>:1:8: undefined field \'operaton\'\n | request.operaton\n | .......^',
        field: 'spec.auditAnnotations[0].valueExpression',
      },
    ]);
    // Compile errors sit where kube-apiserver reports them, among the other field errors.
    const mixed = await post(
      `${AR}/validatingadmissionpolicies`,
      policy('mixed', { variables: [{ name: '1st', expression: 'nope' }], validations: [{ expression: 'true ?', reason: 'Nope' }] }),
    );
    expect(mixed.status).toBe(422);
    expect(mixed.body.details.causes.map((c: { field: string; reason: string }) => `${c.field} ${c.reason}`)).toEqual([
      'spec.variables[0].name FieldValueInvalid',
      'spec.variables[0].expression FieldValueInvalid',
      'spec.validations[0].expression FieldValueInvalid',
      'spec.validations[0].reason FieldValueNotSupported',
    ]);
    const webhook = await post(`${AR}/validatingwebhookconfigurations`, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'hooks' },
      webhooks: [
        {
          name: 'a.example.com',
          clientConfig: { url: 'https://hooks.example.com/a' },
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          matchConditions: [{ name: 'not-bool', expression: 'object.metadata.name' }],
        },
      ],
    });
    expect(webhook.status).toBe(422);
    expect(webhook.body.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "object.metadata.name": must evaluate to bool',
        field: 'webhooks[0].matchConditions[0].expression',
      },
    ]);
  });
});
