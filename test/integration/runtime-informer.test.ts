/** controllers/runtime's informer against a real API server: initial sync, handlers, the
 * lister, re-watch after a dropped connection (nothing lost, no re-list), re-list after
 * compaction (the gap's deletes synthesised), resync, indexers and handler isolation. */
import { afterEach, describe, expect, it } from 'vitest';
import { type ConfigMap, configMapDefinition } from '../../apiserver/api/core/config-map.js';
import { createRealClock, FakeClock, isAbortError } from '../../apiserver/api/machinery/clock.js';
import { NetworkError } from '../../controllers/runtime/client/http-transport.js';
import { indexByOwnerUid, OWNER_UID_INDEX } from '../../controllers/runtime/indexers.js';
import { createInformer, type InformerOptions } from '../../controllers/runtime/informer.js';
import { silentLogger } from '../../controllers/runtime/logger.js';
import type { Clock, DeepReadonly, Informer, ListOptions, Logger, ResourceClient, WatchOptions } from '../../controllers/runtime/types.js';
import { eventually } from '../support/eventually.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const cluster = useTestCluster({ userAgent: 'runtime-informer-test' });
const stops: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

const configMaps = () => cluster.client.resource(configMapDefinition);
const cm = (name: string, extra: Partial<ConfigMap['metadata']> = {}): ConfigMap => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default', ...extra },
  data: { k: name },
});

/** GatedClient counts lists and watches, and can hold new watches back (gate closed) so a
 * test can change the world while the informer is disconnected. */
interface GatedClient {
  client: ResourceClient<ConfigMap>;
  lists: ListOptions[];
  watches: WatchOptions[];
  close(): void;
  open(): void;
  /** Makes the next watch fail as if the server could not be reached. */
  failNextWatch(): void;
}

function gated(inner: ResourceClient<ConfigMap>): GatedClient {
  let release: () => void = () => undefined;
  let gate = Promise.resolve();
  let failNext = false;
  const state: GatedClient = {
    failNextWatch: () => (failNext = true),
    lists: [],
    watches: [],
    close: () => (gate = new Promise((resolve) => (release = resolve))),
    open: () => release(),
    client: new Proxy(inner, {
      get(target, property) {
        if (property === 'list') {
          return (options: ListOptions) => {
            state.lists.push(options);
            return target.list(options);
          };
        }
        if (property === 'watch') {
          return (options: WatchOptions) => ({
            async *[Symbol.asyncIterator]() {
              state.watches.push(options);
              await gate;
              if (failNext) {
                failNext = false;
                throw new NetworkError('GET /watch: connect ECONNREFUSED', '/watch', { cause: new Error('ECONNREFUSED') });
              }
              yield* target.watch(options);
            },
          });
        }
        const value = Reflect.get(target, property) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }),
  };
  return state;
}

interface Recorder {
  informer: Informer<ConfigMap>;
  events: string[];
  updates: Array<{ old: DeepReadonly<ConfigMap>; cur: DeepReadonly<ConfigMap> }>;
  start(): Promise<void>;
}

function record(options: Partial<InformerOptions<ConfigMap>> & { client: ResourceClient<ConfigMap>; clock?: Clock; logger?: Logger }): Recorder {
  const informer = createInformer<ConfigMap>({ clock: createRealClock(), logger: silentLogger, namespace: 'default', ...options });
  const events: string[] = [];
  const updates: Recorder['updates'] = [];
  informer.addEventHandlers({
    onAdd: (o) => events.push(`add ${o.metadata.name}`),
    onUpdate: (old, cur) => {
      events.push(`update ${cur.metadata.name}`);
      updates.push({ old, cur });
    },
    onDelete: (o) => events.push(`delete ${o.metadata.name}`),
  });
  return {
    informer,
    events,
    updates,
    async start() {
      const abort = new AbortController();
      const done = informer.start(abort.signal);
      stops.push(async () => {
        abort.abort();
        await done;
      });
      await informer.waitForSync(abort.signal);
    },
  };
}

/** cacheMatchesServer waits until the lister holds exactly what the server lists. */
async function cacheMatchesServer(informer: Informer<ConfigMap>): Promise<void> {
  await eventually(async () => {
    const server = (await configMaps().list({ namespace: 'default' })).items.map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`);
    const cached = informer.lister.list('default').map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`);
    expect(cached.sort()).toEqual(server.sort());
  });
}

describe('informer', () => {
  it('syncs the initial list, then delivers adds, updates and deletes', async () => {
    await configMaps().create(cm('a'));
    await configMaps().create(cm('b'));
    const r = record({ client: configMaps() });
    expect(r.informer.hasSynced()).toBe(false);
    await r.start();
    expect(r.informer.hasSynced()).toBe(true);
    expect(r.events.sort()).toEqual(['add a', 'add b']);
    expect(r.informer.lister.get('default', 'a')?.data).toEqual({ k: 'a' });

    const a = await configMaps().get('default', 'a');
    await configMaps().create(cm('c'));
    await configMaps().update({ ...a, data: { k: 'changed' } });
    await configMaps().delete('default', 'b');
    await eventually(() => expect(r.events.slice(2)).toEqual(['add c', 'update a', 'delete b']));
    expect(r.updates[0]?.old.data).toEqual({ k: 'a' });
    expect(r.updates[0]?.cur.data).toEqual({ k: 'changed' });
    await cacheMatchesServer(r.informer);
  });

  it('re-watches from the last resourceVersion after the connection drops, losing nothing', async () => {
    await configMaps().create(cm('a'));
    const g = gated(configMaps());
    const r = record({ client: g.client });
    await r.start();
    // An event through the watch proves the stream is established before it is cut.
    await configMaps().create(cm('b'));
    await eventually(() => expect(r.events).toEqual(['add a', 'add b']));
    g.close();
    cluster.server.app.server.closeAllConnections();
    await eventually(() => expect(g.watches).toHaveLength(2));
    await configMaps().create(cm('c'));
    await configMaps().delete('default', 'a');
    g.open();
    await eventually(() => expect(r.events).toEqual(['add a', 'add b', 'add c', 'delete a']));
    expect(g.lists).toHaveLength(1);
    expect(Number(g.watches[1]?.resourceVersion)).toBeGreaterThanOrEqual(Number(g.watches[0]?.resourceVersion));
    await cacheMatchesServer(r.informer);
  });

  it('waits and re-watches, without re-listing, when a watch cannot reach the server', async () => {
    const g = gated(configMaps());
    const r = record({ client: g.client });
    await r.start();
    await configMaps().create(cm('a'));
    await eventually(() => expect(r.events).toEqual(['add a']));
    g.failNextWatch();
    cluster.server.app.server.closeAllConnections();
    await eventually(() => expect(g.watches).toHaveLength(3));
    await configMaps().create(cm('b'));
    await eventually(() => expect(r.events).toEqual(['add a', 'add b']));
    expect(g.lists).toHaveLength(1);
    expect(g.watches[2]?.resourceVersion).toBe(g.watches[1]?.resourceVersion);
  });

  it('re-lists after 410 Expired and synthesises what the gap hid', async () => {
    for (const name of ['a', 'b', 'c']) await configMaps().create(cm(name));
    const g = gated(configMaps());
    const r = record({ client: g.client });
    await r.start();
    await configMaps().create(cm('x'));
    await eventually(() => expect(r.events).toHaveLength(4));
    g.close();
    cluster.server.app.server.closeAllConnections();
    await eventually(() => expect(g.watches).toHaveLength(2));
    await configMaps().delete('default', 'a');
    await configMaps().patch('default', 'b', { data: { k: 'changed' } }, { type: 'merge' });
    await configMaps().create(cm('d'));
    cluster.server.store.compact({ keepRevisions: 0, maxAgeMs: 0 });
    g.open();
    await eventually(() => expect(g.lists).toHaveLength(2));
    await eventually(() => expect(r.events.slice(4).sort()).toEqual(['add d', 'delete a', 'update b']));
    // After a 410 the list asks for the latest state, not the expired revision.
    expect(g.lists[1]?.resourceVersion).toBeUndefined();
    expect(r.informer.lister.get('default', 'b')?.data).toEqual({ k: 'changed' });
    await cacheMatchesServer(r.informer);
  });

  it('resyncs every resyncMs of the injected clock with onUpdate(o, o)', async () => {
    await configMaps().create(cm('a'));
    await configMaps().create(cm('b'));
    const clock = new FakeClock(1_000_000);
    const r = record({ client: configMaps(), clock, resyncMs: 30_000 });
    await r.start();
    clock.advance(29_999);
    expect(r.updates).toEqual([]);
    clock.advance(1);
    expect(r.events.slice(2).sort()).toEqual(['update a', 'update b']);
    expect(r.updates.every(({ old, cur }) => old === cur)).toBe(true);
    clock.advance(30_000);
    expect(r.updates).toHaveLength(4);
  });

  it('indexes by owner uid and keeps the index current', async () => {
    const owner = (uid: string) => ({ ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `rs-${uid}`, uid }] });
    await configMaps().create(cm('a', owner('u1')));
    await configMaps().create(cm('b', owner('u1')));
    await configMaps().create(cm('c', owner('u2')));
    const r = record({ client: configMaps() });
    r.informer.addIndexer(OWNER_UID_INDEX, indexByOwnerUid);
    await r.start();
    const byOwner = (uid: string) =>
      r.informer.lister
        .byIndex(OWNER_UID_INDEX, uid)
        .map((o) => o.metadata.name)
        .sort();
    expect(byOwner('u1')).toEqual(['a', 'b']);
    await configMaps().delete('default', 'a');
    await configMaps().patch('default', 'c', { metadata: owner('u1') }, { type: 'merge' });
    await eventually(() => expect(byOwner('u1')).toEqual(['b', 'c']));
    expect(byOwner('u2')).toEqual([]);
    // An index added after start files what the cache already holds.
    r.informer.addIndexer('late', (object) => [object.metadata.name ?? '']);
    expect(r.informer.lister.byIndex('late', 'b').map((o) => o.metadata.name)).toEqual(['b']);
    expect(() => r.informer.addIndexer('late', () => [])).toThrow(/already exists/);
  });

  it('isolates a throwing handler, replays the cache to late handlers, and can freeze objects', async () => {
    await configMaps().create(cm('a'));
    const errors: string[] = [];
    const logger: Logger = { ...silentLogger, error: (_f, message) => errors.push(message), child: () => logger };
    const r = record({ client: configMaps(), logger, freezeObjects: true });
    r.informer.addEventHandlers({
      onAdd: () => {
        throw new Error('handler bug');
      },
    });
    await r.start();
    await configMaps().create(cm('b'));
    await eventually(() => expect(r.events).toEqual(['add a', 'add b']));
    expect(errors).toEqual(['event handler threw', 'event handler threw']);
    const late: string[] = [];
    r.informer.addEventHandlers({ onAdd: (o) => late.push(o.metadata.name ?? '') });
    expect(late.sort()).toEqual(['a', 'b']);
    const cached = r.informer.lister.get('default', 'a') as ConfigMap;
    expect(() => (cached.data!['k'] = 'mutated')).toThrow(TypeError);
  });

  it('rejects waitForSync when its signal aborts first', async () => {
    const g = gated(configMaps());
    const informer = createInformer<ConfigMap>({ client: g.client, clock: createRealClock(), logger: silentLogger });
    const abort = new AbortController();
    const waiting = informer.waitForSync(abort.signal).catch((err: unknown) => err);
    abort.abort();
    expect(isAbortError(await waiting)).toBe(true);
    expect(informer.hasSynced()).toBe(false);
  });
});
