/**
 * Service allocation by the API server: cluster IPs from 10.96.0.0/12 without duplicates and
 * released on delete, headless and ExternalName services, requested IPs and node ports
 * checked (422 when taken or out of range), node ports allocated from 30000-32767.
 */
import { describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const SERVICES = '/api/v1/namespaces/default/services';

function service(name: string, spec: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { selector: { app: name }, ports: [{ port: 80 }], ...spec } };
}

describe('Service allocation', () => {
  const cluster = useTestCluster({ lifetime: 'file' });
  const create = (body: Record<string, unknown>) => request(`${cluster.url}${SERVICES}`, { method: 'POST', body });
  const remove = (name: string) => request(`${cluster.url}${SERVICES}/${name}`, { method: 'DELETE' });

  it('gives every Service its own cluster IP from the service CIDR', async () => {
    const ips: string[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await create(service(`s${i}`));
      expect(res.status).toBe(201);
      expect(res.body.spec.clusterIPs).toEqual([res.body.spec.clusterIP]);
      ips.push(res.body.spec.clusterIP);
    }
    for (const ip of ips) expect(ip).toMatch(/^10\.(9[6-9]|10[0-9]|11[01])\.\d+\.\d+$/);
    expect(new Set([...ips, '10.96.0.1']).size).toBe(ips.length + 1);
  });

  it('keeps the cluster IP on an update that omits it', async () => {
    const created = (await create(service('keep'))).body;
    const { clusterIP: _ip, clusterIPs: _ips, ...spec } = created.spec;
    const updated = await request(`${cluster.url}${SERVICES}/keep`, { method: 'PUT', body: { ...created, spec } });
    expect(updated.status).toBe(200);
    expect(updated.body.spec.clusterIP).toBe(created.spec.clusterIP);
  });

  it('makes clusterIP None a headless Service', async () => {
    const res = await create(service('headless', { clusterIP: 'None' }));
    expect(res.status).toBe(201);
    expect(res.body.spec).toMatchObject({ clusterIP: 'None', clusterIPs: ['None'] });
  });

  it('gives an ExternalName Service no cluster IP', async () => {
    const res = await create({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'ext' }, spec: { type: 'ExternalName', externalName: 'db.example.com' } });
    expect(res.status).toBe(201);
    expect(res.body.spec.clusterIP).toBeUndefined();
    expect(res.body.spec.externalName).toBe('db.example.com');
  });

  it('answers 422 for a requested cluster IP that is taken or outside the range', async () => {
    expect((await create(service('first', { clusterIP: '10.96.100.100' }))).status).toBe(201);
    const taken = await create(service('second', { clusterIP: '10.96.100.100' }));
    expect(taken.status).toBe(422);
    expect(taken.body.message).toContain('spec.clusterIPs: Invalid value: ');
    expect(taken.body.message).toContain('failed to allocate IP 10.96.100.100: provided IP is already allocated');
    const outside = await create(service('third', { clusterIP: '192.168.0.10' }));
    expect(outside.status).toBe(422);
    expect(outside.body.message).toContain('is not in the valid range. The range of valid IPs is 10.96.0.0/12');
    expect((await request(`${cluster.url}${SERVICES}/second`)).status).toBe(404);
  });

  it('releases a deleted Service’s IP: it can be requested again', async () => {
    expect((await create(service('reuse-a', { clusterIP: '10.96.200.1' }))).status).toBe(201);
    expect((await remove('reuse-a')).status).toBe(200);
    const again = await create(service('reuse-b', { clusterIP: '10.96.200.1' }));
    expect(again.status).toBe(201);
    expect(again.body.spec.clusterIP).toBe('10.96.200.1');
  });

  it('allocates distinct node ports in 30000-32767 for NodePort Services and keeps them on update', async () => {
    const res = await create(
      service('np', {
        type: 'NodePort',
        ports: [
          { name: 'http', port: 80 },
          { name: 'https', port: 443 },
        ],
      }),
    );
    expect(res.status).toBe(201);
    const ports: number[] = res.body.spec.ports.map((p: { nodePort: number }) => p.nodePort);
    for (const port of ports) expect(port).toSatisfy((p: number) => p >= 30000 && p <= 32767);
    expect(new Set(ports).size).toBe(2);
    const updated = await request(`${cluster.url}${SERVICES}/np`, { method: 'PUT', body: res.body });
    expect(updated.status).toBe(200);
    expect(updated.body.spec.ports.map((p: { nodePort: number }) => p.nodePort)).toEqual(ports);
  });

  it('answers 422 for a requested node port that is taken or outside the range, and frees it on delete', async () => {
    expect((await create(service('np-a', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }))).status).toBe(201);
    const taken = await create(service('np-b', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }));
    expect(taken.status).toBe(422);
    expect(taken.body.message).toContain('spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated');
    const outside = await create(service('np-c', { type: 'NodePort', ports: [{ port: 80, nodePort: 40000 }] }));
    expect(outside.status).toBe(422);
    expect(outside.body.message).toContain('provided port is not in the valid range. The range of valid ports is 30000-32767');
    await remove('np-a');
    expect((await create(service('np-b', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }))).status).toBe(201);
  });
});
