/**
 * Authorization in RBAC mode over real HTTP: what anonymous users get, kube-apiserver's 403
 * Status word for word, grants through Roles and bindings, kubesim's own API as kubesim.io
 * resources, the Node authorizer, the access reviews, escalation prevention and impersonation.
 * Users come from a static token file (test/support/rbac-server.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { type RbacServer, startRbacServer } from '../support/rbac-server.js';

let cluster: RbacServer;
const RBAC = 'rbac.authorization.k8s.io';
const rbacPath = (plural: string, namespace?: string) => `/apis/${RBAC}/v1${namespace ? `/namespaces/${namespace}` : ''}/${plural}`;

beforeAll(async () => {
  cluster = await startRbacServer();
  await cluster.as('admin', '/api/v1/namespaces', { method: 'POST', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } } });
});
afterAll(() => cluster.close());

const forbiddenStatus = (message: string, details: Record<string, string>) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message,
  reason: 'Forbidden',
  details,
  code: 403,
});

/** grant binds a new ClusterRole with these rules to `user` (in `namespace`, or cluster-wide). */
async function grant(name: string, user: string, rules: object[], namespace?: string): Promise<void> {
  await cluster.as('admin', rbacPath('clusterroles'), { method: 'POST', body: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name }, rules } });
  const kind = namespace ? 'RoleBinding' : 'ClusterRoleBinding';
  const binding = {
    apiVersion: `${RBAC}/v1`,
    kind,
    metadata: { name },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name },
    subjects: [{ apiGroup: RBAC, kind: 'User', name: user }],
  };
  const created = await cluster.as('admin', rbacPath(namespace ? 'rolebindings' : 'clusterrolebindings', namespace), { method: 'POST', body: binding });
  expect(created.status).toBe(201);
}

describe('anonymous requests', () => {
  it('reach the health and version endpoints only, as system:public-info-viewer allows', async () => {
    for (const path of ['/healthz', '/livez', '/readyz', '/version']) expect((await cluster.as('anonymous', path)).status, path).toBe(200);
    for (const path of ['/api', '/apis', '/api/v1', '/apis/apps/v1', '/openapi/v2', '/metrics', '/.well-known/openid-configuration']) {
      const response = await cluster.as('anonymous', path);
      expect(response.body, path).toEqual(forbiddenStatus(`forbidden: User "system:anonymous" cannot get path "${path}"`, {}));
    }
  });

  it('are refused resources before the path is resolved: a kind that does not exist is a 403, not a 404', async () => {
    const response = await cluster.as('anonymous', '/apis/example.com/v1/namespaces/default/widgets/w1');
    expect(response.body).toEqual(
      forbiddenStatus(
        'widgets.example.com "w1" is forbidden: User "system:anonymous" cannot get resource "widgets" in API group "example.com" in the namespace "default"',
        {
          name: 'w1',
          group: 'example.com',
          kind: 'widgets',
        },
      ),
    );
  });
});

describe('Forbidden for an authenticated user without grants', () => {
  it('reads as kube-apiserver writes it, for lists, named objects, subresources and watches', async () => {
    expect((await cluster.as('bob', '/api')).status).toBe(200);
    expect((await cluster.as('bob', '/api/v1/namespaces/default/pods')).body).toEqual(
      forbiddenStatus('pods is forbidden: User "bob" cannot list resource "pods" in API group "" in the namespace "default"', { kind: 'pods' }),
    );
    expect((await cluster.as('bob', '/api/v1/namespaces/default/pods/web/log')).body.message).toBe(
      'pods "web" is forbidden: User "bob" cannot get resource "pods/log" in API group "" in the namespace "default"',
    );
    expect((await cluster.as('bob', '/apis/apps/v1/deployments?watch=true&fieldSelector=metadata.name%3Dweb')).body.message).toBe(
      'deployments.apps "web" is forbidden: User "bob" cannot watch resource "deployments" in API group "apps" at the cluster scope',
    );
    expect((await cluster.as('bob', '/api/v1/namespaces/default/configmaps', { method: 'DELETE' })).body.message).toBe(
      'configmaps is forbidden: User "bob" cannot deletecollection resource "configmaps" in API group "" in the namespace "default"',
    );
  });

  it('is lifted by a RoleBinding, in its namespace only, as soon as the binding exists', async () => {
    await grant('pod-reader', 'alice', [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }], 'team');
    await eventually(async () => expect((await cluster.as('alice', '/api/v1/namespaces/team/pods')).status).toBe(200));
    expect((await cluster.as('alice', '/api/v1/namespaces/default/pods')).status).toBe(403);
    expect((await cluster.as('alice', '/api/v1/namespaces/team/pods', { method: 'POST', body: {} })).status).toBe(403);
  });
});

describe("kubesim's own API", () => {
  it('is a set of kubesim.io resources: ordinary users cannot reset the cluster or stop loops', async () => {
    expect((await cluster.as('bob', '/apis/kubesim.io/v1alpha1/reset', { method: 'POST' })).body).toEqual(
      forbiddenStatus('reset.kubesim.io is forbidden: User "bob" cannot create resource "reset" in API group "kubesim.io" at the cluster scope', {
        group: 'kubesim.io',
        kind: 'reset',
      }),
    );
    expect((await cluster.as('bob', '/kubesim/v1/components/controller-manager/stop', { method: 'POST' })).body.message).toBe(
      'components.kubesim.io "controller-manager" is forbidden: User "bob" cannot create resource "components/stop" in API group "kubesim.io" at the cluster scope',
    );
    expect((await cluster.as('bob', '/apis/kubesim.io/v1alpha1/clock/pause', { method: 'POST' })).body.message).toContain(
      'cannot create resource "clock/pause" in API group "kubesim.io"',
    );
  });

  it('is read by view and driven by kubesim-operator', async () => {
    const bindTo = async (name: string, role: string, user: string) =>
      cluster.as('admin', rbacPath('clusterrolebindings'), {
        method: 'POST',
        body: {
          apiVersion: `${RBAC}/v1`,
          kind: 'ClusterRoleBinding',
          metadata: { name },
          roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role },
          subjects: [{ kind: 'User', name: user }],
        },
      });
    // view's rules come from aggregation (a controller, not running here): bind the aggregated piece.
    await bindTo('viewer-kubesim', 'kubesim:aggregate-to-view', 'system:kube-scheduler');
    await eventually(async () => expect((await cluster.as('system:kube-scheduler', '/apis/kubesim.io/v1alpha1/activity')).status).toBe(200));
    expect((await cluster.as('system:kube-scheduler', '/apis/kubesim.io/v1alpha1/settle', { method: 'POST', body: {} })).status).toBe(403);
    await bindTo('operator', 'kubesim-operator', 'bob');
    await eventually(async () => expect((await cluster.as('bob', '/apis/kubesim.io/v1alpha1/faults')).status).toBe(200));
  });
});

describe('the Node authorizer', () => {
  const node = 'system:node:node-1';
  const lease = (name: string) => `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${name}`;

  it('lets a kubelet read nodes and pods and write its own Lease, not another node’s', async () => {
    expect((await cluster.as(node, '/api/v1/nodes')).status).toBe(200);
    expect((await cluster.as(node, '/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-1')).status).toBe(200);
    const body = (name: string) => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name }, spec: { holderIdentity: name } });
    const own = await cluster.as(node, '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases', { method: 'POST', body: body('node-1') });
    expect(own.status).toBe(201);
    expect((await cluster.as(node, lease('node-1'))).status).toBe(200);
    expect((await cluster.as(node, lease('node-2'))).body.message).toBe(
      'leases.coordination.k8s.io "node-2" is forbidden: User "system:node:node-1" cannot get resource "leases" in API group "coordination.k8s.io" in the namespace "kube-node-lease": can only access node lease with the same name as the requesting node',
    );
    expect((await cluster.as(node, '/api/v1/namespaces/default/services')).status).toBe(200);
    expect((await cluster.as(node, '/api/v1/namespaces/default/secrets')).status).toBe(403);
  });

  it('lets a kubelet read the secrets and configmaps of pods bound to it, and no others', async () => {
    const create = (path: string, body: object) => cluster.as('admin', path, { method: 'POST', body });
    for (const name of ['mine', 'theirs']) {
      await create('/api/v1/namespaces/default/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name }, stringData: { k: 'v' } });
    }
    await create('/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } });
    const pod = (name: string, nodeName: string, secret: string) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name },
      spec: {
        nodeName,
        containers: [{ name: 'c', image: 'nginx', envFrom: [{ configMapRef: { name: 'settings' } }] }],
        volumes: [{ name: 's', secret: { secretName: secret } }],
      },
    });
    expect((await create('/api/v1/namespaces/default/pods', pod('on-1', 'node-1', 'mine'))).status).toBe(201);
    expect((await create('/api/v1/namespaces/default/pods', pod('on-2', 'node-2', 'theirs'))).status).toBe(201);
    await eventually(async () => expect((await cluster.as(node, '/api/v1/namespaces/default/secrets/mine')).status).toBe(200));
    expect((await cluster.as(node, '/api/v1/namespaces/default/configmaps/settings')).status).toBe(200);
    expect((await cluster.as(node, '/api/v1/namespaces/default/secrets/theirs')).body.message).toBe(
      'secrets "theirs" is forbidden: User "system:node:node-1" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node \'node-1\' and this object',
    );
    await cluster.as('admin', '/api/v1/namespaces/default/pods/on-1', { method: 'DELETE', body: { gracePeriodSeconds: 0 } });
    await eventually(async () => expect((await cluster.as(node, '/api/v1/namespaces/default/secrets/mine')).status).toBe(403));
  });
});

describe('access reviews', () => {
  const review = (kind: string, spec: object, namespace?: string) => ({
    path: `/apis/authorization.k8s.io/v1${namespace ? `/namespaces/${namespace}` : ''}/${kind.toLowerCase()}s`,
    body: { apiVersion: 'authorization.k8s.io/v1', kind, spec, ...(namespace ? { metadata: { namespace } } : {}) },
  });
  const ask = async (user: string, kind: string, spec: object, namespace?: string) => {
    const { path, body } = review(kind, spec, namespace);
    const response = await cluster.as(user, path, { method: 'POST', body });
    expect(response.status).toBe(201);
    return response.body.status;
  };

  it('tell the truth about a controller’s service account, from the bootstrap policy', async () => {
    const sa = { user: 'system:serviceaccount:kube-system:replicaset-controller', groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system'] };
    expect(await ask('admin', 'SubjectAccessReview', { ...sa, resourceAttributes: { verb: 'create', resource: 'pods', namespace: 'default' } })).toEqual({
      allowed: true,
      reason:
        'RBAC: allowed by ClusterRoleBinding "system:controller:replicaset-controller" of ClusterRole "system:controller:replicaset-controller" to ServiceAccount "replicaset-controller/kube-system"',
    });
    expect(await ask('admin', 'SubjectAccessReview', { ...sa, resourceAttributes: { verb: 'create', resource: 'deployments', group: 'apps' } })).toEqual({
      allowed: false,
    });
    expect(
      await ask('admin', 'LocalSubjectAccessReview', { user: 'alice', resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'team' } }, 'team'),
    ).toMatchObject({
      allowed: true,
    });
  });

  it('answer the caller about itself, and list its rules in a namespace', async () => {
    expect(await ask('bob', 'SelfSubjectAccessReview', { nonResourceAttributes: { verb: 'get', path: '/api' } })).toMatchObject({ allowed: true });
    expect(await ask('alice', 'SelfSubjectAccessReview', { resourceAttributes: { verb: 'delete', resource: 'pods', namespace: 'team' } })).toEqual({
      allowed: false,
    });
    const rules = await ask('alice', 'SelfSubjectRulesReview', { namespace: 'team' });
    expect(rules.incomplete).toBe(false);
    expect(rules.resourceRules).toContainEqual({ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] });
    expect(rules.resourceRules).toContainEqual({
      verbs: ['create'],
      apiGroups: ['authorization.k8s.io'],
      resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
    });
    expect(rules.nonResourceRules).toContainEqual({ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] });
    expect((await ask('system:node:node-1', 'SelfSubjectRulesReview', { namespace: 'default' })).evaluationError).toBe(
      'node authorizer does not support user rule resolution',
    );
  });
});

describe('escalation prevention', () => {
  const lead = 'carol';
  beforeAll(async () => {
    // alice may manage roles and bindings in team, and read pods there (pod-reader, above).
    await grant('rbac-manager', 'alice', [{ apiGroups: [RBAC], resources: ['roles', 'rolebindings'], verbs: ['create', 'update', 'get'] }], 'team');
    await eventually(async () => expect((await cluster.as('alice', `${rbacPath('roles', 'team')}/none`)).status).toBe(404));
  });
  const role = (name: string, rules: object[]) => ({ apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name }, rules });
  const binding = (name: string, kind: string, roleName: string) => ({
    apiVersion: `${RBAC}/v1`,
    kind: 'RoleBinding',
    metadata: { name },
    roleRef: { apiGroup: RBAC, kind, name: roleName },
    subjects: [{ apiGroup: RBAC, kind: 'User', name: lead }],
  });

  it('lets a user grant what they hold, and refuses more with kube’s message', async () => {
    const held = await cluster.as('alice', rbacPath('roles', 'team'), {
      method: 'POST',
      body: role('pods-viewer', [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }]),
    });
    expect(held.status).toBe(201);
    const more = await cluster.as('alice', rbacPath('roles', 'team'), {
      method: 'POST',
      body: role('pods-admin', [{ apiGroups: [''], resources: ['pods', 'secrets'], verbs: ['get', 'delete'] }]),
    });
    expect(more.body).toEqual(
      forbiddenStatus(
        'roles.rbac.authorization.k8s.io "pods-admin" is forbidden: user "alice" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
          '{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}\n{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete"]}',
        { name: 'pods-admin', group: RBAC, kind: 'roles' },
      ),
    );
  });

  it('refuses a binding to a role the user does not hold, unless they may bind it', async () => {
    const refused = await cluster.as('alice', rbacPath('rolebindings', 'team'), {
      method: 'POST',
      body: binding('lead-admin', 'ClusterRole', 'cluster-admin'),
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(
      /^rolebindings\.rbac\.authorization\.k8s\.io "lead-admin" is forbidden: user "alice" .* is attempting to grant RBAC permissions not currently held:\n/,
    );
    await grant('binder', 'alice', [{ apiGroups: [RBAC], resources: ['clusterroles'], verbs: ['bind'], resourceNames: ['cluster-admin'] }], 'team');
    await eventually(async () => {
      const bound = await cluster.as('alice', rbacPath('rolebindings', 'team'), {
        method: 'POST',
        body: binding('lead-admin', 'ClusterRole', 'cluster-admin'),
      });
      expect(bound.status).toBe(201);
    });
    const held = await cluster.as('alice', rbacPath('rolebindings', 'team'), { method: 'POST', body: binding('lead-pods', 'Role', 'pods-viewer') });
    expect(held.status).toBe(201);
  });
});

describe('impersonation', () => {
  it('is refused without the impersonate verb, with kube’s message', async () => {
    const response = await cluster.as('bob', '/api/v1/namespaces/team/pods', { headers: { 'Impersonate-User': 'alice' } });
    expect(response.body).toEqual(
      forbiddenStatus('users "alice" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope', {
        name: 'alice',
        kind: 'users',
      }),
    );
  });

  it('acts as the impersonated user, groups and service accounts included', async () => {
    expect((await cluster.as('admin', '/api/v1/namespaces/team/pods', { headers: { 'Impersonate-User': 'alice' } })).status).toBe(200);
    expect((await cluster.as('admin', '/api/v1/namespaces/default/pods', { headers: { 'Impersonate-User': 'alice' } })).body.message).toBe(
      'pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"',
    );
    const asGroup = await cluster.as('admin', '/api/v1/namespaces/default/pods', {
      headers: { 'Impersonate-User': 'dave', 'Impersonate-Group': 'system:masters' },
    });
    expect(asGroup.status).toBe(200);
    const sa = await cluster.as('admin', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      method: 'POST',
      headers: { 'Impersonate-User': 'system:serviceaccount:kube-system:replicaset-controller' },
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: { resourceAttributes: { verb: 'create', resource: 'pods', namespace: 'x' } },
      },
    });
    expect(sa.body.status.allowed).toBe(true);
  });

  it('checks each group and extra against the impersonate verb', async () => {
    await grant('impersonate-alice', 'bob', [{ apiGroups: [''], resources: ['users'], verbs: ['impersonate'], resourceNames: ['alice'] }]);
    await eventually(async () =>
      expect((await cluster.as('bob', '/api/v1/namespaces/team/pods', { headers: { 'Impersonate-User': 'alice' } })).status).toBe(200),
    );
    const withGroup = await cluster.as('bob', '/api/v1/namespaces/team/pods', { headers: { 'Impersonate-User': 'alice', 'Impersonate-Group': 'devs' } });
    expect(withGroup.body.message).toBe('groups "devs" is forbidden: User "bob" cannot impersonate resource "groups" in API group "" at the cluster scope');
    const withExtra = await cluster.as('bob', '/api/v1/namespaces/team/pods', { headers: { 'Impersonate-User': 'alice', 'Impersonate-Extra-Scopes': 'view' } });
    expect(withExtra.body.message).toBe(
      'userextras.authentication.k8s.io "view" is forbidden: User "bob" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope',
    );
  });
});

describe("the identities of kubesim's components", () => {
  const can = async (user: string, groups: string[], resourceAttributes: object) => {
    const body = { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user, groups, resourceAttributes } };
    return (await cluster.as('admin', '/apis/authorization.k8s.io/v1/subjectaccessreviews', { method: 'POST', body })).body.status.allowed;
  };
  const kcm = (attributes: object) => can('system:kube-controller-manager', ['system:authenticated'], attributes);
  const scheduler = (attributes: object) => can('system:kube-scheduler', ['system:authenticated'], attributes);
  const kubelet = (attributes: object) => can('system:node:node-1', ['system:nodes', 'system:authenticated'], attributes);

  it('hold what the loops, the scheduler and the kubelets do, and no more than kube grants elsewhere', async () => {
    // The loops' shared identity: their writes, their leases in kube-system, their activity.
    expect(await kcm({ verb: 'create', resource: 'pods', namespace: 'default' })).toBe(true);
    expect(await kcm({ verb: 'update', group: 'apps', resource: 'deployments', subresource: 'status', namespace: 'default' })).toBe(true);
    expect(await kcm({ verb: 'update', group: 'coordination.k8s.io', resource: 'leases', name: 'kubesim-replicaset', namespace: 'kube-system' })).toBe(true);
    expect(await kcm({ verb: 'update', group: 'kubesim.io', resource: 'activity', name: 'replicaset' })).toBe(true);
    expect(await kcm({ verb: 'create', group: 'kubesim.io', resource: 'reset' })).toBe(false);
    // The scheduler binds pods and reports why it cannot.
    expect(await scheduler({ verb: 'create', resource: 'pods', subresource: 'binding', namespace: 'default' })).toBe(true);
    expect(await scheduler({ verb: 'patch', resource: 'pods', subresource: 'status', namespace: 'default' })).toBe(true);
    expect(await scheduler({ verb: 'watch', group: 'kubesim.io', resource: 'clock' })).toBe(true);
    // A kubelet: its node, pods' status, the owners it names, not other nodes' leases.
    expect(await kubelet({ verb: 'update', resource: 'nodes', subresource: 'status', name: 'node-1' })).toBe(true);
    expect(await kubelet({ verb: 'update', resource: 'pods', subresource: 'status', namespace: 'default', name: 'web' })).toBe(true);
    expect(await kubelet({ verb: 'list', group: 'apps', resource: 'replicasets' })).toBe(true);
    expect(await kubelet({ verb: 'update', group: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease', name: 'node-2' })).toBe(false);
  });
});
