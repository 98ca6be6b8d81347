/**
 * The rbac.authorization.k8s.io kinds through kubectl 1.31–1.33: `create role|clusterrole|
 * rolebinding|clusterrolebinding` (1.32 and 1.33 post protobuf, 1.31 JSON), the columns `get`
 * prints, `apply -f` of a Role and RoleBinding with default validation, the roleRef that
 * cannot change, `explain`, and the default cluster roles a cluster starts with.
 */
import { describe, expect, it } from 'vitest';
import { findKubectlBinaries, requireKubectl } from '../support/kubectl.js';
import { tableRows, useKubectlCluster } from './fixture.js';

const binaries = findKubectlBinaries();
// No kubectl is a failure, not a skip: the kubectl-facing behaviour is part of the product.
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

const roleAndBindingYaml = (role: string) => `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: app-reader
rules:
- apiGroups: [""]
  resources: ["configmaps", "secrets"]
  verbs: ["get", "list", "watch"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: app-reader
subjects:
- kind: ServiceAccount
  name: app
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: ${role}
`;

describe.each(binaries)('$label: rbac', (binary) => {
  const k = useKubectlCluster(binary);

  it('create role and clusterrole make the rules kubectl asked for', async () => {
    expect((await k.ok(['create', 'role', 'pod-reader', '--verb=get,list', '--resource=pods,deployments.apps'])).stdout).toBe(
      'role.rbac.authorization.k8s.io/pod-reader created\n',
    );
    expect((await k.json(['role', 'pod-reader'])).rules).toEqual([
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'] },
    ]);
    await k.ok(['create', 'clusterrole', 'url-reader', '--verb=get', '--non-resource-url=/logs/*']);
    expect((await k.json(['clusterrole', 'url-reader'])).rules).toEqual([{ nonResourceURLs: ['/logs/*'], verbs: ['get'] }]);
    await k.ok(['create', 'clusterrole', 'monitoring', '--aggregation-rule=example.com/aggregate-to-monitoring=true']);
    expect((await k.json(['clusterrole', 'monitoring'])).aggregationRule).toEqual({
      clusterRoleSelectors: [{ matchLabels: { 'example.com/aggregate-to-monitoring': 'true' } }],
    });
    const rows = tableRows((await k.ok(['get', 'role', 'pod-reader'])).stdout);
    expect(rows[0]).toEqual(['NAME', 'CREATED AT']);
    expect(rows[1]?.[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('create rolebinding and clusterrolebinding; get -o wide shows the subjects', async () => {
    await k.ok(['create', 'rolebinding', 'readers', '--role=pod-reader', '--user=alice', '--group=devs', '--serviceaccount=default:robot']);
    const binding = await k.json(['rolebinding', 'readers']);
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' });
    expect(binding.subjects).toEqual([
      { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' },
      { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' },
      { kind: 'ServiceAccount', name: 'robot', namespace: 'default' },
    ]);
    const wide = tableRows((await k.ok(['get', 'rolebinding', 'readers', '-o', 'wide'])).stdout);
    expect(wide[0]).toEqual(['NAME', 'ROLE', 'AGE', 'USERS', 'GROUPS', 'SERVICEACCOUNTS']);
    expect(wide[1]).toEqual(['readers', 'Role/pod-reader', expect.any(String), 'alice', 'devs', 'default/robot']);
    expect((await k.ok(['create', 'clusterrolebinding', 'viewers', '--clusterrole=view', '--group=auditors'])).stdout).toBe(
      'clusterrolebinding.rbac.authorization.k8s.io/viewers created\n',
    );
    const cluster = tableRows((await k.ok(['get', 'clusterrolebinding', 'viewers'])).stdout);
    expect(cluster[1]?.slice(0, 2)).toEqual(['viewers', 'ClusterRole/view']);
  });

  it('applies a Role and RoleBinding with default validation, and refuses a new roleRef', async () => {
    await k.ok(['create', 'namespace', 'rbac-apply']);
    const applied = await k.ok(['apply', '-n', 'rbac-apply', '-f', '-'], { stdin: roleAndBindingYaml('app-reader') });
    expect(applied.stdout).toBe('role.rbac.authorization.k8s.io/app-reader created\nrolebinding.rbac.authorization.k8s.io/app-reader created\n');
    const changed = await k.run(['apply', '-n', 'rbac-apply', '-f', '-'], { stdin: roleAndBindingYaml('other') });
    expect(changed.code).not.toBe(0);
    expect(changed.stderr).toContain(
      'roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"Role", Name:"other"}: cannot change roleRef',
    );
  });

  it('rejects a rule without verbs with kube-apiserver’s message', async () => {
    const bad = await k.run(['create', '-f', '-'], {
      stdin: 'apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: bad}\nrules:\n- apiGroups: [""]\n  resources: [pods]\n  verbs: []\n',
    });
    expect(bad.stderr).toContain('rules[0].verbs: Required value: verbs must contain at least one value');
  });

  it('starts with the default cluster roles and explains the kinds', async () => {
    const names = tableRows((await k.ok(['get', 'clusterroles'])).stdout).map((row) => row[0]);
    expect(names).toEqual(expect.arrayContaining(['cluster-admin', 'admin', 'edit', 'view', 'system:discovery']));
    const bindings = tableRows((await k.ok(['get', 'clusterrolebinding', 'cluster-admin'])).stdout);
    expect(bindings[1]?.slice(0, 2)).toEqual(['cluster-admin', 'ClusterRole/cluster-admin']);
    expect((await k.ok(['explain', 'rolebinding.roleRef'])).stdout).toContain('FIELD: roleRef <RoleRef>');
  });
});
