import { describe, expect, it } from 'vitest';
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { PodDisruptionBudget } from '../../apiserver/api/policy/pod-disruption-budget.js';
import { activeDisruptedPods, computeBudgetStatus, DELETION_TIMEOUT_MS, desiredHealthyOf, needsControllerScale, syncFailedStatus } from './status.js';

const NOW = Date.parse('2025-01-01T00:10:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

function pod(name: string, { ready = true, terminating = false } = {}): Pod {
  return {
    metadata: { name, namespace: 'default', labels: { app: 'web' }, ...(terminating ? { deletionTimestamp: iso(NOW) } : {}) },
    spec: { containers: [] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  } as Pod;
}

function pdb(spec: Partial<PodDisruptionBudget['spec']>, status?: Partial<PodDisruptionBudget['status']>): PodDisruptionBudget {
  return {
    metadata: { name: 'web', namespace: 'default', generation: 2 },
    spec: { selector: { matchLabels: { app: 'web' } }, ...spec },
    ...(status ? { status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, ...status } } : {}),
  } as PodDisruptionBudget;
}

describe('desiredHealthyOf', () => {
  it.each([
    [{ minAvailable: 2 }, 3, 2],
    [{ minAvailable: '50%' }, 3, 2],
    [{ minAvailable: '50%' }, 4, 2],
    [{ minAvailable: '100%' }, 5, 5],
    [{ maxUnavailable: 1 }, 3, 2],
    [{ maxUnavailable: '30%' }, 4, 2],
    [{ maxUnavailable: 5 }, 3, 0],
    [{}, 3, 0],
  ])('%j of %i expected pods → %i', (spec, expected, desired) => {
    expect(desiredHealthyOf(spec, expected)).toBe(desired);
  });

  it('needs the controllers’ scale for percentages and maxUnavailable only', () => {
    expect(needsControllerScale({ minAvailable: 2 })).toBe(false);
    expect(needsControllerScale({ minAvailable: '50%' })).toBe(true);
    expect(needsControllerScale({ maxUnavailable: 0 })).toBe(true);
  });
});

describe('computeBudgetStatus', () => {
  it('allows currentHealthy − desiredHealthy disruptions with SufficientPods', () => {
    const { status, recheckAtMs } = computeBudgetStatus(pdb({ minAvailable: 2 }), { pods: [pod('a'), pod('b'), pod('c')], expectedCount: 3, nowMs: NOW });
    expect(status).toMatchObject({ currentHealthy: 3, desiredHealthy: 2, expectedPods: 3, disruptionsAllowed: 1, observedGeneration: 2 });
    expect(status.conditions).toEqual([
      { type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods', message: '', observedGeneration: 2, lastTransitionTime: iso(NOW) },
    ]);
    expect(status.disruptedPods).toBeUndefined();
    expect(recheckAtMs).toBeUndefined();
  });

  it('counts neither unready, terminating nor just-evicted pods as healthy, and never goes negative', () => {
    const pods = [pod('a'), pod('b', { ready: false }), pod('c', { terminating: true }), pod('d')];
    const budget = pdb({ minAvailable: 2 }, { disruptedPods: { d: iso(NOW - 1000) } });
    const { status, recheckAtMs } = computeBudgetStatus(budget, { pods, expectedCount: 4, nowMs: NOW });
    expect(status).toMatchObject({ currentHealthy: 1, desiredHealthy: 2, disruptionsAllowed: 0, disruptedPods: { d: iso(NOW - 1000) } });
    expect(status.conditions?.[0]).toMatchObject({ status: 'False', reason: 'InsufficientPods' });
    expect(recheckAtMs).toBe(NOW - 1000 + DELETION_TIMEOUT_MS);
  });

  it('allows nothing when no pods are expected', () => {
    expect(computeBudgetStatus(pdb({ maxUnavailable: 1 }), { pods: [], expectedCount: 0, nowMs: NOW }).status.disruptionsAllowed).toBe(0);
  });

  it('keeps the condition’s transition time while its status holds', () => {
    const old = [{ type: 'DisruptionAllowed', status: 'True' as const, reason: 'SufficientPods', message: '', lastTransitionTime: '2024-01-01T00:00:00Z' }];
    const { status } = computeBudgetStatus(pdb({ maxUnavailable: 1 }, { conditions: old }), { pods: [pod('a'), pod('b')], expectedCount: 2, nowMs: NOW });
    expect(status.conditions?.[0]?.lastTransitionTime).toBe('2024-01-01T00:00:00Z');
  });
});

describe('activeDisruptedPods', () => {
  it('drops entries older than the deletion timeout, of pods gone or terminating', () => {
    const disrupted = { fresh: iso(NOW - 1000), stale: iso(NOW - DELETION_TIMEOUT_MS - 1000), gone: iso(NOW), dying: iso(NOW) };
    const pods = [pod('fresh'), pod('stale'), pod('dying', { terminating: true })];
    expect(activeDisruptedPods(pods, disrupted, NOW)).toEqual({ pods: { fresh: iso(NOW - 1000) }, recheckAtMs: NOW - 1000 + DELETION_TIMEOUT_MS });
  });
});

describe('syncFailedStatus', () => {
  it('allows no disruption and says why', () => {
    const status = syncFailedStatus(pdb({ maxUnavailable: 1 }, { disruptionsAllowed: 2, currentHealthy: 3 }), 'found no controller ref for pod "x"', NOW);
    expect(status).toMatchObject({ disruptionsAllowed: 0, currentHealthy: 3 });
    expect(status.conditions?.[0]).toMatchObject({ status: 'False', reason: 'SyncFailed', message: 'found no controller ref for pod "x"' });
  });
});
