/**
 * Fault injection through real HTTP: rules posted to /apis/kubesim.io/v1alpha1/faults (or
 * added on server.faults) hit the requests they match — errors, latency, watch faults,
 * compaction — within their count, probability and expiry, and every hit is recorded.
 */

import { ApiException, CoreV1Api, KubeConfig, type V1ConfigMap } from '@kubernetes/client-node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ConfigMap, configMapDefinition } from '../../apiserver/api/core/config-map.js';
import { createRealClock } from '../../apiserver/api/machinery/clock.js';
import { createRandom } from '../../apiserver/api/machinery/random.js';
import { fault } from '../../cli/commands/fault.js';
import { createKubeClient } from '../../controllers/runtime/client/http-client.js';
import { createInformer } from '../../controllers/runtime/informer.js';
import { silentLogger } from '../../controllers/runtime/logger.js';
import { eventually } from '../support/eventually.js';
import { startTestCluster, type TestCluster, type TestClusterOptions } from '../support/test-cluster.js';
import { openWatch, type WatchStream } from '../support/watch-client.js';

const FAULTS = '/apis/kubesim.io/v1alpha1/faults';
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

let cluster: TestCluster | undefined;
const cleanups: Array<() => void | Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await cluster?.stop();
  cluster = undefined;
});

async function start(options: TestClusterOptions = {}): Promise<TestCluster> {
  cluster = await startTestCluster(options);
  return cluster;
}

/** call sends one JSON request with optional extra headers (User-Agent, Authorization). */
async function call(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { Accept: 'application/json', ...init.headers };
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${cluster!.url}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as any };
}

const configMap = (name: string, data: Record<string, string> = {}, namespace = 'default'): ConfigMap => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace },
  data,
});

async function createConfigMap(name: string, namespace = 'default'): Promise<ConfigMap> {
  const created = await call(`/api/v1/namespaces/${namespace}/configmaps`, { method: 'POST', body: configMap(name, {}, namespace) });
  expect(created.status).toBe(201);
  return created.body as ConfigMap;
}

async function addRule(rule: Record<string, unknown>): Promise<{ id: string }> {
  const added = await call(FAULTS, { method: 'POST', body: rule });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  return added.body as { id: string };
}

async function watchFrom(path: string): Promise<WatchStream> {
  const watch = await openWatch(`${cluster!.url}${path}`);
  cleanups.push(() => watch.close());
  return watch;
}

describe('fault rules over HTTP', () => {
  it('adds, lists, deletes and clears rules; 422 names a bad field', async () => {
    await start();
    const rule = await addRule({ verbs: ['update'], resource: 'deployments.apps', error: 409, count: 2 });
    expect(rule).toMatchObject({
      apiVersion: 'kubesim.io/v1alpha1',
      kind: 'FaultRule',
      id: 'fault-1',
      error: { code: 409 },
      count: 2,
      status: { fired: 0, active: true },
    });
    await addRule({ id: 'slow', latencyMs: 10, userAgent: 'kubectl' });
    const listed = await call(FAULTS);
    expect(listed.body).toMatchObject({ apiVersion: 'kubesim.io/v1alpha1', kind: 'FaultRuleList' });
    expect(listed.body.items.map((r: { id: string }) => r.id)).toEqual(['fault-1', 'slow']);

    const bad = await call(FAULTS, { method: 'POST', body: { verbs: ['updat'], error: 409 } });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ kind: 'Status', reason: 'Invalid', details: { causes: [{ field: 'verbs[0]' }] } });
    expect((await call(FAULTS, { method: 'POST', body: { id: 'slow', error: 500 } })).status).toBe(409);

    expect((await call(`${FAULTS}/slow`, { method: 'DELETE' })).body).toMatchObject({ kind: 'FaultRule', id: 'slow' });
    expect((await call(`${FAULTS}/slow`, { method: 'DELETE' })).body).toMatchObject({ kind: 'Status', code: 404, reason: 'NotFound' });
    expect((await call(FAULTS, { method: 'DELETE' })).status).toBe(200);
    expect((await call(FAULTS)).body.items).toEqual([]);
  });

  it('never injects into its own routes', async () => {
    await start();
    await addRule({ error: 500 });
    expect((await call('/api/v1/namespaces')).status).toBe(500);
    expect((await call(FAULTS)).status).toBe(200);
    expect((await call(`${FAULTS}/injected`)).status).toBe(200);
  });
});

describe('injected errors', () => {
  it('answers 409 to the second update only (count)', async () => {
    await start();
    const cm = await createConfigMap('a');
    const put = (value: string) =>
      call(`${CONFIGMAPS}/a?fieldManager=tester`, { method: 'PUT', body: { ...cm, metadata: { name: 'a', namespace: 'default' }, data: { v: value } } });
    expect((await put('1')).status).toBe(200);
    await addRule({ verbs: ['update'], resource: 'configmaps', fieldManager: 'tester', error: 409, count: 1 });
    const second = await put('2');
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({
      kind: 'Status',
      reason: 'Conflict',
      code: 409,
      message: expect.stringContaining('Operation cannot be fulfilled on configmaps "a"'),
    });
    expect((await put('3')).status).toBe(200);
    expect((await call(`${CONFIGMAPS}/a`)).body.data).toEqual({ v: '3' });
  });

  it('answers 429 with a Retry-After header and a TooManyRequests Status', async () => {
    await start();
    await addRule({ verbs: ['list'], resource: 'pods', error: { code: 429, retryAfterSeconds: 3 }, count: 1 });
    const throttled = await call('/api/v1/namespaces/default/pods');
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('3');
    expect(throttled.body).toMatchObject({ kind: 'Status', reason: 'TooManyRequests', code: 429, details: { retryAfterSeconds: 3 } });
    expect((await call('/api/v1/namespaces/default/pods')).status).toBe(200);
  });

  it('delays matching requests by latencyMs', async () => {
    await start();
    await createConfigMap('a');
    await addRule({ verbs: ['get'], userAgent: 'slow-client', latencyMs: 300 });
    const started = performance.now();
    expect((await call(`${CONFIGMAPS}/a`, { headers: { 'User-Agent': 'slow-client/1.0' } })).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
    expect((await call(`${CONFIGMAPS}/a`, { headers: { 'User-Agent': 'other/1.0' } })).status).toBe(200);
    expect(cluster!.server.faults.injected().map((f) => f.request.userAgent)).toEqual(['slow-client/1.0']);
  });

  it('hits the same requests for the same seed', async () => {
    await start();
    await createConfigMap('a');
    const codes = async () => {
      const out: number[] = [];
      for (let i = 0; i < 16; i++) out.push((await call(`${CONFIGMAPS}/a`)).status);
      return out;
    };
    await addRule({ id: 'coin', verbs: ['get'], error: 503, probability: 0.5, seed: 42 });
    const first = await codes();
    await call(`${FAULTS}/coin`, { method: 'DELETE' });
    await addRule({ id: 'coin', verbs: ['get'], error: 503, probability: 0.5, seed: 42 });
    expect(await codes()).toEqual(first);
    const draws = createRandom(42);
    expect(first).toEqual(first.map(() => (draws.next() < 0.5 ? 503 : 200)));
    expect(new Set(first)).toEqual(new Set([200, 503]));
  });

  it('stops when the cluster clock passes the expiry', async () => {
    let nowMs = Date.parse('2030-01-01T00:00:00Z');
    await start({ now: () => nowMs });
    const rule = await call(FAULTS, { method: 'POST', body: { verbs: ['list'], resource: 'configmaps', error: 500, ttlSeconds: 60 } });
    expect(rule.body.expiresAt).toBe('2030-01-01T00:01:00.000Z');
    expect((await call(CONFIGMAPS)).status).toBe(500);
    nowMs += 59_000;
    expect((await call(CONFIGMAPS)).status).toBe(500);
    nowMs += 1_000;
    expect((await call(CONFIGMAPS)).status).toBe(200);
    expect((await call(FAULTS)).body.items[0].status).toEqual({ fired: 2, active: false });
  });

  it('records every injected fault in the log', async () => {
    await start();
    await addRule({ id: 'boom', verbs: ['list'], error: 500, count: 1 });
    await call(CONFIGMAPS, { headers: { 'User-Agent': 'log-test/1', Authorization: 'Bearer alice' } });
    const log = await call(`${FAULTS}/injected`);
    expect(log.body).toEqual({
      apiVersion: 'kubesim.io/v1alpha1',
      kind: 'InjectedFaultList',
      items: [
        {
          ruleId: 'boom',
          time: expect.any(String),
          request: { method: 'GET', url: CONFIGMAPS, userAgent: 'log-test/1', user: 'alice', verb: 'list' },
          injected: [{ type: 'error', code: 500 }],
        },
      ],
    });
    await call(`${FAULTS}/injected`, { method: 'DELETE' });
    expect((await call(`${FAULTS}/injected`)).body.items).toEqual([]);
  });
});

describe('watch faults', () => {
  it('closes a watch after N events', async () => {
    await start();
    const { metadata } = (await call(CONFIGMAPS)).body;
    await addRule({ resource: 'configmaps', closeWatches: { open: false, afterEvents: 2 } });
    const watch = await watchFrom(`${CONFIGMAPS}?watch=1&resourceVersion=${metadata.resourceVersion}`);
    for (const name of ['a', 'b', 'c']) await createConfigMap(name);
    expect((await watch.rest()).map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED a', 'ADDED b']);
  });

  it('closes open watches; the informer re-watches and keeps up', async () => {
    const { url, server } = await start();
    const client = createKubeClient({ server: url, userAgent: 'faults-informer/1' });
    cleanups.push(() => client.close());
    const informer = createInformer<ConfigMap>({
      client: client.resource(configMapDefinition),
      namespace: 'default',
      clock: createRealClock(),
      logger: silentLogger,
    });
    const abort = new AbortController();
    const running = informer.start(abort.signal);
    cleanups.push(async () => {
      abort.abort();
      await running.catch(() => undefined);
    });
    await informer.waitForSync(abort.signal);
    const informerWatches = () => server.faults.openWatches().filter((w) => w.userAgent === 'faults-informer/1');
    await eventually(() => expect(informerWatches()).toHaveLength(1));

    await addRule({ userAgent: 'faults-informer', closeWatches: true });
    expect(server.faults.injected()).toEqual([
      expect.objectContaining({ injected: [{ type: 'closeWatch' }], request: expect.objectContaining({ verb: 'watch' }) }),
    ]);
    await createConfigMap('after-close');
    await eventually(() => expect(informer.lister.get('default', 'after-close')).toBeDefined());
    expect(informerWatches()).toHaveLength(1);
  });

  it('refuses a resume with the 410 Expired ERROR event', async () => {
    await start();
    const { metadata } = (await call(CONFIGMAPS)).body;
    await addRule({ resource: 'configmaps', refuseWatchResume: true, count: 1 });
    const refused = await watchFrom(`${CONFIGMAPS}?watch=1&resourceVersion=${metadata.resourceVersion}`);
    const events = await refused.rest();
    expect(events).toEqual([
      {
        type: 'ERROR',
        object: expect.objectContaining({
          kind: 'Status',
          code: 410,
          reason: 'Expired',
          message: expect.stringContaining(`too old resource version: ${metadata.resourceVersion}`),
        }),
      },
    ]);

    const resumed = await watchFrom(`${CONFIGMAPS}?watch=1&resourceVersion=${metadata.resourceVersion}`);
    await createConfigMap('a');
    expect((await resumed.next())?.type).toBe('ADDED');
  });

  it('withholds bookmarks from matching watches only', async () => {
    await start({ bookmarkIntervalMs: 20 });
    await call('/api/v1/namespaces', { method: 'POST', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'quiet' } } });
    await addRule({ namespace: 'quiet', withholdBookmarks: true });
    const quiet = await watchFrom('/api/v1/namespaces/quiet/configmaps?watch=1&allowWatchBookmarks=true&resourceVersion=1');
    const chatty = await watchFrom(`${CONFIGMAPS}?watch=1&allowWatchBookmarks=true&resourceVersion=1`);
    // The unaffected watch, opened after the quiet one, has had several bookmark intervals…
    expect((await chatty.take(3)).map((e) => e.type)).toEqual(['BOOKMARK', 'BOOKMARK', 'BOOKMARK']);
    // …in which the quiet one got none: its first event is the change made now.
    await createConfigMap('a', 'quiet');
    expect(await quiet.next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'a' } } });
  });

  it('compacts history now: a list at an older revision gets 410', async () => {
    const { server } = await start();
    await createConfigMap('a');
    const before = (await call(CONFIGMAPS)).body.metadata.resourceVersion as string;
    await createConfigMap('b');
    const exact = `${CONFIGMAPS}?resourceVersion=${before}&resourceVersionMatch=Exact`;
    expect((await call(exact)).status).toBe(200);
    await addRule({ verbs: ['list'], resource: 'configmaps', compact: true, count: 1 });
    const gone = await call(exact);
    expect(gone.status).toBe(410);
    expect(gone.body).toMatchObject({ kind: 'Status', reason: 'Expired', code: 410 });
    expect(server.store.compactedRevision).toBe(server.store.currentRevision);
  });
});

describe('@kubernetes/client-node', () => {
  it('sees the injected 409 and succeeds on retry', async () => {
    const { kubeconfig } = await start();
    const kc = new KubeConfig();
    kc.loadFromString(kubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'retried' }, data: { n: '0' } } });
    // The kubeconfig's token is "kubesim": kubesim takes the bearer token as the user name.
    await addRule({ user: 'kubesim', verbs: ['update'], resource: 'configmaps', error: 409, count: 1 });

    const conflicts: number[] = [];
    let updated: V1ConfigMap | undefined;
    for (let attempt = 0; attempt < 3 && !updated; attempt++) {
      const current = await core.readNamespacedConfigMap({ name: 'retried', namespace: 'default' });
      try {
        updated = await core.replaceNamespacedConfigMap({ name: 'retried', namespace: 'default', body: { ...current, data: { n: String(attempt + 1) } } });
      } catch (err) {
        if (!(err instanceof ApiException) || err.code !== 409) throw err;
        conflicts.push(err.code);
      }
    }
    expect(conflicts).toEqual([409]);
    expect(updated?.data).toEqual({ n: '2' });
    expect(cluster!.server.faults.injected()).toEqual([expect.objectContaining({ request: expect.objectContaining({ user: 'kubesim', verb: 'update' }) })]);
  });
});

describe('kubesim fault', () => {
  /** run runs the command in this process and returns what it printed. */
  async function run(...argv: string[]): Promise<string> {
    const printed: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void printed.push(String(line)));
    try {
      await fault([...argv, '--kubeconfig', cluster!.kubeconfigPath]);
    } finally {
      log.mockRestore();
    }
    return printed.join('\n');
  }

  it('adds, lists, shows injected faults, deletes and clears', async () => {
    await start();
    expect(await run('add', '--verb', 'list', '--resource', 'configmaps', '--error', '429', '--count', '2')).toBe(
      'fault-1 added: list configmaps → error 429 (count 2)',
    );
    expect(await run('add', '--latency', '200ms', '--user-agent', 'kubectl', '--id', 'slow')).toBe('slow added: ua~kubectl → latency 200ms');
    expect((await call(CONFIGMAPS)).status).toBe(429);
    const listed = (await run('list')).split('\n');
    expect(listed[0]).toMatch(/^ID +MATCH +FAULT +FIRED +STATE$/);
    expect(listed[1]).toMatch(/^fault-1 +list configmaps +error 429 \(count 2\) +1 +active$/);
    expect(listed[2]).toMatch(/^slow +ua~kubectl +latency 200ms +0 +active$/);
    expect((await run('injected')).split('\n')[1]).toMatch(new RegExp(`fault-1 +list ${CONFIGMAPS} .*error 429$`));
    expect(await run('delete', 'slow')).toBe('slow deleted');
    await expect(run('delete', 'slow')).rejects.toThrow('faults.kubesim.io "slow" not found');
    expect(await run('clear')).toBe('1 rule(s) deleted');
  });

  it("passes on the server's word for a bad rule", async () => {
    await start();
    await expect(run('add', '--verb', 'updat', '--error', '409')).rejects.toThrow(/verbs\[0\]: Unsupported value: "updat"/);
    await expect(run('add', '--error', '404')).rejects.toThrow(/error.code: Unsupported value: 404/);
  });
});
