/**
 * ValidatingAdmissionPolicy through every kubectl (1.31–1.33): a policy with params from a
 * ConfigMap, variables, a messageExpression and a namespaceSelector denies `kubectl apply`
 * with kube-apiserver's message; a Warn binding makes kubectl print `Warning: ...` and the
 * object is created; the status shows the type-checking warnings. Policies apply once the
 * server's cache has seen them, hence the first `eventually`.
 */
import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { findKubectlBinaries, requireKubectl } from '../support/kubectl.js';
import { useKubectlCluster } from './fixture.js';

const binaries = findKubectlBinaries();
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

const SETUP = `apiVersion: v1
kind: Namespace
metadata:
  name: shop
  labels:
    env: prod
---
apiVersion: v1
kind: Namespace
metadata:
  name: sandbox
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: limits
  namespace: shop
data:
  maxReplicas: "3"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: replica-limit
spec:
  paramKind:
    apiVersion: v1
    kind: ConfigMap
  matchConstraints:
    namespaceSelector:
      matchLabels:
        env: prod
    resourceRules:
    - apiGroups: [apps]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [deployments]
  variables:
  - name: limit
    expression: int(params.data.maxReplicas)
  validations:
  - expression: object.spec.replicas <= variables.limit
    messageExpression: "object.metadata.name + ' asks for ' + string(object.spec.replicas) + ' replicas, ' + request.namespace + ' allows ' + string(variables.limit)"
    reason: Forbidden
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: replica-limit-shop
spec:
  policyName: replica-limit
  validationActions: [Deny]
  paramRef:
    name: limits
    parameterNotFoundAction: Deny
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: team-label
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [apps]
      apiVersions: [v1]
      operations: [CREATE]
      resources: [deployments]
  validations:
  - expression: "'team' in object.metadata.?labels.orValue({})"
    message: every deployment should name its team
  - expression: object.spec.replica > 0
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: team-label-warn
spec:
  policyName: team-label
  validationActions: [Warn]
  matchResources:
    namespaceSelector:
      matchExpressions:
      - {key: kubernetes.io/metadata.name, operator: In, values: [sandbox]}
`;

const CACHE_TIER = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: cache-tier
spec:
  matchConstraints:
    objectSelector:
      matchLabels:
        tier: cache
    resourceRules:
    - apiGroups: [apps]
      apiVersions: [v1]
      operations: [CREATE]
      resources: [deployments]
  validations:
  - expression: object.spec.replicas <= 2
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: cache-tier
spec:
  policyName: cache-tier
  validationActions: [Deny]
`;

const deployment = (name: string, namespace: string, replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: ${namespace}
  labels: {team: web}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers: [{name: app, image: nginx:1.27}]
`;

describe.each(binaries)('$label: ValidatingAdmissionPolicy', (binary) => {
  const k = useKubectlCluster(binary);

  it('denies with the policy message and admits within the limit', async () => {
    await k.apply(`${SETUP}---\n${CACHE_TIER}`);
    const denied = await eventually(async () => {
      const result = await k.run(['apply', '-f', '-'], { stdin: deployment('web', 'shop', 5) });
      expect(result.code).not.toBe(0);
      return result;
    });
    expect(denied.stderr.trim()).toBe(
      `Error from server (Forbidden): error when creating "STDIN": deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-shop' denied request: web asks for 5 replicas, shop allows 3`,
    );
    expect((await k.apply(deployment('web', 'shop', 3))).stdout.trim()).toBe('deployment.apps/web created');
    const updated = await k.run(['apply', '-f', '-'], { stdin: deployment('web', 'shop', 4) });
    expect(updated.code).not.toBe(0);
    expect(updated.stderr).toContain(
      "deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-shop' denied request: web asks for 4 replicas, shop allows 3",
    );
    // As in kube-apiserver, a rule for deployments does not cover deployments/scale.
    expect((await k.ok(['scale', 'deployment/web', '-n', 'shop', '--replicas=4'])).stdout.trim()).toBe('deployment.apps/web scaled');
  });

  it('prints an Invalid denial (the default reason) as kubectl prints field errors', async () => {
    const invalid = deployment('cache', 'shop', 9).replace('  labels: {team: web}\n', '  labels: {team: web, tier: cache}\n');
    const denied = await k.run(['apply', '-f', '-'], { stdin: invalid });
    expect(denied.code).not.toBe(0);
    expect(denied.stderr.trim()).toBe(
      `The deployments "cache" is invalid: : ValidatingAdmissionPolicy 'cache-tier' with binding 'cache-tier' denied request: failed expression: object.spec.replicas <= 2`,
    );
  });

  it('prints the Warn binding as kubectl warnings and creates the object', async () => {
    const unlabelled = deployment('api', 'sandbox', 5).replace('  labels: {team: web}\n', '');
    const warned = await eventually(async () => {
      const result = await k.apply(unlabelled.replace('name: api\n', `name: api-${Math.random().toString(36).slice(2, 7)}\n`));
      expect(result.stderr).toContain('Warning:');
      return result;
    });
    expect(warned.stdout).toMatch(/^deployment\.apps\/api-\w+ created$/m);
    expect(warned.stderr.trim().split('\n')).toEqual([
      "Warning: Validation failed for ValidatingAdmissionPolicy 'team-label' with binding 'team-label-warn': every deployment should name its team",
      "Warning: Validation failed for ValidatingAdmissionPolicy 'team-label' with binding 'team-label-warn': expression 'object.spec.replica > 0' resulted in error: no such key: replica",
    ]);
  });

  it('shows the type-checking warnings in the policy status', async () => {
    const status = await eventually(async () => {
      const policy = await k.json(['validatingadmissionpolicy', 'team-label']);
      expect(policy.status?.observedGeneration).toBe(1);
      return policy.status;
    });
    expect(status.typeChecking.expressionWarnings).toEqual([
      {
        fieldRef: 'spec.validations[1].expression',
        warning: "apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replica'\n | object.spec.replica > 0\n | ...........^\n",
      },
    ]);
  });
});
