/**
 * Whole-cluster snapshots over HTTP (/apis/kubesim.io/v1alpha1/snapshot): save, change the
 * cluster, restore — watchers see ordinary events at new resourceVersions, uids survive —
 * and bad snapshots are refused with a Status that names the problem, writing nothing. Also
 * `kubesim snapshot save|restore FILE` against the same server.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../cli/args.js';
import { snapshot } from '../../cli/commands/snapshot.js';
import { createCrd, cronTab, cronTabCrd } from '../support/crds.js';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http.js';
import { startTestCluster, type TestCluster } from '../support/test-cluster.js';
import { useTestCluster } from '../support/use-test-cluster.js';
import { openWatch } from '../support/watch-client.js';

const SNAPSHOT = '/apis/kubesim.io/v1alpha1/snapshot';
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

const configMap = (name: string, data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });

describe('cluster snapshots over HTTP', () => {
  const cluster = useTestCluster({ lifetime: 'file' });
  const url = (path: string) => `${cluster.url}${path}`;
  const save = async () => {
    const response = await request(url(SNAPSHOT));
    expect(response.status).toBe(200);
    return response.body;
  };
  const restore = (body: unknown) => request(url(`${SNAPSHOT}/restore`), { method: 'POST', body });
  const configMaps = async () => (await request(url(CONFIGMAPS))).body.items as Array<{ metadata: Record<string, string>; data: unknown }>;

  it('GET answers a ClusterSnapshot of every stored object at the current revision', async () => {
    await request(url(CONFIGMAPS), { method: 'POST', body: configMap('listed', { a: '1' }) });
    const list = await request(url(CONFIGMAPS));
    const snapshot = await save();
    expect(snapshot).toMatchObject({
      apiVersion: 'kubesim.io/v1alpha1',
      kind: 'ClusterSnapshot',
      formatVersion: 1,
      revision: Number(list.body.metadata.resourceVersion),
    });
    const keys = snapshot.objects.map((o: { resource: string; namespace: string; name: string }) => `${o.resource}/${o.namespace}/${o.name}`);
    expect(keys).toContain('configmaps/default/listed');
    expect(keys).toContain('namespaces//default');
    const listed = snapshot.objects.find((o: { name: string }) => o.name === 'listed');
    expect(listed.object).toEqual(list.body.items.find((i: { metadata: { name: string } }) => i.metadata.name === 'listed'));
  });

  it('POST restore puts the saved objects back by ordinary writes that watchers see', async () => {
    await request(url(CONFIGMAPS), { method: 'POST', body: configMap('kept', { v: '1' }) });
    await request(url(CONFIGMAPS), { method: 'POST', body: configMap('changed', { v: '1' }) });
    await request(url(CONFIGMAPS), { method: 'POST', body: configMap('removed', { v: '1' }) });
    const saved = await save();
    const before = await configMaps();
    await request(url(`${CONFIGMAPS}/changed`), { method: 'PUT', body: configMap('changed', { v: '2' }) });
    await request(url(`${CONFIGMAPS}/removed`), { method: 'DELETE' });
    await request(url(CONFIGMAPS), { method: 'POST', body: configMap('added', { v: '1' }) });
    const revision = Number((await request(url(CONFIGMAPS))).body.metadata.resourceVersion);
    const watch = await openWatch(url(`${CONFIGMAPS}?watch=true&resourceVersion=${revision}`));
    try {
      const response = await restore(saved);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        apiVersion: 'kubesim.io/v1alpha1',
        kind: 'SnapshotRestoreResult',
        created: 1,
        updated: 1,
        deleted: 1,
        revision: revision + 3,
      });
      const events = await watch.take(3);
      expect(events.map((e) => `${e.type} ${e.object.metadata.name}`).sort()).toEqual(['ADDED removed', 'DELETED added', 'MODIFIED changed']);
      expect(events.every((e) => Number(e.object.metadata.resourceVersion) > revision)).toBe(true);
    } finally {
      watch.close();
    }
    const after = await configMaps();
    const withoutVersion = (items: typeof before) => items.map((i) => ({ ...i, metadata: { ...i.metadata, resourceVersion: undefined } }));
    expect(withoutVersion(after)).toEqual(withoutVersion(before));
    const removedBefore = before.find((i) => i.metadata['name'] === 'removed');
    const removedAfter = after.find((i) => i.metadata['name'] === 'removed');
    expect(removedAfter?.metadata['uid']).toBe(removedBefore?.metadata['uid']);
    expect(after.find((i) => i.metadata['name'] === 'kept')).toEqual(before.find((i) => i.metadata['name'] === 'kept'));
    expect((await restore(saved)).body).toMatchObject({ created: 0, updated: 0, deleted: 0, revision: revision + 3 });
  });

  it('takes snapshots far larger than the 3 MiB limit of an object write', async () => {
    const saved = await save();
    const big = 'x'.repeat(900 * 1024);
    for (let i = 0; i < 5; i++) {
      const object = { ...configMap(`big-${i}`, { big }), metadata: { name: `big-${i}`, namespace: 'default', uid: `uid-big-${i}` } };
      saved.objects.push({ resource: 'configmaps', namespace: 'default', name: `big-${i}`, object });
    }
    const response = await restore(saved);
    expect(response.status).toBe(200);
    expect(response.body.created).toBe(5);
    expect((await request(url(`${CONFIGMAPS}/big-3`))).body.metadata.uid).toBe('uid-big-3');
  });

  it('refuses bad snapshots with a Status naming the problem and writes nothing', async () => {
    const saved = await save();
    const revision = saved.revision;
    const entry = saved.objects.find((o: { resource: string }) => o.resource === 'configmaps');
    const bad = (patch: Record<string, unknown>) => ({ ...saved, ...patch });
    const notJson = await request(url(`${SNAPSHOT}/restore`), { method: 'POST', raw: '{"kind": ' });
    expect(notJson.status).toBe(400);
    expect(notJson.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', message: expect.stringMatching(/not valid JSON/) });
    const wrongKind = await restore(bad({ kind: 'Pod' }));
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.message).toMatch(/kind/);
    const wrongFormat = await restore(bad({ formatVersion: 7 }));
    expect(wrongFormat.status).toBe(400);
    expect(wrongFormat.body.message).toMatch(/formatVersion/);

    const unknown = { ...entry, resource: 'widgets.example.com' };
    const renamed = { ...entry, name: 'other' };
    const clusterScoped = { ...saved.objects.find((o: { resource: string }) => o.resource === 'namespaces'), namespace: 'default' };
    const invalid = await restore(bad({ objects: [...saved.objects, unknown, renamed, clusterScoped, entry] }));
    expect(invalid.status).toBe(422);
    expect(invalid.body).toMatchObject({ kind: 'Status', reason: 'Invalid', code: 422 });
    const n = saved.objects.length;
    expect(invalid.body.details.causes.map((c: { field: string }) => c.field)).toEqual([
      `objects[${n}].resource`,
      `objects[${n + 1}].object.metadata.name`,
      `objects[${n + 2}].namespace`,
      `objects[${n + 2}].object.metadata.namespace`,
      `objects[${n + 3}]`,
    ]);
    expect(invalid.body.message).toMatch(/widgets\.example\.com.*not a stored resource/);
    expect((await save()).revision).toBe(revision);
  });
});

describe('snapshots with custom resources', () => {
  const clusters: TestCluster[] = [];
  afterAll(async () => {
    await Promise.all(clusters.map((c) => c.stop()));
  });

  it('restores a CRD and its custom resources into a cluster that never had them', async () => {
    const source = await startTestCluster();
    const target = await startTestCluster();
    clusters.push(source, target);
    const CRONTABS = '/apis/stable.example.com/v1/namespaces/default/crontabs';
    await createCrd(source.url, cronTabCrd());
    const created = await request(`${source.url}${CRONTABS}`, { method: 'POST', body: cronTab('nightly') });
    expect(created.status).toBe(201);
    const saved = (await request(`${source.url}${SNAPSHOT}`)).body;

    const orphaned = { ...saved, objects: saved.objects.filter((o: { resource: string }) => !o.resource.startsWith('customresourcedefinitions.')) };
    const refused = await request(`${target.url}${SNAPSHOT}/restore`, { method: 'POST', body: orphaned });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(/crontabs\.stable\.example\.com.*nor defined by a CustomResourceDefinition in the snapshot/);

    const restored = await request(`${target.url}${SNAPSHOT}/restore`, { method: 'POST', body: saved });
    expect(restored.status).toBe(200);
    const served = await eventually(async () => {
      const response = await request(`${target.url}${CRONTABS}/nightly`);
      if (response.status !== 200) throw new Error(`GET nightly: ${response.status}`);
      return response.body;
    });
    expect(served.metadata.uid).toBe(created.body.metadata.uid);
  });
});

describe('kubesim snapshot save|restore', () => {
  const cluster = useTestCluster({ lifetime: 'file' });
  const lines: string[] = [];
  const run = (...argv: string[]) => snapshot([...argv, '--kubeconfig', cluster.kubeconfigPath]);

  beforeAll(async () => {
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
  });
  afterAll(async () => {
    vi.restoreAllMocks();
  });

  it('saves the cluster to a file and restores it, printing counts', async () => {
    const file = join(cluster.dir, 'cluster.json');
    await request(`${cluster.url}${CONFIGMAPS}`, { method: 'POST', body: configMap('saved', { v: '1' }) });
    await run('save', file);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved).toMatchObject({ kind: 'ClusterSnapshot', formatVersion: 1 });
    expect(lines.pop()).toBe(`saved ${saved.objects.length} objects at revision ${saved.revision} to ${file}`);

    await request(`${cluster.url}${CONFIGMAPS}/saved`, { method: 'DELETE' });
    await request(`${cluster.url}${CONFIGMAPS}`, { method: 'POST', body: configMap('later', { v: '1' }) });
    await run('restore', file);
    expect(lines.pop()).toMatch(new RegExp(`^restored ${file}: 1 created, 0 updated, 1 deleted \\(now at revision \\d+\\)$`));
    const names = (await request(`${cluster.url}${CONFIGMAPS}`)).body.items.map((i: { metadata: { name: string } }) => i.metadata.name);
    expect(names).toContain('saved');
    expect(names).not.toContain('later');
  });

  it('reports a missing file, a bad file and a bad command line', async () => {
    await expect(run('restore', join(cluster.dir, 'absent.json'))).rejects.toThrow(/cannot read .*absent\.json: no such file/);
    const broken = join(cluster.dir, 'broken.json');
    writeFileSync(
      broken,
      JSON.stringify({
        apiVersion: 'kubesim.io/v1alpha1',
        kind: 'ClusterSnapshot',
        formatVersion: 1,
        revision: 1,
        objects: [{ resource: 'nope', namespace: '', name: 'x', object: { metadata: { name: 'x' } } }],
      }),
    );
    await expect(run('restore', broken)).rejects.toThrow(/objects\[0\]\.resource.*not a stored resource/);
    await expect(run('load', 'x.json')).rejects.toThrow(UsageError);
    await expect(run('save')).rejects.toThrow(UsageError);
  });
});
