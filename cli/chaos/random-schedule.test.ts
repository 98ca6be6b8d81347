import { describe, expect, it } from 'vitest';
import { RANDOM_CHAOS_ACTIONS } from '../../apiserver/api/kubesim/chaos.js';
import { type RandomScheduleOptions, randomChaosSchedule } from './random-schedule.js';

const cluster: Omit<RandomScheduleOptions, 'seed'> = {
  durationSeconds: 60,
  components: ['replicaset', 'deployment', 'scheduler', 'kubelet'],
  nodes: ['node-1', 'node-2', 'node-3'],
};

describe('randomChaosSchedule', () => {
  it('is decided by its seed alone: the same seed gives the same run, whatever order targets come in', () => {
    const first = randomChaosSchedule({ ...cluster, seed: 7 });
    const again = randomChaosSchedule({ ...cluster, seed: 7, components: [...cluster.components].reverse(), nodes: [...cluster.nodes].reverse() });
    expect(again).toEqual(first);
    expect(randomChaosSchedule({ ...cluster, seed: 8 })).not.toEqual(first);
  });

  it('disturbs once per interval, at known targets, and undoes everything before the run ends', () => {
    const steps = randomChaosSchedule({ ...cluster, seed: 7, intervalSeconds: 5 });
    expect(steps.map((s) => s.atSeconds)).toEqual([0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55]);
    for (const step of steps) {
      expect(RANDOM_CHAOS_ACTIONS).toContain(step.action);
      expect(step.atSeconds + step.seconds).toBeLessThanOrEqual(60);
      if (step.action === 'stop-node') expect(cluster.nodes).toContain(step.target);
      else if (step.action === 'slow-api') expect(step.latencyMs).toBeGreaterThan(0);
      else expect(cluster.components).toContain(step.target);
      if (step.action === 'kill-loop' || step.action === 'cut-watches') expect(step.seconds).toBe(0);
      else expect(step.seconds).toBeGreaterThan(0);
    }
  });

  it('uses every kind of disturbance over a long run', () => {
    const steps = randomChaosSchedule({ ...cluster, seed: 1, durationSeconds: 600 });
    expect(new Set(steps.map((s) => s.action))).toEqual(new Set(RANDOM_CHAOS_ACTIONS));
  });

  it('leaves out what has no target: no nodes, no stop-node; no components, only slow-api', () => {
    const noNodes = randomChaosSchedule({ ...cluster, seed: 3, durationSeconds: 300, nodes: [] });
    expect(noNodes.some((s) => s.action === 'stop-node')).toBe(false);
    const nothing = randomChaosSchedule({ seed: 3, durationSeconds: 30, components: [], nodes: [] });
    expect(new Set(nothing.map((s) => s.action))).toEqual(new Set(['slow-api']));
  });
});
