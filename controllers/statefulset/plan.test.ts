import { describe, expect, it } from 'vitest';
import { createRevision, type PlanInput, type PodView, planSync, resolveMaxUnavailable } from './plan.js';

const pod = (ordinal: number, over: Partial<PodView> = {}): PodView => ({
  ordinal,
  name: `web-${ordinal}`,
  uid: `uid-${ordinal}`,
  revision: 'web-new',
  terminating: false,
  finished: false,
  runningReady: true,
  available: true,
  ...over,
});

const input = (over: Partial<PlanInput>): PlanInput => ({
  replicas: 3,
  start: 0,
  policy: 'OrderedReady',
  strategy: 'RollingUpdate',
  partition: 0,
  maxUnavailable: 1,
  updateRevision: 'web-new',
  pods: [],
  ...over,
});

const summary = (plan: ReturnType<typeof planSync>) => plan.map((a) => (a.type === 'create' ? `create ${a.ordinal}` : `delete ${a.pod.ordinal} (${a.reason})`));

describe('planSync', () => {
  it('OrderedReady creates one pod at a time, lowest ordinal first', () => {
    expect(summary(planSync(input({})))).toEqual(['create 0']);
    expect(summary(planSync(input({ pods: [pod(0, { runningReady: false, available: false })] })))).toEqual([]);
    expect(summary(planSync(input({ pods: [pod(0)] })))).toEqual(['create 1']);
  });

  it('Parallel creates every missing pod at once', () => {
    expect(summary(planSync(input({ policy: 'Parallel', pods: [pod(1, { runningReady: false })] })))).toEqual(['create 0', 'create 2']);
  });

  it('honours ordinals.start', () => {
    expect(summary(planSync(input({ start: 5, replicas: 2, policy: 'Parallel' })))).toEqual(['create 5', 'create 6']);
  });

  it('replaces a failed pod', () => {
    expect(summary(planSync(input({ pods: [pod(0, { finished: true, runningReady: false })] })))).toEqual(['delete 0 (failed)']);
  });

  it('scales down from the highest ordinal, one at a time when ordered', () => {
    const pods = [0, 1, 2, 3, 4].map((n) => pod(n));
    expect(summary(planSync(input({ replicas: 2, pods })))).toEqual(['delete 4 (condemned)']);
    expect(summary(planSync(input({ replicas: 2, pods: [...pods.slice(0, 4), pod(4, { terminating: true })] })))).toEqual([]);
    expect(summary(planSync(input({ replicas: 2, policy: 'Parallel', pods })))).toEqual([
      'delete 4 (condemned)',
      'delete 3 (condemned)',
      'delete 2 (condemned)',
    ]);
  });

  it('waits for unhealthy pods before scaling down when ordered', () => {
    const pods = [pod(0), pod(1), pod(2, { runningReady: false }), pod(3)];
    expect(summary(planSync(input({ replicas: 3, pods })))).toEqual([]);
  });

  it('rolls from the highest ordinal down to the partition', () => {
    const old = [0, 1, 2].map((n) => pod(n, { revision: 'web-old' }));
    expect(summary(planSync(input({ pods: old })))).toEqual(['delete 2 (update)']);
    const mid = [pod(0, { revision: 'web-old' }), pod(1, { revision: 'web-old' }), pod(2)];
    expect(summary(planSync(input({ pods: mid, partition: 1 })))).toEqual(['delete 1 (update)']);
    const done = [pod(0, { revision: 'web-old' }), pod(1), pod(2)];
    expect(summary(planSync(input({ pods: done, partition: 1 })))).toEqual([]);
  });

  it('keeps at most maxUnavailable pods unavailable during an update', () => {
    const old = [0, 1, 2, 3].map((n) => pod(n, { revision: 'web-old' }));
    expect(summary(planSync(input({ replicas: 4, pods: old, maxUnavailable: 2, policy: 'Parallel' })))).toEqual(['delete 3 (update)', 'delete 2 (update)']);
    const oneDown = [...old.slice(0, 3), pod(3, { runningReady: false, available: false })];
    expect(summary(planSync(input({ replicas: 4, pods: oneDown, maxUnavailable: 2, policy: 'Parallel' })))).toEqual(['delete 2 (update)']);
  });

  it('never deletes for an update with OnDelete', () => {
    const old = [0, 1, 2].map((n) => pod(n, { revision: 'web-old' }));
    expect(planSync(input({ pods: old, strategy: 'OnDelete' }))).toEqual([]);
  });
});

describe('createRevision', () => {
  it('recreates ordinals below the partition at the current revision', () => {
    expect(createRevision({ strategy: 'RollingUpdate', start: 0, partition: 2 }, 1)).toBe('current');
    expect(createRevision({ strategy: 'RollingUpdate', start: 0, partition: 2 }, 2)).toBe('update');
    expect(createRevision({ strategy: 'OnDelete', start: 0, partition: 2 }, 0)).toBe('update');
  });
});

describe('resolveMaxUnavailable', () => {
  it('defaults to 1 and rounds percentages down, never below 1', () => {
    expect(resolveMaxUnavailable(undefined, 10)).toBe(1);
    expect(resolveMaxUnavailable(3, 10)).toBe(3);
    expect(resolveMaxUnavailable('50%', 5)).toBe(2);
    expect(resolveMaxUnavailable('10%', 5)).toBe(1);
  });
});
