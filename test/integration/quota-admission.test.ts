/**
 * ResourceQuota admission over real HTTP, without the resourcequota loop (so the test sets
 * the quota's status itself): a quota whose status is unknown refuses what it limits, a
 * create is charged to status.used at once, a dry run is checked but not charged, and a
 * create past the limit gets kube-apiserver's 403.
 */
import { describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const NS = '/api/v1/namespaces/default';
const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } });

describe('ResourceQuota admission', () => {
  const cluster = useTestCluster();
  const url = (path: string) => `${cluster.url}${NS}${path}`;
  const quota = async () => (await request(url('/resourcequotas/pods'))).body;

  it('refuses, charges and dry-runs pod creates against a pods quota', async () => {
    const created = await request(url('/resourcequotas'), {
      method: 'POST',
      body: { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'pods' }, spec: { hard: { pods: '1' } } },
    });
    expect(created.status).toBe(201);

    const unknown = await request(url('/pods'), { method: 'POST', body: pod('a') });
    expect(unknown.status).toBe(403);
    expect(unknown.body.message).toBe('pods "a" is forbidden: status unknown for quota: pods, resources: pods');
    // A configmap is not limited by it.
    expect((await request(url('/configmaps'), { method: 'POST', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } } })).status).toBe(201);

    const withStatus = { ...(await quota()), status: { hard: { pods: '1' }, used: { pods: '0' } } };
    expect((await request(url('/resourcequotas/pods/status'), { method: 'PUT', body: withStatus })).status).toBe(200);

    expect((await request(url('/pods?dryRun=All'), { method: 'POST', body: pod('a') })).status).toBe(201);
    expect((await quota()).status.used).toEqual({ pods: '0' });

    expect((await request(url('/pods'), { method: 'POST', body: pod('a') })).status).toBe(201);
    expect((await quota()).status.used).toEqual({ pods: '1' });

    const refused = await request(url('/pods'), { method: 'POST', body: pod('b') });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      code: 403,
      message: 'pods "b" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=1, limited: pods=1',
      details: { name: 'b', kind: 'pods' },
    });
  });

  it('refuses pods whose containers do not state the cpu or memory a quota limits', async () => {
    const body = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'compute' }, spec: { hard: { 'requests.memory': '1Gi', 'limits.cpu': '2' } } };
    expect((await request(url('/resourcequotas'), { method: 'POST', body })).status).toBe(201);
    const withInit = { ...pod('c'), spec: { ...pod('c').spec, initContainers: [{ name: 'init', image: 'busybox' }] } };
    const refused = await request(url('/pods'), { method: 'POST', body: withInit });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('pods "c" is forbidden: failed quota: compute: must specify limits.cpu for: app,init; requests.memory for: app,init');
  });
});
