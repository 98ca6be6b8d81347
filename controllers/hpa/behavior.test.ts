/**
 * Scaling behavior: stabilization windows and rate policies, driven sync by sync on a
 * FakeClock the way the reconciler drives them (recommendation → normalize → remember the
 * recommendation → record the scale event).
 */
import { describe, expect, it } from 'vitest';
import type { HorizontalPodAutoscalerBehavior } from '../../apiserver/api/autoscaling/horizontal-pod-autoscaler-behavior.js';
import { FakeClock } from '../../apiserver/api/machinery/clock.js';
import {
  calculateScaleDownLimit,
  calculateScaleUpLimit,
  longestPolicyPeriodSeconds,
  type Normalization,
  normalizeDesiredReplicasWithBehaviors,
  resolveScalingRules,
} from './behavior.js';
import { EMPTY_HISTORY, recordScaleEvent, type ScalingHistory, withInitialRecommendation } from './scaling-history.js';
import { NOW_MS } from './testing/fixtures.js';

const SYNC_MS = 15_000;

/** The seed document's behavior block. */
const SEED_BEHAVIOR: HorizontalPodAutoscalerBehavior = {
  scaleDown: { stabilizationWindowSeconds: 300, policies: [{ type: 'Percent', value: 10, periodSeconds: 60 }] },
  scaleUp: { stabilizationWindowSeconds: 0, policies: [{ type: 'Percent', value: 100, periodSeconds: 60 }] },
};

interface LoopOptions {
  behavior?: HorizontalPodAutoscalerBehavior;
  currentReplicas: number;
  minReplicas?: number;
  maxReplicas?: number;
}

/** createLoop is an HPA's sync loop reduced to the behavior: every sync normalizes a given
 * recommendation against the history and "scales" the target to the result. */
function createLoop(options: LoopOptions) {
  const clock = new FakeClock(NOW_MS);
  const rules = resolveScalingRules(options.behavior, 300_000);
  let current = options.currentReplicas;
  let history: ScalingHistory = withInitialRecommendation(EMPTY_HISTORY, current, clock.now());
  const changes: Array<{ atSeconds: number; replicas: number }> = [];
  const sync = (recommendation: number): Normalization => {
    const nowMs = clock.now();
    const result = normalizeDesiredReplicasWithBehaviors({
      currentReplicas: current,
      desiredReplicas: recommendation,
      minReplicas: options.minReplicas ?? 1,
      maxReplicas: options.maxReplicas ?? 100,
      ...rules,
      history,
      nowMs,
    });
    history = { ...history, recommendations: result.recommendations };
    if (result.desiredReplicas !== current) {
      history = recordScaleEvent(history, {
        previousReplicas: current,
        newReplicas: result.desiredReplicas,
        retainSeconds: longestPolicyPeriodSeconds(rules),
        nowMs,
      });
      current = result.desiredReplicas;
      changes.push({ atSeconds: (nowMs - NOW_MS) / 1000, replicas: current });
    }
    return result;
  };
  return {
    clock,
    changes,
    get current() {
      return current;
    },
    sync,
    /** run syncs every 15 s for `seconds` with the same recommendation; returns the last result. */
    run(recommendation: number, seconds: number): Normalization | undefined {
      let last: Normalization | undefined;
      for (let elapsed = 0; elapsed < seconds * 1000; elapsed += SYNC_MS) {
        last = sync(recommendation);
        clock.advance(SYNC_MS);
      }
      return last;
    },
  };
}

describe('default behavior (no spec.behavior)', () => {
  it('scales up by max(4 pods, 100%) per 15 s, without a window', () => {
    const loop = createLoop({ currentReplicas: 1 });
    const first = loop.sync(10);
    expect(first.desiredReplicas).toBe(5);
    expect(first.scalingLimited).toMatchObject({ status: 'True', reason: 'ScaleUpLimit' });
    expect(first.ableToScale).toMatchObject({ reason: 'ReadyForNewScale' });
    loop.clock.advance(SYNC_MS);
    expect(loop.sync(10).desiredReplicas).toBe(10);
    loop.clock.advance(SYNC_MS);
    loop.sync(40);
    expect(loop.current).toBe(20); // 100% beats 4 pods once above 4
  });

  it('scales down only after 300 s, then straight to the recommendation', () => {
    const loop = createLoop({ currentReplicas: 10 });
    const held = loop.run(2, 300);
    expect(loop.current).toBe(10);
    expect(held?.ableToScale).toMatchObject({ status: 'True', reason: 'ScaleDownStabilized' });
    loop.run(2, 15);
    expect(loop.changes).toEqual([{ atSeconds: 300, replicas: 2 }]);
  });
});

describe("the seed's behavior block", () => {
  it('doubles at once on load (140% of a 70% target: 3 → 6)', () => {
    const loop = createLoop({ behavior: SEED_BEHAVIOR, currentReplicas: 3, minReplicas: 2, maxReplicas: 10 });
    expect(loop.sync(6)).toMatchObject({ desiredReplicas: 6, scalingLimited: { status: 'False', reason: 'DesiredWithinRange' } });
  });

  it('holds for the 5-minute window after the load drops, then sheds 10% per minute', () => {
    const loop = createLoop({ behavior: SEED_BEHAVIOR, currentReplicas: 3, minReplicas: 2, maxReplicas: 10 });
    loop.run(6, 60);
    loop.run(3, 600);
    // Last recommendation of 6 at 45 s; one exactly a window old no longer counts, so the
    // window lets go at 45 + 300 s; then 6 × 0.9 → 5, 5 × 0.9 → 4, 4 × 0.9 → 3, one per 60 s.
    expect(loop.changes).toEqual([
      { atSeconds: 0, replicas: 6 },
      { atSeconds: 345, replicas: 5 },
      { atSeconds: 405, replicas: 4 },
      { atSeconds: 465, replicas: 3 },
    ]);
  });

  it('reports ScaleDownLimit while the policy slows the descent', () => {
    const loop = createLoop({ behavior: SEED_BEHAVIOR, currentReplicas: 6, minReplicas: 2 });
    loop.clock.advance(301_000); // past the window of the seeded recommendation
    const result = loop.sync(2);
    expect(result).toMatchObject({ desiredReplicas: 5, scalingLimited: { status: 'True', reason: 'ScaleDownLimit' } });
    loop.clock.advance(SYNC_MS);
    expect(loop.sync(2)).toMatchObject({ desiredReplicas: 5, scalingLimited: { status: 'True', reason: 'ScaleDownLimit' } });
  });
});

describe('stabilization windows', () => {
  it('scales up only as far as the lowest recommendation in the scale-up window', () => {
    const loop = createLoop({ behavior: { scaleUp: { stabilizationWindowSeconds: 60 } }, currentReplicas: 2 });
    const first = loop.sync(5);
    expect(first).toMatchObject({ desiredReplicas: 2, ableToScale: { reason: 'ScaleUpStabilized' } });
    loop.clock.advance(SYNC_MS);
    loop.run(5, 60);
    // The seeded 2 (t=0) is exactly a window old at 60 s, and no longer counts.
    expect(loop.changes).toEqual([{ atSeconds: 60, replicas: 5 }]);
  });

  it('scales down only as far as the highest recommendation in the scale-down window', () => {
    const loop = createLoop({ behavior: { scaleDown: { stabilizationWindowSeconds: 60 } }, currentReplicas: 10 });
    loop.clock.advance(61_000);
    loop.sync(8);
    loop.clock.advance(SYNC_MS);
    expect(loop.sync(4)).toMatchObject({ desiredReplicas: 8, ableToScale: { reason: 'ScaleDownStabilized' } });
    expect(loop.current).toBe(8);
  });

  it('keeps only recommendations still inside a window', () => {
    const loop = createLoop({ currentReplicas: 3 });
    const result = loop.run(3, 600);
    expect(result?.recommendations.length).toBeLessThanOrEqual(300 / 15 + 1);
  });
});

describe('rate policies', () => {
  const events = { scaleUpEvents: [], scaleDownEvents: [], nowMs: NOW_MS };
  const rules = (selectPolicy: string, policies: Array<{ type: string; value: number; periodSeconds: number }>) => ({
    stabilizationWindowSeconds: 0,
    selectPolicy,
    policies,
  });
  const podsAndPercent = (pods: number, percent: number) => [
    { type: 'Pods', value: pods, periodSeconds: 60 },
    { type: 'Percent', value: percent, periodSeconds: 60 },
  ];

  it('Max picks the policy allowing the biggest change', () => {
    expect(calculateScaleUpLimit(10, rules('Max', podsAndPercent(4, 100)), events)).toBe(20);
    expect(calculateScaleDownLimit(10, rules('Max', podsAndPercent(4, 50)), events)).toBe(5);
  });

  it('Min picks the policy allowing the smallest change', () => {
    expect(calculateScaleUpLimit(10, rules('Min', podsAndPercent(4, 100)), events)).toBe(14);
    expect(calculateScaleDownLimit(10, rules('Min', podsAndPercent(4, 50)), events)).toBe(6);
  });

  it('Disabled forbids the direction', () => {
    expect(calculateScaleUpLimit(10, rules('Disabled', podsAndPercent(4, 100)), events)).toBe(10);
    const loop = createLoop({ behavior: { scaleDown: { selectPolicy: 'Disabled', stabilizationWindowSeconds: 0 } }, currentReplicas: 10 });
    expect(loop.sync(2)).toMatchObject({ desiredReplicas: 10, scalingLimited: { status: 'True', reason: 'ScaleDownLimit' } });
  });

  it('rounds Percent up when growing and down when shrinking', () => {
    expect(calculateScaleUpLimit(3, rules('Max', [{ type: 'Percent', value: 10, periodSeconds: 60 }]), events)).toBe(4);
    expect(calculateScaleDownLimit(3, rules('Max', [{ type: 'Percent', value: 10, periodSeconds: 60 }]), events)).toBe(2);
  });

  it('counts the changes already made within each policy period', () => {
    const loop = createLoop({ behavior: { scaleUp: { policies: [{ type: 'Pods', value: 2, periodSeconds: 60 }] } }, currentReplicas: 2 });
    loop.run(10, 180);
    // +2 per 60 s: an event exactly one period old no longer counts.
    expect(loop.changes).toEqual([
      { atSeconds: 0, replicas: 4 },
      { atSeconds: 60, replicas: 6 },
      { atSeconds: 120, replicas: 8 },
    ]);
  });

  it('measures a period from the count at its start, scale downs included', () => {
    const up = [{ replicaChange: 2, timestampMs: NOW_MS - 10_000 }];
    const down = [{ replicaChange: 3, timestampMs: NOW_MS - 20_000 }];
    // start = 10 − 2 + 3 = 11; 100% → 22
    expect(
      calculateScaleUpLimit(10, rules('Max', [{ type: 'Percent', value: 100, periodSeconds: 60 }]), {
        scaleUpEvents: up,
        scaleDownEvents: down,
        nowMs: NOW_MS,
      }),
    ).toBe(22);
  });
});

describe('min/max clamp', () => {
  it('reports TooManyReplicas when maxReplicas, not the rate, limits', () => {
    const loop = createLoop({ currentReplicas: 4, maxReplicas: 6 });
    expect(loop.sync(12)).toMatchObject({ desiredReplicas: 6, scalingLimited: { status: 'True', reason: 'TooManyReplicas' } });
  });

  it('reports TooFewReplicas when minReplicas limits', () => {
    const loop = createLoop({ behavior: { scaleDown: { stabilizationWindowSeconds: 0 } }, currentReplicas: 4, minReplicas: 3 });
    expect(loop.sync(1)).toMatchObject({ desiredReplicas: 3, scalingLimited: { status: 'True', reason: 'TooFewReplicas' } });
  });

  it('reports DesiredWithinRange (False) otherwise', () => {
    const loop = createLoop({ currentReplicas: 4 });
    expect(loop.sync(4).scalingLimited).toEqual({ status: 'False', reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' });
  });
});

describe('resolveScalingRules', () => {
  it('defaults absent behavior and takes the controller window for scale down', () => {
    const rules = resolveScalingRules(undefined, 120_000);
    expect(rules.scaleUp).toMatchObject({ stabilizationWindowSeconds: 0, selectPolicy: 'Max' });
    expect(rules.scaleUp.policies).toHaveLength(2);
    expect(rules.scaleDown).toMatchObject({
      stabilizationWindowSeconds: 120,
      selectPolicy: 'Max',
      policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
    });
  });

  it('keeps what the HPA sets', () => {
    expect(resolveScalingRules(SEED_BEHAVIOR, 300_000).scaleDown).toMatchObject({
      stabilizationWindowSeconds: 300,
      policies: [{ type: 'Percent', value: 10, periodSeconds: 60 }],
    });
  });
});
