/** The controller builder against a real API server and the real manager, informers, queue
 * and controller: which events enqueue which keys (for, owns, watches, predicates, hooks),
 * shared informers with their indexers, and the controller it registers. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ConfigMap, configMapDefinition } from '../../apiserver/api/core/config-map.js';
import { type Secret, secretDefinition } from '../../apiserver/api/core/secret.js';
import { createRealClock } from '../../apiserver/api/machinery/clock.js';
import type { OwnerReference } from '../../apiserver/api/meta.js';
import { eventually } from '../../test/support/eventually.js';
import { startTestCluster, type TestCluster } from '../../test/support/test-cluster.js';
import { ignoreDeletes, newControllerManagedBy } from './builder.js';
import { createKubeClient, type KubeClient } from './client/http-client.js';
import { indexByOwnerUid, OWNER_UID_INDEX } from './indexers.js';
import { silentLogger } from './logger.js';
import { createManager, type Manager } from './manager.js';
import type { Reconciler } from './types.js';

let cluster: TestCluster;
let client: KubeClient;
const stops: Array<() => Promise<unknown>> = [];

beforeEach(async () => {
  cluster = await startTestCluster();
  client = createKubeClient({ server: cluster.url, userAgent: 'runtime-builder-test' });
});

afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
  client.close();
  await cluster.stop();
});

function manager(): Manager {
  return createManager({ client, clock: createRealClock(), logger: silentLogger, component: 'builder-test' });
}

function start(m: Manager): void {
  const abort = new AbortController();
  const done = m.start(abort.signal).catch((err: unknown) => err);
  stops.push(async () => {
    abort.abort();
    await done;
  });
}

/** recording is a reconciler that only remembers which keys it was asked to reconcile. */
function recording(): Reconciler & { keys: string[] } {
  const keys: string[] = [];
  return {
    keys,
    reconcile: async (request) => {
      keys.push(`${request.namespace}/${request.name}`);
      return {};
    },
  };
}

const cm = (name: string): ConfigMap => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } });
const owner = (name: string, extra: Partial<OwnerReference> = {}): OwnerReference => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  name,
  uid: `uid-${name}`,
  controller: true,
  ...extra,
});
const secret = (name: string, ownerReferences: OwnerReference[] = [], labels: Record<string, string> = {}): Secret => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: 'default', ownerReferences, labels },
});

describe('controller builder', () => {
  it('enqueues the primary, the controlling owner of an owned object, and nothing for foreign owners', async () => {
    const m = manager();
    const reconciler = recording();
    const seen: Array<{ name: string; keys: readonly string[] }> = [];
    const controller = newControllerManagedBy(m)
      .named('config-maps')
      .for(configMapDefinition)
      .owns(secretDefinition, {
        hooks: {
          onAdd: (object, keys) => void seen.push({ name: object.metadata.name ?? '', keys }),
          onUpdate: (_old, object, keys) => void seen.push({ name: object.metadata.name ?? '', keys }),
        },
      })
      .complete(() => reconciler);
    expect(controller.name).toBe('config-maps');
    start(m);
    await client.resource(configMapDefinition).create(cm('a'));
    await eventually(() => expect(reconciler.keys).toEqual(['default/a']));

    const secrets = client.resource(secretDefinition);
    await secrets.create(secret('not-controller', [owner('a', { controller: false })]));
    await secrets.create(secret('other-group', [owner('a', { apiVersion: 'example.com/v1' })]));
    await secrets.create(secret('other-kind', [owner('a', { kind: 'Secret' })]));
    await secrets.create(secret('owned', [owner('a')]));
    await eventually(() => expect(seen.map((s) => s.name)).toEqual(['not-controller', 'other-group', 'other-kind', 'owned']));
    expect(seen.map((s) => s.keys)).toEqual([[], [], [], ['default/a']]);
    await eventually(() => expect(reconciler.keys).toEqual(['default/a', 'default/a']));

    // A new controller reference wakes both the former owner and the new one.
    const owned = await secrets.get('default', 'owned');
    await secrets.update({ ...owned, metadata: { ...owned.metadata, ownerReferences: [owner('b')] } });
    await eventually(() => expect(seen.at(-1)).toEqual({ name: 'owned', keys: ['default/a', 'default/b'] }));
    await eventually(() => expect(reconciler.keys.slice(2).sort()).toEqual(['default/a', 'default/b']));
  });

  it('maps watched objects through the given function (not on resyncs), filters with predicates, and shares indexed informers', async () => {
    const m = manager();
    const reconciler = recording();
    const events: string[] = [];
    const resyncKeys: number[] = [];
    newControllerManagedBy(m)
      .named('by-label')
      .for(configMapDefinition, {
        predicates: ignoreDeletes,
        hooks: { onDelete: (object, keys) => void events.push(`delete ${object.metadata.name} → ${keys.length}`) },
      })
      .watches(secretDefinition, (s) => (s.metadata.labels?.['wakes'] ? [`default/${s.metadata.labels['wakes']}`] : []), {
        informer: { namespace: 'default', resyncMs: 50 },
        hooks: { onUpdate: (old, cur, keys) => void (old === cur && resyncKeys.push(keys.length)) },
      })
      .withIndexer(secretDefinition, OWNER_UID_INDEX, indexByOwnerUid, { informer: { namespace: 'default' } })
      .workers(1)
      .complete(({ lister }) => {
        const secretLister = lister(secretDefinition, { namespace: 'default' });
        return {
          reconcile: async (request, signal) => {
            events.push(`owned by uid-${request.name}: ${secretLister.byIndex(OWNER_UID_INDEX, `uid-${request.name}`).length}`);
            return reconciler.reconcile(request, signal);
          },
        };
      });
    // The builder used the manager's shared informer, indexer included: the same function
    // under the same name is shared, another function under that name is refused.
    const shared = m.informer(secretDefinition, { namespace: 'default' });
    expect(() => shared.addIndexer(OWNER_UID_INDEX, indexByOwnerUid)).not.toThrow();
    expect(() => shared.addIndexer(OWNER_UID_INDEX, () => [])).toThrow(/already exists/);
    start(m);

    await client.resource(secretDefinition).create(secret('s', [owner('x', { controller: false })], { wakes: 'x' }));
    await eventually(() => expect(reconciler.keys).toEqual(['default/x']));
    expect(events).toEqual(['owned by uid-x: 1']);
    await client.resource(configMapDefinition).create(cm('y'));
    await eventually(() => expect(reconciler.keys).toEqual(['default/x', 'default/y']));
    await client.resource(configMapDefinition).delete('default', 'y');
    await eventually(() => expect(events).toContain('delete y → 0'));
    // Another add proves the queue is still served; the deleted y was not enqueued again.
    await client.resource(configMapDefinition).create(cm('z'));
    await eventually(() => expect(reconciler.keys).toEqual(['default/x', 'default/y', 'default/z']));
    expect(m.activity().map((loop) => loop.name)).toEqual(['by-label']);
    // A resync of a watched kind (the same object again) enqueues nothing.
    await eventually(() => expect(resyncKeys.length).toBeGreaterThan(1));
    expect(new Set(resyncKeys)).toEqual(new Set([0]));
  });

  it('refuses an incomplete chain', () => {
    const m = manager();
    expect(() => newControllerManagedBy(m).for(configMapDefinition).complete(recording)).toThrow(/named\(\) is required/);
    expect(() => newControllerManagedBy(m).named('x').complete(recording)).toThrow(/for\(\) is required/);
    expect(() => newControllerManagedBy(m).named('x').for(configMapDefinition).for(secretDefinition)).toThrow(/already called/);
  });
});
