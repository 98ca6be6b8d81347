/**
 * Status and condition transitions, driven by a FakeClock: the tables of
 * deployment_util_test.go (DeploymentComplete, DeploymentProgressing, DeploymentTimedOut) and
 * the Progressing/Available life cycle of progress.go.
 */
import { describe, expect, it } from 'vitest';
import type { Deployment } from '../../apiserver/api/apps/deployment.js';
import { FakeClock } from '../../apiserver/api/machinery/clock.js';
import { rfc3339 } from '../../apiserver/api/machinery/time.js';
import { deploymentComplete, deploymentProgressing, deploymentTimedOut, pausedConditionUpdate, rolloutStatus, stuckRequeueAfterMs } from './progress.js';
import { calculateStatus, type DeploymentStatus, getCondition, sameStatus, setCondition } from './status.js';
import { deploymentFixture, replicaSetFixture } from './testing/fixtures.js';

const START = Date.parse('2016-01-01T00:00:00Z');

describe('deploymentComplete (TestDeploymentComplete)', () => {
  it.each([
    { name: 'min but not all pods available', d: [5, 5, 5, 4, 1, 0], want: false },
    { name: 'min availability not honored', d: [5, 5, 5, 3, 1, 0], want: false },
    { name: 'complete', d: [5, 5, 5, 5, 0, 0], want: true },
    { name: 'all available but not updated', d: [5, 5, 4, 5, 0, 0], want: false },
    { name: 'still running old pods', d: [1, 2, 1, 1, 0, 1], want: false },
    { name: 'one replica never comes up', d: [1, 1, 1, 0, 1, 1], want: false },
  ])('$name', ({ d: [replicas, current, updated, available, unavailable, surge], want }) => {
    const d = deploymentFixture({ replicas, maxUnavailable: unavailable, maxSurge: surge });
    const status = { replicas: current, updatedReplicas: updated, availableReplicas: available, observedGeneration: 1 };
    expect(deploymentComplete(d, status)).toBe(want);
  });
});

describe('deploymentProgressing (TestDeploymentProgressing)', () => {
  const withStatus = ([replicas, updatedReplicas, readyReplicas, availableReplicas]: number[]) => ({
    replicas,
    updatedReplicas,
    readyReplicas,
    availableReplicas,
  });
  it.each([
    { name: 'updated pods', old: [10, 4, 4, 4], next: [10, 6, 4, 4], want: true },
    { name: 'not progressing', old: [10, 4, 4, 4], next: [10, 4, 4, 4], want: false },
    { name: 'old pods removed', old: [10, 4, 6, 6], next: [8, 4, 6, 6], want: true },
    { name: 'fewer new pods', old: [10, 7, 3, 3], next: [10, 6, 3, 3], want: false },
    { name: 'fewer overall but more new pods', old: [10, 4, 7, 7], next: [8, 8, 5, 5], want: true },
    { name: 'more ready pods', old: [10, 10, 9, 8], next: [10, 10, 10, 8], want: true },
    { name: 'more available pods', old: [10, 10, 10, 9], next: [10, 10, 10, 10], want: true },
  ])('$name', ({ old, next, want }) => {
    const d = deploymentFixture();
    d.status = withStatus(old);
    expect(deploymentProgressing(d, withStatus(next))).toBe(want);
  });
});

describe('deploymentTimedOut (TestDeploymentTimedOut)', () => {
  const at = (minute: number, second: number) => Date.parse(`2016-01-01T00:0${minute}:${String(second).padStart(2, '0')}Z`);
  const withCondition = (deadline: number | undefined, reason: string, fromMs: number) => {
    const d = deploymentFixture({ progressDeadlineSeconds: deadline });
    const status: DeploymentStatus = {
      conditions: [{ type: 'Progressing', status: 'True', reason, lastUpdateTime: rfc3339(fromMs) }],
    };
    return { d, status };
  };
  it.each([
    { name: 'no deadline', deadline: undefined, from: at(1, 9), now: at(1, 20), reason: '', want: false },
    { name: 'infinite deadline', deadline: 2_147_483_647, from: at(1, 9), now: at(1, 20), reason: '', want: false },
    { name: '10s deadline, 11s since progress', deadline: 10, from: at(1, 9), now: at(1, 20), reason: '', want: true },
    { name: '10s deadline, 9s since progress', deadline: 10, from: at(1, 11), now: at(1, 20), reason: '', want: false },
    { name: 'previous rollout complete', deadline: 10, from: at(0, 0), now: at(9, 0), reason: 'NewReplicaSetAvailable', want: false },
  ])('$name', ({ deadline, from, now, reason, want }) => {
    const { d, status } = withCondition(deadline, reason, from);
    expect(deploymentTimedOut(d, status, now)).toBe(want);
  });
});

describe('the Progressing and Available conditions over a rollout', () => {
  /** step plays one syncRolloutStatus: compute, then "write" it into the deployment. */
  const step = (d: Deployment, rss: ReturnType<typeof replicaSetFixture>[], clock: FakeClock) => {
    const status = rolloutStatus(rss, rss[0], d, clock.now());
    const changed = !sameStatus(d.status, status);
    d.status = status;
    return changed;
  };

  it('moves from ReplicaSetUpdated to NewReplicaSetAvailable, keeping lastTransitionTime', () => {
    const clock = new FakeClock(START);
    const d = deploymentFixture({ replicas: 2, maxUnavailable: 1, maxSurge: 1, progressDeadlineSeconds: 600 });
    setCondition((d.status ??= {}), {
      type: 'Progressing',
      status: 'True',
      reason: 'NewReplicaSetCreated',
      message: 'x',
      lastUpdateTime: rfc3339(START),
      lastTransitionTime: rfc3339(START),
    });
    clock.advance(5_000);
    const newRS = replicaSetFixture('foo-new', { replicas: 2, statusReplicas: 1 });
    step(d, [newRS], clock);
    const progressing = getCondition(d.status, 'Progressing');
    expect(progressing).toMatchObject({ reason: 'ReplicaSetUpdated', message: 'ReplicaSet "foo-new" is progressing.' });
    expect(progressing?.lastUpdateTime).toBe(rfc3339(START + 5_000));
    expect(progressing?.lastTransitionTime).toBe(rfc3339(START));
    expect(getCondition(d.status, 'Available')).toMatchObject({ status: 'False', reason: 'MinimumReplicasUnavailable' });

    clock.advance(5_000);
    step(d, [replicaSetFixture('foo-new', { replicas: 2, available: 2 })], clock);
    expect(getCondition(d.status, 'Progressing')).toMatchObject({
      status: 'True',
      reason: 'NewReplicaSetAvailable',
      message: 'ReplicaSet "foo-new" has successfully progressed.',
      lastTransitionTime: rfc3339(START),
    });
    expect(getCondition(d.status, 'Available')).toMatchObject({
      status: 'True',
      reason: 'MinimumReplicasAvailable',
      message: 'Deployment has minimum availability.',
    });
    expect(d.status).toMatchObject({ observedGeneration: 1, replicas: 2, updatedReplicas: 2, availableReplicas: 2 });
  });

  it('recomputing an unchanged world changes nothing (no write)', () => {
    const clock = new FakeClock(START);
    const d = deploymentFixture({ replicas: 2, maxUnavailable: 1, progressDeadlineSeconds: 600 });
    const rs = replicaSetFixture('foo-new', { replicas: 2, available: 2 });
    step(d, [rs], clock);
    clock.advance(60_000);
    expect(step(d, [rs], clock)).toBe(false);
  });

  it('times out when nothing moves for progressDeadlineSeconds, and says when to look again', () => {
    const clock = new FakeClock(START);
    const d = deploymentFixture({ replicas: 1, maxUnavailable: 1, progressDeadlineSeconds: 2 });
    setCondition((d.status ??= {}), {
      type: 'Progressing',
      status: 'True',
      reason: 'NewReplicaSetCreated',
      message: 'x',
      lastUpdateTime: rfc3339(START),
      lastTransitionTime: rfc3339(START),
    });
    const stuck = replicaSetFixture('foo-new', { replicas: 1, statusReplicas: 1 });
    d.status.replicas = 1;
    d.status.updatedReplicas = 1;
    expect(step(d, [stuck], clock)).toBe(true);
    expect(getCondition(d.status, 'Progressing')?.reason).toBe('NewReplicaSetCreated');
    expect(stuckRequeueAfterMs(d, d.status, clock.now())).toBe(3_000);

    clock.advance(2_000);
    expect(step(d, [stuck], clock)).toBe(false);
    clock.advance(1_000);
    expect(step(d, [stuck], clock)).toBe(true);
    expect(getCondition(d.status, 'Progressing')).toMatchObject({
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
      message: 'ReplicaSet "foo-new" has timed out progressing.',
      lastTransitionTime: rfc3339(START + 3_000),
    });
    expect(stuckRequeueAfterMs(d, d.status, clock.now())).toBeUndefined();
  });

  it('drops Progressing without a deadline and promotes ReplicaFailure', () => {
    const d = deploymentFixture({ replicas: 1 });
    d.status = { conditions: [{ type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated' }] };
    const rs = replicaSetFixture('foo-new', { replicas: 1 });
    rs.status!.conditions = [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'quota', lastTransitionTime: rfc3339(START) }];
    const status = rolloutStatus([rs], rs, d, START);
    expect(getCondition(status, 'Progressing')).toBeUndefined();
    expect(getCondition(status, 'ReplicaFailure')).toMatchObject({ status: 'True', reason: 'FailedCreate', lastUpdateTime: rfc3339(START) });
  });
});

describe('pausing and resuming', () => {
  it('marks Progressing Unknown on pause and resume, but never over a timeout', () => {
    const d = deploymentFixture({ progressDeadlineSeconds: 600, paused: true });
    const paused = pausedConditionUpdate(d, START);
    expect(paused).toMatchObject({ status: 'Unknown', reason: 'DeploymentPaused', message: 'Deployment is paused' });
    d.status = { conditions: [paused!] };
    expect(pausedConditionUpdate(d, START + 1_000)).toBeUndefined();
    d.spec.paused = false;
    expect(pausedConditionUpdate(d, START + 2_000)).toMatchObject({ status: 'Unknown', reason: 'DeploymentResumed', message: 'Deployment is resumed' });
    d.status = { conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }] };
    d.spec.paused = true;
    expect(pausedConditionUpdate(d, START)).toBeUndefined();
  });
});

describe('calculateStatus', () => {
  it('sums the replica sets and never reports negative unavailability', () => {
    const d = deploymentFixture({ replicas: 2, maxUnavailable: 1, generation: 4 });
    const newRS = replicaSetFixture('foo-new', { replicas: 1, available: 1 });
    const oldRS = replicaSetFixture('foo-old', { replicas: 0, statusReplicas: 2, available: 2 });
    const status = calculateStatus([oldRS, newRS], newRS, d, START);
    expect(status).toMatchObject({ observedGeneration: 4, replicas: 3, updatedReplicas: 1, availableReplicas: 3 });
    expect(status.unavailableReplicas).toBeUndefined();
  });
});
