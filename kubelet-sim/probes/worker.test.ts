import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../apiserver/api/machinery/clock.js';
import type { ProbeKind, ProbeResult } from './results.js';
import { type ContainerView, type ProbeOutcome, type ProbeTiming, ProbeWorker } from './worker.js';

const START = Date.UTC(2026, 0, 1);
const flush = () => new Promise((resolve) => setImmediate(resolve));

/** harness: a worker on a fake clock whose probe answers come from `answers` (last one repeats). */
function harness(kind: ProbeKind, timing: Partial<ProbeTiming>, answers: Array<ProbeOutcome['result']>) {
  const clock = new FakeClock(START);
  const published: Array<[number, string, ProbeResult]> = [];
  const failures: number[] = [];
  const runs: number[] = [];
  let view: ContainerView = {
    kind: 'present',
    containerID: 'c1',
    running: true,
    terminated: false,
    startedAtMs: START,
    started: true,
    deleting: false,
    restartNever: false,
  };
  let ended = false;
  const worker = new ProbeWorker({
    kind,
    timing: { initialDelaySeconds: 0, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3, ...timing },
    clock,
    view: () => view,
    run: async () => {
      runs.push((clock.now() - START) / 1000);
      const result = answers[Math.min(runs.length - 1, answers.length - 1)]!;
      return { result, output: result === 'failure' ? 'HTTP probe failed with statuscode: 404' : '' };
    },
    publish: (containerID, result) => published.push([(clock.now() - START) / 1000, containerID, result]),
    forget: () => undefined,
    failed: () => failures.push((clock.now() - START) / 1000),
    ended: () => {
      ended = true;
    },
  });
  /** advance moves cluster time second by second, letting each probe's promise settle. */
  const advance = async (seconds: number) => {
    for (let i = 0; i < seconds; i++) {
      clock.advance(1000);
      await flush();
    }
  };
  return {
    worker,
    /** begin starts the worker and lets its first probe settle. */
    begin: async () => {
      worker.start();
      await flush();
    },
    clock,
    published,
    failures,
    runs,
    advance,
    setView: (next: ContainerView) => {
      view = next;
    },
    ended: () => ended,
  };
}

describe('ProbeWorker', () => {
  it('probes every periodSeconds of cluster time, waits out initialDelaySeconds, and needs successThreshold successes', async () => {
    const h = harness('Readiness', { initialDelaySeconds: 15, periodSeconds: 10, successThreshold: 2 }, ['success']);
    await h.begin();
    await h.advance(45);
    // Ticks at 0, 10 (inside the delay), then 20, 30, 40.
    expect(h.runs).toEqual([20, 30, 40]);
    // Initial failure for the new container; success only after the second success in a row.
    expect(h.published).toEqual([
      [0, 'c1', 'failure'],
      [30, 'c1', 'success'],
      [40, 'c1', 'success'],
    ]);
    h.worker.stop();
    expect(h.clock.pendingTimers).toBe(0);
  });

  it('reports every failure but publishes failure only at failureThreshold, and recovers after one success', async () => {
    const h = harness('Readiness', { periodSeconds: 5, failureThreshold: 3 }, ['success', 'failure', 'failure', 'failure', 'success']);
    await h.begin();
    await h.advance(20);
    expect(h.runs).toEqual([0, 5, 10, 15, 20]);
    expect(h.failures).toEqual([5, 10, 15]);
    expect(h.published.map(([at, , result]) => [at, result])).toEqual([
      [0, 'failure'],
      [0, 'success'],
      [15, 'failure'],
      [20, 'success'],
    ]);
    h.worker.stop();
  });

  it('holds a failed liveness probe until a new container runs, then starts it as a success', async () => {
    const h = harness('Liveness', { periodSeconds: 10, failureThreshold: 1 }, ['failure', 'success']);
    await h.begin();
    await h.advance(30);
    expect(h.runs).toEqual([0]);
    expect(h.published).toEqual([
      [0, 'c1', 'success'],
      [0, 'c1', 'failure'],
    ]);
    h.setView({
      kind: 'present',
      containerID: 'c2',
      running: true,
      terminated: false,
      startedAtMs: h.clock.now(),
      started: true,
      deleting: false,
      restartNever: false,
    });
    await h.advance(10);
    expect(h.runs).toEqual([0, 40]);
    expect(h.published.slice(2)).toEqual([
      [40, 'c2', 'success'],
      [40, 'c2', 'success'],
    ]);
    h.worker.stop();
  });

  it('runs liveness only after the container started, and the startup probe only before', async () => {
    const notStarted: ContainerView = {
      kind: 'present',
      containerID: 'c1',
      running: true,
      terminated: false,
      startedAtMs: START,
      started: false,
      deleting: false,
      restartNever: false,
    };
    const liveness = harness('Liveness', { periodSeconds: 10 }, ['success']);
    const startup = harness('Startup', { periodSeconds: 10 }, ['success']);
    liveness.setView(notStarted);
    startup.setView(notStarted);
    await liveness.begin();
    await startup.begin();
    await liveness.advance(10);
    await startup.advance(10);
    expect(liveness.runs).toEqual([]);
    expect(startup.runs).toEqual([0, 10]);
    liveness.setView({ ...notStarted, started: true });
    startup.setView({ ...notStarted, started: true });
    await liveness.advance(10);
    await startup.advance(10);
    expect(liveness.runs).toEqual([20]);
    expect(startup.runs).toEqual([0, 10]);
    liveness.worker.stop();
    startup.worker.stop();
  });

  it('ends with a success for a pod being deleted, and when the pod is gone', async () => {
    const h = harness('Liveness', {}, ['failure']);
    h.setView({ kind: 'present', containerID: 'c1', running: true, terminated: false, startedAtMs: START, started: true, deleting: true, restartNever: false });
    await h.begin();
    await h.advance(0);
    await flush();
    expect(h.published).toEqual([
      [0, 'c1', 'success'],
      [0, 'c1', 'success'],
    ]);
    expect(h.ended()).toBe(true);
    expect(h.runs).toEqual([]);
    expect(h.clock.pendingTimers).toBe(0);
  });
});
