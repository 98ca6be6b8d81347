/**
 * Who may open exec, attach and port-forward: the upgrade is authenticated and authorized
 * like any request, and a WebSocket upgrade (a GET, RBAC verb `get`) must also be allowed
 * `create` on the subresource — kube-apiserver's AuthorizePodWebsocketUpgradeCreatePermission
 * — so `get pods/exec` alone runs nothing. The pod does not exist: a request that passed
 * authorization ends in NotFound.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { type RbacServer, startRbacServer, tokenOf } from '../support/rbac-server.js';
import { refusalOf } from './stream-client.js';

const RBAC = 'rbac.authorization.k8s.io';
let cluster: RbacServer;

/** grant gives alice `verbs` on pods/exec, pods/attach and pods/portforward in namespace team. */
async function grant(name: string, verbs: string[]): Promise<void> {
  const post = (path: string, body: object) => cluster.as('admin', path, { method: 'POST', body });
  await post(`/apis/${RBAC}/v1/namespaces/team/roles`, {
    apiVersion: `${RBAC}/v1`,
    kind: 'Role',
    metadata: { name },
    rules: [{ apiGroups: [''], resources: ['pods/exec', 'pods/attach', 'pods/portforward'], verbs }],
  });
  await post(`/apis/${RBAC}/v1/namespaces/team/rolebindings`, {
    apiVersion: `${RBAC}/v1`,
    kind: 'RoleBinding',
    metadata: { name },
    roleRef: { apiGroup: RBAC, kind: 'Role', name },
    subjects: [{ apiGroup: RBAC, kind: 'User', name: 'alice' }],
  });
}

const PATHS = {
  exec: '/api/v1/namespaces/team/pods/web/exec?command=echo&stdout=true',
  attach: '/api/v1/namespaces/team/pods/web/attach?stdout=true',
  portforward: '/api/v1/namespaces/team/pods/web/portforward?ports=80',
};

const upgradeAs = (user: string, path: string) =>
  refusalOf(cluster.url, path, ['v5.channel.k8s.io', 'v4.channel.k8s.io'], user === 'anonymous' ? {} : { Authorization: `Bearer ${tokenOf(user)}` });

beforeAll(async () => {
  cluster = await startRbacServer();
  await cluster.as('admin', '/api/v1/namespaces', { method: 'POST', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } } });
});
afterAll(() => cluster?.close());

describe('authorization of streaming upgrades', () => {
  it('refuses a user without grants with kube-apiserver’s Forbidden', async () => {
    const refusal = await upgradeAs('bob', PATHS.exec);
    expect(refusal.status).toBe(403);
    expect(refusal.json()).toMatchObject({
      reason: 'Forbidden',
      message: 'pods "web" is forbidden: User "bob" cannot get resource "pods/exec" in API group "" in the namespace "team"',
    });
  });

  it('refuses `get` without `create` on each streaming subresource', async () => {
    await grant('streams-get', ['get']);
    for (const [subresource, path] of Object.entries(PATHS)) {
      const refusal = await eventually(async () => {
        const answer = await upgradeAs('alice', path);
        expect(answer.json().message).toContain('cannot create');
        return answer;
      });
      expect(refusal.status).toBe(403);
      expect(refusal.json().message).toBe(
        `pods "web" is forbidden: User "alice" cannot create resource "pods/${subresource}" in API group "" in the namespace "team"`,
      );
    }
  });

  it('lets `get` and `create` through to the pod lookup', async () => {
    await grant('streams-create', ['create']);
    for (const path of Object.values(PATHS)) {
      const refusal = await eventually(async () => {
        const answer = await upgradeAs('alice', path);
        expect(answer.status).toBe(404);
        return answer;
      });
      expect(refusal.json()).toMatchObject({ reason: 'NotFound', message: 'pods "web" not found' });
    }
  });
});
