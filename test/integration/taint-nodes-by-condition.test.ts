/**
 * TaintNodesByCondition over real HTTP: where the cluster runs the node lifecycle loop, a new
 * node is tainted not-ready:NoSchedule (once), and a simulated node that reports Ready has the
 * taint lifted by that loop, so the scheduler places pods on it; a bare server taints nothing.
 */
import { describe, expect, it } from 'vitest';
import type { Node } from '../../apiserver/api/core/node.js';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const NOT_READY = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };
const node = (name: string, taints?: unknown[]) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name }, ...(taints ? { spec: { taints } } : {}) });

describe('TaintNodesByCondition (node lifecycle loop in the cluster)', () => {
  const cluster = useTestCluster({ lifetime: 'file', clusterLoops: ['node-lifecycle'] });
  const post = (body: unknown) => request(`${cluster.url}/api/v1/nodes`, { method: 'POST', body });

  it('taints a new node not-ready:NoSchedule, beside its own taints, and only once', async () => {
    expect((await post(node('plain'))).body.spec.taints).toEqual([NOT_READY]);
    const gpu = { key: 'gpu', value: 'yes', effect: 'NoSchedule' };
    expect((await post(node('gpu', [gpu]))).body.spec.taints).toEqual([gpu, NOT_READY]);
    expect((await post(node('already', [NOT_READY]))).body.spec.taints).toEqual([NOT_READY]);
  });

  it('leaves a node update alone', async () => {
    const created = (await post(node('updated'))).body;
    const put = await request(`${cluster.url}/api/v1/nodes/updated`, { method: 'PUT', body: { ...created, spec: { taints: [] } } });
    expect(put.status).toBe(200);
    expect(put.body.spec.taints).toEqual([]);
  });
});

describe('TaintNodesByCondition with simulated nodes, the node lifecycle loop and the scheduler', () => {
  const cluster = useTestCluster({ lifetime: 'file', clusterLoops: ['node-lifecycle'], controllers: ['node-lifecycle'], nodes: 1, scheduler: true });

  it('lifts the taint once the node is Ready, and the pod is scheduled', async () => {
    await eventually(async () => {
      const [ready] = (await request(`${cluster.url}/api/v1/nodes`)).body.items as Node[];
      expect(ready?.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
      expect(ready?.spec?.taints ?? []).toEqual([]);
    });
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } };
    expect((await request(`${cluster.url}/api/v1/namespaces/default/pods`, { method: 'POST', body: pod })).status).toBe(201);
    await eventually(async () => expect((await request(`${cluster.url}/api/v1/namespaces/default/pods/p`)).body.spec.nodeName).toBeTruthy());
  });
});

describe('TaintNodesByCondition on a bare server (no node lifecycle loop)', () => {
  const cluster = useTestCluster({ lifetime: 'file' });

  it('taints nothing', async () => {
    const created = await request(`${cluster.url}/api/v1/nodes`, { method: 'POST', body: node('bare') });
    expect(created.status).toBe(201);
    expect(created.body.spec?.taints).toBeUndefined();
  });
});
