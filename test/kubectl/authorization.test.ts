/**
 * RBAC through every kubectl against a server in RBAC mode (users from a static token file):
 * kubectl prints kube-apiserver's Forbidden, `auth can-i` and `auth can-i --list` tell the
 * truth from the bootstrap policy and the grants made, and `--as` / `--as-group` impersonate.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { findKubectlBinaries, type KubectlBinary, requireKubectl, runKubectl } from '../support/kubectl.js';
import { type RbacServer, startRbacServer } from '../support/rbac-server.js';

const binaries = findKubectlBinaries();
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

let cluster: RbacServer;
const RBAC = 'rbac.authorization.k8s.io';

beforeAll(async () => {
  cluster = await startRbacServer();
  const post = (path: string, body: object) => cluster.as('admin', path, { method: 'POST', body });
  await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
  await post(`/apis/${RBAC}/v1/clusterroles`, {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRole',
    metadata: { name: 'pod-reader' },
    rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }],
  });
  await post(`/apis/${RBAC}/v1/namespaces/team/rolebindings`, {
    apiVersion: `${RBAC}/v1`,
    kind: 'RoleBinding',
    metadata: { name: 'alice-reads-pods' },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'pod-reader' },
    subjects: [{ apiGroup: RBAC, kind: 'User', name: 'alice' }],
  });
  await eventually(async () => expect((await cluster.as('alice', '/api/v1/namespaces/team/pods')).status).toBe(200));
});
afterAll(() => cluster?.close());

const lines = (text: string) => text.split('\n').map((line) => line.replace(/\s+/g, ' ').trim());

describe.each(binaries)('$label: RBAC', (binary: KubectlBinary) => {
  const kubectl = (user: string, args: string[]) =>
    runKubectl(binary, args, { kubeconfigPath: cluster.kubeconfigFor(user), cacheDir: join(cluster.dir, `cache-${binary.minor}-${user.replace(/:/g, '-')}`) });

  it('prints kube-apiserver’s Forbidden for a user without grants', async () => {
    const result = await kubectl('bob', ['get', 'pods']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'Error from server (Forbidden): pods is forbidden: User "bob" cannot list resource "pods" in API group "" in the namespace "default"',
    );
  });

  it('auth can-i tells the truth about a controller’s service account', async () => {
    const sa = '--as=system:serviceaccount:kube-system:replicaset-controller';
    const yes = await kubectl('admin', ['auth', 'can-i', 'create', 'pods', sa]);
    expect([yes.code, yes.stdout.trim()]).toEqual([0, 'yes']);
    const no = await kubectl('admin', ['auth', 'can-i', 'create', 'deployments.apps', sa]);
    expect([no.code, no.stdout.trim()]).toEqual([1, 'no']);
    const own = await kubectl('alice', ['auth', 'can-i', 'list', 'pods', '-n', 'team']);
    expect(own.stdout.trim()).toBe('yes');
    expect((await kubectl('alice', ['auth', 'can-i', 'list', 'pods', '-n', 'default'])).stdout.trim()).toBe('no');
  });

  it('auth can-i --list lists the grants in a namespace', async () => {
    const result = await kubectl('alice', ['auth', 'can-i', '--list', '-n', 'team']);
    expect(result.code).toBe(0);
    const rows = lines(result.stdout);
    expect(rows[0]).toBe('Resources Non-Resource URLs Resource Names Verbs');
    expect(rows).toContain('pods [] [] [get list watch]');
    expect(rows).toContain('selfsubjectaccessreviews.authorization.k8s.io [] [] [create]');
    expect(rows).toContain('[/healthz] [] [get]');
  });

  it('--as and --as-group act as another user, when the caller may impersonate', async () => {
    const asAlice = await kubectl('admin', ['get', 'pods', '-n', 'team', '--as=alice']);
    expect([asAlice.code, asAlice.stderr.trim()]).toEqual([0, 'No resources found in team namespace.']);
    const elsewhere = await kubectl('admin', ['get', 'pods', '-n', 'default', '--as=alice']);
    expect(elsewhere.stderr).toContain('pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"');
    const asMaster = await kubectl('admin', ['get', 'pods', '--as=dave', '--as-group=system:masters']);
    expect(asMaster.code).toBe(0);
    const refused = await kubectl('bob', ['get', 'pods', '--as=alice']);
    expect(refused.stderr).toContain(
      'Error from server (Forbidden): users "alice" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
  });
});
