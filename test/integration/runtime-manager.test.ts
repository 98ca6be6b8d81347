/** controllers/runtime's manager against a real API server: shared informers synced before
 * runnables start, clean stop on abort, runnable failures, and leader election (only the
 * leader runs its runnables; a lost lease ends start()). */
import { afterEach, describe, expect, it } from 'vitest';
import { leaseDefinition } from '../../apiserver/api/coordination/lease.js';
import { type ConfigMap, configMapDefinition } from '../../apiserver/api/core/config-map.js';
import { eventDefinition } from '../../apiserver/api/core/event.js';
import { createRealClock } from '../../apiserver/api/machinery/clock.js';
import { rfc3339Micro } from '../../apiserver/api/machinery/time.js';
import { silentLogger } from '../../controllers/runtime/logger.js';
import { createManager, type Manager, type ManagerOptions } from '../../controllers/runtime/manager.js';
import type { Runnable } from '../../controllers/runtime/types.js';
import { eventually } from '../support/eventually.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const cluster = useTestCluster({ userAgent: 'runtime-manager-test' });
const stops: Array<() => Promise<unknown>> = [];

afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

function manager(overrides: Partial<ManagerOptions> = {}): Manager {
  return createManager({ client: cluster.client, clock: createRealClock(), logger: silentLogger, component: 'test-manager', ...overrides });
}

function start(m: Manager): { abort: AbortController; done: Promise<unknown> } {
  const abort = new AbortController();
  const done = m.start(abort.signal).then(
    () => 'resolved',
    (err: unknown) => err,
  );
  stops.push(async () => {
    abort.abort();
    await done;
  });
  return { abort, done };
}

/** runnable records what it saw of the cache when it started, and runs until aborted. */
function runnable(onStart: () => void = () => undefined): Runnable & { started: boolean; stopped: boolean } {
  const r = {
    started: false,
    stopped: false,
    async start(signal: AbortSignal) {
      r.started = true;
      onStart();
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      r.stopped = true;
    },
  };
  return r;
}

const cm = (name: string): ConfigMap => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } });

describe('manager', () => {
  it('starts runnables after the informers synced, shares informers, and stops cleanly', async () => {
    await cluster.client.resource(configMapDefinition).create(cm('a'));
    const m = manager();
    const informer = m.informer(configMapDefinition, { namespace: 'default' });
    expect(m.informer(configMapDefinition, { namespace: 'default' })).toBe(informer);
    expect(m.informer(configMapDefinition)).not.toBe(informer);
    let seenAtStart: string[] = [];
    const r = runnable(() => (seenAtStart = informer.lister.list().map((o) => o.metadata.name ?? '')));
    m.add(r);
    const { abort, done } = start(m);
    await eventually(() => expect(r.started).toBe(true));
    expect(seenAtStart).toEqual(['a']);
    expect(() => m.add(runnable())).toThrow(/before starting/);
    await cluster.client.resource(configMapDefinition).create(cm('b'));
    await eventually(() => expect(informer.lister.list()).toHaveLength(2));
    m.recorder().event(informer.lister.get('default', 'a')!, 'Normal', 'Seen', 'by the manager');
    abort.abort();
    expect(await done).toBe('resolved');
    expect(r.stopped).toBe(true);
    const events = await cluster.client.resource(eventDefinition).list({ namespace: 'default' });
    expect(events.items.map((e) => `${e.source?.component} ${e.reason}`)).toEqual(['test-manager Seen']);
  });

  it('stops everything and rejects with the error of a failing runnable', async () => {
    const m = manager();
    m.informer(configMapDefinition);
    const survivor = runnable();
    m.add(survivor);
    m.add({ start: async () => Promise.reject(new Error('controller crashed')) });
    const { done } = start(m);
    expect(((await done) as Error).message).toBe('controller crashed');
    expect(survivor.stopped).toBe(true);
  });

  it('runs runnables only while leading, and resolves start() when the lease is lost', async () => {
    const timing = { leaseDurationMs: 1_000, renewDeadlineMs: 600, retryPeriodMs: 100 };
    const first = manager({ leaderElection: { name: 'test-manager', identity: 'one', ...timing } });
    const second = manager({ leaderElection: { name: 'test-manager', identity: 'two', ...timing } });
    const [r1, r2] = [runnable(), runnable()];
    first.add(r1);
    second.add(r2);
    const one = start(first);
    await eventually(() => expect(r1.started).toBe(true));
    const two = start(second);
    const leases = cluster.client.resource(leaseDefinition);
    await eventually(async () => expect((await leases.get('kube-system', 'test-manager')).spec?.holderIdentity).toBe('one'));
    expect(r2.started).toBe(false);

    one.abort.abort();
    expect(await one.done).toBe('resolved');
    expect(r1.stopped).toBe(true);
    await eventually(() => expect(r2.started).toBe(true), { timeoutMs: 5_000 });

    // Someone else takes the lease: the second manager stops its runnables and returns.
    await eventually(async () => {
      const current = await leases.get('kube-system', 'test-manager');
      await leases.update({ ...current, spec: { ...current.spec, holderIdentity: 'thief', leaseDurationSeconds: 3600, renewTime: rfc3339Micro(Date.now()) } });
    });
    expect(await two.done).toBe('resolved');
    expect(r2.stopped).toBe(true);
  });

  it('stops before runnables start when aborted while caches sync', async () => {
    const m = manager();
    m.informer(configMapDefinition);
    const r = runnable();
    m.add(r);
    const abort = new AbortController();
    abort.abort();
    await m.start(abort.signal);
    expect(r.started).toBe(false);
  });
});
