/** The watch protocol over real HTTP: synthetic initial events, resume from a list's
 * resourceVersion, selectors, bookmarks, watch-list, timeouts, 410 after compaction,
 * Table watches, and a watcher that never reads. */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http.js';
import { configMap, deployment, names, paths } from '../support/objects.js';
import { startTestCluster, type TestCluster, type TestClusterOptions } from '../support/test-cluster.js';
import { openWatch, type WatchEvent, type WatchStream } from '../support/watch-client.js';

const MERGE = 'application/merge-patch+json';
const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

describe('watch', () => {
  let cluster: TestCluster;
  const streams: WatchStream[] = [];
  const url = (path: string) => `${cluster.url}${path}`;

  async function start(options: TestClusterOptions = {}): Promise<void> {
    cluster = await startTestCluster(options);
  }
  async function watch(path: string, accept?: string): Promise<WatchStream> {
    const stream = await openWatch(url(path), { accept });
    streams.push(stream);
    return stream;
  }
  async function create(body: any, collection = paths.configmaps()): Promise<any> {
    const res = await request(url(collection), { method: 'POST', body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }
  const patchCm = (name: string, body: unknown) => request(url(paths.configmap(name)), { method: 'PATCH', body, contentType: MERGE });
  const summary = (events: WatchEvent[]) => events.map((e) => `${e.type} ${e.object.metadata.name}`);

  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    const stopping = cluster;
    cluster = undefined as unknown as TestCluster;
    await stopping?.stop();
  });

  it('without resourceVersion sends synthetic ADDED events for existing objects, then changes', async () => {
    await start();
    await create(configMap('b'));
    await create(configMap('a'));
    // What `kubectl events -w` sends: no resourceVersion, and a limit that a watch ignores.
    const stream = await watch(`${paths.configmaps()}?limit=1&watch=true`);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('application/json');
    expect(stream.headers.get('transfer-encoding')).toBe('chunked');
    const initial = await stream.take(2);
    expect(summary(initial)).toEqual(['ADDED a', 'ADDED b']);
    expect(initial[0]!.object).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', data: { k: 'v' } });

    await create(configMap('c'));
    await patchCm('a', { data: { k: 'changed' } });
    await request(url(paths.configmap('b')), { method: 'DELETE' });
    const live = await stream.take(3);
    expect(summary(live)).toEqual(['ADDED c', 'MODIFIED a', 'DELETED b']);
    expect(live[1]!.object.data).toEqual({ k: 'changed' });
  });

  it('from a list resourceVersion sends only later changes, in order, without duplicates', async () => {
    await start();
    await create(configMap('before'));
    const listed = await request(url(paths.configmaps()));
    const rv = listed.body.metadata.resourceVersion;
    await create(configMap('x'));
    await patchCm('before', { data: { k: '2' } });
    const stream = await watch(`${paths.configmaps()}?watch=true&resourceVersion=${rv}`);
    await patchCm('x', { data: { k: '3' } });
    await request(url(paths.configmap('before')), { method: 'DELETE' });
    const events = await stream.take(4);
    expect(summary(events)).toEqual(['ADDED x', 'MODIFIED before', 'MODIFIED x', 'DELETED before']);
    const versions = events.map((e) => Number(e.object.metadata.resourceVersion));
    expect(versions[0]).toBeGreaterThan(Number(rv));
    expect([...versions].sort((a, b) => a - b)).toEqual(versions);
    expect(new Set(versions).size).toBe(versions.length);
    for (const event of events) expect([event.object.kind, event.object.apiVersion]).toEqual(['ConfigMap', 'v1']);
  });

  it('DELETED carries the last state with a newer resourceVersion', async () => {
    await start();
    const created = await create(configMap('c', { app: 'x' }));
    const stream = await watch(`${paths.configmaps()}?watch=true&resourceVersion=${created.metadata.resourceVersion}`);
    await request(url(paths.configmap('c')), { method: 'DELETE' });
    const event = await stream.next();
    expect(event?.type).toBe('DELETED');
    expect(event?.object.metadata.labels).toEqual({ app: 'x' });
    expect(event?.object.metadata.uid).toBe(created.metadata.uid);
    expect(Number(event?.object.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
  });

  it('sees only its namespace on a namespaced path, every namespace on the cluster path', async () => {
    await start();
    const rv = cluster.server.store.currentRevision;
    const scoped = await watch(`${paths.configmaps()}?watch=true&resourceVersion=${rv}`);
    const all = await watch(`/api/v1/configmaps?watch=true&resourceVersion=${rv}`);
    await create(configMap('other'), paths.configmaps('kube-system'));
    await create(configMap('mine'));
    expect(summary([(await scoped.next())!])).toEqual(['ADDED mine']);
    expect(summary(await all.take(2))).toEqual(['ADDED other', 'ADDED mine']);
  });

  it('with a label selector sends DELETED when an object stops matching and ADDED when it starts', async () => {
    await start();
    const rv = cluster.server.store.currentRevision;
    const stream = await watch(`${paths.configmaps()}?watch=true&labelSelector=env%3Dprod&resourceVersion=${rv}`);
    await create(configMap('a', { env: 'prod' }));
    await create(configMap('b', { env: 'dev' }));
    await patchCm('a', { metadata: { labels: { env: 'dev' } } });
    await patchCm('b', { metadata: { labels: { env: 'prod' } } });
    await patchCm('b', { data: { k: 'new' } });
    await patchCm('a', { data: { k: 'unseen' } });
    await request(url(paths.configmap('b')), { method: 'DELETE' });
    await request(url(paths.configmap('a')), { method: 'DELETE' });
    await create(configMap('end', { env: 'prod' }));
    const events = await stream.take(6);
    expect(summary(events)).toEqual(['ADDED a', 'DELETED a', 'ADDED b', 'MODIFIED b', 'DELETED b', 'ADDED end']);
    expect(events[1]!.object.metadata.labels).toEqual({ env: 'dev' });
  });

  it('with fieldSelector metadata.name follows one object, as kubectl wait and rollout status do', async () => {
    await start();
    await create(deployment('web'), paths.deployments());
    const listed = await request(url(`${paths.deployments()}?fieldSelector=metadata.name%3Dweb&limit=500&resourceVersion=0`));
    expect(names(listed.body)).toEqual(['web']);
    const stream = await watch(
      `${paths.deployments()}?allowWatchBookmarks=true&fieldSelector=metadata.name%3Dweb&resourceVersion=${listed.body.metadata.resourceVersion}&timeoutSeconds=300&watch=true`,
    );
    await create(deployment('other'), paths.deployments());
    await request(url(paths.deployment('other')), { method: 'PATCH', body: { spec: { replicas: 5 } }, contentType: MERGE });
    await request(url(paths.deployment('web')), { method: 'PATCH', body: { spec: { replicas: 4 } }, contentType: MERGE });
    const event = await stream.next();
    expect(event?.type).toBe('MODIFIED');
    expect(event?.object.metadata.name).toBe('web');
    expect(event?.object.spec.replicas).toBe(4);
    expect(event?.object.metadata.generation).toBe(2);
  });

  it('sends BOOKMARK events with only metadata.resourceVersion when allowed, and none otherwise', async () => {
    await start({ bookmarkIntervalMs: 30 });
    const rv = cluster.server.store.currentRevision;
    const plain = await watch(`${paths.configmaps()}?watch=true&resourceVersion=${rv}`);
    const bookmarks = await watch(`${paths.configmaps()}?watch=true&allowWatchBookmarks=true&resourceVersion=${rv}`);
    const [first, second] = await bookmarks.take(2);
    expect(first).toEqual({ type: 'BOOKMARK', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: String(rv) } } });
    expect(second!.type).toBe('BOOKMARK');
    const created = await create(configMap('c'));
    // Two bookmark intervals have passed: a watch without allowWatchBookmarks got none.
    const next = await plain.next();
    expect(next?.type).toBe('ADDED');
    const afterWrite = await eventually(async () => {
      const event = await bookmarks.next();
      if (event?.type !== 'BOOKMARK' || event.object.metadata.resourceVersion !== created.metadata.resourceVersion) throw new Error('not yet');
      return event;
    });
    expect(afterWrite.object.metadata).toEqual({ resourceVersion: created.metadata.resourceVersion });
  });

  it('sendInitialEvents=true sends the initial ADDEDs, then a BOOKMARK marking their end', async () => {
    await start();
    await create(configMap('a'));
    await create(configMap('b'));
    const listRevision = cluster.server.store.currentRevision;
    const stream = await watch(
      `${paths.configmaps()}?watch=true&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&resourceVersion=`,
    );
    const events = await stream.take(3);
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'ADDED', 'BOOKMARK']);
    expect(events[2]!.object).toEqual({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { resourceVersion: String(listRevision), annotations: { 'k8s.io/initial-events-end': 'true' } },
    });
    await create(configMap('c'));
    expect(summary([(await stream.next())!])).toEqual(['ADDED c']);
  });

  it('timeoutSeconds ends the stream cleanly', async () => {
    await start();
    await create(configMap('a'));
    const startedAt = Date.now();
    const stream = await watch(`${paths.configmaps()}?watch=true&timeoutSeconds=1`);
    const events = await stream.rest(5_000);
    expect(summary(events)).toEqual(['ADDED a']);
    const elapsed = Date.now() - startedAt;
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(5_000);
  });

  it('sends a BOOKMARK shortly before timeoutSeconds ends a watch that allows them, as the watch cache does', async () => {
    await start(); // The periodic bookmark interval (10 s) is far longer than this watch.
    await create(configMap('a'));
    const revision = cluster.server.store.currentRevision;
    const stream = await watch(`${paths.configmaps()}?watch=true&allowWatchBookmarks=true&timeoutSeconds=3`);
    const events = await stream.rest(10_000);
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK']);
    expect(events[1]!.object).toEqual({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: String(revision) } });

    const withoutBookmarks = await watch(`${paths.configmaps()}?watch=true&timeoutSeconds=3`);
    expect(summary(await withoutBookmarks.rest(10_000))).toEqual(['ADDED a']);
  });

  it.each(['True', '1', 't'])('parses watch=%s leniently', async (value) => {
    await start();
    await create(configMap('a'));
    const stream = await watch(`${paths.configmaps()}?watch=${value}&allowWatchBookmarks=${value}`);
    expect(summary([(await stream.next())!])).toEqual(['ADDED a']);
  });

  it('watch=false is a plain list; a bad boolean is a 400', async () => {
    await start();
    const list = await request(url(`${paths.configmaps()}?watch=false`));
    expect(list.body.kind).toBe('ConfigMapList');
    const bad = await request(url(`${paths.configmaps()}?watch=yes`));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('invalid boolean value for parameter watch: "yes"');
  });

  it('serves the legacy /watch/ prefix', async () => {
    await start();
    await create(configMap('a'));
    const stream = await watch('/api/v1/watch/namespaces/default/configmaps');
    expect(summary([(await stream.next())!])).toEqual(['ADDED a']);
  });

  it('serves the legacy /watch/ prefix on a named object', async () => {
    await start();
    await create(configMap('a'));
    await create(configMap('b'));
    const stream = await watch('/api/v1/watch/namespaces/default/configmaps/b');
    expect(stream.headers.get('transfer-encoding')).toBe('chunked');
    expect(summary([(await stream.next())!])).toEqual(['ADDED b']);
    await patchCm('a', { data: { k: '1' } });
    await patchCm('b', { data: { k: '2' } });
    expect(summary([(await stream.next())!])).toEqual(['MODIFIED b']);
    const mismatch = await request(url('/api/v1/watch/namespaces/default/configmaps/b?fieldSelector=metadata.name%3Da'));
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.message).toBe("fieldSelector metadata.name doesn't match requested name");
    expect((await request(url('/api/v1/watch/namespaces/default/pods/p/status'))).status).toBe(404);
  });

  it('after compaction, a watch from an old resourceVersion gets HTTP 200 and one ERROR 410 event, then the end', async () => {
    await start();
    const old = (await create(configMap('a'))).metadata.resourceVersion;
    await create(configMap('b'));
    const compacted = cluster.server.store.compact({ keepRevisions: 0, maxAgeMs: 0 });
    expect(compacted).toBeGreaterThan(Number(old));
    const stream = await watch(`${paths.configmaps()}?watch=true&resourceVersion=${old}`);
    expect(stream.status).toBe(200);
    const events = await stream.rest();
    expect(events).toEqual([
      {
        type: 'ERROR',
        object: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: `too old resource version: ${old} (${compacted})`,
          reason: 'Expired',
          code: 410,
        },
      },
    ]);
  });

  it('answers a Status instead of a stream for a bad selector or a resourceVersion from the future', async () => {
    await start();
    const badSelector = await request(url(`${paths.configmaps()}?watch=true&fieldSelector=spec.x%3D1`));
    expect(badSelector.status).toBe(400);
    expect(badSelector.body.message).toBe('field label not supported: spec.x');
    const future = cluster.server.store.currentRevision + 50;
    const tooLarge = await request(url(`${paths.configmaps()}?watch=true&resourceVersion=${future}`));
    expect(tooLarge.status).toBe(504);
    expect(tooLarge.body.details.causes[0].reason).toBe('ResourceVersionTooLarge');
  });

  it('ends open watch streams when the server stops', async () => {
    await start();
    const stream = await watch(`${paths.configmaps()}?watch=true&resourceVersion=${cluster.server.store.currentRevision}`);
    const stopping = cluster;
    cluster = undefined as unknown as TestCluster;
    await stopping.stop();
    await stream.ended;
    expect(await stream.next(100)).toBeUndefined();
  });

  it('converts events to the watched version (autoscaling/v1 watch of an HPA written as v2)', async () => {
    await start();
    const rv = cluster.server.store.currentRevision;
    const v1 = await watch(`/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers?watch=true&resourceVersion=${rv}`);
    const hpa = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        maxReplicas: 3,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
      },
    };
    await create(hpa, '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers');
    const event = await v1.next();
    expect(event?.type).toBe('ADDED');
    expect(event?.object.apiVersion).toBe('autoscaling/v1');
    expect(event?.object.spec.targetCPUUtilizationPercentage).toBe(70);
    expect(event?.object.spec.metrics).toBeUndefined();
  });

  it('a Table watch carries column definitions only in the first event', async () => {
    await start();
    await create(deployment('api'), paths.deployments());
    await create(deployment('web'), paths.deployments());
    const stream = await watch(`${paths.deployments()}?watch=true`, TABLE_ACCEPT);
    const [first, second] = await stream.take(2);
    expect(first!.type).toBe('ADDED');
    expect(first!.object.kind).toBe('Table');
    expect(first!.object.columnDefinitions.map((c: any) => c.name)).toEqual([
      'Name',
      'Ready',
      'Up-to-date',
      'Available',
      'Age',
      'Containers',
      'Images',
      'Selector',
    ]);
    expect(first!.object.rows).toHaveLength(1);
    expect(first!.object.rows[0].cells[0]).toBe('api');
    expect(first!.object.rows[0].object.kind).toBe('PartialObjectMetadata');
    expect(second!.object.columnDefinitions).toEqual([]);
    expect(second!.object.rows[0].cells[0]).toBe('web');
    await request(url(paths.deployment('web')), { method: 'PATCH', body: { spec: { replicas: 7 } }, contentType: MERGE });
    const modified = await stream.next();
    expect(modified?.type).toBe('MODIFIED');
    expect(modified?.object.columnDefinitions).toEqual([]);
    expect(modified?.object.rows[0].cells.slice(0, 2)).toEqual(['web', '0/7']);
    expect(modified?.object.metadata.resourceVersion).toEqual(expect.any(String));
  });

  it('watchers of one change each get their own view: selector, event type, version, Table or JSON', async () => {
    await start();
    const rv = cluster.server.store.currentRevision;
    const at = `watch=true&resourceVersion=${rv}`;
    const all = await watch(`${paths.configmaps()}?${at}`);
    const prod = await watch(`${paths.configmaps()}?${at}&labelSelector=env%3Dprod`);
    const dev = await watch(`${paths.configmaps()}?${at}&labelSelector=env%3Ddev`);
    const table = await watch(`${paths.configmaps()}?${at}`, TABLE_ACCEPT);
    await create(configMap('a', { env: 'prod' }));
    await patchCm('a', { metadata: { labels: { env: 'dev' } } });
    expect(summary(await all.take(2))).toEqual(['ADDED a', 'MODIFIED a']);
    expect(summary(await prod.take(2))).toEqual(['ADDED a', 'DELETED a']);
    const [entered] = await dev.take(1);
    expect(summary([entered!])).toEqual(['ADDED a']);
    expect(entered!.object).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { labels: { env: 'dev' } } });
    const rows = await table.take(2);
    expect(rows.map((e) => [e.type, e.object.kind, e.object.columnDefinitions.length > 0, e.object.rows[0].cells[0]])).toEqual([
      ['ADDED', 'Table', true, 'a'],
      ['MODIFIED', 'Table', false, 'a'],
    ]);

    const hpaPath = (version: string) => `/apis/autoscaling/${version}/namespaces/default/horizontalpodautoscalers`;
    const hpaRv = cluster.server.store.currentRevision;
    const v1 = await watch(`${hpaPath('v1')}?watch=true&resourceVersion=${hpaRv}`);
    const v2 = await watch(`${hpaPath('v2')}?watch=true&resourceVersion=${hpaRv}`);
    const target = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
    await create(
      { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' }, spec: { scaleTargetRef: target, maxReplicas: 3 } },
      hpaPath('v1'),
    );
    expect((await v1.next())?.object.apiVersion).toBe('autoscaling/v1');
    expect((await v2.next())?.object.apiVersion).toBe('autoscaling/v2');
  });

  /** stalledWatch sends a watch request on a raw socket that then stops reading. */
  async function stalledWatch(path: string) {
    const { port } = new URL(cluster.url);
    const socket = connect({ host: '127.0.0.1', port: Number(port) });
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.pause();
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\nConnection: close\r\n\r\n`);
    return {
      socket,
      /** Reads again and resolves with everything received once the server closes the connection. */
      async drain(timeoutMs: number): Promise<string> {
        socket.resume();
        const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the stalled watch was never ended')), timeoutMs).unref());
        await Promise.race([closed, timeout]);
        return Buffer.concat(received).toString('utf8');
      },
    };
  }

  it('cuts off a watcher that never reads without blocking writers or other watchers', async () => {
    await start({ watchBufferSize: 8 });
    const rv = cluster.server.store.currentRevision;
    const healthy = await watch(`${paths.configmaps()}?watch=true&resourceVersion=${rv}`);
    const stalled = await stalledWatch(`${paths.configmaps()}?watch=true&resourceVersion=${rv}`);
    try {
      const count = 80;
      const payload = 'x'.repeat(256 * 1024);
      const nameOf = (i: number) => `big-${String(i).padStart(3, '0')}`;
      for (let i = 0; i < count; i++) {
        const startedAt = Date.now();
        const res = await request(url(paths.configmaps()), { method: 'POST', body: configMap(nameOf(i), {}, { payload }) });
        expect(res.status).toBe(201);
        expect(Date.now() - startedAt).toBeLessThan(5_000);
      }
      // The reading watcher got everything.
      const events = await healthy.take(count, 10_000);
      expect(events.map((e) => e.object.metadata.name)).toEqual(Array.from({ length: count }, (_, i) => nameOf(i)));

      // The stalled one was cut off: once it reads again it gets a partial stream that ends.
      const raw = await stalled.drain(5_000);
      expect(raw.startsWith('HTTP/1.1 200')).toBe(true);
      const delivered = raw.split('"type":"ADDED"').length - 1;
      expect(delivered).toBeLessThan(count);
      expect(raw.endsWith('0\r\n\r\n')).toBe(true);
    } finally {
      stalled.socket.destroy();
    }
  });
});
