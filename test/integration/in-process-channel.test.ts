/**
 * startCluster's in-process channel (apiserver/in-process-endpoint.ts): the cluster's own
 * components, and any client of the test process whose credentials TLS would accept, reach the
 * API server over in-memory connections — no TCP connection, no handshake — and are still
 * authenticated as themselves; a client TLS would refuse connects over the network and is
 * refused exactly as before. The server's 'connection' event counts TCP connections.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateClusterCa } from '../../apiserver/api/pki/cluster-ca.js';
import { ADMIN_IDENTITY, type ClientIdentity, issueClientCertificate, nodeIdentity } from '../../apiserver/api/pki/issue.js';
import { type Cluster, startCluster } from '../../cli/cluster/index.js';
import { type ClientTls, createHttpTransport, type HttpRequest } from '../../controllers/runtime/client/http-transport.js';
import { deployment, paths } from '../support/objects.js';

let cluster: Cluster;
let tcpConnections = 0;
const otherCaDir = mkdtempSync(join(tmpdir(), 'kubesim-other-ca-'));
beforeAll(async () => {
  cluster = await startCluster({ nodes: 2 });
  cluster.server.app.server.on('connection', () => tcpConnections++);
});
afterAll(async () => {
  await cluster?.stop();
  rmSync(otherCaDir, { recursive: true, force: true });
});

const ca = () => cluster.server.clusterCa.certPem;

async function credentialsOf(identity: ClientIdentity): Promise<ClientTls> {
  const pair = await cluster.server.clientCertificate(identity);
  return { ca: ca(), cert: pair.certPem, key: pair.keyPem };
}

/** send makes one request as `tls` with a fresh transport; resolves with the TCP connections
 * the server accepted meanwhile. */
async function send(tls: ClientTls, request: HttpRequest, server = cluster.url): Promise<{ body: unknown; connections: number }> {
  const transport = createHttpTransport({ server, tls, userAgent: 'in-process-test' });
  const before = tcpConnections;
  try {
    return { body: await transport.send(request), connections: tcpConnections - before };
  } finally {
    transport.close();
  }
}

const whoami = (): HttpRequest => ({
  method: 'POST',
  path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
  body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
  contentType: 'application/json',
});

describe('the in-process channel of startCluster', () => {
  it('carries the components as themselves: each kubelet registered its own Node, the loops made the pods', async () => {
    const created = (resource: string, name: string) =>
      cluster.server.store.history().events.find((e) => e.type === 'ADDED' && e.ref.resource === resource && e.ref.name.startsWith(name));
    expect(JSON.stringify(created('nodes', 'node-2')?.actor)).toContain('system:node:node-2');
    const admin = await credentialsOf(ADMIN_IDENTITY);
    const made = await send(admin, { method: 'POST', path: paths.deployments(), body: JSON.stringify(deployment('web', 2)), contentType: 'application/json' });
    await cluster.settle();
    expect(made.connections).toBe(0);
    expect(JSON.stringify(created('pods', 'web-')?.actor)).toContain('system:kube-controller-manager');
    const pods = (await send(admin, { method: 'GET', path: paths.pods() })).body as { items: Array<{ spec: { nodeName?: string } }> };
    expect(pods.items.map((p) => p.spec.nodeName).every(Boolean)).toBe(true);
    expect(tcpConnections).toBe(0);
  });

  it('authenticates a client by the certificate it holds, and RBAC and the Node authorizer see that user', async () => {
    const asAdmin = await send(await credentialsOf(ADMIN_IDENTITY), whoami());
    expect(asAdmin).toMatchObject({
      connections: 0,
      body: { status: { userInfo: { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] } } },
    });
    const node1 = await credentialsOf(nodeIdentity('node-1'));
    expect((await send(node1, { method: 'GET', path: '/api/v1/nodes/node-1' })).body).toMatchObject({ metadata: { name: 'node-1' } });
    const otherNode = {
      method: 'PATCH',
      path: '/api/v1/nodes/node-2/status',
      body: '{"metadata":{"labels":{"x":"y"}}}',
      contentType: 'application/merge-patch+json',
    } as const;
    await expect(send(node1, otherNode)).rejects.toMatchObject({
      code: 403,
      message: 'nodes "node-2" is forbidden: node "node-1" is not allowed to modify node "node-2"',
    });
    // No certificate: anonymous, which RBAC lets read /version but not list namespaces.
    expect((await send({ ca: ca() }, { method: 'GET', path: '/version' })).connections).toBe(0);
    await expect(send({ ca: ca() }, { method: 'GET', path: '/api/v1/namespaces' })).rejects.toMatchObject({
      code: 403,
      message: 'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope',
    });
    expect(tcpConnections).toBe(0);
  });

  it('sends a client TLS would refuse over the network, refused as before: another CA trusted, a foreign or expired certificate', async () => {
    const otherCa = await loadOrCreateClusterCa(otherCaDir);
    const foreign = await issueClientCertificate(otherCa, ADMIN_IDENTITY);
    const expired = await issueClientCertificate(cluster.server.clusterCa, ADMIN_IDENTITY, new Date(Date.now() - 2 * 365 * 24 * 3600_000));
    const before = tcpConnections;
    await expect(send({ ca: otherCa.certPem }, { method: 'GET', path: '/version' })).rejects.toMatchObject({ name: 'NetworkError' });
    for (const pair of [foreign, expired]) {
      await expect(send({ ca: ca(), cert: pair.certPem, key: pair.keyPem }, { method: 'GET', path: '/api/v1/namespaces' })).rejects.toMatchObject({
        code: 401,
        reason: 'Unauthorized',
      });
    }
    // A certificate of the cluster CA with someone else's key cannot be used either.
    const admin = await credentialsOf(ADMIN_IDENTITY);
    await expect(send({ ...admin, key: foreign.keyPem }, { method: 'GET', path: '/version' })).rejects.toMatchObject({
      code: 'ERR_OSSL_X509_KEY_VALUES_MISMATCH',
    });
    expect(tcpConnections - before).toBe(3);
  });

  it('is withdrawn when the cluster stops: a later request is refused as by a closed port', async () => {
    const small = await startCluster({ controllers: 'none', scheduler: false, nodes: 0 });
    const admin = await credentialsOf(ADMIN_IDENTITY);
    expect((await send(admin, whoami(), small.url)).connections).toBe(0);
    await small.stop();
    await expect(send(admin, { method: 'GET', path: '/version' }, small.url)).rejects.toMatchObject({
      name: 'NetworkError',
      message: expect.stringContaining('ECONNREFUSED'),
    });
  });
});
