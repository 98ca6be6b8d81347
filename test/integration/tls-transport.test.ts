/**
 * HTTPS serving and x509 client-certificate authentication (startApiServer's `tls`): the
 * serving certificate verifies against the cluster CA for every name a client uses, and the
 * client certificate a request's connection presented decides who it is from — the CN and the
 * O's of a certificate from the cluster CA, a 401 for any other certificate, anonymous for none.
 * A test route reports `request.user` as authentication left it.
 */
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOrCreateClusterCa } from '../../apiserver/api/pki/cluster-ca.js';
import { ADMIN_IDENTITY, issueClientCertificate, nodeIdentity } from '../../apiserver/api/pki/issue.js';
import { startApiServer } from '../../apiserver/start-api-server.js';
import { createHttpTransport } from '../../controllers/runtime/client/http-transport.js';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const WHOAMI = '/test/whoami';
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('an API server with tls', () => {
  const cluster = useTestCluster({ lifetime: 'file', tls: true, plugins: [(app) => app.get(WHOAMI, async (req) => req.user)] });
  const ca = () => cluster.server.clusterCa.certPem;

  it('serves https with a certificate the cluster CA verifies, for 127.0.0.1 and localhost', async () => {
    expect(cluster.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    for (const url of [cluster.url, cluster.url.replace('127.0.0.1', 'localhost')]) {
      expect((await request(`${url}/version`, { tls: { ca: ca() } })).status).toBe(200);
    }
    await expect(fetch(`${cluster.url}/version`)).rejects.toThrow(); // the system's CAs do not know ours
  });

  it('makes a client certificate from the cluster CA its CN, in its O groups and system:authenticated', async () => {
    const admin = await cluster.server.clientCertificate(ADMIN_IDENTITY);
    const answer = await request(`${cluster.url}${WHOAMI}`, { tls: { ca: ca(), cert: admin.certPem, key: admin.keyPem } });
    expect(answer.body).toEqual({ username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] });
    const node = await issueClientCertificate(cluster.server.clusterCa, nodeIdentity('node-7'));
    const asNode = await request(`${cluster.url}${WHOAMI}`, { tls: { ca: ca(), cert: node.certPem, key: node.keyPem } });
    expect(asNode.body).toEqual({ username: 'system:node:node-7', groups: ['system:nodes', 'system:authenticated'] });
  });

  it('answers 401 to a certificate from another CA, or an expired one', async () => {
    const otherDir = mkdtempSync(join(tmpdir(), 'kubesim-other-ca-'));
    dirs.push(otherDir);
    const other = await issueClientCertificate(await loadOrCreateClusterCa(otherDir), ADMIN_IDENTITY);
    const expired = await issueClientCertificate(cluster.server.clusterCa, ADMIN_IDENTITY, new Date(Date.now() - 2 * 365 * 24 * 3600_000));
    for (const pair of [other, expired]) {
      const answer = await request(`${cluster.url}/api/v1/namespaces`, { tls: { ca: ca(), cert: pair.certPem, key: pair.keyPem } });
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ kind: 'Status', reason: 'Unauthorized', message: 'Unauthorized', code: 401 });
    }
  });

  it('lets clients with the same certificate resume one TLS session, each keeping its own identity', async () => {
    const resumed: boolean[] = [];
    const onConnection = (socket: TLSSocket) => resumed.push(socket.isSessionReused());
    cluster.server.app.server.on('secureConnection', onConnection);
    const whoami = async (pair: { certPem: string; keyPem: string }) => {
      const transport = createHttpTransport({ server: cluster.url, tls: { ca: ca(), cert: pair.certPem, key: pair.keyPem }, userAgent: 'tls-sessions' });
      try {
        return { user: await transport.send({ method: 'GET', path: WHOAMI }), resumed: resumed.at(-1) };
      } finally {
        transport.close();
      }
    };
    try {
      const admin = await cluster.server.clientCertificate(ADMIN_IDENTITY);
      const node = await issueClientCertificate(cluster.server.clusterCa, nodeIdentity('node-9'));
      const asAdmin = { user: { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] }, resumed: true };
      const asNode = { user: { username: 'system:node:node-9', groups: ['system:nodes', 'system:authenticated'] } };
      await eventually(async () => expect(await whoami(admin)).toEqual(asAdmin));
      // Another certificate never resumes the admin's session: its first connection is a full handshake.
      expect(await whoami(node)).toEqual({ ...asNode, resumed: false });
      expect(await whoami(node)).toEqual({ ...asNode, resumed: true });
      expect(await whoami(admin)).toEqual(asAdmin);
    } finally {
      cluster.server.app.server.off('secureConnection', onConnection);
    }
  });

  it('leaves a request without a certificate anonymous', async () => {
    const answer = await request(`${cluster.url}${WHOAMI}`, { tls: { ca: ca() } });
    expect(answer.body).toEqual({ username: 'system:anonymous', groups: ['system:unauthenticated'] });
  });

  it('writes a kubeconfig with the CA and the admin certificate that kubectl uses to verify the server', async () => {
    const kubeconfig = cluster.kubeconfig;
    expect(kubeconfig).toContain('certificate-authority-data');
    expect(kubeconfig).toContain('client-certificate-data');
    expect(kubeconfig).not.toContain('insecure-skip-tls-verify');
    expect(kubeconfig).not.toContain('token');
  });
});

describe('simulated nodes over tls', () => {
  /** Who wrote to nodes and leases, as authentication decided. */
  const writes: Array<{ user: string; path: string }> = [];
  useTestCluster({
    lifetime: 'file',
    tls: true,
    nodes: 2,
    plugins: [
      (app) =>
        app.addHook('onRequest', async (req) => {
          const path = req.url.split('?')[0]!;
          if (req.method !== 'GET' && /\/(nodes|leases)(\/|$)/.test(path)) writes.push({ user: req.user.username, path });
        }),
    ],
  });

  it('register their Node and Lease each as system:node:<name>, over a connection of its own', async () => {
    const writers = (resource: string) =>
      writes
        .filter((w) => w.path.endsWith(resource))
        .map((w) => w.user)
        .sort();
    await eventually(() => {
      expect(writers('/nodes')).toEqual(['system:node:node-1', 'system:node:node-2']);
      expect(writers('/leases')).toEqual(['system:node:node-1', 'system:node:node-2']);
    });
    expect(writes.every((w) => w.user.startsWith('system:node:'))).toBe(true);
  });
});

describe('the serving certificate in a PKI directory', () => {
  it('is made at the first start and reused by later ones, and re-made when it names another host', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kubesim-tls-data-'));
    dirs.push(dataDir);
    const certFile = join(dataDir, 'pki', 'apiserver.crt');
    const start = (host: string) => startApiServer({ dataDir, host, port: 0, tls: true, metricsIntervalMs: 0 });
    const first = await start('127.0.0.1');
    await first.close();
    const made = readFileSync(certFile, 'utf8');
    expect(statSync(join(dataDir, 'pki', 'apiserver.key')).mode & 0o777).toBe(0o600);
    const names = new X509Certificate(made).subjectAltName ?? '';
    for (const name of ['DNS:localhost', 'DNS:kubernetes.default.svc.cluster.local', 'IP Address:127.0.0.1', 'IP Address:10.96.0.1']) {
      expect(names).toContain(name);
    }
    const second = await start('127.0.0.1');
    await second.close();
    expect(readFileSync(certFile, 'utf8')).toBe(made);
    const third = await start('127.0.0.2');
    await third.close();
    expect(readFileSync(certFile, 'utf8')).not.toBe(made);
    expect(existsSync(join(dataDir, 'pki', 'ca.crt'))).toBe(true);
  });
});
