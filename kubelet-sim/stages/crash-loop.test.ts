/**
 * CrashLoopBackOff timings, driven the way the node agent drives the engine: a FakeClock
 * timer per plan, fired by advancing the clock.
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { FakeClock } from '../../apiserver/api/machinery/clock.js';
import { parseBehaviour } from '../behaviour.js';
import { applyPlan, emptyMemory, evaluate } from './engine.js';
import type { PodMemory } from './types.js';

const START_MS = Date.parse('2024-05-01T12:00:00Z');
const NODE = { name: 'node-1', hostIP: '127.0.0.1', podIP: '10.244.1.2' };

function crashingPod(crashAfterSeconds: number): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'crasher', namespace: 'default', uid: 'u-1', annotations: { 'kubesim.io/crash-after-seconds': String(crashAfterSeconds) } },
    spec: { nodeName: 'node-1', restartPolicy: 'Always', containers: [{ name: 'app', image: 'busybox' }] },
    status: { phase: 'Pending' },
  };
}

/** FakeAgent is the node agent's loop with the API replaced by a variable. */
class FakeAgent {
  readonly clock = new FakeClock(START_MS);
  /** Every applied stage with the cluster time it happened at. */
  readonly log: Array<{ atMs: number; stage: string }> = [];
  private memory: PodMemory = emptyMemory();

  constructor(public pod: Pod) {}

  /** sync evaluates now and either applies the due plan (and syncs again) or arms a timer. */
  sync(): void {
    const behaviour = parseBehaviour(this.pod).behaviour;
    const nowMs = this.clock.now();
    const evaluation = evaluate({ pod: this.pod, node: NODE, nowMs, behaviour, memory: this.memory });
    this.memory = evaluation.memory;
    const plan = evaluation.plan;
    if (!plan) return;
    if (plan.delayMs > 0) {
      this.clock.setTimeout(() => this.sync(), plan.delayMs);
      return;
    }
    const result = applyPlan({ pod: this.pod, node: NODE, nowMs, behaviour, memory: this.memory }, plan);
    this.memory = result.memory;
    this.pod = { ...this.pod, status: result.status };
    this.log.push({ atMs: nowMs, stage: plan.stage });
    this.sync();
  }

  /** backoffDelaysMs: how long each CrashLoopBackOff lasted. */
  backoffDelaysMs(): number[] {
    const delays: number[] = [];
    this.log.forEach((entry, i) => {
      const next = this.log[i + 1];
      if (entry.stage === 'container-crash-loop' && next?.stage === 'container-backoff-restart') delays.push(next.atMs - entry.atMs);
    });
    return delays;
  }
}

describe('CrashLoopBackOff with a fake clock', () => {
  it('restarts at once after the first crash, then backs off 10s, 20s, 40s, ... up to 5m', () => {
    const agent = new FakeAgent(crashingPod(1));
    agent.sync();
    agent.clock.advance(30 * 60_000);
    expect(agent.backoffDelaysMs().slice(0, 8)).toEqual([10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000]);
    const stages = agent.log.map((entry) => entry.stage);
    expect(stages.slice(0, 6)).toEqual(['pod-acknowledge', 'container-start', 'container-exit', 'container-restart', 'container-exit', 'container-crash-loop']);
    expect(agent.pod.status?.containerStatuses?.[0]?.restartCount).toBe(agent.log.filter((e) => e.stage.includes('restart')).length);
  });

  it('shows the backoff in the waiting message and keeps the crash in lastState', () => {
    const agent = new FakeAgent(crashingPod(1));
    agent.sync();
    agent.clock.advance(3_000);
    const status = agent.pod.status?.containerStatuses?.[0];
    expect(status?.state?.waiting).toEqual({ reason: 'CrashLoopBackOff', message: 'back-off 10s restarting failed container=app pod=crasher_default(u-1)' });
    expect(status?.lastState?.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(agent.pod.status?.phase).toBe('Running');
  });

  it('forgets the backoff when the container ran for more than 10 minutes', () => {
    const agent = new FakeAgent(crashingPod(11 * 60));
    agent.sync();
    agent.clock.advance(60 * 60_000);
    // Every crash comes more than 10 minutes after the last restart: never CrashLoopBackOff.
    expect(agent.log.some((entry) => entry.stage === 'container-crash-loop')).toBe(false);
    expect(agent.log.filter((entry) => entry.stage === 'container-restart').length).toBeGreaterThanOrEqual(4);
  });
});
