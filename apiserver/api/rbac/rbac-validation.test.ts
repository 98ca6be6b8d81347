import { describe, expect, it } from 'vitest';
import { describeFieldError } from '../api-error.js';
import { toSchemaDocument } from '../schema-node.js';
import { validateName } from '../validation.js';
import { clusterRoleDefinition } from './cluster-role.js';
import { clusterRoleBindingDefinition } from './cluster-role-binding.js';
import { subjectNames } from './rbac-types.js';
import { roleDefinition } from './role.js';
import { type RoleBinding, roleBindingDefinition } from './role-binding.js';

const RBAC = 'rbac.authorization.k8s.io';
const messages = (errors: ReturnType<NonNullable<typeof roleDefinition.validate>>) => errors.map((e) => `${e.field}: ${describeFieldError(e)}`);

const role = (rules: unknown[]) => roleDefinition.schema.parse({ metadata: { name: 'r', namespace: 'default' }, rules });
const clusterRole = (body: Record<string, unknown>) => clusterRoleDefinition.schema.parse({ metadata: { name: 'c' }, ...body });
function roleBinding(body: Record<string, unknown>): RoleBinding {
  const binding = roleBindingDefinition.schema.parse({ metadata: { name: 'b', namespace: 'default' }, ...body });
  roleBindingDefinition.defaults?.(binding);
  return binding;
}
function clusterRoleBinding(body: Record<string, unknown>) {
  const binding = clusterRoleBindingDefinition.schema.parse({ metadata: { name: 'b' }, ...body });
  clusterRoleBindingDefinition.defaults?.(binding);
  return binding;
}

describe('rbac validation', () => {
  it('accepts resource rules and, in ClusterRoles only, non-resource URL rules', () => {
    expect(roleDefinition.validate?.(role([{ apiGroups: [''], resources: ['pods'], resourceNames: ['web'], verbs: ['get'] }]))).toEqual([]);
    expect(clusterRoleDefinition.validate?.(clusterRole({ rules: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }] }))).toEqual([]);
  });

  it('words rule problems as kube-apiserver does', () => {
    expect(messages(roleDefinition.validate?.(role([{ verbs: [] }, { nonResourceURLs: ['/x'], resources: ['pods'], verbs: ['get'] }])) ?? [])).toEqual([
      'rules[0].verbs: Required value: verbs must contain at least one value',
      'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
      'rules[0].resources: Required value: resource rules must supply at least one resource',
      'rules[1].nonResourceURLs: Invalid value: []string{"/x"}: namespaced rules cannot apply to non-resource URLs',
      'rules[1].nonResourceURLs: Invalid value: []string{"/x"}: rules cannot apply to both regular resources and non-resource URLs',
    ]);
    const named = clusterRole({ rules: [{ apiGroups: [''], resources: ['pods', 'services'], resourceNames: ['x'], verbs: ['get'] }] });
    expect(messages(clusterRoleDefinition.validate?.(named) ?? [])).toEqual([
      'rules[0].resourceNames: Required value: resource names cannot apply to multiple resources',
    ]);
  });

  it('checks aggregationRule selectors', () => {
    const bad = clusterRole({ aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'bad key!': 'true' } }] } });
    expect(clusterRoleDefinition.validate?.(bad)?.[0]?.field).toBe('aggregationRule.clusterRoleSelectors[0].matchLabels');
  });

  it('defaults the API groups of roleRef and of User and Group subjects', () => {
    const binding = roleBinding({
      roleRef: { kind: 'Role', name: 'r' },
      subjects: [
        { kind: 'User', name: 'u' },
        { kind: 'ServiceAccount', name: 'sa' },
      ],
    });
    expect(binding.roleRef).toEqual({ apiGroup: RBAC, kind: 'Role', name: 'r' });
    expect(binding.subjects).toEqual([
      { kind: 'User', apiGroup: RBAC, name: 'u' },
      { kind: 'ServiceAccount', name: 'sa' },
    ]);
    expect(roleBindingDefinition.validate?.(binding)).toEqual([]);
  });

  it('words roleRef and subject problems as kube-apiserver does', () => {
    const binding = roleBinding({
      roleRef: { apiGroup: 'example.com', kind: 'Team', name: '' },
      subjects: [
        { kind: 'Robot', name: 'r2' },
        { kind: 'Group', name: '' },
        { kind: 'ServiceAccount', name: 'Bad_Name', apiGroup: 'v1' },
      ],
    });
    expect(messages(roleBindingDefinition.validate?.(binding) ?? [])).toEqual([
      `roleRef.apiGroup: Unsupported value: "example.com": supported values: "${RBAC}"`,
      'roleRef.kind: Unsupported value: "Team": supported values: "Role", "ClusterRole"',
      'roleRef.name: Required value',
      'subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
      'subjects[1].name: Required value',
      'subjects[1].name: Invalid value: "": group name cannot be empty',
      expect.stringMatching(/^subjects\[2\]\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of/),
      'subjects[2].apiGroup: Unsupported value: "v1": supported values: ""',
    ]);
  });

  it('requires a namespace for ServiceAccount subjects of ClusterRoleBindings, and only ClusterRoles', () => {
    const binding = clusterRoleBinding({ roleRef: { kind: 'Role', name: 'r' }, subjects: [{ kind: 'ServiceAccount', name: 'sa' }] });
    expect(messages(clusterRoleBindingDefinition.validate?.(binding) ?? [])).toEqual([
      'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
      'subjects[0].namespace: Required value',
    ]);
  });

  it('reports absent required fields as kube-apiserver does (zero values, not decoding errors)', () => {
    expect(messages(roleDefinition.validate?.(role([{ apiGroups: [''], resources: ['pods'] }])) ?? [])).toEqual([
      'rules[0].verbs: Required value: verbs must contain at least one value',
    ]);
    expect(messages(roleBindingDefinition.validate?.(roleBinding({ subjects: [{ name: 'x' }] })) ?? [])).toEqual([
      'roleRef.kind: Unsupported value: "": supported values: "Role", "ClusterRole"',
      'roleRef.name: Required value',
      'subjects[0].kind: Unsupported value: "": supported values: "ServiceAccount", "User", "Group"',
    ]);
  });

  it('publishes the fields kube-apiserver requires as required', () => {
    const doc = toSchemaDocument(roleBindingDefinition.schema);
    expect(doc.definitions['io.k8s.api.rbac.v1.RoleBinding']?.required).toEqual(['roleRef']);
    expect(doc.definitions['io.k8s.api.rbac.v1.RoleRef']?.required).toEqual(['apiGroup', 'kind', 'name']);
    expect(doc.definitions['io.k8s.api.rbac.v1.Subject']?.required).toEqual(['kind', 'name']);
    expect(toSchemaDocument(roleDefinition.schema).definitions['io.k8s.api.rbac.v1.PolicyRule']?.required).toEqual(['verbs']);
  });

  it('refuses to change roleRef on update', () => {
    const old = roleBinding({ roleRef: { kind: 'Role', name: 'r' } });
    const changed = roleBinding({ roleRef: { kind: 'ClusterRole', name: 'view' } });
    expect(roleBindingDefinition.validate?.(old, old)).toEqual([]);
    expect(messages(roleBindingDefinition.validate?.(changed, old) ?? [])).toEqual([
      `roleRef: Invalid value: rbac.RoleRef{APIGroup:"${RBAC}", Kind:"ClusterRole", Name:"view"}: cannot change roleRef`,
    ]);
  });

  it('names roles and bindings as URL path segments', () => {
    expect(validateName('system:controller:job', 'path-segment')).toEqual([]);
    expect(validateName('a/b', 'path-segment').map((e) => e.detail)).toEqual(["may not contain '/'"]);
    expect(validateName('..', 'path-segment').map((e) => e.detail)).toEqual(["may not be '..'"]);
  });

  it('splits subjects for the wide columns', () => {
    const subjects = [
      { kind: 'User', name: 'alice' },
      { kind: 'User', name: 'bob' },
      { kind: 'Group', name: 'devs' },
      { kind: 'ServiceAccount', name: 'robot', namespace: 'ci' },
    ];
    expect(subjectNames(subjects)).toEqual({ users: 'alice, bob', groups: 'devs', serviceAccounts: 'ci/robot' });
  });
});
