/**
 * The admissionregistration.k8s.io kinds through every kubectl: api-resources, a bundle of
 * webhook configurations, a policy and its binding applied with default validation, the
 * columns `get` prints, kube-apiserver's defaults and validation messages, and `explain`.
 * Enforcement is tested in validating-admission-policy.test.ts; here they are stored objects.
 */
import { describe, expect, it } from 'vitest';
import { findKubectlBinaries, requireKubectl, tableLineOf } from '../support/kubectl.js';
import { useKubectlCluster } from './fixture.js';

const binaries = findKubectlBinaries();
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

const VALIDATING = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: shop-validate
webhooks:
- name: validate.shop.example.com
  clientConfig:
    service:
      namespace: shop
      name: shop-webhook
      path: /validate
  rules:
  - operations: [CREATE, UPDATE]
    apiGroups: [apps]
    apiVersions: [v1]
    resources: [deployments]
  sideEffects: None
  admissionReviewVersions: [v1]
`;

const BUNDLE = `${VALIDATING}---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: shop-mutate
webhooks:
- name: mutate.shop.example.com
  clientConfig:
    url: https://hooks.example.com/mutate
  sideEffects: NoneOnDryRun
  admissionReviewVersions: [v1, v1beta1]
- name: label.shop.example.com
  clientConfig:
    url: https://hooks.example.com/label
  sideEffects: None
  admissionReviewVersions: [v1]
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
    resourceRules:
    - apiGroups: [apps]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [deployments]
  validations:
  - expression: object.spec.replicas <= 5
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
    namespace: shop
    parameterNotFoundAction: Deny
`;

const lineOf = tableLineOf;
const header = (stdout: string) => stdout.split('\n')[0]!.replace(/\s+/g, ' ').trim();

describe.each(binaries)('$label: admissionregistration kinds', (binary) => {
  const k = useKubectlCluster(binary);

  it('lists the kinds in api-resources as a 1.33 cluster does', async () => {
    const { stdout } = await k.ok(['api-resources', '--api-group=admissionregistration.k8s.io']);
    const rows = stdout.split('\n').map((line) => line.replace(/\s+/g, ' ').trim());
    for (const row of [
      'mutatingwebhookconfigurations admissionregistration.k8s.io/v1 false MutatingWebhookConfiguration',
      'validatingadmissionpolicies admissionregistration.k8s.io/v1 false ValidatingAdmissionPolicy',
      'validatingadmissionpolicybindings admissionregistration.k8s.io/v1 false ValidatingAdmissionPolicyBinding',
      'validatingwebhookconfigurations admissionregistration.k8s.io/v1 false ValidatingWebhookConfiguration',
    ]) {
      expect(rows).toContain(row);
    }
  });

  it('applies a bundle of every kind with default validation, prints it and deletes it', async () => {
    const applied = await k.apply(BUNDLE);
    expect(applied.stdout.trim().split('\n')).toEqual([
      'validatingwebhookconfiguration.admissionregistration.k8s.io/shop-validate created',
      'mutatingwebhookconfiguration.admissionregistration.k8s.io/shop-mutate created',
      'validatingadmissionpolicy.admissionregistration.k8s.io/replica-limit created',
      'validatingadmissionpolicybinding.admissionregistration.k8s.io/replica-limit-shop created',
    ]);
    const validating = await k.ok(['get', 'validatingwebhookconfigurations']);
    expect(header(validating.stdout)).toBe('NAME WEBHOOKS AGE');
    expect(lineOf(validating.stdout, 'shop-validate')).toBe('shop-validate 1 <age>');
    expect(lineOf((await k.ok(['get', 'mutatingwebhookconfigurations'])).stdout, 'shop-mutate')).toBe('shop-mutate 2 <age>');
    const policies = await k.ok(['get', 'validatingadmissionpolicies']);
    expect(header(policies.stdout)).toBe('NAME VALIDATIONS PARAMKIND AGE');
    expect(lineOf(policies.stdout, 'replica-limit')).toBe('replica-limit 1 v1/ConfigMap <age>');
    const bindings = await k.ok(['get', 'validatingadmissionpolicybindings']);
    expect(header(bindings.stdout)).toBe('NAME POLICYNAME PARAMREF AGE');
    expect(lineOf(bindings.stdout, 'replica-limit-shop')).toBe('replica-limit-shop replica-limit shop/limits <age>');
    // Lists without their server defaults (rules without scope) make kubectl send a patch
    // again, so only the kinds whose manifests carry no defaulted list come back unchanged.
    const again = await k.apply(BUNDLE);
    expect(again.stdout).toContain('mutatingwebhookconfiguration.admissionregistration.k8s.io/shop-mutate unchanged');
    expect(again.stdout).toContain('validatingadmissionpolicybinding.admissionregistration.k8s.io/replica-limit-shop unchanged');
    const deleted = await k.ok(['delete', '-f', '-'], { stdin: BUNDLE });
    expect(deleted.stdout.trim().split('\n')).toHaveLength(4);
  });

  it('fills in the v1 webhook defaults', async () => {
    await k.apply(VALIDATING.replace('name: shop-validate', 'name: defaults'));
    const config = await k.json(['validatingwebhookconfiguration', 'defaults']);
    expect(config.webhooks[0]).toMatchObject({
      failurePolicy: 'Fail',
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
      timeoutSeconds: 10,
      clientConfig: { service: { port: 443 } },
      rules: [{ scope: '*' }],
    });
  });

  it('rejects what kube-apiserver rejects, in its words', async () => {
    const broken = VALIDATING.replace('name: shop-validate', 'name: broken')
      .replace('name: validate.shop.example.com', 'name: shop-hook')
      .replace('  clientConfig:\n', '  clientConfig:\n    url: https://hooks.example.com/x\n')
      .replace('  sideEffects: None\n', '')
      .replace('  admissionReviewVersions: [v1]\n', '');
    const rejected = await k.run(['apply', '-f', '-'], { stdin: broken });
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toContain('webhooks[0].name: Invalid value: "shop-hook": should be a domain with at least three segments separated by dots');
    expect(rejected.stderr).toContain('webhooks[0].clientConfig: Required value: exactly one of url or service is required');
    expect(rejected.stderr).toContain('webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun');
    expect(rejected.stderr).toContain('webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1');
    const noValidations = BUNDLE.split('---\n')[2]!.replace('  validations:\n  - expression: object.spec.replicas <= 5\n', '');
    const policy = await k.run(['apply', '-f', '-'], { stdin: noValidations });
    expect(policy.code).toBe(1);
    expect(policy.stderr).toContain('spec.validations: Required value: validations or auditAnnotations must contain at least one item');
    const noPolicy = BUNDLE.split('---\n')[3]!.replace('  policyName: replica-limit\n', '');
    const binding = await k.run(['apply', '-f', '-'], { stdin: noPolicy });
    expect(binding.code).toBe(1);
    expect(binding.stderr).toContain('spec.policyName: Required value');
  });

  it('explains the kinds', async () => {
    const { stdout } = await k.ok(['explain', 'validatingwebhookconfiguration.webhooks.sideEffects']);
    expect(stdout).toContain('None or NoneOnDryRun');
    const policy = await k.ok(['explain', 'validatingadmissionpolicy.spec.validations']);
    expect(policy.stdout).toContain('expression');
  });
});
