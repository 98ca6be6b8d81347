/**
 * No web page in the user's browser may change the cluster. Every mutating route — the
 * Kubernetes API's verbs and kubesim's own controls — is called the ways a page can call it
 * without the user's help: a simple cross-origin request (text/plain or form body, no
 * preflight), a Blob body with no Content-Type, and a same-origin-looking request through DNS
 * rebinding (Host: a name the attacker controls). Each is refused and changes nothing; the
 * same calls without those marks (kubectl's way) still work.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { startTestCluster, type TestCluster } from '../support/test-cluster.js';

const CM = '/api/v1/namespaces/default/configmaps';
const K = '/apis/kubesim.io/v1alpha1';

/** Every mutating route, with a body that would succeed from kubectl or `kubesim`. */
const ROUTES: Array<{ method: string; path: string; body?: unknown }> = [
  { method: 'POST', path: CM, body: { metadata: { name: 'from-a-page' } } },
  { method: 'PUT', path: `${CM}/target`, body: { metadata: { name: 'target' }, data: { k: 'page' } } },
  { method: 'PATCH', path: `${CM}/target`, body: { data: { k: 'page' } } },
  { method: 'DELETE', path: `${CM}/target` },
  { method: 'DELETE', path: CM },
  { method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name: 'page-ns' } } },
  { method: 'POST', path: `${K}/clock/pause` },
  { method: 'POST', path: `${K}/clock/resume` },
  { method: 'POST', path: `${K}/clock/speed`, body: { speed: 1000 } },
  { method: 'POST', path: `${K}/clock/advance`, body: { ms: 60_000 } },
  { method: 'POST', path: `${K}/reset` },
  { method: 'POST', path: `${K}/settle`, body: {} },
  { method: 'POST', path: `${K}/faults`, body: { verbs: ['get'], error: 500 } },
  { method: 'DELETE', path: `${K}/faults` },
  { method: 'POST', path: `${K}/snapshot/restore`, body: { apiVersion: 'kubesim.io/v1alpha1', kind: 'ClusterSnapshot', objects: [] } },
  { method: 'PUT', path: `${K}/activity/page`, body: { component: 'page', loops: [] } },
  { method: 'POST', path: `${K}/chaos`, body: { action: 'kill', target: 'replicaset' } },
  { method: 'POST', path: '/kubesim/v1/components/replicaset/stop' },
  { method: 'POST', path: '/kubesim/v1/shutdown' },
];

const EVIL = 'http://evil.example';

/** The ways a page calls a route: headers and body encoding as a browser would send them. */
const BROWSER_CALLS: Array<{ name: string; headers: (host: string) => Record<string, string>; encode: (body: unknown) => string | undefined }> = [
  {
    name: 'simple cross-origin text/plain',
    headers: () => ({ Origin: EVIL, 'Sec-Fetch-Site': 'cross-site', 'Content-Type': 'text/plain;charset=UTF-8' }),
    encode: (b) => (b === undefined ? undefined : JSON.stringify(b)),
  },
  {
    name: 'cross-origin form post',
    headers: () => ({ Origin: EVIL, 'Content-Type': 'application/x-www-form-urlencoded' }),
    encode: (b) => (b === undefined ? undefined : `${encodeURIComponent(JSON.stringify(b))}=`),
  },
  { name: 'cross-origin Blob without a type', headers: () => ({ Origin: EVIL }), encode: (b) => (b === undefined ? undefined : JSON.stringify(b)) },
  {
    name: 'cross-origin JSON (a preflight the server never allows)',
    headers: () => ({ Origin: EVIL, 'Content-Type': 'application/json' }),
    encode: (b) => (b === undefined ? undefined : JSON.stringify(b)),
  },
  {
    name: 'DNS rebinding',
    headers: (host) => ({ Host: `evil.example:${new URL(host).port}`, 'Content-Type': 'application/json' }),
    encode: (b) => (b === undefined ? undefined : JSON.stringify(b)),
  },
];

describe('web pages cannot change the cluster', () => {
  let cluster: TestCluster;
  const state = async () => ({
    revision: cluster.server.store.currentRevision,
    clock: (await request(`${cluster.url}${K}/clock`)).body.speed,
    paused: (await request(`${cluster.url}${K}/clock`)).body.paused,
    faults: (await request(`${cluster.url}${K}/faults`)).body,
  });

  beforeAll(async () => {
    cluster = await startTestCluster();
    await request(`${cluster.url}${CM}`, { method: 'POST', body: { metadata: { name: 'target' }, data: { k: 'v' } } });
    const web = {
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    };
    await request(`${cluster.url}/apis/apps/v1/namespaces/default/deployments`, { method: 'POST', body: web });
  });
  afterAll(() => cluster.stop());

  describe.each(BROWSER_CALLS)('$name', (call) => {
    it.each(ROUTES)('refuses $method $path', async (route) => {
      const before = await state();
      const body = call.encode(route.body);
      // undici will not send a custom Host header; node:http will, as a rebinding browser does.
      const response = await rawRequest(cluster.url, route.method, route.path, call.headers(cluster.url), body);
      expect([403, 415]).toContain(response.status);
      expect(JSON.parse(response.body)).toMatchObject({ kind: 'Status', status: 'Failure' });
      expect(await state()).toEqual(before);
    });
  });

  it('reads a PUT body without a Content-Type as JSON, as kube-apiserver does (kubectl scale sends one), but never a POST', async () => {
    const scale = (await request(`${cluster.url}/apis/apps/v1/namespaces/default/deployments/web/scale`)).body;
    const put = await rawRequest(
      cluster.url,
      'PUT',
      '/apis/apps/v1/namespaces/default/deployments/web/scale',
      {},
      JSON.stringify({ ...scale, spec: { replicas: 2 } }),
    );
    expect(put.status, put.body).toBe(200);
    const post = await rawRequest(cluster.url, 'POST', CM, {}, JSON.stringify({ metadata: { name: 'untyped' } }));
    expect(post.status).toBe(415);
  });

  it('still serves the same calls from kubectl-like clients, and reads from pages', async () => {
    const ok = await request(`${cluster.url}${CM}`, { method: 'POST', body: { metadata: { name: 'from-kubectl' } } });
    expect(ok.status).toBe(201);
    const read = await rawRequest(cluster.url, 'GET', `${CM}/target`, { Origin: EVIL, 'Sec-Fetch-Site': 'cross-site' });
    expect(read.status).toBe(200);
    const local = await rawRequest(cluster.url, 'GET', `${CM}/target`, { Host: `localhost:${new URL(cluster.url).port}` });
    expect(local.status).toBe(200);
  });
});

async function rawRequest(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: string }> {
  const { request: httpRequest } = await import('node:http');
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: hostname,
        port: Number(port),
        method,
        path,
        headers: body === undefined ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
