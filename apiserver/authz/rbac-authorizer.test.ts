import { describe, expect, it } from 'vitest';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding } from '../api/rbac/index.js';
import { forbiddenReason, type RequestAttributes } from './attributes.js';
import { authorizeRbac, escalationError, type RbacObjects, rbacRulesFor } from './rbac-authorizer.js';
import { uncoveredRules } from './rbac-rules.js';
import { serviceAccountGroups, serviceAccountUsername, type UserInfo } from './user.js';

const RBAC = 'rbac.authorization.k8s.io';

function staticObjects(objects: {
  roles?: Role[];
  roleBindings?: RoleBinding[];
  clusterRoles?: ClusterRole[];
  clusterRoleBindings?: ClusterRoleBinding[];
}): RbacObjects {
  return {
    clusterRoleBindings: () => objects.clusterRoleBindings ?? [],
    roleBindings: (ns) => (objects.roleBindings ?? []).filter((b) => b.metadata.namespace === ns),
    clusterRole: (name) => objects.clusterRoles?.find((r) => r.metadata.name === name),
    role: (ns, name) => objects.roles?.find((r) => r.metadata.namespace === ns && r.metadata.name === name),
  };
}

const clusterRole = (name: string, rules: PolicyRule[]): ClusterRole => ({ metadata: { name }, rules });
const role = (namespace: string, name: string, rules: PolicyRule[]): Role => ({ metadata: { namespace, name }, rules });

const alice: UserInfo = { username: 'alice', groups: ['devs', 'system:authenticated'] };
const builder: UserInfo = { username: serviceAccountUsername('ci', 'builder'), groups: serviceAccountGroups('ci') };

const objects = staticObjects({
  clusterRoles: [
    clusterRole('pod-reader', [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods', 'pods/log'] }]),
    clusterRole('scaler', [{ verbs: ['update'], apiGroups: ['*'], resources: ['*/scale'] }]),
    clusterRole('health', [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez/*'] }]),
  ],
  clusterRoleBindings: [
    {
      metadata: { name: 'devs-read-pods' },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'pod-reader' },
      subjects: [{ kind: 'Group', apiGroup: RBAC, name: 'devs' }],
    },
    {
      metadata: { name: 'everyone-health' },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'health' },
      subjects: [{ kind: 'Group', name: 'system:authenticated' }],
    },
    { metadata: { name: 'dangling' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'gone' }, subjects: [{ kind: 'User', name: 'alice' }] },
  ],
  roles: [role('ci', 'deployer', [{ verbs: ['create', 'delete'], apiGroups: ['apps'], resources: ['deployments'], resourceNames: [] }])],
  roleBindings: [
    {
      metadata: { namespace: 'ci', name: 'builder-deploys' },
      roleRef: { apiGroup: RBAC, kind: 'Role', name: 'deployer' },
      subjects: [{ kind: 'ServiceAccount', name: 'builder' }],
    },
    {
      metadata: { namespace: 'ci', name: 'builder-scales' },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'scaler' },
      subjects: [{ kind: 'ServiceAccount', name: 'builder', namespace: 'ci' }],
    },
  ],
});

const pods = (user: UserInfo, verb: string, extra: Partial<RequestAttributes> = {}): RequestAttributes => ({
  user,
  verb,
  apiGroup: '',
  resource: 'pods',
  namespace: 'default',
  ...extra,
});

describe('the RBAC authorizer', () => {
  it('allows through a ClusterRoleBinding to a group and names the binding, role and subject', () => {
    expect(authorizeRbac(objects, pods(alice, 'list'))).toEqual({
      allowed: true,
      reason: 'RBAC: allowed by ClusterRoleBinding "devs-read-pods" of ClusterRole "pod-reader" to Group "devs"',
    });
    expect(authorizeRbac(objects, pods(alice, 'get', { subresource: 'log', name: 'web' })).allowed).toBe(true);
  });

  it('denies what no rule grants, reporting roles it could not find', () => {
    expect(authorizeRbac(objects, pods(alice, 'delete'))).toEqual({
      allowed: false,
      reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found',
    });
    expect(authorizeRbac(objects, pods(alice, 'get', { subresource: 'exec' })).allowed).toBe(false);
  });

  it('grants a RoleBinding only in its namespace, defaulting a service account subject to it', () => {
    const create = (namespace: string): RequestAttributes => ({ user: builder, verb: 'create', apiGroup: 'apps', resource: 'deployments', namespace });
    expect(authorizeRbac(objects, create('ci'))).toEqual({
      allowed: true,
      reason: 'RBAC: allowed by RoleBinding "builder-deploys/ci" of Role "deployer" to ServiceAccount "builder/ci"',
    });
    expect(authorizeRbac(objects, create('default')).allowed).toBe(false);
    expect(authorizeRbac(objects, { ...create('ci'), resource: 'deployments', subresource: 'scale', verb: 'update' }).allowed).toBe(true);
    expect(authorizeRbac(objects, { ...create('ci'), resource: 'statefulsets', subresource: 'scale', verb: 'update' }).allowed).toBe(true);
    expect(authorizeRbac(objects, { ...create('ci'), resource: 'statefulsets', subresource: 'status', verb: 'update' }).allowed).toBe(false);
  });

  it('matches non-resource URLs exactly or by a trailing-star prefix', () => {
    const get = (path: string) => authorizeRbac(objects, { user: builder, verb: 'get', path }).allowed;
    expect([get('/healthz'), get('/livez/ping'), get('/livez'), get('/healthz/etcd')]).toEqual([true, true, false, false]);
  });

  it('lists the rules a user holds in a namespace, cluster-wide ones included', () => {
    const { rules, errors } = rbacRulesFor(objects, builder, 'ci');
    expect(rules.map((r) => r.resources?.[0] ?? r.nonResourceURLs?.[0])).toEqual(['/healthz', 'deployments', '*/scale']);
    expect(errors).toEqual([]);
  });
});

describe('the memo of what bindings grant whom', () => {
  /** Objects that say when they change, as the informer cache does. */
  function versionedObjects() {
    const clusterRoleBindings: ClusterRoleBinding[] = [];
    let version = 0;
    const objects: RbacObjects = {
      ...staticObjects({ clusterRoles: [clusterRole('pod-deleter', [{ verbs: ['delete'], apiGroups: [''], resources: ['pods'] }])] }),
      clusterRoleBindings: () => clusterRoleBindings,
      version: () => version,
    };
    const bind = (binding: ClusterRoleBinding) => {
      clusterRoleBindings.push(binding);
      version++;
    };
    return { objects, bind };
  }
  const deleteBinding = (subject: ClusterRoleBinding['subjects']): ClusterRoleBinding => ({
    metadata: { name: 'deleters' },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'pod-deleter' },
    subjects: subject,
  });

  it('sees a binding made after the user was first decided', () => {
    const { objects, bind } = versionedObjects();
    expect(authorizeRbac(objects, pods(alice, 'delete')).allowed).toBe(false);
    bind(deleteBinding([{ kind: 'User', apiGroup: RBAC, name: 'alice' }]));
    expect(authorizeRbac(objects, pods(alice, 'delete'))).toEqual({
      allowed: true,
      reason: 'RBAC: allowed by ClusterRoleBinding "deleters" of ClusterRole "pod-deleter" to User "alice"',
    });
  });

  it('keeps users of one name apart by their groups', () => {
    const { objects, bind } = versionedObjects();
    bind(deleteBinding([{ kind: 'Group', apiGroup: RBAC, name: 'devs' }]));
    expect(authorizeRbac(objects, pods(alice, 'delete')).allowed).toBe(true);
    expect(authorizeRbac(objects, pods({ username: 'alice', groups: ['system:authenticated'] }, 'delete')).allowed).toBe(false);
    expect(authorizeRbac(objects, pods(alice, 'delete')).allowed).toBe(true);
  });
});

describe('Forbidden messages', () => {
  it('reads as kube-apiserver writes them', () => {
    expect(forbiddenReason(pods(alice, 'list'))).toBe('User "alice" cannot list resource "pods" in API group "" in the namespace "default"');
    expect(forbiddenReason({ user: alice, verb: 'get', apiGroup: 'apps', resource: 'deployments', subresource: 'scale' })).toBe(
      'User "alice" cannot get resource "deployments/scale" in API group "apps" at the cluster scope',
    );
    expect(forbiddenReason({ user: alice, verb: 'get', path: '/metrics' }, 'RBAC: x')).toBe('User "alice" cannot get path "/metrics": RBAC: x');
  });
});

describe('escalation prevention', () => {
  it('lists the permissions a role would grant beyond the user’s own, verbs merged', () => {
    const wanted: PolicyRule[] = [{ verbs: ['get', 'delete', 'patch'], apiGroups: [''], resources: ['pods'] }];
    expect(escalationError(objects, alice, 'default', wanted)).toBe(
      'user "alice" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["delete" "patch"]}; resolution errors: [clusterrole.rbac.authorization.k8s.io "gone" not found]',
    );
    expect(escalationError(objects, alice, 'default', [{ verbs: ['watch'], apiGroups: [''], resources: ['pods'] }])).toBeUndefined();
  });

  it('treats a rule for every name as more than a rule for some names', () => {
    const some: PolicyRule = { verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a'] };
    const every: PolicyRule = { verbs: ['get'], apiGroups: [''], resources: ['secrets'] };
    expect(uncoveredRules([every], [some])).toEqual([]);
    expect(uncoveredRules([some], [every])).toHaveLength(1);
    expect(uncoveredRules([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], [every, some])).toEqual([]);
    expect(uncoveredRules([{ verbs: ['get'], nonResourceURLs: ['/api/*'] }], [{ verbs: ['get'], nonResourceURLs: ['/api/v1', '/apis'] }])).toEqual([
      { verbs: ['get'], nonResourceURLs: ['/apis'] },
    ]);
  });
});
