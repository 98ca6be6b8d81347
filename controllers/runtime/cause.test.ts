import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeCause } from '../../apiserver/api/kubesim/history.js';
import { type Cause, type CauseTrigger, currentCause, currentTrigger, encodeCause, runWithCause, withTrigger } from '../../apiserver/api/machinery/cause.js';
import { FakeClock } from '../../apiserver/api/machinery/clock.js';
import { createController } from './controller.js';
import { silentLogger } from './logger.js';
import type { Result } from './types.js';
import { createWorkQueue } from './workqueue/queue.js';

const event = (resourceVersion: string): CauseTrigger => ({
  kind: 'event',
  type: 'MODIFIED',
  object: { kind: 'Deployment', namespace: 'default', name: 'web', resourceVersion },
});

describe('cause header', () => {
  it('round-trips every kind of trigger', () => {
    const triggers: CauseTrigger[] = [
      event('7'),
      { kind: 'resync' },
      { kind: 'requeue', reason: 'error' },
      { kind: 'requeue' },
      { kind: 'heartbeat' },
      { kind: 'stage' },
    ];
    for (const trigger of triggers) {
      const cause: Cause = { controller: 'replicaset', key: 'default/web-1', reconcileId: 'abcd', trigger };
      expect(decodeCause(encodeCause(cause))).toEqual(cause);
    }
  });

  it('is compact JSON', () => {
    expect(encodeCause({ controller: 'c', key: 'k', reconcileId: 'r', trigger: { kind: 'resync' } })).toBe(
      '{"controller":"c","key":"k","reconcileId":"r","trigger":{"kind":"resync"}}',
    );
  });

  it('names what is wrong with a value that is not a cause', () => {
    expect(() => decodeCause('nope')).toThrow(/not JSON/);
    expect(() => decodeCause('{"controller":"","key":"k","reconcileId":"r","trigger":{"kind":"resync"}}')).toThrow(/controller/);
    expect(() => decodeCause('{"controller":"c","key":"k","reconcileId":"r","trigger":{"kind":"event","type":"ADDED"}}')).toThrow(/trigger\.object/);
  });
});

describe('ambient trigger and cause', () => {
  it('sets the trigger only for the synchronous span, restoring the outer one even on throw', () => {
    expect(currentTrigger()).toBeUndefined();
    withTrigger(event('1'), () => {
      expect(() =>
        withTrigger({ kind: 'resync' }, () => {
          throw new Error('boom');
        }),
      ).toThrow('boom');
      expect(currentTrigger()).toEqual(event('1'));
    });
    expect(currentTrigger()).toBeUndefined();
  });

  it('keeps the cause across awaits of the work it started', async () => {
    const cause: Cause = { controller: 'c', key: 'k', reconcileId: 'r', trigger: { kind: 'resync' } };
    const seen = await runWithCause(cause, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return currentCause();
    });
    expect(seen).toEqual(cause);
    expect(currentCause()).toBeUndefined();
  });
});

describe('work queue triggers', () => {
  const setup = () => {
    const clock = new FakeClock(0);
    return { clock, queue: createWorkQueue({ clock }) };
  };

  it('keeps the latest trigger of a key while it waits and answers it while held', async () => {
    const { queue } = setup();
    withTrigger(event('1'), () => queue.add('default/web'));
    withTrigger(event('2'), () => queue.add('default/web'));
    queue.add('default/web'); // an add without a trigger does not erase what queued it
    const key = await queue.get();
    expect(queue.triggerOf(key!)).toEqual(event('2'));
    // Queued again while held: the next turn gets the new trigger, this one keeps its own.
    withTrigger({ kind: 'resync' }, () => queue.add('default/web'));
    expect(queue.triggerOf(key!)).toEqual(event('2'));
    queue.done(key!);
    expect(queue.triggerOf('default/web')).toBeUndefined();
    await queue.get();
    expect(queue.triggerOf('default/web')).toEqual({ kind: 'resync' });
  });

  it("notes a delayed add's trigger when it is called, and applies it when the delay ends", async () => {
    const { clock, queue } = setup();
    withTrigger({ kind: 'requeue', reason: 'after' }, () => queue.addAfter('a', 100));
    clock.advance(100);
    const key = await queue.get();
    expect(queue.triggerOf(key!)).toEqual({ kind: 'requeue', reason: 'after' });
  });

  it('keeps a trigger noted after a delayed add when the delay ends while the key waits', async () => {
    const { clock, queue } = setup();
    // A stage timer set when the pod started, then the pod is marked for deletion.
    withTrigger({ kind: 'stage' }, () => queue.addAfter('default/web-1', 100));
    withTrigger(event('9'), () => queue.add('default/web-1'));
    clock.advance(100);
    const key = await queue.get();
    expect(queue.triggerOf(key!)).toEqual(event('9'));
    queue.done(key!);
    // A timer set after the key was queued is the newer note, and wins.
    withTrigger(event('10'), () => queue.add('default/web-2'));
    withTrigger({ kind: 'stage' }, () => queue.addAfter('default/web-2', 100));
    clock.advance(100);
    const second = await queue.get();
    expect(queue.triggerOf(second!)).toEqual({ kind: 'stage' });
  });
});

describe('controller causes', () => {
  const running: AbortController[] = [];
  afterEach(() => running.splice(0).forEach((abort) => abort.abort()));

  it('runs each reconcile with its controller, key, reconcile id and what queued the key', async () => {
    const clock = new FakeClock(0);
    const seen: Array<Cause | undefined> = [];
    const results: Result[] = [{ requeueAfterMs: 50 }, {}];
    const controller = createController({
      name: 'deployment',
      clock,
      logger: silentLogger,
      reconciler: {
        reconcile: async () => {
          await new Promise((resolve) => setImmediate(resolve));
          seen.push(currentCause());
          return results.shift() ?? {};
        },
      },
    });
    const abort = new AbortController();
    running.push(abort);
    void controller.start(abort.signal);
    withTrigger(event('9'), () => controller.queue.add('default/web'));
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    expect(seen[0]).toMatchObject({ controller: 'deployment', key: 'default/web', trigger: event('9') });
    expect(seen[0]?.reconcileId).toMatch(/^[0-9a-f]{8}$/);
    await vi.waitFor(() => expect(clock.pendingTimers).toBe(1));
    clock.advance(50);
    await vi.waitFor(() => expect(seen).toHaveLength(2));
    // The requeue remembers the event that started the run.
    expect(seen[1]?.trigger).toEqual({ kind: 'requeue', reason: 'after', origin: event('9') });
    expect(seen[1]?.reconcileId).not.toBe(seen[0]?.reconcileId);
  });
});
