import { describe, expect, it } from 'vitest';
import type { ReplicaSet } from '../../apiserver/api/apps/replica-set.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { FakeClock } from '../../apiserver/api/machinery/clock.js';
import { calculateStatus, REPLICA_FAILURE, statusNeedsUpdate } from './status.js';

const START = Date.parse('2026-01-01T00:00:00Z');

function replicaSet(overrides: { replicas?: number; minReadySeconds?: number; status?: ReplicaSet['status'] } = {}): ReplicaSet {
  return {
    metadata: { name: 'web', namespace: 'default', uid: 'rs-uid', generation: 3 },
    spec: {
      replicas: overrides.replicas ?? 3,
      minReadySeconds: overrides.minReadySeconds ?? 0,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web', tier: 'front' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } },
    },
    ...(overrides.status ? { status: overrides.status } : {}),
  };
}

function pod(name: string, options: { labels?: Record<string, string>; readySinceMs?: number } = {}): Pod {
  const result: Pod = {
    metadata: { name, namespace: 'default', labels: options.labels ?? { app: 'web', tier: 'front' } },
    spec: { containers: [{ name: 'app', image: 'nginx' }] },
    status: { phase: 'Running' },
  };
  if (options.readySinceMs !== undefined) {
    result.status!.conditions = [{ type: 'Ready', status: 'True', lastTransitionTime: new Date(options.readySinceMs).toISOString() }];
  }
  return result;
}

describe('calculateStatus', () => {
  it('counts replicas, fully labeled, ready and terminating pods and observes the generation', () => {
    const pods = [pod('a', { readySinceMs: START }), pod('b', { labels: { app: 'web' } }), pod('c')];
    const status = calculateStatus(replicaSet(), { activePods: pods, terminatingPods: [pod('d')], nowMs: START });
    expect(status).toEqual({
      replicas: 3,
      fullyLabeledReplicas: 2,
      readyReplicas: 1,
      availableReplicas: 1,
      terminatingReplicas: 1,
      observedGeneration: 3,
    });
  });

  it('counts a ready pod as available only once it has been ready for minReadySeconds', () => {
    const clock = new FakeClock(START);
    const rs = replicaSet({ minReadySeconds: 10 });
    const pods = [pod('a', { readySinceMs: START }), pod('b', { readySinceMs: START + 5_000 })];
    const available = () => calculateStatus(rs, { activePods: pods, terminatingPods: [], nowMs: clock.now() }).availableReplicas;
    expect(available()).toBe(0);
    clock.advance(10_000);
    expect(available()).toBe(0); // exactly minReadySeconds is not yet enough (strictly after)
    clock.advance(1);
    expect(available()).toBe(1);
    clock.advance(5_000);
    expect(available()).toBe(2);
  });

  it('does not count a ready pod without a transition time as available when minReadySeconds > 0', () => {
    const untimed = pod('a');
    untimed.status!.conditions = [{ type: 'Ready', status: 'True' }];
    const status = calculateStatus(replicaSet({ minReadySeconds: 1 }), { activePods: [untimed], terminatingPods: [], nowMs: START });
    expect(status).toMatchObject({ readyReplicas: 1, availableReplicas: 0 });
  });

  it('adds ReplicaFailure with FailedCreate when creating failed', () => {
    const status = calculateStatus(replicaSet(), {
      activePods: [pod('a')],
      terminatingPods: [],
      manageError: new Error('pods "web-" is forbidden: exceeded quota'),
      nowMs: START,
    });
    expect(status.conditions).toEqual([
      {
        type: REPLICA_FAILURE,
        status: 'True',
        reason: 'FailedCreate',
        message: 'pods "web-" is forbidden: exceeded quota',
        lastTransitionTime: '2026-01-01T00:00:00Z',
      },
    ]);
  });

  it('uses FailedDelete when deleting failed, and keeps an existing failure as it was', () => {
    const error = new Error('boom');
    const fresh = calculateStatus(replicaSet({ replicas: 0 }), { activePods: [pod('a')], terminatingPods: [], manageError: error, nowMs: START });
    expect(fresh.conditions?.[0]?.reason).toBe('FailedDelete');
    const later = calculateStatus(replicaSet({ replicas: 0, status: fresh }), {
      activePods: [pod('a')],
      terminatingPods: [],
      manageError: new Error('other'),
      nowMs: START + 60_000,
    });
    expect(later.conditions).toEqual(fresh.conditions);
  });

  it('removes ReplicaFailure once a reconcile succeeds, keeping other conditions', () => {
    const other = { type: 'Other', status: 'True' as const };
    const failing = { type: REPLICA_FAILURE, status: 'True' as const, reason: 'FailedCreate', message: 'x' };
    const status = calculateStatus(replicaSet({ status: { conditions: [other, failing] } }), { activePods: [], terminatingPods: [], nowMs: START });
    expect(status.conditions).toEqual([other]);
    const none = calculateStatus(replicaSet({ status: { conditions: [failing] } }), { activePods: [], terminatingPods: [], nowMs: START });
    expect(none.conditions).toBeUndefined();
  });

  it('does not modify the ReplicaSet', () => {
    const rs = replicaSet({ status: { replicas: 7, conditions: [{ type: 'Other', status: 'True' }] } });
    const before = structuredClone(rs);
    calculateStatus(rs, { activePods: [pod('a')], terminatingPods: [], manageError: new Error('x'), nowMs: START });
    expect(rs).toEqual(before);
  });
});

describe('statusNeedsUpdate', () => {
  const inputs = { activePods: [pod('a', { readySinceMs: START })], terminatingPods: [], nowMs: START };

  it('is false in the steady state and true when a count or the generation moved', () => {
    const rs = replicaSet();
    const next = calculateStatus(rs, inputs);
    expect(statusNeedsUpdate(rs, next)).toBe(true);
    const written = replicaSet({ status: next });
    expect(statusNeedsUpdate(written, calculateStatus(written, inputs))).toBe(false);
    written.metadata.generation = 4;
    expect(statusNeedsUpdate(written, calculateStatus(written, inputs))).toBe(true);
  });

  it('is true when only the conditions changed, whatever their key order', () => {
    const failing = { type: REPLICA_FAILURE, status: 'True' as const, reason: 'FailedCreate', message: 'x' };
    const rs = replicaSet({ status: { ...calculateStatus(replicaSet(), inputs), conditions: [failing] } });
    expect(statusNeedsUpdate(rs, calculateStatus(rs, inputs))).toBe(true);
    const reordered = { message: 'x', reason: 'FailedCreate', status: 'True' as const, type: REPLICA_FAILURE };
    expect(statusNeedsUpdate(rs, { ...rs.status, conditions: [reordered] })).toBe(false);
  });
});
