/**
 * The embeddable test API (issue 8): startCluster runs everything in this process; settle,
 * the virtual clock, reset and snapshots are what a controller author's tests use.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type Cluster, SettleTimeoutError, startCluster } from '../../cli/cluster/index.js';
import { fetchAs, request, trustKubeconfig } from '../support/http.js';
import { deployment, paths } from '../support/objects.js';

const clusters: Cluster[] = [];
async function start(options: Parameters<typeof startCluster>[0] = {}): Promise<Cluster> {
  const cluster = await startCluster(options);
  clusters.push(cluster);
  trustKubeconfig(cluster.kubeconfig);
  return cluster;
}
afterEach(async () => {
  await Promise.all(clusters.splice(0).map((c) => c.stop()));
});

async function pods(cluster: Cluster, ns = 'default'): Promise<any[]> {
  return (await request(`${cluster.url}${paths.pods(ns)}`)).body.items;
}

describe('startCluster', () => {
  it('runs the built-in loops: a Deployment has running pods once the cluster settles', async () => {
    const cluster = await start();
    expect((await request(`${cluster.url}${paths.deployments()}`, { method: 'POST', body: deployment('web', 3) })).status).toBe(201);
    await cluster.settle();
    const items = await pods(cluster);
    expect(items).toHaveLength(3);
    expect(items.every((p) => p.status.phase === 'Running' && p.spec.nodeName)).toBe(true);
    const kubeconfig = cluster.kubeconfig;
    expect(kubeconfig).toContain(cluster.url);
  });

  it('runs several clusters side by side, each with its own state', async () => {
    const [a, b] = await Promise.all([start({ nodes: 2 }), start({ controllers: 'none', scheduler: false, nodes: 0 })]);
    await request(`${a.url}${paths.deployments()}`, { method: 'POST', body: deployment('web', 2) });
    await request(`${b.url}${paths.deployments()}`, { method: 'POST', body: deployment('web', 2) });
    await Promise.all([a.settle(), b.settle()]);
    expect(await pods(a)).toHaveLength(2);
    // No loops in b: the Deployment stays a record; nothing acts on it.
    expect(await pods(b)).toHaveLength(0);
    expect((await request(`${b.url}/api/v1/nodes`)).body.items).toHaveLength(0);
    expect((await request(`${a.url}/api/v1/nodes`)).body.items).toHaveLength(2);
  });

  it("runs each loop as its own service account with serviceAccountCredentials; by default the loops share the controller manager's certificate", async () => {
    const only = { controllers: ['deployment', 'replicaset'] as const, scheduler: false, nodes: 0 };
    const [perLoop, shared] = await Promise.all([
      start({ ...only, controllers: [...only.controllers], serviceAccountCredentials: true }),
      start({ ...only, controllers: [...only.controllers] }),
    ]);
    const writerOfReplicaSet = async (cluster: Cluster) => {
      await request(`${cluster.url}${paths.deployments()}`, { method: 'POST', body: deployment('web', 1) });
      await cluster.settle();
      const added = cluster.server.store.history().events.find((e) => e.type === 'ADDED' && e.ref.resource === 'replicasets.apps');
      return JSON.stringify(added?.actor);
    };
    expect(await writerOfReplicaSet(perLoop)).toContain('system:serviceaccount:kube-system:deployment-controller');
    expect(await writerOfReplicaSet(shared)).toContain('system:kube-controller-manager');
    const accounts = (await request(`${perLoop.url}/api/v1/namespaces/kube-system/serviceaccounts`)).body.items.map((sa: any) => sa.metadata.name);
    expect(accounts).toEqual(expect.arrayContaining(['deployment-controller', 'replicaset-controller']));
  });

  it('rejects a bad option by name', async () => {
    await expect(startCluster({ nodes: -1 })).rejects.toThrow(/nodes must be/);
    await expect(startCluster({ controllers: ['replicaset', 'nope' as never] })).rejects.toThrow(/unknown controller\(s\) nope/);
    await expect(startCluster({ clock: { speed: 0 } })).rejects.toThrow(/clock.speed/);
  });

  it('settle names what is still busy when it times out', async () => {
    const cluster = await start({ nodes: 0, controllers: 'none', scheduler: false });
    cluster.faults.add({ verbs: ['create'], resource: 'configmaps', latencyMs: 400 });
    const slow = fetchAs(`${cluster.url}/api/v1/namespaces/default/configmaps`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'slow' } }),
    });
    const error = await cluster.settle({ timeoutMs: 100 }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(SettleTimeoutError);
    expect(String((error as Error).message)).toMatch(/still busy: apiserver \(1 request\(s\) in flight\)/);
    expect((await slow).status).toBe(201);
    await cluster.settle();
  });

  it('reset returns to the just-started state, and a second reset changes nothing', async () => {
    const cluster = await start();
    const before = cluster.snapshot();
    await request(`${cluster.url}${paths.namespaces()}`, { method: 'POST', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } } });
    await request(`${cluster.url}${paths.deployments('team-a')}`, { method: 'POST', body: deployment('api', 2) });
    await request(`${cluster.url}${paths.deployments()}`, { method: 'POST', body: deployment('web', 2) });
    await request(`${cluster.url}/api/v1/namespaces/default/services/kubernetes`, { method: 'DELETE' });
    await cluster.settle();
    expect(await pods(cluster, 'team-a')).toHaveLength(2);

    const result = await cluster.reset();
    expect(result.deleted).toBeGreaterThan(0);
    await cluster.settle();
    expect((await request(`${cluster.url}${paths.namespace('team-a')}`)).status).toBe(404);
    expect(await pods(cluster)).toHaveLength(0);
    expect((await request(`${cluster.url}/api/v1/namespaces/default/services/kubernetes`)).status).toBe(200);
    const keys = (s: ReturnType<Cluster['snapshot']>) => s.objects.filter((o) => o.resource !== 'events').map((o) => `${o.resource}/${o.namespace}/${o.name}`);
    expect(keys(cluster.snapshot())).toEqual(keys(before));
    const again = await cluster.reset();
    expect(again.created + again.updated + again.deleted).toBe(0);
  });

  it('snapshot and restore move the whole store, and the loops follow', async () => {
    const cluster = await start();
    await request(`${cluster.url}${paths.deployments()}`, { method: 'POST', body: deployment('web', 2) });
    await cluster.settle();
    const withWeb = cluster.snapshot();
    await request(`${cluster.url}${paths.deployment('web')}`, { method: 'DELETE' });
    await cluster.settle();
    expect(await pods(cluster)).toHaveLength(0);
    await cluster.restore(JSON.parse(JSON.stringify(withWeb)));
    expect((await request(`${cluster.url}${paths.deployment('web')}`)).status).toBe(200);
    expect(await pods(cluster)).toHaveLength(2);
  });
});

describe('startCluster with a virtual clock', () => {
  it('stands still until advanced; advance runs what falls due, in order', async () => {
    const cluster = await start({ clock: 'virtual', startTime: '2030-01-01T00:00:00Z' });
    expect(cluster.clock.now()).toBe(Date.parse('2030-01-01T00:00:00Z'));
    const cronJob = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'tick' },
      spec: {
        schedule: '*/5 * * * *',
        jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } },
      },
    };
    expect((await request(`${cluster.url}/apis/batch/v1/namespaces/default/cronjobs`, { method: 'POST', body: cronJob })).status).toBe(201);
    const created = (await request(`${cluster.url}/apis/batch/v1/namespaces/default/cronjobs/tick`)).body;
    expect(created.metadata.creationTimestamp).toBe('2030-01-01T00:00:00Z');
    await cluster.settle();
    const jobs = async () => (await request(`${cluster.url}/apis/batch/v1/namespaces/default/jobs`)).body.items.map((j: any) => j.metadata.name).sort();
    expect(await jobs()).toEqual([]);
    await cluster.clock.advance(11 * 60_000);
    await cluster.settle();
    const scheduled = Date.parse('2030-01-01T00:05:00Z') / 60_000;
    expect(await jobs()).toEqual([`tick-${scheduled}`, `tick-${scheduled + 5}`]);
  });
});
