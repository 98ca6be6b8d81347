/**
 * The rollout arithmetic, checked against the cases Kubernetes' own tests pin down
 * (deployment_util_test.go, rolling_test.go, sync_test.go), rewritten as tables.
 */
import { describe, expect, it } from 'vitest';
import type { IntOrString } from '../../apiserver/api/machinery/int-or-percent.js';
import { setReplicasAnnotations } from './revision.js';
import {
  getProportion,
  maxScaledDown,
  maxSurge,
  maxUnavailable,
  newReplicaSetTarget,
  newRSNewReplicas,
  oldScaleDownPlan,
  proportionalScalePlan,
  resolveFenceposts,
  unhealthyCleanupPlan,
} from './rolling-math.js';
import { deploymentFixture, replicaSetFixture } from './testing/fixtures.js';

describe('resolveFenceposts (TestResolveFenceposts)', () => {
  it.each([
    { surge: '0%', unavailable: '0%', desired: 0, want: { surge: 0, unavailable: 1 } },
    { surge: '39%', unavailable: '39%', desired: 10, want: { surge: 4, unavailable: 3 } },
    { surge: undefined, unavailable: '39%', desired: 10, want: { surge: 0, unavailable: 3 } },
    { surge: '39%', unavailable: undefined, desired: 10, want: { surge: 4, unavailable: 0 } },
    { surge: undefined, unavailable: undefined, desired: 10, want: { surge: 0, unavailable: 1 } },
    { surge: '25%', unavailable: '25%', desired: 1, want: { surge: 1, unavailable: 0 } },
    { surge: 0, unavailable: '25%', desired: 3, want: { surge: 0, unavailable: 1 } },
  ])('surge $surge / unavailable $unavailable of $desired', ({ surge, unavailable, desired, want }) => {
    expect(resolveFenceposts(surge, unavailable, desired)).toEqual(want);
  });

  it.each([
    ['oops', '39%'],
    ['55%', 'urg'],
  ])('fails on invalid values (%j, %j)', (surge, unavailable) => {
    expect(() => resolveFenceposts(surge, unavailable, 10)).toThrow(RangeError);
  });
});

describe('maxUnavailable (TestMaxUnavailable) and maxSurge', () => {
  it.each<{ name: string; replicas: number; value: IntOrString; want: number }>([
    { name: 'less than replicas', replicas: 10, value: 5, want: 5 },
    { name: 'equal to replicas', replicas: 10, value: 10, want: 10 },
    { name: 'greater than replicas', replicas: 5, value: 10, want: 5 },
    { name: 'with 0 replicas', replicas: 0, value: 10, want: 0 },
    { name: 'less than replicas, percent', replicas: 10, value: '50%', want: 5 },
    { name: 'equal to replicas, percent', replicas: 10, value: '100%', want: 10 },
    { name: 'greater than replicas, percent', replicas: 5, value: '100%', want: 5 },
  ])('maxUnavailable $name', ({ replicas, value, want }) => {
    expect(maxUnavailable(deploymentFixture({ replicas, maxSurge: 1, maxUnavailable: value }))).toBe(want);
  });

  it('is 0 for both under Recreate', () => {
    const recreate = deploymentFixture({ replicas: 10, strategy: 'Recreate' });
    expect([maxUnavailable(recreate), maxSurge(recreate)]).toEqual([0, 0]);
  });

  it('rounds the defaults 25%/25% as kubectl users expect', () => {
    const d = deploymentFixture({ replicas: 3, maxSurge: '25%', maxUnavailable: '25%' });
    expect([maxSurge(d), maxUnavailable(d)]).toEqual([1, 0]);
  });
});

describe('newRSNewReplicas (TestNewRSNewReplicas)', () => {
  it.each([
    { name: 'cannot scale up: stays at newRS replicas', strategy: 'RollingUpdate', replicas: 1, newRS: 5, surge: 1, want: 5 },
    { name: 'scales up to the deployment replicas', strategy: 'RollingUpdate', replicas: 6, newRS: 2, surge: 10, want: 6 },
    { name: 'recreate: the deployment replicas', strategy: 'Recreate', replicas: 3, newRS: 1, surge: 1, want: 3 },
  ] as const)('$name', ({ strategy, replicas, newRS, surge, want }) => {
    const d = deploymentFixture({ replicas, strategy, maxSurge: surge, maxUnavailable: 1 });
    const other = replicaSetFixture('foo-other', { replicas: 5 });
    expect(newRSNewReplicas(d, [other], replicaSetFixture('foo-new', { replicas: newRS }))).toBe(want);
  });
});

describe('newReplicaSetTarget (TestDeploymentController_reconcileNewReplicaSet)', () => {
  it.each([
    { replicas: 10, surge: 0, oldReplicas: 10, newReplicas: 0, want: 0 },
    { replicas: 10, surge: 2, oldReplicas: 10, newReplicas: 0, want: 2 },
    { replicas: 10, surge: 2, oldReplicas: 5, newReplicas: 0, want: 7 },
    { replicas: 10, surge: 2, oldReplicas: 10, newReplicas: 2, want: 2 },
    { replicas: 10, surge: 2, oldReplicas: 2, newReplicas: 11, want: 10 },
  ])('$replicas replicas, surge $surge, old $oldReplicas, new $newReplicas → $want', ({ replicas, surge, oldReplicas, newReplicas, want }) => {
    const d = deploymentFixture({ replicas, maxSurge: surge, maxUnavailable: 0 });
    const newRS = replicaSetFixture('foo-new', { replicas: newReplicas });
    const oldRS = replicaSetFixture('foo-old', { replicas: oldReplicas });
    expect(newReplicaSetTarget(d, [newRS, oldRS], newRS)).toBe(want);
  });
});

describe('scaling down old replica sets (TestDeploymentController_reconcileOldReplicaSets and friends)', () => {
  it.each([
    { maxUnavailable: 0, oldReplicas: 10, newReplicas: 0, oldAvailable: 10, newAvailable: 0, want: 9 },
    { maxUnavailable: 2, oldReplicas: 10, newReplicas: 0, oldAvailable: 10, newAvailable: 0, want: 8 },
    // Unhealthy old replicas are cleaned up first; availability does not get worse.
    { maxUnavailable: 2, oldReplicas: 10, newReplicas: 0, oldAvailable: 8, newAvailable: 0, want: 8 },
    { maxUnavailable: 2, oldReplicas: 10, newReplicas: 0, oldAvailable: 9, newAvailable: 0, want: 8 },
    // The new ReplicaSet's unavailable pods block any further scale down.
    { maxUnavailable: 2, oldReplicas: 8, newReplicas: 2, oldAvailable: 8, newAvailable: 0, want: 8 },
  ])('10 replicas, maxUnavailable $maxUnavailable, old $oldReplicas ($oldAvailable available) → $want', (row) => {
    const d = deploymentFixture({ replicas: 10, maxSurge: 0, maxUnavailable: row.maxUnavailable });
    const oldRS = replicaSetFixture('foo-old', { replicas: row.oldReplicas, available: row.oldAvailable });
    const newRS = replicaSetFixture('foo-new', { replicas: row.newReplicas, available: row.newAvailable });
    expect(scaleDownOld(d, oldRS, newRS)).toBe(row.want);
  });

  it.each([
    { oldReplicas: 10, ready: 8, maxCleanup: 1, want: 1 },
    { oldReplicas: 10, ready: 8, maxCleanup: 3, want: 2 },
    { oldReplicas: 10, ready: 8, maxCleanup: 0, want: 0 },
    { oldReplicas: 10, ready: 10, maxCleanup: 3, want: 0 },
  ])('cleans up at most $maxCleanup of the unhealthy (TestDeploymentController_cleanupUnhealthyReplicas)', ({ oldReplicas, ready, maxCleanup, want }) => {
    const oldRS = replicaSetFixture('foo-v2', { replicas: oldReplicas, available: ready });
    const cleaned = unhealthyCleanupPlan([oldRS], maxCleanup).reduce((n, t) => n + (oldReplicas - t.replicas), 0);
    expect(cleaned).toBe(want);
  });

  it.each([
    { maxUnavailable: 0, available: 10, oldReplicas: 10, want: [9] },
    { maxUnavailable: 2, available: 10, oldReplicas: 10, want: [8] },
    { maxUnavailable: 2, available: 8, oldReplicas: 10, want: [] },
    { maxUnavailable: 2, available: 10, oldReplicas: 0, want: [] },
    { maxUnavailable: 2, available: 1, oldReplicas: 10, want: [] },
  ])('scales old down above minAvailable (TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate) %#', (row) => {
    const d = deploymentFixture({ replicas: 10, maxSurge: 0, maxUnavailable: row.maxUnavailable });
    const oldRS = replicaSetFixture('foo-v2', { replicas: row.oldReplicas, available: row.available });
    expect(oldScaleDownPlan(d, [oldRS], [oldRS]).map((t) => t.replicas)).toEqual(row.want);
  });

  it('takes from the oldest replica set first', () => {
    const d = deploymentFixture({ replicas: 4, maxSurge: 0, maxUnavailable: 2 });
    const older = replicaSetFixture('foo-v1', { replicas: 2, available: 2, created: '2016-05-20T00:00:00Z' });
    const old = replicaSetFixture('foo-v2', { replicas: 2, available: 2, created: '2016-05-20T01:00:00Z' });
    expect(oldScaleDownPlan(d, [old, older], [old, older]).map((t) => [t.rs.metadata.name, t.replicas])).toEqual([['foo-v1', 0]]);
  });
});

/** scaleDown plays reconcileOldReplicaSets on one old and one new ReplicaSet: cleanup of
 * unhealthy replicas, then scale down, returning the old ReplicaSet's final size. */
function scaleDownOld(
  d: ReturnType<typeof deploymentFixture>,
  oldRS: ReturnType<typeof replicaSetFixture>,
  newRS: ReturnType<typeof replicaSetFixture>,
): number {
  const budget = maxScaledDown(d, [oldRS, newRS], newRS);
  if (budget <= 0) return oldRS.spec.replicas ?? 0;
  const cleanup = unhealthyCleanupPlan([oldRS], budget)[0];
  const afterCleanup = structuredClone(oldRS);
  if (cleanup) afterCleanup.spec.replicas = cleanup.replicas;
  const scaleDown = oldScaleDownPlan(d, [afterCleanup, newRS], [afterCleanup])[0];
  return scaleDown?.replicas ?? afterCleanup.spec.replicas ?? 0;
}

describe('proportional scaling (TestScale)', () => {
  const NEW = '2016-05-20T02:00:00Z';
  const OLD = '2016-05-20T01:00:00Z';
  const OLDER = '2016-05-20T00:00:00Z';
  interface Row {
    name: string;
    was: number;
    now: number;
    surge?: [number, number];
    unavailable?: number;
    newRS?: number;
    old: number[];
    want: { newRS?: number; old: number[] };
  }
  it.each<Row>([
    { name: 'normal scaling event: 10 -> 12', was: 10, now: 12, newRS: 10, old: [], want: { newRS: 12, old: [] } },
    { name: 'normal scaling event: 10 -> 5', was: 10, now: 5, newRS: 10, old: [], want: { newRS: 5, old: [] } },
    { name: 'proportional scaling: 5 -> 10', was: 5, now: 10, newRS: 2, old: [3], want: { newRS: 4, old: [6] } },
    { name: 'proportional scaling: 5 -> 3', was: 5, now: 3, newRS: 2, old: [3], want: { newRS: 1, old: [2] } },
    { name: 'proportional scaling: 9 -> 4', was: 9, now: 4, newRS: 8, old: [1], want: { newRS: 4, old: [0] } },
    { name: 'proportional scaling: 7 -> 10', was: 7, now: 10, newRS: 2, old: [3, 2], want: { newRS: 3, old: [4, 3] } },
    { name: 'proportional scaling: 13 -> 8', was: 13, now: 8, newRS: 2, old: [8, 3], want: { newRS: 1, old: [5, 2] } },
    { name: 'leftover distribution: 3 -> 4', was: 3, now: 4, newRS: 1, old: [1, 1], want: { newRS: 2, old: [1, 1] } },
    { name: 'leftover distribution: 3 -> 2', was: 3, now: 2, newRS: 1, old: [1, 1], want: { newRS: 1, old: [1, 0] } },
    { name: 'no new rs: 4 -> 5', was: 4, now: 5, old: [2, 2], want: { old: [3, 2] } },
    { name: 'scales down to zero: 6 -> 0', was: 6, now: 0, newRS: 3, old: [2, 1], want: { newRS: 0, old: [0, 0] } },
    { name: 'deployment with surge pods', was: 10, now: 20, surge: [2, 2], newRS: 6, old: [6], want: { newRS: 11, old: [11] } },
    { name: 'change both surge and size', was: 10, now: 50, surge: [3, 6], newRS: 5, old: [8], want: { newRS: 22, old: [34] } },
  ])('$name', (row) => {
    const [surgeBefore, surgeNow] = row.surge ?? [0, 0];
    const before = deploymentFixture({ replicas: row.was, maxSurge: surgeBefore });
    const d = deploymentFixture({ replicas: row.now, maxSurge: surgeNow });
    const annotate = (rs: ReturnType<typeof replicaSetFixture>) => {
      setReplicasAnnotations(rs, row.was, row.was + maxSurge(before));
      return rs;
    };
    const newRS = row.newRS === undefined ? undefined : annotate(replicaSetFixture('foo-new', { replicas: row.newRS, created: NEW }));
    const oldRSs = row.old.map((n, i) => annotate(replicaSetFixture(`foo-old-${i}`, { replicas: n, created: i === 0 ? OLD : OLDER })));
    const sizes = new Map(proportionalScalePlan(d, newRS, oldRSs).map((t) => [t.rs.metadata.name, t.replicas]));
    const sizeOf = (rs: ReturnType<typeof replicaSetFixture>) => sizes.get(rs.metadata.name) ?? rs.spec.replicas;
    expect({ newRS: newRS && sizeOf(newRS), old: oldRSs.map(sizeOf) }).toEqual(row.want);
  });

  it('falls back to status.replicas without a max-replicas annotation', () => {
    const d = deploymentFixture({ replicas: 10 });
    d.status = { replicas: 5 };
    const rs = replicaSetFixture('foo-v1', { replicas: 3 });
    expect(getProportion(rs, d, { toAdd: 5, added: 0, statusReplicas: 5 })).toBe(3);
  });
});
