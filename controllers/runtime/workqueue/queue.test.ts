import { describe, expect, it, vi } from 'vitest';
import { FakeClock } from '../../../apiserver/api/machinery/clock.js';
import { createWorkQueue } from './queue.js';
import { createExponentialRateLimiter } from './rate-limiter.js';

function setup() {
  const clock = new FakeClock(0);
  const queue = createWorkQueue({ clock, rateLimiter: createExponentialRateLimiter(), name: 'test' });
  return { clock, queue };
}

/** settled reports whether a promise has settled, after letting pending callbacks run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('createWorkQueue: dedup and order', () => {
  it('hands keys out first-in first-out, once each while they wait', async () => {
    const { queue } = setup();
    queue.add('a');
    queue.add('b');
    queue.add('a');
    expect(queue.length).toBe(2);
    expect(queue.metrics.adds).toBe(2);
    expect(await queue.get()).toBe('a');
    expect(await queue.get()).toBe('b');
    expect(queue.length).toBe(0);
    expect(queue.name).toBe('test');
  });

  it('wakes a waiting get when a key arrives, oldest waiter first', async () => {
    const { queue } = setup();
    const first = queue.get();
    const second = queue.get();
    expect(await settled(first)).toBe(false);
    queue.add('a');
    queue.add('b');
    expect(await first).toBe('a');
    expect(await second).toBe('b');
    expect(queue.length).toBe(0);
    expect(queue.metrics.processing).toBe(2);
  });
});

describe('createWorkQueue: processing', () => {
  it('never hands a held key to a second worker; a re-add runs once after done', async () => {
    const { queue } = setup();
    queue.add('a');
    expect(await queue.get()).toBe('a');
    queue.add('a');
    queue.add('a');
    expect(queue.length).toBe(0);
    const second = queue.get();
    expect(await settled(second)).toBe(false);
    queue.done('a');
    expect(await second).toBe('a');
    queue.done('a');
    expect(queue.length).toBe(0);
    expect(queue.metrics.processing).toBe(0);
  });

  it('keeps two concurrent workers off the same key', async () => {
    const { queue } = setup();
    const holding = new Set<string>();
    const violations: string[] = [];
    const processed: string[] = [];
    const worker = async (): Promise<void> => {
      for (let key = await queue.get(); key !== undefined; key = await queue.get()) {
        if (holding.has(key)) violations.push(key);
        holding.add(key);
        processed.push(key);
        if (processed.length < 6) queue.add(key); // re-add while held
        await new Promise((resolve) => setImmediate(resolve));
        holding.delete(key);
        queue.done(key);
      }
    };
    const workers = Promise.all([worker(), worker()]);
    queue.add('a');
    queue.add('b');
    // Two first runs plus one rerun for each of the five re-adds.
    await vi.waitFor(() => expect(processed).toHaveLength(7));
    queue.shutdown();
    await workers;
    expect(violations).toEqual([]);
    expect(queue.metrics.processing).toBe(0);
  });

  it('ignores done for a key it did not hand out', () => {
    const { queue } = setup();
    queue.add('a');
    queue.done('a');
    queue.done('z');
    expect(queue.length).toBe(1);
    expect(queue.metrics.processing).toBe(0);
  });
});

describe('createWorkQueue: delayed adds', () => {
  it('adds after the delay, in order of ready time', async () => {
    const { clock, queue } = setup();
    queue.addAfter('late', 20);
    queue.addAfter('early', 10);
    expect(queue.metrics.delayed).toBe(2);
    clock.advance(9);
    expect(queue.length).toBe(0);
    clock.advance(11);
    expect(await queue.get()).toBe('early');
    expect(await queue.get()).toBe('late');
    expect(queue.metrics.delayed).toBe(0);
  });

  it('keeps the earliest time for a key delayed twice, with one timer', async () => {
    const { clock, queue } = setup();
    queue.addAfter('a', 50);
    queue.addAfter('a', 10);
    queue.addAfter('a', 30);
    expect(clock.pendingTimers).toBe(1);
    clock.advance(10);
    expect(queue.length).toBe(1);
    clock.advance(100);
    expect(queue.metrics.adds).toBe(1);
    expect(await queue.get()).toBe('a');
  });

  it('adds at once for a delay of zero or less', () => {
    const { clock, queue } = setup();
    queue.addAfter('a', 0);
    queue.addAfter('b', -5);
    expect(queue.length).toBe(2);
    expect(clock.pendingTimers).toBe(0);
  });

  it('dedups a delayed key against one already waiting', async () => {
    const { clock, queue } = setup();
    queue.add('a');
    queue.addAfter('a', 10);
    clock.advance(10);
    expect(queue.length).toBe(1);
    expect(await queue.get()).toBe('a');
  });
});

describe('createWorkQueue: rate limiting', () => {
  it('backs a key off exponentially until forgotten', async () => {
    const { clock, queue } = setup();
    queue.addRateLimited('a');
    expect(queue.numRequeues('a')).toBe(1);
    clock.advance(4);
    expect(queue.length).toBe(0);
    clock.advance(1);
    expect(await queue.get()).toBe('a');
    queue.done('a');
    queue.addRateLimited('a');
    clock.advance(9);
    expect(queue.length).toBe(0);
    clock.advance(1);
    expect(queue.length).toBe(1);
    expect(queue.numRequeues('a')).toBe(2);
    expect(queue.metrics.retries).toBe(2);
    queue.forget('a');
    expect(queue.numRequeues('a')).toBe(0);
  });

  it('uses the default controller rate limiter when given none', () => {
    const clock = new FakeClock(0);
    const queue = createWorkQueue({ clock });
    queue.addRateLimited('a');
    clock.advance(4);
    expect(queue.length).toBe(0);
    clock.advance(1);
    expect(queue.length).toBe(1);
    expect(queue.name).toBe('');
  });
});

describe('createWorkQueue: shutdown', () => {
  it('wakes waiting gets with undefined', async () => {
    const { queue } = setup();
    const waiting = [queue.get(), queue.get()];
    queue.shutdown();
    expect(queue.shuttingDown).toBe(true);
    expect(await Promise.all(waiting)).toEqual([undefined, undefined]);
  });

  it('drains waiting keys, then returns undefined, and drops later adds', async () => {
    const { queue } = setup();
    queue.add('a');
    queue.add('b');
    queue.shutdown();
    queue.add('c');
    queue.addAfter('d', 0);
    queue.addRateLimited('e');
    expect(await queue.get()).toBe('a');
    expect(await queue.get()).toBe('b');
    expect(await queue.get()).toBeUndefined();
    expect(queue.numRequeues('e')).toBe(0);
  });

  it('still requeues a key re-added before shutdown once its worker is done', async () => {
    const { queue } = setup();
    queue.add('a');
    expect(await queue.get()).toBe('a');
    queue.add('a');
    queue.shutdown();
    queue.done('a');
    expect(await queue.get()).toBe('a');
    queue.done('a');
    expect(await queue.get()).toBeUndefined();
  });

  it('cancels delayed adds, leaving no timers', async () => {
    const { clock, queue } = setup();
    queue.addAfter('a', 10);
    queue.addRateLimited('b');
    queue.shutdown();
    queue.shutdown();
    expect(clock.pendingTimers).toBe(0);
    expect(queue.metrics.delayed).toBe(0);
    clock.advance(1_000);
    expect(await queue.get()).toBeUndefined();
  });
});
