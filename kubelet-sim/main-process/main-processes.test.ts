/**
 * The kubelet's main processes against kubesim's real userland on a fake clock: output becomes
 * log lines stamped with cluster time, the exit is recorded for the stage engine (and the pod
 * re-queued), a process that cannot start is a StartError, a stopped process records nothing.
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { FakeClock } from '../../apiserver/api/machinery/clock.js';
import { createLogger } from '../../controllers/runtime/logger.js';
import type { DeepReadonly, EventHandlers } from '../../controllers/runtime/types.js';
import { eventually } from '../../test/support/eventually.js';
import { objectReader, podObject, START_MS } from '../../test/support/userland.js';
import { ContainerLogStore } from '../logs/container-log-store.js';
import { createUserlandFactory } from '../userland/index.js';
import { createMainProcesses } from './main-processes.js';

function setup() {
  const clock = new FakeClock(START_MS);
  const logs = new ContainerLogStore();
  const factory = createUserlandFactory();
  const enqueued: string[] = [];
  const built: string[] = [];
  const handlers: EventHandlers<Pod>[] = [];
  const processes = createMainProcesses({
    userlands: {
      ready: async () => undefined,
      forRun: (pod, containerName) => {
        built.push(pod.metadata.name ?? '');
        return factory({ pod, containerName, cluster: objectReader([]), clock });
      },
    },
    informer: { addEventHandlers: (added) => handlers.push(added) },
    logs,
    clock,
    logger: createLogger({ component: 'test', level: 'silent' }),
    enqueue: (pod) => enqueued.push(pod.metadata.name ?? ''),
  });
  const start = (pod: DeepReadonly<Pod>) => {
    logs.started(
      { podUid: pod.metadata.uid ?? '', container: 'main' },
      { image: 'busybox', atMs: clock.now(), intervalMs: 1000, restartCount: 0, process: true },
    );
    processes.start(pod, 'main', 0);
  };
  const lines = (pod: DeepReadonly<Pod>) =>
    logs.read({ podUid: pod.metadata.uid ?? '', container: 'main' }, { previous: false, nowMs: clock.now() })?.lines ?? [];
  return { clock, processes, enqueued, built, handlers, start, lines };
}

describe('main processes', () => {
  it('logs what the process writes and records its exit for the engine', async () => {
    const { processes, enqueued, start, lines } = setup();
    const job = podObject('job', { container: { command: ['sh', '-c', 'echo hi; printf "no newline"; exit 3'] } });
    start(job);
    await eventually(() => expect(enqueued).toEqual(['job']));
    expect(lines(job)).toEqual([
      { timeMs: START_MS, text: 'hi' },
      { timeMs: START_MS, text: 'no newline' },
    ]);
    expect(processes.exitsOf('uid-job')).toEqual({ main: { restartCount: 0, exitCode: 3, atMs: START_MS } });
  });

  it('stamps each line with cluster time: a tick every 5 s', async () => {
    const { clock, processes, start, lines } = setup();
    const ticker = podObject('ticker', { container: { command: ['sh', '-c', 'while true; do echo tick; sleep 5; done'] } });
    start(ticker);
    for (let tick = 1; tick <= 3; tick++) {
      await eventually(() => expect(lines(ticker)).toHaveLength(tick));
      await eventually(() => expect(clock.pendingTimers).toBe(1));
      clock.advance(5_000);
    }
    expect(lines(ticker).map((line) => line.timeMs - START_MS)).toEqual([0, 5_000, 10_000]);
    processes.stop('uid-ticker', 'main');
    await eventually(() => expect(clock.pendingTimers).toBe(0));
    // Stopped by the kubelet: no exit of its own to report.
    expect(processes.exitsOf('uid-ticker')).toEqual({});
  });

  it('reports a program that cannot start as StartError with the runtime message', async () => {
    const { processes, enqueued, start } = setup();
    start(podObject('bad', { container: { command: ['nope'] } }));
    await eventually(() => expect(enqueued).toEqual(['bad']));
    expect(processes.exitsOf('uid-bad')['main']).toMatchObject({
      exitCode: 128,
      reason: 'StartError',
      message: expect.stringMatching(/^failed to create containerd task: .*exec: "nope": executable file not found in \$PATH: unknown$/),
    });
  });

  it('runs a plain sleep on a cluster-clock timer without building a userland', async () => {
    const { clock, processes, enqueued, built, start } = setup();
    start(podObject('nap', { container: { command: ['sleep', '30'] } }));
    await eventually(() => expect(clock.pendingTimers).toBe(1));
    clock.advance(29_999);
    expect(enqueued).toEqual([]);
    clock.advance(1);
    await eventually(() => expect(enqueued).toEqual(['nap']));
    expect(processes.exitsOf('uid-nap')['main']).toEqual({ restartCount: 0, exitCode: 0, atMs: START_MS + 30_000 });
    expect(built).toEqual([]);
  });

  it('stops the processes of a pod being deleted, with no exit of their own', async () => {
    const { clock, processes, handlers, start, lines } = setup();
    const ticker = podObject('ticker', { container: { command: ['sh', '-c', 'while true; do echo tick; sleep 5; done'] } });
    start(ticker);
    await eventually(() => expect(lines(ticker)).toHaveLength(1));
    await eventually(() => expect(clock.pendingTimers).toBe(1));
    const deleting = { ...ticker, metadata: { ...ticker.metadata, deletionTimestamp: '2026-01-02T03:04:06Z' } };
    for (const handler of handlers) handler.onUpdate?.(ticker, deleting);
    await eventually(() => expect(clock.pendingTimers).toBe(0));
    clock.advance(60_000);
    expect(lines(ticker)).toHaveLength(1);
    expect(processes.exitsOf('uid-ticker')).toEqual({});
  });
});
