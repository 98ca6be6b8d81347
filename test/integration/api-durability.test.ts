/** Durability with a data dir: objects, history and the revision counter survive a restart,
 * and bootstrap on reopen changes nothing but the API server's address (a new port). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../apiserver/start-api-server.js';
import { request } from '../support/http.js';
import { configMap, deployment, names, paths } from '../support/objects.js';
import { openWatch } from '../support/watch-client.js';

const MERGE = 'application/merge-patch+json';

describe('durability across restarts', () => {
  let dir: string;
  let dataDir: string;
  let server: RunningApiServer | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubesim-durability-'));
    dataDir = join(dir, 'data');
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  async function boot(): Promise<RunningApiServer> {
    server = await startApiServer({ dataDir, host: '127.0.0.1', port: 0 });
    return server;
  }
  async function restart(): Promise<RunningApiServer> {
    await server?.close();
    server = undefined;
    return boot();
  }
  const url = (path: string) => `${server!.url}${path}`;
  async function write(method: string, path: string, body?: unknown, contentType?: string): Promise<any> {
    const res = await request(url(path), { method, body, contentType });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    return res.body;
  }

  /** changesSince lists the objects written after `revision` (resource/namespace/name, sorted). */
  const changesSince = (revision: number) =>
    [...new Set(server!.store.history({ afterRevision: revision }).events.map((e) => `${e.ref.resource}/${e.ref.namespace}/${e.ref.name}`))].sort();
  /** What a restart on another port (port 0 picks a new one) rewrites: the API server's address
   * in the `kubernetes` Service and its endpoints. */
  const PORT_FOLLOWERS = ['endpoints/default/kubernetes', 'endpointslices.discovery.k8s.io/default/kubernetes', 'services/default/kubernetes'];

  it('keeps objects, and never reuses a resourceVersion, even after a trailing delete', async () => {
    await boot();
    const versions: number[] = [];
    const created = await write('POST', paths.deployments(), deployment('web'));
    versions.push(Number(created.metadata.resourceVersion));
    const patched = await write('PATCH', paths.deployment('web'), { spec: { replicas: 4 } }, MERGE);
    versions.push(Number(patched.metadata.resourceVersion));
    versions.push(Number((await write('POST', paths.configmaps(), configMap('keep'))).metadata.resourceVersion));
    await write('POST', paths.configmaps(), configMap('gone'));
    await write('DELETE', paths.configmap('gone'));
    const lastRevision = server!.store.currentRevision;
    versions.push(lastRevision);
    const before = (await request(url(paths.deployment('web')))).body;

    await restart();
    expect(changesSince(lastRevision)).toEqual(PORT_FOLLOWERS);
    const reopened = server!.store.currentRevision;
    expect(reopened).toBe(lastRevision + PORT_FOLLOWERS.length);
    const after = await request(url(paths.deployment('web')));
    expect(after.status).toBe(200);
    expect(after.body).toEqual(before);
    expect(after.body.spec.replicas).toBe(4);
    expect(after.body.metadata.generation).toBe(2);
    expect(names((await request(url(paths.configmaps()))).body)).toEqual(['keep']);
    expect((await request(url(paths.configmap('gone')))).status).toBe(404);

    const next = await write('POST', paths.configmaps(), configMap('new'));
    expect(Number(next.metadata.resourceVersion)).toBe(reopened + 1);
    versions.push(Number(next.metadata.resourceVersion));
    const again = await write('PATCH', paths.deployment('web'), { spec: { replicas: 5 } }, MERGE);
    versions.push(Number(again.metadata.resourceVersion));
    expect(again.metadata.generation).toBe(3);
    expect([...versions].sort((a, b) => a - b)).toEqual(versions);
    expect(new Set(versions).size).toBe(versions.length);
  });

  it('bootstrap is idempotent on reopen', async () => {
    await boot();
    const namespacesBefore = (await request(url(paths.namespaces()))).body;
    const serviceBefore = (await request(url('/api/v1/namespaces/default/services/kubernetes'))).body;
    const revision = server!.store.currentRevision;

    await restart();
    expect(changesSince(revision)).toEqual(PORT_FOLLOWERS);
    const namespacesAfter = (await request(url(paths.namespaces()))).body;
    expect(namespacesAfter.items).toEqual(namespacesBefore.items);
    expect(names(namespacesAfter)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    const serviceAfter = (await request(url('/api/v1/namespaces/default/services/kubernetes'))).body;
    expect(serviceAfter.metadata.uid).toBe(serviceBefore.metadata.uid);
    expect(serviceAfter.spec.clusterIP).toBe('10.96.0.1');

    const again = server!.store.currentRevision;
    await restart();
    expect(changesSince(again)).toEqual(PORT_FOLLOWERS);
  });

  it('keeps history: a watch or an Exact list from before the restart still works', async () => {
    await boot();
    const first = await write('POST', paths.configmaps(), configMap('a', {}, { v: '1' }));
    const rv = first.metadata.resourceVersion;
    await write('PATCH', paths.configmap('a'), { data: { v: '2' } }, MERGE);
    await write('POST', paths.configmaps(), configMap('b'));

    await restart();
    const past = await request(url(`${paths.configmaps()}?resourceVersion=${rv}&resourceVersionMatch=Exact`));
    expect(past.status).toBe(200);
    expect(past.body.items.map((i: any) => [i.metadata.name, i.data.v])).toEqual([['a', '1']]);

    const stream = await openWatch(url(`${paths.configmaps()}?watch=true&resourceVersion=${rv}`));
    try {
      const replayed = await stream.take(2);
      expect(replayed.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['MODIFIED a', 'ADDED b']);
      await write('DELETE', paths.configmap('b'));
      const live = await stream.next();
      expect(live?.type).toBe('DELETED');
      expect(Number(live?.object.metadata.resourceVersion)).toBe(server!.store.currentRevision);
    } finally {
      stream.close();
    }
  });

  it('keeps the compacted revision: a watch from before it still gets 410', async () => {
    await boot();
    const old = (await write('POST', paths.configmaps(), configMap('a'))).metadata.resourceVersion;
    await write('POST', paths.configmaps(), configMap('b'));
    const compacted = server!.store.compact({ keepRevisions: 0, maxAgeMs: 0 });

    await restart();
    expect(server!.store.compactedRevision).toBe(compacted);
    const res = await request(url(`${paths.configmaps()}?resourceVersion=${old}&resourceVersionMatch=Exact`));
    expect(res.status).toBe(410);
    expect(res.body.message).toBe(`too old resource version: ${old} (${compacted})`);
  });
});
