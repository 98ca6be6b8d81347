/** Several loops in one process over one manager, against a real API server: stopping one
 * leaves the other working and its handlers gone; starting it again catches it up on every
 * cached object; a kill drops its queue and brings it back after the backoff, counted. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ConfigMap, configMapDefinition } from '../../apiserver/api/core/config-map.js';
import { createRealClock } from '../../apiserver/api/machinery/clock.js';
import { eventually } from '../../test/support/eventually.js';
import { startTestCluster, type TestCluster } from '../../test/support/test-cluster.js';
import { newControllerManagedBy } from './builder.js';
import { createKubeClient, type KubeClient } from './client/http-client.js';
import { indexByOwnerUid, OWNER_UID_INDEX } from './indexers.js';
import { silentLogger } from './logger.js';
import { LoopHost } from './loop-host.js';
import { createManager, type Manager } from './manager.js';

let cluster: TestCluster;
let client: KubeClient;
let abort: AbortController;
let running: Promise<unknown>;

beforeEach(async () => {
  cluster = await startTestCluster();
  client = createKubeClient({ server: cluster.url, userAgent: 'loop-host-test' });
  abort = new AbortController();
});

afterEach(async () => {
  abort.abort();
  await running;
  client.close();
  await cluster.stop();
});

/** recordingLoop registers a loop that records every ConfigMap key it reconciles. */
function recordingLoop(name: string, seen: string[]) {
  return async (manager: Manager) => {
    newControllerManagedBy(manager)
      .named(name)
      .for(configMapDefinition)
      // Both loops ask for the same index: one process shares it.
      .withIndexer(configMapDefinition, OWNER_UID_INDEX, indexByOwnerUid)
      .complete(() => ({
        reconcile: async (request) => {
          seen.push(request.name);
          return {};
        },
      }));
  };
}

async function startHost(): Promise<{ host: LoopHost; first: string[]; second: string[] }> {
  const manager = createManager({ client, clock: createRealClock(), logger: silentLogger, component: 'loop-host-test' });
  const host = new LoopHost(manager);
  const first: string[] = [];
  const second: string[] = [];
  await host.add('first', recordingLoop('first', first));
  await host.add('second', recordingLoop('second', second));
  manager.add(host);
  running = manager.start(abort.signal).catch((err: unknown) => err);
  return { host, first, second };
}

const configMap = (name: string): ConfigMap => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } });

describe('LoopHost', () => {
  it('stops one loop while the other keeps reconciling, and catches the stopped one up when it starts', async () => {
    const { host, first, second } = await startHost();
    await client.resource(configMapDefinition).create(configMap('a'));
    await eventually(() => expect([first, second]).toEqual([['a'], ['a']]));

    expect(await host.act('first', 'stop')).toMatchObject({ name: 'first', state: 'stopped' });
    expect(host.loopsActivity().map((loop) => loop.name)).toEqual(['second']);
    await client.resource(configMapDefinition).create(configMap('b'));
    await eventually(() => expect(second).toContain('b'));
    expect(first).toEqual(['a']);

    expect(await host.act('first', 'start')).toMatchObject({ name: 'first', state: 'running' });
    // A new start reads everything, as a new process's first list would.
    await eventually(() => expect(new Set(first)).toEqual(new Set(['a', 'b'])));
  });

  it('brings a killed loop back after its backoff and counts the restart', async () => {
    const { host, first } = await startHost();
    await client.resource(configMapDefinition).create(configMap('a'));
    await eventually(() => expect(first).toEqual(['a']));

    const killed = await host.act('first', 'kill');
    expect(killed).toMatchObject({ name: 'first', state: 'backoff', restarts: 1, restartInMs: 1000, lastExit: { signal: 'SIGKILL' } });
    await expect(host.act('first', 'kill')).rejects.toThrow(/first is not running \(backoff\)/);
    await eventually(() => expect(host.status().find((loop) => loop.name === 'first')).toMatchObject({ state: 'running', restarts: 1 }), {
      timeoutMs: 10_000,
    });
    await eventually(() => expect(first.filter((key) => key === 'a').length).toBe(2));
  });

  it('names the loops it hosts when asked for another', async () => {
    const { host } = await startHost();
    await expect(host.act('third', 'stop')).rejects.toThrow(/no loop "third" in this process; loops: first, second/);
  });
});
