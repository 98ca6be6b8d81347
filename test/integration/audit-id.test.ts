/**
 * Audit-Id on every response, as kube-apiserver's WithAuditInit gives it, with no audit policy
 * at all: a new UUID per request, or the client's own echoed; on a 401, on a watch, and seen
 * by kubectl.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fetchAs, request } from '../support/http.js';
import { requireKubectl, runKubectl } from '../support/kubectl.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const dir = mkdtempSync(join(tmpdir(), 'kubesim-audit-id-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('Audit-Id without an audit policy', () => {
  const cluster = useTestCluster({ lifetime: 'file', tls: true, security: { authorization: 'RBAC' } });

  it('is a new UUID on each response, or the one the client sent', async () => {
    const [first, second] = await Promise.all([request(`${cluster.url}/api/v1/namespaces`), request(`${cluster.url}/version`)]);
    expect(first.headers.get('audit-id')).toMatch(UUID);
    expect(second.headers.get('audit-id')).toMatch(UUID);
    expect(first.headers.get('audit-id')).not.toBe(second.headers.get('audit-id'));
    const own = await fetchAs(`${cluster.url}/api/v1/namespaces/default`, { headers: { 'Audit-Id': 'my-own-id' } });
    expect(own.headers.get('audit-id')).toBe('my-own-id');
  });

  it('is on a 401 and on a watch', async () => {
    const refused = await request(`${cluster.url}/api/v1/namespaces`, { tls: { ca: cluster.server.clusterCa.certPem }, token: 'not-a-token' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('audit-id')).toMatch(UUID);
    const stop = new AbortController();
    const watch = await fetchAs(`${cluster.url}/api/v1/namespaces?watch=true`, { signal: stop.signal });
    expect(watch.status).toBe(200);
    expect(watch.headers.get('audit-id')).toMatch(UUID);
    stop.abort();
    await watch.body?.cancel().catch(() => undefined);
  });

  it('reaches kubectl: its response headers show one', async () => {
    const result = await runKubectl(requireKubectl(), ['get', 'namespaces', '-v=8'], { kubeconfigPath: cluster.kubeconfigPath, cacheDir: join(dir, 'cache') });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/Audit-Id: [0-9a-f-]{36}/);
  });
});
