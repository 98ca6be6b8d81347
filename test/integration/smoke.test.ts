import { describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { useTestCluster } from '../support/use-test-cluster.js';

describe('test cluster', () => {
  const cluster = useTestCluster();

  it('serves the bootstrapped namespaces and the kubernetes service', async () => {
    const namespaces = await request(`${cluster.url}/api/v1/namespaces`);
    expect(namespaces.body.items.map((n: any) => n.metadata.name).sort()).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    const svc = await request(`${cluster.url}/api/v1/namespaces/default/services/kubernetes`);
    expect(svc.body.spec.clusterIP).toBe('10.96.0.1');
  });
});
