/**
 * kube-apiserver 1.33's validation messages for the admissionregistration kinds, for the
 * mistakes users make most (webhook names, client configs, rules, review versions, policies
 * without validations, bindings without actions), as the lines kubectl prints under
 * `The X "name" is invalid:`, in kube-apiserver's order.
 */
import { describe, expect, it } from 'vitest';
import { describeFieldError } from '../api-error.js';
import type { AnyResourceDefinition } from '../resource-definition.js';
import { validatingAdmissionPolicyBindingDefinition, validatingAdmissionPolicyDefinition } from './admission-policy.js';
import { mutatingWebhookConfigurationDefinition, validatingWebhookConfigurationDefinition } from './webhook-configuration.js';

/** messagesOf parses, defaults and validates `body` as `def` does on create. */
function messagesOf(def: AnyResourceDefinition, body: Record<string, unknown>): string[] {
  const object = def.schema.parse({ metadata: { name: 'x.example.com' }, ...body });
  def.defaults?.(object);
  return (def.validate?.(object) ?? []).map((e) => `${e.field}: ${describeFieldError(e)}`);
}

const hook = (overrides: Record<string, unknown> = {}) => ({
  name: 'check.example.com',
  clientConfig: { url: 'https://hooks.example.com/check' },
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...overrides,
});
const webhooks = (...hooks: unknown[]) => messagesOf(validatingWebhookConfigurationDefinition, { webhooks: hooks });
const rule = (overrides: Record<string, unknown> = {}) => ({
  operations: ['CREATE'],
  apiGroups: ['apps'],
  apiVersions: ['v1'],
  resources: ['deployments'],
  ...overrides,
});

describe('webhook configuration validation messages', () => {
  it('accepts a complete webhook', () => {
    expect(
      webhooks(hook({ rules: [rule()] }), hook({ name: 'other.example.com', clientConfig: { service: { namespace: 'a', name: 'b', path: '/v1/check' } } })),
    ).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['a short name', { name: 'check' }, ['webhooks[0].name: Invalid value: "check": should be a domain with at least three segments separated by dots']],
    [
      'a name that is no DNS subdomain',
      { name: 'Check.Example.com' },
      [
        `webhooks[0].name: Invalid value: "Check.Example.com": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    ],
    ['no side effects', { sideEffects: undefined }, ['webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun']],
    ['v1beta1-only side effects', { sideEffects: 'Some' }, ['webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"']],
    ['no review versions', { admissionReviewVersions: [] }, ['webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1']],
    [
      'unknown and repeated review versions',
      { admissionReviewVersions: ['v2', 'v2'] },
      [
        'webhooks[0].admissionReviewVersions[1]: Invalid value: "v2": duplicate version',
        'webhooks[0].admissionReviewVersions: Invalid value: []string{"v2", "v2"}: must include at least one of v1, v1beta1',
      ],
    ],
    [
      'both url and service',
      { clientConfig: { url: 'https://a.example.com', service: { namespace: 'a', name: 'b' } } },
      ['webhooks[0].clientConfig: Required value: exactly one of url or service is required'],
    ],
    [
      'an http url',
      { clientConfig: { url: 'http://hooks.example.com/check' } },
      [`webhooks[0].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`],
    ],
    [
      'a url without scheme or host, with a query',
      { clientConfig: { url: 'hooks/check?x=1' } },
      [
        `webhooks[0].clientConfig.url: Invalid value: "": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
        'webhooks[0].clientConfig.url: Invalid value: "": host must be provided; desired format: https://host[/path]',
        'webhooks[0].clientConfig.url: Invalid value: "x=1": query parameters are not permitted in the URL',
      ],
    ],
    [
      'a service with an empty name, a bad port and path',
      { clientConfig: { service: { namespace: 'a', name: '', port: 70000, path: 'check//' } } },
      [
        'webhooks[0].clientConfig.service.name: Required value: service name is required',
        'webhooks[0].clientConfig.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
        `webhooks[0].clientConfig.service.path: Invalid value: "check//": must start with a '/'`,
        'webhooks[0].clientConfig.service.path: Invalid value: "check//": segment[1] may not be empty',
      ],
    ],
    ['a timeout over 30s', { timeoutSeconds: 31 }, ['webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds']],
    ['an unknown failure policy', { failurePolicy: 'Retry' }, ['webhooks[0].failurePolicy: Unsupported value: "Retry": supported values: "Fail", "Ignore"']],
    [
      'an unknown operation and a wildcard with others',
      { rules: [rule({ operations: ['GET', '*'] })] },
      [
        `webhooks[0].rules[0].operations: Invalid value: []admissionregistration.OperationType{"GET", "*"}: if '*' is present, must not specify other operations`,
        'webhooks[0].rules[0].operations[0]: Unsupported value: "GET": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
      ],
    ],
    [
      'a rule without groups, versions or resources',
      { rules: [{ operations: ['CREATE'] }] },
      ['webhooks[0].rules[0].apiGroups: Required value', 'webhooks[0].rules[0].apiVersions: Required value', 'webhooks[0].rules[0].resources: Required value'],
    ],
    [
      'overlapping resource wildcards and a bad scope',
      { rules: [rule({ resources: ['*', 'pods', 'pods/*', 'pods/log'], scope: 'Global' })] },
      [
        `webhooks[0].rules[0].resources[3]: Invalid value: "pods/log": if 'pods/*' is present, must not specify pods/log`,
        `webhooks[0].rules[0].resources: Invalid value: []string{"*", "pods", "pods/*", "pods/log"}: if '*' is present, must not specify other resources without subresources`,
        'webhooks[0].rules[0].scope: Unsupported value: "Global": supported values: "*", "Cluster", "Namespaced"',
      ],
    ],
    [
      'match conditions without expression or with a repeated name',
      {
        matchConditions: [
          { name: 'a', expression: ' ' },
          { name: 'a', expression: 'true' },
        ],
      },
      ['webhooks[0].matchConditions[0].expression: Required value', 'webhooks[0].matchConditions[1].name: Duplicate value: "a"'],
    ],
  ])('%s', (_, overrides, expected) => {
    expect(webhooks(hook(overrides))).toEqual(expected);
  });

  it('reports a repeated webhook name after the webhook, and ignores repeated empty names', () => {
    expect(webhooks(hook(), hook())).toEqual(['webhooks[1].name: Duplicate value: "check.example.com"']);
    expect(webhooks(hook({ name: '' }), hook({ name: '' }))).toEqual(['webhooks[0].name: Required value', 'webhooks[1].name: Required value']);
  });

  it('checks reinvocationPolicy on mutating webhooks only, before the client config', () => {
    const body = { webhooks: [hook({ reinvocationPolicy: 'Always', clientConfig: {} })] };
    expect(messagesOf(mutatingWebhookConfigurationDefinition, body)).toEqual([
      'webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"',
      'webhooks[0].clientConfig: Required value: exactly one of url or service is required',
    ]);
  });
});

const policy = (spec: Record<string, unknown>) => messagesOf(validatingAdmissionPolicyDefinition, { spec });
const policyRules = { resourceRules: [rule()] };

describe('validating admission policy validation messages', () => {
  it('accepts a complete policy', () => {
    expect(policy({ matchConstraints: policyRules, validations: [{ expression: 'true', reason: 'Forbidden' }] })).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    [
      'nothing at all',
      {},
      [
        'spec.matchConstraints: Required value',
        'spec.validations: Required value: validations or auditAnnotations must contain at least one item',
        'spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item',
      ],
    ],
    [
      'constraints without resource rules',
      { matchConstraints: {}, validations: [{ expression: 'true' }] },
      ['spec.matchConstraints.resourceRules: Required value'],
    ],
    [
      'an empty expression, a multi-line message and an unknown reason',
      {
        matchConstraints: policyRules,
        validations: [{ expression: ' ', message: 'one\ntwo', reason: 'Unauthorized' }],
      },
      [
        'spec.validations[0].expression: Required value: expression is not specified',
        'spec.validations[0].message: Invalid value: "one\\ntwo": message must not contain line breaks',
        'spec.validations[0].reason: Unsupported value: "Unauthorized": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge"',
      ],
    ],
    [
      'a bad paramKind',
      { paramKind: { apiVersion: 'example.com/', kind: 'My_Kind' }, matchConstraints: policyRules, validations: [{ expression: 'true' }] },
      [
        'spec.paramKind.apiVersion: Invalid value: "example.com/": version must be specified',
        `spec.paramKind.kind: Invalid value: "My_Kind": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
      ],
    ],
    [
      'a variable that is no CEL identifier',
      { matchConstraints: policyRules, variables: [{ name: 'my-var', expression: '1' }], validations: [{ expression: 'true' }] },
      ['spec.variables[0].name: Invalid value: "my-var": name is not a valid CEL identifier'],
    ],
    [
      'repeated audit annotation keys without value expressions',
      {
        matchConstraints: policyRules,
        auditAnnotations: [
          { key: 'k', valueExpression: '' },
          { key: 'k', valueExpression: '"v"' },
        ],
      },
      ['spec.auditAnnotations[0].valueExpression: Required value: valueExpression is not specified', 'spec.auditAnnotations[1].key: Duplicate value: "k"'],
    ],
  ])('%s', (_, spec, expected) => {
    expect(policy(spec)).toEqual(expected);
  });
});

const binding = (spec: Record<string, unknown>) => messagesOf(validatingAdmissionPolicyBindingDefinition, { spec });

describe('validating admission policy binding validation messages', () => {
  it.each<[string, Record<string, unknown>, string[]]>([
    ['nothing at all', {}, ['spec.policyName: Required value', 'spec.validationActions: Required value: at least one validation action is required']],
    [
      'Deny with Warn, twice',
      { policyName: 'p', validationActions: ['Deny', 'Warn', 'Deny'] },
      [
        'spec.validationActions[2]: Duplicate value: "Deny"',
        'spec.validationActions: Invalid value: []admissionregistration.ValidationAction{"Deny", "Warn", "Deny"}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
      ],
    ],
    [
      'an unknown action',
      { policyName: 'p', validationActions: ['Block'] },
      ['spec.validationActions[0]: Unsupported value: "Block": supported values: "Audit", "Deny", "Warn"'],
    ],
    [
      'a paramRef with name and selector and no action',
      { policyName: 'p', validationActions: ['Deny'], paramRef: { name: 'a', selector: {} } },
      [
        'spec.paramRef.name: Forbidden: name and selector are mutually exclusive',
        'spec.paramRef.selector: Forbidden: name and selector are mutually exclusive',
        'spec.paramRef.parameterNotFoundAction: Required value',
      ],
    ],
    [
      'a paramRef with neither',
      { policyName: 'p', validationActions: ['Audit'], paramRef: { parameterNotFoundAction: 'Ignore' } },
      [
        'spec.paramRef: Required value: one of name or selector must be specified',
        'spec.paramRef.parameterNotFoundAction: Unsupported value: "Ignore": supported values: "Deny", "Allow"',
      ],
    ],
    [
      'match resources with a bad rule, under the path kube-apiserver misspells',
      {
        policyName: 'p',
        validationActions: ['Deny'],
        matchResources: { resourceRules: [rule({ resourceNames: ['a/b'] })] },
      },
      [`spec.matchResouces.resourceRules[0].resourceNames[0]: Invalid value: "a/b": may not contain '/'`],
    ],
  ])('%s', (_, spec, expected) => {
    expect(binding(spec)).toEqual(expected);
  });
});
