/**
 * Audit logging of exec, attach and port-forward: upgrades never pass fastify's hooks, so the
 * upgrade gate and the connection report their stages — RequestReceived, ResponseStarted when
 * the answer's head is written (the kubelet's 101, or a refusal with its Status),
 * ResponseComplete when the connection closes — as kube-apiserver logs a long-running request.
 * Real kubectl against the default HTTPS + RBAC cluster, with an audit policy.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { parsePolicy } from '../../apiserver/audit/policy.js';
import { type Cluster, startCluster } from '../../cli/cluster/index.js';
import { type LoggedEvent, readAuditLog } from '../support/audit-log.js';
import { eventually } from '../support/eventually.js';
import { credentialsFor, trustKubeconfig } from '../support/http.js';
import { findKubectlBinaries, requireKubectl, runKubectl } from '../support/kubectl.js';
import { testUserland } from '../support/test-userland.js';
import { refusalOf } from './stream-client.js';

const binary = findKubectlBinaries().at(-1);
if (!binary) it('finds a kubectl binary', () => requireKubectl());

const dir = mkdtempSync(join(tmpdir(), 'kubesim-audit-streaming-'));
const logPath = join(dir, 'audit.log');
const policy = parsePolicy(`apiVersion: audit.k8s.io/v1
kind: Policy
rules:
- level: Metadata
  resources: [{group: "", resources: [pods/exec, pods/attach, pods/portforward]}]
`);

const loggedEvents = () => readAuditLog(logPath);

/** requestsLogged: the logged requests matching `match`, each as its stages in order. */
const requestsLogged = (match: (event: LoggedEvent) => boolean): LoggedEvent[][] => {
  const byId = new Map<string, LoggedEvent[]>();
  for (const event of loggedEvents().filter(match)) byId.set(event.auditID, [...(byId.get(event.auditID) ?? []), event]);
  return [...byId.values()];
};

describe.runIf(binary)('audit logging of streaming upgrades', () => {
  let cluster: Cluster;
  /** An upgrade that trusts the cluster's CA but presents no client certificate, only `token`. */
  const refusalWithoutCertificate = (path: string, token: string) =>
    new Promise<{ status: number; auditId: string | string[] | undefined }>((resolve, reject) => {
      const ws = new WebSocket(`${cluster.url.replace(/^http/, 'ws')}${path}`, ['v5.channel.k8s.io'], {
        ca: credentialsFor(cluster.url)?.ca,
        headers: { Authorization: `Bearer ${token}` },
      });
      ws.on('unexpected-response', (_req, res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, auditId: res.headers['audit-id'] });
      });
      ws.on('open', () => {
        ws.close();
        reject(new Error('the server switched protocols'));
      });
      ws.on('error', reject);
    });
  const kubectl = (args: string[]) =>
    runKubectl(binary!, args, { kubeconfigPath: cluster.kubeconfigPath, cacheDir: join(cluster.kubeconfigPath, '..', 'audit-cache') });

  beforeAll(async () => {
    cluster = await startCluster({ userland: testUserland, audit: { policy, log: { path: logPath } } });
    trustKubeconfig(cluster.kubeconfig);
    expect((await kubectl(['run', 'web', '--image=busybox', '--restart=Never'])).code).toBe(0);
    await eventually(async () => expect((await kubectl(['get', 'pod', 'web', '-o', 'jsonpath={.status.phase}'])).stdout).toBe('Running'), {
      timeoutMs: 20_000,
    });
  });
  afterAll(async () => {
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('logs a kubectl exec: received, started with the 101, complete when the stream closes', async () => {
    expect(await kubectl(['exec', 'web', '--', 'echo', 'audited'])).toMatchObject({ code: 0, stdout: 'audited\n' });
    const [events] = await eventually(() => {
      const logged = requestsLogged((event) => event.objectRef?.subresource === 'exec' && event.user.username === 'kubernetes-admin');
      expect(logged.map((stages) => stages.map((event) => event.stage))).toEqual([['RequestReceived', 'ResponseStarted', 'ResponseComplete']]);
      return logged;
    });
    const [received, started, complete] = events!;
    expect(received).not.toHaveProperty('responseStatus');
    expect(received).toMatchObject({
      level: 'Metadata',
      // kubectl 1.31+ opens exec as a WebSocket: a GET, which kube reads as `get`.
      verb: 'get',
      requestURI: expect.stringMatching(/^\/api\/v1\/namespaces\/default\/pods\/web\/exec\?command=echo&command=audited/),
      user: { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] },
      objectRef: { resource: 'pods', subresource: 'exec', namespace: 'default', name: 'web', apiVersion: 'v1' },
      userAgent: expect.stringMatching(/^kubectl/),
    });
    expect(started).toMatchObject({ responseStatus: { metadata: {}, code: 101 } });
    expect(complete).toMatchObject({
      responseStatus: { metadata: {}, code: 101 },
      annotations: { 'authorization.k8s.io/decision': 'allow' },
    });
  });

  it('logs an exec RBAC refuses with the impersonated user, the decision and the Status', async () => {
    const refusal = await refusalOf(cluster.url, '/api/v1/namespaces/default/pods/web/exec?command=date&stdout=true', ['v5.channel.k8s.io'], {
      'Impersonate-User': 'alice',
    });
    expect(refusal.status).toBe(403);
    const events = await eventually(() => {
      const logged = loggedEvents().filter((event) => event.auditID === refusal.auditId);
      expect(logged.map((event) => event.stage)).toEqual(['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
      return logged;
    });
    expect(events[0]).not.toHaveProperty('impersonatedUser');
    expect(events[2]).toMatchObject({
      user: { username: 'kubernetes-admin' },
      impersonatedUser: { username: 'alice', groups: ['system:authenticated'] },
      annotations: { 'authorization.k8s.io/decision': 'forbid' },
      responseStatus: {
        code: 403,
        status: 'Failure',
        reason: 'Forbidden',
        message: 'pods "web" is forbidden: User "alice" cannot get resource "pods/exec" in API group "" in the namespace "default"',
      },
    });
  });

  it('logs an upgrade with a wrong token as one ResponseStarted event with no user, under the Audit-Id it answered', async () => {
    const refusal = await refusalWithoutCertificate('/api/v1/namespaces/default/pods/web/attach?stdout=true', 'wrong');
    expect(refusal.status).toBe(401);
    expect(refusal.auditId).toMatch(/^[0-9a-f-]{36}$/);
    const events = await eventually(() => {
      const logged = loggedEvents().filter((event) => event.auditID === refusal.auditId);
      expect(logged).toHaveLength(1);
      return logged;
    });
    expect(events[0]).toMatchObject({
      stage: 'ResponseStarted',
      user: {},
      verb: 'get',
      objectRef: { resource: 'pods', subresource: 'attach', name: 'web' },
      responseStatus: { message: 'Authentication failed, attempted: bearer', code: 401 },
    });
  });

  it('keeps the Audit-Id a client sends on an upgrade', async () => {
    const refusal = await refusalOf(cluster.url, '/api/v1/namespaces/default/pods/missing/portforward?ports=80', ['v4.channel.k8s.io'], {
      'Audit-Id': 'my-own-id',
    });
    expect(refusal.status).toBe(404);
    expect(refusal.auditId).toBe('my-own-id');
    const events = await eventually(() => {
      const logged = loggedEvents().filter((event) => event.auditID === 'my-own-id');
      expect(logged.map((event) => event.stage)).toEqual(['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
      return logged;
    });
    expect(events[2]).toMatchObject({ responseStatus: { code: 404, reason: 'NotFound', message: 'pods "missing" not found' } });
  });
});
