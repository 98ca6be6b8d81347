/**
 * Deterministic mode in the API server: with the same seed, the same requests get the same
 * uids, generateName suffixes, cluster IPs and node ports (bootstrap objects included); a
 * different seed, or none, gives others.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createRandom, type Random } from '../../apiserver/api/machinery/random.js';
import { request } from '../support/http.js';
import { startTestCluster, type TestCluster } from '../support/test-cluster.js';

const clusters: TestCluster[] = [];
afterAll(async () => {
  await Promise.all(clusters.map((cluster) => cluster.stop()));
});

/** choices starts a cluster with `random`, makes the same requests every time and returns
 * every value the server chose. */
async function choices(random: Random | undefined) {
  const cluster = await startTestCluster({ random, metricsIntervalMs: 0 });
  clusters.push(cluster);
  const post = async (path: string, body: unknown) => {
    const response = await request(`${cluster.url}${path}`, { method: 'POST', body });
    expect(response.status).toBe(201);
    return response.body;
  };
  const namespace = await request(`${cluster.url}/api/v1/namespaces/default`);
  const configMaps = [];
  for (let i = 0; i < 3; i++) configMaps.push(await post('/api/v1/namespaces/default/configmaps', { metadata: { generateName: 'cm-' } }));
  const services = [];
  for (const type of ['ClusterIP', 'ClusterIP', 'NodePort']) {
    services.push(await post('/api/v1/namespaces/default/services', { metadata: { generateName: 'svc-' }, spec: { type, ports: [{ port: 80 }] } }));
  }
  return {
    namespaceUid: namespace.body.metadata.uid,
    configMaps: configMaps.map((cm) => [cm.metadata.name, cm.metadata.uid]),
    services: services.map((svc) => [svc.metadata.name, svc.metadata.uid, svc.spec.clusterIP, svc.spec.ports[0].nodePort]),
  };
}

describe('deterministic API server', () => {
  it('makes the same choices for the same seed and different ones for another seed', async () => {
    const first = await choices(createRandom(42).fork('apiserver'));
    expect(first.configMaps.every(([name]) => /^cm-[bcdfghjklmnpqrstvwxz2456789]{5}$/.test(name))).toBe(true);
    expect(first.services[2]?.[3]).toBeGreaterThanOrEqual(30000);
    expect(await choices(createRandom(42).fork('apiserver'))).toEqual(first);
    const other = await choices(createRandom(43).fork('apiserver'));
    expect(other.namespaceUid).not.toBe(first.namespaceUid);
    expect(other.configMaps.map(([name]) => name)).not.toEqual(first.configMaps.map(([name]) => name));
    expect(other.services.map((s) => s[2])).not.toEqual(first.services.map((s) => s[2]));
    const unseeded = await choices(undefined);
    expect(unseeded.namespaceUid).not.toBe(first.namespaceUid);
  });
});
