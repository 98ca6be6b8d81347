/**
 * Deterministic mode (issue 8): with a seed and a virtual clock, two runs of the same scenario
 * produce the same history — every change, in the same order, at the same revision, with the
 * same uids, generated names, IPs, timestamps and node choices.
 */
import { describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from '../../cli/cluster/index.js';
import { request, trustKubeconfig } from '../support/http.js';
import { deployment, paths } from '../support/objects.js';

interface Change {
  revision: number;
  type: string;
  key: string;
  object: unknown;
  actor?: unknown;
}

/** withoutPorts replaces the listening ports (picked by the OS, the one thing a seed cannot fix)
 * with a placeholder. */
function withoutPorts(changes: Change[], ports: string[]): Change[] {
  let text = JSON.stringify(changes);
  for (const port of new Set(ports)) {
    text = text
      .replaceAll(`"Port":${port}`, '"Port":0')
      .replaceAll(`"targetPort":${port}`, '"targetPort":0')
      .replaceAll(`"port":${port}`, '"port":0')
      .replaceAll(`:${port}`, ':0');
  }
  return JSON.parse(text) as Change[];
}

/** withoutClusterCa replaces the cluster CA certificate (published in every namespace's
 * kube-root-ca.crt) with a placeholder: its key pair and ECDSA signature are random by nature,
 * which no seed fixes. */
function withoutClusterCa(changes: Change[], certPem: string): Change[] {
  return JSON.parse(JSON.stringify(changes).replaceAll(JSON.stringify(certPem).slice(1, -1), '<cluster CA certificate>')) as Change[];
}

async function scenario(seed: number): Promise<Change[]> {
  const cluster: Cluster = await startCluster({ seed, clock: 'virtual', startTime: '2031-05-01T08:00:00Z', nodes: 2 });
  trustKubeconfig(cluster.kubeconfig);
  try {
    const step = async (): Promise<void> => {
      await cluster.settle();
      await cluster.clock.advance(20_000);
      await cluster.settle();
    };
    expect((await request(`${cluster.url}${paths.deployments()}`, { method: 'POST', body: deployment('web', 3) })).status).toBe(201);
    await step();
    const scaled = await request(`${cluster.url}${paths.deployment('web')}`, {
      method: 'PATCH',
      body: { spec: { replicas: 5 } },
      contentType: 'application/merge-patch+json',
    });
    expect(scaled.status).toBe(200);
    await step();
    const pods = (await request(`${cluster.url}${paths.pods()}`)).body.items.map((p: any) => p.metadata.name).sort();
    expect(pods).toHaveLength(5);
    await request(`${cluster.url}${paths.pod(pods[0])}`, { method: 'DELETE' });
    await step();
    const nodes = (await request(`${cluster.url}/api/v1/nodes`)).body.items;
    const ports = [String(cluster.server.port), ...nodes.map((n: any) => String(n.status.daemonEndpoints.kubeletEndpoint.Port))];
    const changes = cluster.server.store.history().events.map((e) => ({
      revision: e.revision,
      type: e.type,
      key: `${e.ref.resource}/${e.ref.namespace}/${e.ref.name}`,
      object: e.object,
      actor: e.actor,
    }));
    return withoutClusterCa(withoutPorts(changes, ports), cluster.server.clusterCa.certPem);
  } finally {
    await cluster.stop();
  }
}

describe('deterministic mode', () => {
  it('gives identical histories for two runs with the same seed, and different ones for another seed', async () => {
    const first = await scenario(7);
    const second = await scenario(7);
    expect(first.length).toBeGreaterThan(50);
    // Compare keys first: a mismatch there is far easier to read than a whole-object diff.
    expect(second.map((c) => `${c.revision} ${c.type} ${c.key}`)).toEqual(first.map((c) => `${c.revision} ${c.type} ${c.key}`));
    expect(second).toEqual(first);
    const other = await scenario(8);
    const uids = (changes: Change[]) => changes.map((c) => (c.object as { metadata?: { uid?: string } }).metadata?.uid);
    expect(uids(other)).not.toEqual(uids(first));
  });
});
