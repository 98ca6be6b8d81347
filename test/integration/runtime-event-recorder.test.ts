/** controllers/runtime's event recorder against a real API server: the Event it writes, and
 * repeats aggregated into one Event's count (client-go's EventCorrelator, simplified). */
import { beforeEach, describe, expect, it } from 'vitest';
import { type ConfigMap, configMapDefinition } from '../../apiserver/api/core/config-map.js';
import { type Event, eventDefinition } from '../../apiserver/api/core/event.js';
import { FakeClock } from '../../apiserver/api/machinery/clock.js';
import { createRandom } from '../../apiserver/api/machinery/random.js';
import { AGGREGATION_WINDOW_MS, createEventRecorder, type HttpEventRecorder } from '../../controllers/runtime/event-recorder.js';
import { silentLogger } from '../../controllers/runtime/logger.js';
import type { Logger } from '../../controllers/runtime/types.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const cluster = useTestCluster({ userAgent: 'runtime-event-recorder-test' });
let clock: FakeClock;

const START_MS = Date.parse('2025-03-01T10:00:00.750Z');

beforeEach(() => {
  clock = new FakeClock(START_MS);
});

function recorder(logger: Logger = silentLogger, maxCachedEvents?: number): HttpEventRecorder {
  return createEventRecorder({ client: cluster.client, component: 'test-controller', host: 'node-1', clock, logger, maxCachedEvents });
}

async function subject(name = 'web'): Promise<ConfigMap> {
  return cluster.client.resource(configMapDefinition).create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } });
}

async function events(namespace = 'default'): Promise<Event[]> {
  return (await cluster.client.resource(eventDefinition).list({ namespace })).items;
}

describe('event recorder', () => {
  it('writes a core/v1 Event about the object', async () => {
    const object = await subject();
    const r = recorder();
    r.event(object, 'Normal', 'Created', 'created it');
    await r.flush();
    const [event, ...rest] = await events();
    expect(rest).toEqual([]);
    expect(event?.metadata.name).toMatch(/^web\.[0-9a-f]+$/);
    expect(event).toMatchObject({
      involvedObject: {
        kind: 'ConfigMap',
        apiVersion: 'v1',
        namespace: 'default',
        name: 'web',
        uid: object.metadata.uid,
        resourceVersion: object.metadata.resourceVersion,
      },
      reason: 'Created',
      message: 'created it',
      type: 'Normal',
      source: { component: 'test-controller', host: 'node-1' },
      reportingComponent: 'test-controller',
      reportingInstance: 'node-1',
      firstTimestamp: '2025-03-01T10:00:00Z',
      lastTimestamp: '2025-03-01T10:00:00Z',
      count: 1,
    });
    expect(event?.eventTime).toBeUndefined();
  });

  it('aggregates a repeat into the existing Event: count and lastTimestamp', async () => {
    const object = await subject();
    const r = recorder();
    r.event(object, 'Warning', 'Failed', 'boom');
    clock.advance(5_000);
    r.event(object, 'Warning', 'Failed', 'boom');
    await r.flush();
    const all = await events();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ count: 2, firstTimestamp: '2025-03-01T10:00:00Z', lastTimestamp: '2025-03-01T10:00:05Z' });
  });

  it('keeps different messages apart, and starts a new Event after the window', async () => {
    const object = await subject();
    const r = recorder();
    r.event(object, 'Normal', 'Scaled', 'to 1');
    r.event(object, 'Normal', 'Scaled', 'to 2');
    clock.advance(AGGREGATION_WINDOW_MS);
    r.event(object, 'Normal', 'Scaled', 'to 1');
    await r.flush();
    const all = await events();
    expect(all.map((e) => `${e.message} x${e.count}`).sort()).toEqual(['to 1 x1', 'to 1 x1', 'to 2 x1']);
  });

  it('forgets the least recently seen series beyond its bound', async () => {
    const object = await subject();
    const r = recorder(silentLogger, 1);
    r.event(object, 'Normal', 'A', 'a');
    r.event(object, 'Normal', 'B', 'b');
    r.event(object, 'Normal', 'A', 'a');
    r.event(object, 'Normal', 'A', 'a');
    await r.flush();
    expect((await events()).map((e) => `${e.reason} x${e.count}`).sort()).toEqual(['A x1', 'A x2', 'B x1']);
  });

  it('re-creates an aggregated Event that was deleted in between', async () => {
    const object = await subject();
    const r = recorder();
    r.event(object, 'Normal', 'Synced', 'ok');
    await r.flush();
    const [first] = await events();
    await cluster.client.resource(eventDefinition).delete('default', first!.metadata.name!);
    r.event(object, 'Normal', 'Synced', 'ok');
    await r.flush();
    expect((await events()).map((e) => e.count)).toEqual([2]);
  });

  it('files events about cluster-scoped objects in default', async () => {
    const namespace = await (await cluster.client.forKind('v1', 'Namespace')).create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
    const r = recorder();
    r.event(namespace, 'Normal', 'Hello', 'cluster scoped');
    await r.flush();
    const [event] = await events('default');
    expect(event?.involvedObject).toMatchObject({ kind: 'Namespace', name: 'team-a' });
    expect(event?.involvedObject.namespace).toBeUndefined();
  });

  it('logs write failures instead of throwing', async () => {
    const warnings: string[] = [];
    const logger: Logger = { ...silentLogger, warn: (_f, message) => warnings.push(message), child: () => logger };
    const r = recorder(logger);
    // A namespace that does not exist: the server refuses the Event.
    r.event({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'missing', uid: 'u' } }, 'Normal', 'R', 'm');
    await r.flush();
    expect(warnings).toEqual(['could not write event']);
  });
});

describe('event names in deterministic mode', () => {
  /** suffixes records one event on each of `subjects` with a recorder seeded by `seed` and
   * returns the hex part of the Event names it chose. */
  async function suffixes(seed: number, subjects: string[]): Promise<string[]> {
    const seeded = createEventRecorder({ client: cluster.client, component: 'test-controller', clock, logger: silentLogger, random: createRandom(seed) });
    for (const name of subjects) seeded.event(await subject(name), 'Normal', 'Seeded', `seed ${seed}`);
    await seeded.flush();
    const written = (await events()).filter((e) => e.reason === 'Seeded' && e.message === `seed ${seed}`);
    return subjects.map((name) => {
      const event = written.find((e) => e.involvedObject.name === name);
      expect(event?.metadata.name).toMatch(new RegExp(`^${name}\\.[0-9a-f]+$`));
      return event?.metadata.name?.slice(name.length + 1) ?? '';
    });
  }

  // Seeded, the noise depends on the seed, the series and the time only — not on the order in
  // which concurrent loops sharing a recorder happen to record — so every Event gets its own
  // suffix and another seed gives other names. That two runs with one seed name every Event
  // alike is checked on a whole cluster by test/integration/determinism.test.ts.
  it('draws the noise in Event names from the Random it is given', async () => {
    const first = await suffixes(11, ['a1', 'a2', 'a3']);
    expect(new Set(first).size).toBe(3);
    expect(await suffixes(12, ['b1', 'b2', 'b3'])).not.toEqual(first);
  });
});
