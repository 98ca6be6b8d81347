/**
 * The proxy subresources on the wire: every HTTP method reaches the pod's server and its
 * answer comes back as it was (status, headers, body); the ids kube-apiserver accepts and
 * the errors of those it refuses; @kubernetes/client-node's proxy call; and authorization
 * (RBAC checks the `proxy` subresource with the verb of the request's method).
 */
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KINDS } from '../../controllers/runtime/kinds.js';
import { eventually } from '../support/eventually.js';
import { type RbacServer, startRbacServer } from '../support/rbac-server.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const nginxPod = (name: string, nodeName: string) =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { nodeName, containers: [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }] },
  }) as never;

describe('pods/proxy and nodes/proxy on the wire', () => {
  const cluster = useTestCluster({ lifetime: 'file', nodes: 1 });
  const proxyPath = '/api/v1/namespaces/default/pods/web/proxy';
  let podIP = '';

  beforeAll(async () => {
    const pods = cluster.client.resource(KINDS.pod);
    await pods.create(nginxPod('web', 'node-1'));
    // Bound to a node no kubelet runs: it stays Pending, without an IP.
    await pods.create(nginxPod('pending', 'node-9'));
    // Runs, then completes: it keeps its IP, but nothing listens there any more.
    const done = nginxPod('done', 'node-1') as { metadata: { annotations?: Record<string, string> }; spec: { restartPolicy?: string } };
    done.metadata.annotations = { 'kubesim.io/run-seconds': '0' };
    done.spec.restartPolicy = 'Never';
    await pods.create(done as never);
    await eventually(async () => expect((await pods.get('default', 'web')).status?.podIP).toBeTruthy(), { timeoutMs: 20_000 });
    podIP = (await pods.get('default', 'web')).status!.podIP!;
    await eventually(async () => expect((await fetch(`${cluster.url}${proxyPath}/`)).status).toBe(200), { timeoutMs: 20_000 });
  });

  it('HEAD, POST, PUT, DELETE and OPTIONS reach nginx, whose status and headers come back', async () => {
    const head = await fetch(`${cluster.url}${proxyPath}/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('server')).toBe('nginx/1.27.5');
    expect(await head.text()).toBe('');
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      const answer = await fetch(`${cluster.url}${proxyPath}/index.html?x=1`, { method, body: method === 'POST' || method === 'PUT' ? 'a body' : undefined });
      expect(answer.status).toBe(405);
      expect(await answer.text()).toContain('<title>405 Not Allowed</title>');
    }
  });

  it('the `path` parameter stands for a path after /proxy', async () => {
    const answer = await fetch(`${cluster.url}${proxyPath}?path=/index.html`);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('Served by pod <b>web</b>');
  });

  it('@kubernetes/client-node reads a page through pods/proxy', async () => {
    const kc = new KubeConfig();
    kc.loadFromString(cluster.kubeconfig);
    const page = await kc.makeApiClient(CoreV1Api).connectGetNamespacedPodProxyWithPath({ name: 'web:80', namespace: 'default', path: 'index.html' });
    expect(page).toContain('Served by pod <b>web</b>');
  });

  it('refuses what kube-apiserver refuses, with its Status', async () => {
    const status = async (path: string) => {
      const answer = await fetch(`${cluster.url}${path}`);
      return { code: answer.status, ...((await answer.json()) as { reason: string; message: string }) };
    };
    expect(await status('/api/v1/namespaces/default/pods/a:b:c:d/proxy/')).toMatchObject({ code: 400, message: 'invalid pod request "a:b:c:d"' });
    expect(await status('/api/v1/namespaces/default/pods/ftp:web:80/proxy/')).toMatchObject({ code: 400, message: 'invalid pod request "ftp:web:80"' });
    expect(await status('/api/v1/namespaces/default/pods/pending/proxy/')).toMatchObject({ code: 400, reason: 'BadRequest', message: 'address not allowed' });
    expect(await status('/api/v1/namespaces/default/pods/web:nosuch/proxy/')).toMatchObject({
      code: 503,
      reason: 'ServiceUnavailable',
      message: 'error trying to reach service: dial tcp: lookup tcp/nosuch: unknown port',
    });
    expect(await status('/api/v1/namespaces/default/pods/https:web:80/proxy/')).toMatchObject({
      code: 503,
      message: 'error trying to reach service: tls: first record does not look like a TLS handshake',
    });
    expect(await status('/api/v1/namespaces/default/services/ghost/proxy/')).toMatchObject({ code: 404, message: 'endpoints "ghost" not found' });
    expect(await status('/api/v1/nodes/node-1:9100/proxy/metrics')).toMatchObject({
      code: 503,
      message: 'error trying to reach service: dial tcp 127.0.0.1:9100: connect: connection refused',
    });
    expect(podIP).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  });

  it('a pod that is no longer running refuses the connection', async () => {
    const pods = cluster.client.resource(KINDS.pod);
    await eventually(async () => expect((await pods.get('default', 'done')).status?.phase).toBe('Succeeded'), { timeoutMs: 20_000 });
    const ip = (await pods.get('default', 'done')).status?.podIP;
    expect(ip).toBeTruthy();
    const answer = await fetch(`${cluster.url}/api/v1/namespaces/default/pods/done/proxy/`);
    expect(answer.status).toBe(503);
    expect(await answer.json()).toMatchObject({
      reason: 'ServiceUnavailable',
      message: `error trying to reach service: dial tcp ${ip}:80: connect: connection refused`,
    });
  });

  it('the query string goes through: the kubelet’s containerLogs honours tailLines', async () => {
    const logs = `${cluster.url}/api/v1/nodes/node-1/proxy/containerLogs/default/web/nginx`;
    const all = await (await fetch(logs)).text();
    expect(all.split('\n').length).toBeGreaterThan(2);
    expect(await (await fetch(`${logs}?tailLines=1`)).text()).toBe(`${all.trimEnd().split('\n').at(-1)}\n`);
  });

  it('a node proxy path the kubelet does not serve is its plain-text 404', async () => {
    const answer = await fetch(`${cluster.url}/api/v1/nodes/node-1/proxy/simulation/nodes`);
    expect(answer.status).toBe(404);
    expect(await answer.text()).toBe('404 page not found\n');
  });
});

describe('authorization of the proxy subresources', () => {
  const RBAC = 'rbac.authorization.k8s.io';
  let rbac: RbacServer;

  beforeAll(async () => {
    rbac = await startRbacServer();
    const post = (path: string, body: object) => rbac.as('admin', path, { method: 'POST', body });
    await post(`/apis/${RBAC}/v1/namespaces/default/roles`, {
      apiVersion: `${RBAC}/v1`,
      kind: 'Role',
      metadata: { name: 'proxy-get' },
      rules: [{ apiGroups: [''], resources: ['pods/proxy', 'services/proxy'], verbs: ['get'] }],
    });
    await post(`/apis/${RBAC}/v1/namespaces/default/rolebindings`, {
      apiVersion: `${RBAC}/v1`,
      kind: 'RoleBinding',
      metadata: { name: 'proxy-get' },
      roleRef: { apiGroup: RBAC, kind: 'Role', name: 'proxy-get' },
      subjects: [{ apiGroup: RBAC, kind: 'User', name: 'alice' }],
    });
  });
  afterAll(() => rbac?.close());

  it('checks the proxy subresource with the verb of each method', async () => {
    // Allowed: the request goes on to find the pod (which does not exist).
    await eventually(async () => expect((await rbac.as('alice', '/api/v1/namespaces/default/pods/web:80/proxy/x')).status).toBe(404));
    const verbs: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };
    for (const [method, verb] of Object.entries(verbs)) {
      const answer = await rbac.as('alice', '/api/v1/namespaces/default/services/web/proxy/x', { method });
      expect(answer.status).toBe(403);
      expect(answer.body.message).toBe(
        `services "web" is forbidden: User "alice" cannot ${verb} resource "services/proxy" in API group "" in the namespace "default"`,
      );
    }
    const bob = await rbac.as('bob', '/api/v1/nodes/node-1/proxy/healthz');
    expect(bob.status).toBe(403);
    expect(bob.body.message).toBe('nodes "node-1" is forbidden: User "bob" cannot get resource "nodes/proxy" in API group "" at the cluster scope');
  });
});
