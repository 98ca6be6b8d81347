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
