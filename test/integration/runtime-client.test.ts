/** controllers/runtime's HTTP client against a real API server: CRUD, patches, scale and
 * status, typed errors rebuilt from Status bodies, and the streaming watch (order, 410,
 * abort, undecodable frames, plain HTTP errors). */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isAlreadyExists, isConflict, isExpired, isInvalid, isNotFound } from '../../apiserver/api/api-error.js';
import { type Deployment, deploymentDefinition } from '../../apiserver/api/apps/deployment.js';
import { type ConfigMap, configMapDefinition } from '../../apiserver/api/core/config-map.js';
import { namespaceDefinition } from '../../apiserver/api/core/namespace.js';
import { createKubeClient, type KubeClient } from '../../controllers/runtime/client/http-client.js';
import { isNetworkError } from '../../controllers/runtime/client/http-transport.js';
import { loadKubeconfig } from '../../controllers/runtime/client/kubeconfig.js';
import { WatchDecodeError } from '../../controllers/runtime/client/watch-stream.js';
import { silentLogger } from '../../controllers/runtime/logger.js';
import type { Logger, WatchEvent } from '../../controllers/runtime/types.js';
import { configMap, deployment } from '../support/objects.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const cluster = useTestCluster();
let client: KubeClient;
const servers: Server[] = [];

beforeEach(() => {
  // This client reads the cluster's kubeconfig, as a controller process does.
  const { server, token } = loadKubeconfig(cluster.kubeconfigPath);
  client = createKubeClient({ server, token, userAgent: 'runtime-client-test/0.1' });
  cluster.defer(() => client.close());
});

afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

const cm = (name: string, data: Record<string, string> = { k: 'v' }): ConfigMap => ({
  ...configMap(name, { app: 'test' }, data),
  metadata: { name, namespace: 'default', labels: { app: 'test' } },
});

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('resource client', () => {
  it('creates, gets, lists, updates and deletes', async () => {
    const configMaps = client.resource(configMapDefinition);
    const created = await configMaps.create(cm('a'));
    expect(created.metadata).toMatchObject({ name: 'a', namespace: 'default' });
    expect((await configMaps.get('default', 'a')).data).toEqual({ k: 'v' });
    await configMaps.create(cm('b'));
    const list = await configMaps.list({ namespace: 'default', labelSelector: 'app=test' });
    expect(list.items.map((item) => item.metadata.name)).toEqual(['a', 'b']);
    expect(Number(list.metadata.resourceVersion)).toBeGreaterThan(0);
    const updated = await configMaps.update({ ...created, data: { k: 'new' } });
    expect(updated.data).toEqual({ k: 'new' });
    expect(await configMaps.delete('default', 'a')).toBeUndefined();
    expect(isNotFound(await caught(configMaps.get('default', 'a')))).toBe(true);
  });

  it('rebuilds typed errors from Status bodies', async () => {
    const configMaps = client.resource(configMapDefinition);
    const created = await configMaps.create(cm('a'));
    await configMaps.update({ ...created, data: { k: 'first' } });
    const stale = await caught(configMaps.update({ ...created, data: { k: 'second' } }));
    expect(isConflict(stale)).toBe(true);
    expect((stale as Error).message).toContain('the object has been modified');
    expect(isAlreadyExists(await caught(configMaps.create(cm('a'))))).toBe(true);
    const notFound = await caught(configMaps.delete('default', 'missing'));
    expect(isNotFound(notFound)).toBe(true);
    expect((notFound as Error).message).toBe('configmaps "missing" not found');
    const deployments = client.resource(deploymentDefinition);
    const bad = { ...deployment('bad', -1), metadata: { name: 'bad', namespace: 'default' } } as Deployment;
    expect(isInvalid(await caught(deployments.create(bad)))).toBe(true);
  });

  it('sends the four patch types', async () => {
    const configMaps = client.resource(configMapDefinition);
    await configMaps.create(cm('p', { a: '1' }));
    expect((await configMaps.patch('default', 'p', { data: { b: '2' } }, { type: 'merge' })).data).toEqual({ a: '1', b: '2' });
    expect((await configMaps.patch('default', 'p', [{ op: 'remove', path: '/data/a' }], { type: 'json' })).data).toEqual({ b: '2' });
    expect((await configMaps.patch('default', 'p', { data: { c: '3' } }, { type: 'strategic' })).data).toEqual({ b: '2', c: '3' });
    const applied = await configMaps.patch(
      'default',
      'p',
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p' }, data: { d: '4' } },
      { type: 'apply', fieldManager: 'tester', force: true },
    );
    expect(applied.data).toMatchObject({ d: '4' });
  });

  it('reads and writes /scale and /status of a deployment', async () => {
    const deployments = client.resource(deploymentDefinition);
    const created = await deployments.create({
      ...deployment('web', 2),
      metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
    } as Deployment);
    const scale = await deployments.getScale('default', 'web');
    expect(scale).toMatchObject({ kind: 'Scale', spec: { replicas: 2 }, status: { selector: 'app=web' } });
    expect((await deployments.updateScale('default', 'web', { ...scale, spec: { replicas: 5 } })).spec.replicas).toBe(5);
    const current = await deployments.get('default', 'web');
    expect(current.spec?.replicas).toBe(5);
    const withStatus = await deployments.updateStatus({ ...current, status: { ...current.status, replicas: 3, observedGeneration: 2 } });
    expect(withStatus.status?.replicas).toBe(3);
    expect(created.metadata.uid).toBe(withStatus.metadata.uid);
  });

  it('addresses cluster-scoped kinds and resolves kinds through forKind', async () => {
    const namespaces = await client.forKind('v1', 'Namespace');
    expect(namespaces.definition).toBe(namespaceDefinition);
    await namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
    expect((await namespaces.get('', 'team-a')).metadata.name).toBe('team-a');
    // Namespaces linger while their finalizer runs: delete returns the object, not a Status.
    expect((await namespaces.delete('', 'team-a'))?.metadata.name).toBe('team-a');
    await expect(client.forKind('example.com/v1', 'Widget')).rejects.toThrow(/no resource definition/);
  });

  it('sends an idempotent request again when its keep-alive socket was closed by the server', async () => {
    const configMaps = client.resource(configMapDefinition);
    await configMaps.create(cm('a'));
    for (let i = 0; i < 5; i++) {
      cluster.server.app.server.closeAllConnections();
      expect((await configMaps.get('default', 'a')).metadata.name).toBe('a');
    }
  });

  it('wraps network errors with the URL', async () => {
    const dead = createKubeClient({ server: 'http://127.0.0.1:1', userAgent: 'test' });
    const err = await caught(dead.resource(configMapDefinition).get('default', 'x'));
    expect(isNetworkError(err)).toBe(true);
    expect((err as Error).message).toContain('GET http://127.0.0.1:1/api/v1/namespaces/default/configmaps/x');
    dead.close();
  });
});

describe('watch stream', () => {
  const summary = (events: WatchEvent<{ metadata: { name?: string } }>[]) => events.map((e) => `${e.type} ${e.object.metadata.name ?? ''}`);

  async function take<T>(iterable: AsyncIterable<WatchEvent<T>>, count: number): Promise<WatchEvent<T>[]> {
    const events: WatchEvent<T>[] = [];
    if (count === 0) return events;
    for await (const event of iterable) {
      events.push(event);
      if (events.length === count) break;
    }
    return events;
  }

  it('yields changes after a resourceVersion, in order', async () => {
    const configMaps = client.resource(configMapDefinition);
    const { metadata } = await configMaps.list({ namespace: 'default' });
    const abort = new AbortController();
    const events = take(configMaps.watch({ namespace: 'default', resourceVersion: metadata.resourceVersion, signal: abort.signal }), 4);
    const a = await configMaps.create(cm('a'));
    await configMaps.create(cm('b'));
    await configMaps.update({ ...a, data: { k: 'changed' } });
    await configMaps.delete('default', 'b');
    expect(summary(await events)).toEqual(['ADDED a', 'ADDED b', 'MODIFIED a', 'DELETED b']);
    abort.abort();
  });

  it('ends when the signal aborts, and when the server drops the connection', async () => {
    const configMaps = client.resource(configMapDefinition);
    await configMaps.create(cm('x'));
    for (const stop of ['abort', 'drop'] as const) {
      const abort = new AbortController();
      // Without a resourceVersion the stream starts with a synthetic ADDED: proof it is open.
      const iterator = configMaps.watch({ namespace: 'default', signal: abort.signal })[Symbol.asyncIterator]();
      expect((await iterator.next()).value).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'x' } } });
      if (stop === 'abort') abort.abort();
      else cluster.server.app.server.closeAllConnections();
      expect(await iterator.next()).toEqual({ done: true, value: undefined });
    }
  });

  it('yields the ERROR event of a compacted resourceVersion', async () => {
    const configMaps = client.resource(configMapDefinition);
    const old = (await configMaps.create(cm('a'))).metadata.resourceVersion;
    await configMaps.create(cm('b'));
    cluster.server.store.compact({ keepRevisions: 0, maxAgeMs: 0 });
    const events = await take(configMaps.watch({ namespace: 'default', resourceVersion: old }), 1);
    expect(events[0]).toMatchObject({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired' } });
  });

  /** fakeServer answers every request with `respond`, for what a real server never sends. */
  async function fakeServer(respond: Parameters<typeof createServer>[1]): Promise<KubeClient> {
    const server = createServer(respond);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return createKubeClient({ server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, userAgent: 'test', logger: recording.logger });
  }

  const recording = { errors: [] as string[], logger: undefined as unknown as Logger };
  recording.logger = { ...silentLogger, error: (_fields, message) => recording.errors.push(message), child: () => recording.logger };

  it('throws the ApiError of a plain HTTP 410 answer', async () => {
    const fake = await fakeServer((_req, res) => {
      res.writeHead(410, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410, message: 'too old' }));
    });
    expect(isExpired(await caught(take(fake.resource(configMapDefinition).watch({ resourceVersion: '1' }), 1)))).toBe(true);
    fake.close();
  });

  it('splits frames cut across chunks, and ends with a logged error on an undecodable line', async () => {
    const fake = await fakeServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"type":"ADDED","object":{"metadata":{"na');
      res.write('me":"a"}}}\n{"type":"ADDED","obj');
      setImmediate(() => res.end('ect":{"metadata":{"name":"b"}}}\nnot json\n'));
    });
    const seen: string[] = [];
    const err = await caught(
      (async () => {
        for await (const event of fake.resource(configMapDefinition).watch({})) seen.push(event.object.metadata.name ?? '');
      })(),
    );
    expect(seen).toEqual(['a', 'b']);
    expect(err).toBeInstanceOf(WatchDecodeError);
    expect(recording.errors).toContain('undecodable watch frame; closing the watch');
    fake.close();
  });
});
