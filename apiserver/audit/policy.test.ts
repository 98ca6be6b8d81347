import { describe, expect, it } from 'vitest';
import type { RequestAttributes } from '../authz/attributes.js';
import { CompiledPolicy, parsePolicy } from './policy.js';

const admin = { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] };
const bob = { username: 'bob', groups: ['system:authenticated'] };
const pods = (verb: string, extra: Partial<RequestAttributes> = {}): RequestAttributes => ({
  user: bob,
  verb,
  apiGroup: '',
  resource: 'pods',
  namespace: 'default',
  ...extra,
});
const path = (p: string, user = bob): RequestAttributes => ({ user, verb: 'get', path: p });

const policyOf = (yaml: string) => new CompiledPolicy(parsePolicy(`apiVersion: audit.k8s.io/v1\nkind: Policy\n${yaml}`));

describe('audit policy matching', () => {
  it('takes the first rule that matches, and logs nothing when none does', () => {
    const policy = policyOf(`rules:
- level: None
  users: [kubernetes-admin]
- level: RequestResponse
  resources: [{group: "", resources: [configmaps]}]
- level: Metadata
  verbs: [create, delete]
`);
    expect(policy.evaluate(pods('create', { user: admin })).level).toBe('None');
    expect(policy.evaluate(pods('create', { resource: 'configmaps' })).level).toBe('RequestResponse');
    expect(policy.evaluate(pods('delete')).level).toBe('Metadata');
    expect(policy.evaluate(pods('get')).level).toBe('None');
  });

  it('matches userGroups by any of the user’s groups', () => {
    const policy = policyOf('rules:\n- level: Request\n  userGroups: [system:masters, devs]\n');
    expect(policy.evaluate(pods('get', { user: admin })).level).toBe('Request');
    expect(policy.evaluate(pods('get')).level).toBe('None');
  });

  it('matches resources by group, *, subresources and resourceNames as kube does', () => {
    const rule = (resources: string) => policyOf(`rules:\n- level: Metadata\n  resources: [${resources}]\n`);
    expect(rule('{group: "", resources: ["*"]}').evaluate(pods('get')).level).toBe('Metadata');
    expect(rule('{group: apps}').evaluate(pods('get')).level).toBe('None');
    expect(rule('{group: apps}').evaluate(pods('get', { apiGroup: 'apps', resource: 'deployments' })).level).toBe('Metadata');
    expect(rule('{resources: ["pods/log"]}').evaluate(pods('get', { subresource: 'log' })).level).toBe('Metadata');
    expect(rule('{resources: ["pods/log"]}').evaluate(pods('get')).level).toBe('None');
    // "pods" alone does not cover its subresources; "pods/*" and "*/status" do.
    expect(rule('{resources: [pods]}').evaluate(pods('get', { subresource: 'status' })).level).toBe('None');
    expect(rule('{resources: ["pods/*"]}').evaluate(pods('get', { subresource: 'status' })).level).toBe('Metadata');
    expect(rule('{resources: ["*/status"]}').evaluate(pods('get', { resource: 'nodes', subresource: 'status' })).level).toBe('Metadata');
    expect(rule('{resources: ["*/status"]}').evaluate(pods('get')).level).toBe('None');
    const named = rule('{resources: [pods], resourceNames: [web]}');
    expect(named.evaluate(pods('get', { name: 'web' })).level).toBe('Metadata');
    expect(named.evaluate(pods('get', { name: 'db' })).level).toBe('None');
    expect(named.evaluate(pods('list')).level).toBe('None');
  });

  it('matches namespaces, "" being cluster-scoped and all-namespace requests', () => {
    const policy = policyOf('rules:\n- level: Metadata\n  namespaces: ["kube-system", ""]\n');
    expect(policy.evaluate(pods('get', { namespace: 'kube-system' })).level).toBe('Metadata');
    expect(policy.evaluate(pods('list', { namespace: undefined })).level).toBe('Metadata');
    expect(policy.evaluate(pods('get')).level).toBe('None');
    expect(policy.evaluate(path('/healthz')).level).toBe('None'); // a namespaces rule is about resources
  });

  it('matches nonResourceURLs exactly or by a trailing *', () => {
    const policy = policyOf('rules:\n- level: Metadata\n  nonResourceURLs: [/healthz*, /version]\n');
    expect(policy.evaluate(path('/healthz')).level).toBe('Metadata');
    expect(policy.evaluate(path('/healthz/etcd')).level).toBe('Metadata');
    expect(policy.evaluate(path('/version')).level).toBe('Metadata');
    expect(policy.evaluate(path('/versions')).level).toBe('None');
    expect(policy.evaluate(pods('get')).level).toBe('None');
  });

  it('joins the policy’s omitStages with the rule’s, and takes omitManagedFields from the rule over the policy', () => {
    const policy = policyOf(`omitStages: [RequestReceived]
omitManagedFields: true
rules:
- level: Request
  verbs: [create]
  omitStages: [ResponseStarted]
  omitManagedFields: false
- level: Metadata
`);
    const create = policy.evaluate(pods('create'));
    expect([...create.omitStages].sort()).toEqual(['RequestReceived', 'ResponseStarted']);
    expect(create.omitManagedFields).toBe(false);
    const get = policy.evaluate(pods('get'));
    expect([...get.omitStages]).toEqual(['RequestReceived']);
    expect(get.omitManagedFields).toBe(true);
  });
});

describe('audit policy reading', () => {
  const fails = (yaml: string) => () => parsePolicy(yaml);
  it('refuses what kube-apiserver refuses, in its words', () => {
    expect(fails('apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules: [{level: None}]')).toThrow(/unknown group version/);
    expect(fails('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: []')).toThrow('loaded illegal policy with 0 rules');
    expect(fails('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: Verbose}]')).toThrow(
      'rules[0].level: Unsupported value: "Verbose": supported values: "None", "Metadata", "Request", "RequestResponse"',
    );
    expect(fails('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None, nonResourceURLs: ["/a*b"]}]')).toThrow(
      "non-resource URL wildcards '*' must be the final character of the rule",
    );
    expect(fails('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None, nonResourceURLs: [/x], namespaces: [a]}]')).toThrow(
      'rules cannot apply to both regular resources and non-resource URLs',
    );
    expect(fails('apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [Done]\nrules: [{level: None}]')).toThrow(
      'omitStages[0]: Invalid value: "Done": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic',
    );
  });
});
