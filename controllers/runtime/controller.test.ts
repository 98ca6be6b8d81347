import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeClock } from '../../apiserver/api/machinery/clock.js';
import { createRandom, type Random } from '../../apiserver/api/machinery/random.js';
import { type Controller, createController } from './controller.js';
import { createLogger, silentLogger } from './logger.js';
import { reconcileLogger, terminalError } from './reconciler.js';
import type { Logger, Reconciler, Request, Result } from './types.js';
import { createWorkQueue } from './workqueue/queue.js';

const WEB: Request = { namespace: 'default', name: 'web' };
const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
/** eventually retries an assertion on real time (the FakeClock only drives the controller). */
const eventually = (assertion: () => void): Promise<void> => vi.waitFor(assertion, { interval: 1, timeout: 5_000 });

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

/** Everything one test started, so afterEach can stop it. */
const running: Array<{ abort: AbortController; done: Promise<void> }> = [];

afterEach(async () => {
  for (const { abort, done } of running.splice(0)) {
    abort.abort();
    await done;
  }
});

interface Setup {
  reconcile: (request: Request, signal: AbortSignal) => Promise<Result> | Result;
  workers?: number;
  logger?: Logger;
}

function start(setup: Setup) {
  const clock = new FakeClock(0);
  const calls: Request[] = [];
  const reconciler: Reconciler = {
    reconcile: (request, signal) => {
      calls.push(request);
      return setup.reconcile(request, signal) as Promise<Result>;
    },
  };
  const controller = createController({
    name: 'test-controller',
    reconciler,
    clock,
    logger: setup.logger ?? silentLogger,
    ...(setup.workers === undefined ? {} : { workers: setup.workers }),
  });
  const abort = new AbortController();
  const done = controller.start(abort.signal);
  running.push({ abort, done });
  return { clock, calls, controller, abort, done };
}

function counts(controller: Controller) {
  return controller.stats.reconciles;
}

function captureLogs() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger({
    component: 'test',
    level: 'debug',
    clock: new FakeClock(0),
    destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
  });
  return { logger, lines };
}

describe('createController: the result switch', () => {
  it('reconciles an enqueued request once and forgets it on success', async () => {
    const { calls, controller } = start({ reconcile: async () => ({}) });
    controller.enqueue(WEB);
    await eventually(() => expect(counts(controller).success).toBe(1));
    expect(calls).toEqual([WEB]);
    expect(controller.stats.lastReconcile).toMatchObject({ key: 'default/web', result: 'success', durationMs: 0 });
    expect(controller.stats.lastReconcile?.error).toBeUndefined();
    expect(controller.queue.numRequeues('default/web')).toBe(0);
  });

  it('retries a rejected reconcile with backoff, then forgets it once it succeeds', async () => {
    let failures = 1;
    const { clock, calls, controller } = start({
      reconcile: async () => {
        if (failures-- > 0) throw new Error('conflict');
        return {};
      },
    });
    controller.enqueue(WEB);
    await eventually(() => expect(counts(controller).error).toBe(1));
    expect(controller.stats.lastReconcile).toMatchObject({ result: 'error', error: 'conflict' });
    expect(controller.queue.numRequeues('default/web')).toBe(1);
    clock.advance(4);
    await flush();
    expect(calls).toHaveLength(1);
    clock.advance(1);
    await eventually(() => expect(counts(controller).success).toBe(1));
    expect(calls).toHaveLength(2);
    expect(controller.queue.numRequeues('default/web')).toBe(0);
  });

  it('handles a synchronous throw like a rejection', async () => {
    const { controller } = start({
      reconcile: () => {
        throw new Error('sync');
      },
    });
    controller.enqueue(WEB);
    await eventually(() => expect(counts(controller).error).toBe(1));
    expect(controller.queue.numRequeues('default/web')).toBe(1);
  });

  it('does not retry a terminal error, and forgets earlier backoff', async () => {
    let attempt = 0;
    const { clock, calls, controller } = start({
      reconcile: async () => {
        attempt++;
        if (attempt === 1) throw new Error('transient');
        throw new Error('wrapped', { cause: terminalError(new Error('spec is invalid')) });
      },
    });
    controller.enqueue(WEB);
    await eventually(() => expect(counts(controller).error).toBe(1));
    clock.advance(5);
    await eventually(() => expect(counts(controller).terminal).toBe(1));
    expect(controller.queue.numRequeues('default/web')).toBe(0);
    expect(clock.pendingTimers).toBe(0);
    clock.advance(10_000_000);
    await flush();
    expect(calls).toHaveLength(2);
  });

  it('honours requeueAfterMs on the clock and forgets backoff', async () => {
    let attempt = 0;
    const { clock, calls, controller } = start({
      reconcile: async () => {
        if (++attempt === 1) throw new Error('once');
        return { requeueAfterMs: 1_000 };
      },
    });
    controller.enqueue(WEB);
    await eventually(() => expect(counts(controller).error).toBe(1));
    clock.advance(5);
    await eventually(() => expect(counts(controller).requeueAfter).toBe(1));
    expect(controller.queue.numRequeues('default/web')).toBe(0);
    clock.advance(999);
    await flush();
    expect(calls).toHaveLength(2);
    clock.advance(1);
    await eventually(() => expect(calls).toHaveLength(3));
  });

  it('treats a zero, negative or missing requeueAfterMs as success', async () => {
    const results: Array<Result | undefined> = [{ requeueAfterMs: 0 }, { requeueAfterMs: -1 }, undefined];
    const { clock, controller } = start({ reconcile: async () => results.shift() as Result });
    for (const name of ['a', 'b', 'c']) controller.enqueue({ namespace: 'ns', name });
    await eventually(() => expect(counts(controller).success).toBe(3));
    expect(clock.pendingTimers).toBe(0);
  });

  it('treats a malformed key as terminal without calling the reconciler', async () => {
    const { calls, controller } = start({ reconcile: async () => ({}) });
    controller.queue.add('a/b/c');
    await eventually(() => expect(counts(controller).terminal).toBe(1));
    expect(calls).toEqual([]);
  });
});

describe('createController: workers', () => {
  it('runs exactly N reconciles at once', async () => {
    const gates: Array<ReturnType<typeof deferred<void>>> = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const { controller } = start({
      workers: 3,
      reconcile: async () => {
        maxInFlight = Math.max(maxInFlight, ++inFlight);
        const gate = deferred<void>();
        gates.push(gate);
        await gate.promise;
        inFlight--;
        return {};
      },
    });
    for (let i = 0; i < 10; i++) controller.enqueue({ namespace: 'ns', name: `pod-${i}` });
    for (const batch of [3, 3, 3, 1]) {
      await eventually(() => expect(gates).toHaveLength(batch));
      expect(controller.stats.active).toBe(batch);
      for (const gate of gates.splice(0)) gate.resolve();
    }
    await eventually(() => expect(counts(controller).success).toBe(10));
    expect(maxInFlight).toBe(3);
  });

  it('never reconciles one key in two workers; a re-enqueue runs after', async () => {
    let inFlight = 0;
    let overlapped = false;
    let controller: Controller | undefined;
    const started = start({
      workers: 2,
      reconcile: async () => {
        overlapped ||= ++inFlight > 1;
        if (started.calls.length === 1) controller?.enqueue(WEB);
        await flush();
        inFlight--;
        return {};
      },
    });
    controller = started.controller;
    controller.enqueue(WEB);
    await eventually(() => expect(counts(controller).success).toBe(2));
    expect(overlapped).toBe(false);
  });

  it('rejects a worker count that is not an integer ≥ 1', () => {
    for (const workers of [0, -1, 1.5]) {
      expect(() =>
        createController({ name: 'x', reconciler: { reconcile: async () => ({}) }, workers, clock: new FakeClock(0), logger: silentLogger }),
      ).toThrow(RangeError);
    }
  });
});

describe('createController: start and stop', () => {
  it('stops taking keys on abort and waits for the in-flight reconcile, leaving no timers', async () => {
    const gate = deferred<Result>();
    const { clock, calls, controller, abort, done } = start({ reconcile: () => gate.promise });
    controller.enqueue(WEB);
    controller.enqueue({ namespace: 'default', name: 'other' });
    controller.queue.addAfter('default/later', 1_000);
    await eventually(() => expect(calls).toHaveLength(1));
    abort.abort();
    let stopped = false;
    void done.then(() => (stopped = true));
    await flush();
    expect(stopped).toBe(false);
    expect(controller.queue.shuttingDown).toBe(true);
    gate.resolve({ requeueAfterMs: 5_000 });
    await done;
    expect(calls).toHaveLength(1);
    expect(controller.stats.active).toBe(0);
    expect(clock.pendingTimers).toBe(0);
  });

  it('logs a reconcile aborted by shutdown at debug, not as an error', async () => {
    const { logger, lines } = captureLogs();
    const { clock, controller, abort, done } = start({
      logger,
      reconcile: async (_request, signal) => {
        await clock.sleep(10_000, signal);
        return {};
      },
    });
    controller.enqueue(WEB);
    await eventually(() => expect(clock.pendingTimers).toBe(1));
    abort.abort();
    await done;
    expect(lines.filter((line) => line.level === 'error')).toEqual([]);
    expect(lines.map((line) => line.msg)).toContain('Reconcile interrupted by shutdown');
    expect(clock.pendingTimers).toBe(0);
  });

  it('returns at once on an aborted signal and refuses a second start', async () => {
    const controller = createController({ name: 'x', reconciler: { reconcile: async () => ({}) }, clock: new FakeClock(0), logger: silentLogger });
    controller.enqueue(WEB);
    await controller.start(AbortSignal.abort());
    expect(counts(controller).success).toBe(0);
    await expect(controller.start(new AbortController().signal)).rejects.toThrow(/started more than once/);
  });

  it('uses the queue it is given', () => {
    const clock = new FakeClock(0);
    const queue = createWorkQueue({ clock, name: 'shared' });
    const controller = createController({ name: 'x', reconciler: { reconcile: async () => ({}) }, queue, clock, logger: silentLogger });
    expect(controller.queue).toBe(queue);
  });
});

describe('createController: logging', () => {
  it('binds controller, key and reconcileId to every line of a reconcile, the reconciler’s too', async () => {
    const { logger, lines } = captureLogs();
    const { controller } = start({
      logger,
      reconcile: async (request) => {
        await flush();
        reconcileLogger(silentLogger).info({ name: request.name }, 'Inside reconcile');
        if (request.name === 'bad') throw new Error('boom');
        return {};
      },
    });
    controller.enqueue(WEB);
    controller.enqueue({ namespace: 'default', name: 'bad' });
    await eventually(() => expect(counts(controller).error).toBe(1));
    const reconcileLines = lines.filter((line) => line.key !== undefined);
    expect(reconcileLines.map((line) => line.msg)).toEqual(['Inside reconcile', 'Reconcile succeeded', 'Inside reconcile', 'Reconciler error']);
    for (const line of reconcileLines) {
      expect(line).toMatchObject({ controller: 'test-controller', reconcileId: expect.stringMatching(/^[0-9a-f]{8}$/) });
    }
    const [inside, succeeded, insideBad, failed] = reconcileLines;
    expect(succeeded?.reconcileId).toBe(inside?.reconcileId);
    expect(failed?.reconcileId).toBe(insideBad?.reconcileId);
    expect(failed?.reconcileId).not.toBe(inside?.reconcileId);
    expect(failed).toMatchObject({ level: 'error', key: 'default/bad', requeues: 1, err: { message: 'boom' } });
  });
});

describe('createController: randomness', () => {
  /** reconcileIds runs three reconciles and returns their ids, in order. */
  async function reconcileIds(random: Random | undefined): Promise<string[]> {
    const { logger, lines } = captureLogs();
    const controller = createController({ name: 'ids', reconciler: { reconcile: async () => ({}) }, clock: new FakeClock(0), logger, random });
    const abort = new AbortController();
    running.push({ abort, done: controller.start(abort.signal) });
    for (const name of ['a', 'b', 'c']) {
      controller.enqueue({ namespace: 'default', name });
      await eventually(() => expect(controller.stats.lastReconcile?.key).toBe(`default/${name}`));
    }
    return lines.filter((line) => line.msg === 'Reconcile succeeded').map((line) => String(line.reconcileId));
  }

  it('draws reconcile ids from the Random it is given: same seed, same ids', async () => {
    const first = await reconcileIds(createRandom(9));
    expect(first).toHaveLength(3);
    expect(new Set(first).size).toBe(3);
    expect(await reconcileIds(createRandom(9))).toEqual(first);
    expect(await reconcileIds(createRandom(10))).not.toEqual(first);
    expect(await reconcileIds(undefined)).toHaveLength(3);
  });
});
