import { describe, expect, it } from 'vitest';
import type { Job } from '../../apiserver/api/batch/index.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { rfc3339 } from '../../apiserver/api/machinery/time.js';
import { formatIndexes, missingIndexes, parseIndexes } from './indexes.js';
import { COMPLETION_INDEX_ANNOTATION, JOB_TRACKING_FINALIZER } from './job-pods.js';
import { backoffDelayMs, planPods } from './manage-plan.js';
import { matchPodFailurePolicy } from './pod-failure-policy.js';
import { podForJob } from './pod-template.js';
import { computeJobStatus } from './status.js';
import { trackPods } from './track-pods.js';

const NOW = Date.parse('2024-01-01T00:10:00Z');

function job(spec: Partial<Job['spec']> = {}, status?: Job['status']): Job {
  return {
    metadata: { name: 'j', namespace: 'ns', uid: 'job-uid' },
    spec: {
      completions: 3,
      parallelism: 2,
      backoffLimit: 2,
      completionMode: 'NonIndexed',
      template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main' }] } },
      ...spec,
    },
    status,
  };
}

function pod(uid: string, phase: string, options: { finalizer?: boolean; index?: number; exitCode?: number } = {}): Pod {
  return {
    metadata: {
      name: `p-${uid}`,
      namespace: 'ns',
      uid,
      finalizers: options.finalizer === false ? [] : [JOB_TRACKING_FINALIZER],
      annotations: options.index === undefined ? {} : { [COMPLETION_INDEX_ANNOTATION]: String(options.index) },
    },
    spec: { containers: [{ name: 'main' }] },
    status: {
      phase,
      containerStatuses:
        options.exitCode === undefined ? [] : [{ name: 'main', state: { terminated: { exitCode: options.exitCode, finishedAt: '2024-01-01T00:09:59Z' } } }],
    },
  } as unknown as Pod;
}

const status = (j: Job, pods: Pod[], pending = new Set<string>()) => {
  const tracking = trackPods({ job: j, pods, pendingRemovals: pending });
  return { tracking, result: computeJobStatus({ job: j, pods, tracking, nowMs: NOW }) };
};

describe('completion indexes', () => {
  it('round-trips interval lists and finds the lowest missing indexes', () => {
    expect(formatIndexes([5, 1, 3, 4, 7])).toBe('1,3-5,7');
    expect([...parseIndexes('1,3-5,7', 6)]).toEqual([1, 3, 4, 5]);
    expect(missingIndexes({ completions: 6, completed: new Set([0, 2]), active: new Set([1]), limit: 2 })).toEqual([3, 4]);
  });
});

describe('finished-pod tracking and status', () => {
  it('records finished pods as uncounted first, then folds them once their finalizer is gone', () => {
    const first = status(job(), [pod('a', 'Succeeded'), pod('b', 'Running')]);
    expect(first.result.status.uncountedTerminatedPods).toEqual({ succeeded: ['a'] });
    expect(first.result.status.succeeded).toBeUndefined();
    expect(first.tracking.release.map((p) => p.metadata.uid)).toEqual(['a']);
    const next = status(job({}, first.result.status), [pod('a', 'Succeeded', { finalizer: false }), pod('b', 'Running')]);
    expect(next.result.status).toMatchObject({ succeeded: 1, active: 1, uncountedTerminatedPods: {} });
  });

  it('never records a pod twice while its finalizer removal is pending', () => {
    const folded = job({}, { succeeded: 1 });
    expect(status(folded, [pod('a', 'Succeeded')], new Set(['a'])).result.status.succeeded).toBe(1);
  });

  it('decides BackoffLimitExceeded when failures exceed backoffLimit, then Failed once pods are gone', () => {
    const pods = [pod('a', 'Failed', { exitCode: 1 }), pod('b', 'Failed', { exitCode: 1 }), pod('c', 'Failed', { exitCode: 1 })];
    const { result } = status(job(), pods);
    expect(result.outcome?.reason).toBe('BackoffLimitExceeded');
    expect(result.finished).toBe(false);
    const after = status(
      job({}, result.status),
      pods.map((p) => ({ ...p, metadata: { ...p.metadata, finalizers: [] } })),
    );
    expect(after.result.finished).toBe(true);
    expect(after.result.status.conditions?.map((c) => c.type)).toEqual(['FailureTarget', 'Failed']);
    expect(after.result.status.completionTime).toBeUndefined();
  });

  it('completes with SuccessCriteriaMet then Complete and a completionTime', () => {
    const done = job({}, { succeeded: 3, startTime: '2024-01-01T00:00:00Z' });
    const { result } = status(done, []);
    expect(result.status.conditions?.map((c) => [c.type, c.reason])).toEqual([
      ['SuccessCriteriaMet', 'CompletionsReached'],
      ['Complete', 'CompletionsReached'],
    ]);
    expect(result.status.completionTime).toBe(rfc3339(NOW));
  });

  it('counts Indexed completions by index', () => {
    const j = job({ completionMode: 'Indexed', completions: 2 });
    const { result } = status(j, [pod('a', 'Succeeded', { index: 1 }), pod('b', 'Succeeded', { index: 1 })]);
    expect(result.status.completedIndexes).toBe('1');
    expect(result.outcome).toBeUndefined();
  });

  it('suspends without a startTime and restarts it on resume', () => {
    const suspended = status(job({ suspend: true }), []).result;
    expect(suspended.status.startTime).toBeUndefined();
    expect(suspended.status.conditions?.[0]).toMatchObject({ type: 'Suspended', status: 'True', reason: 'JobSuspended' });
    const resumed = status(job({ suspend: false }, suspended.status), []).result;
    expect(resumed.status.conditions?.[0]).toMatchObject({ type: 'Suspended', status: 'False', reason: 'JobResumed' });
    expect(resumed.status.startTime).toBe(rfc3339(NOW));
  });

  it('fails past activeDeadlineSeconds', () => {
    const { result } = status(job({ activeDeadlineSeconds: 60 }, { startTime: '2024-01-01T00:00:00Z' }), [pod('a', 'Running')]);
    expect(result.outcome?.reason).toBe('DeadlineExceeded');
  });
});

describe('pod failure policy', () => {
  const policy = {
    rules: [
      { action: 'Ignore' as const, onExitCodes: { operator: 'In' as const, values: [3] } },
      { action: 'FailJob' as const, onExitCodes: { operator: 'NotIn' as const, values: [0, 3] } },
    ],
  };
  it('ignores matching failures and fails the Job on a FailJob match', () => {
    expect(matchPodFailurePolicy(job({ podFailurePolicy: policy }), pod('a', 'Failed', { exitCode: 3 })).action).toBe('Ignore');
    const fail = matchPodFailurePolicy(job({ podFailurePolicy: policy }), pod('a', 'Failed', { exitCode: 5 }));
    expect(fail).toEqual({ action: 'FailJob', message: 'Container main for pod ns/p-a failed with exit code 5 matching FailJob rule at index 1' });
    const { tracking } = status(job({ podFailurePolicy: policy }), [pod('x', 'Failed', { exitCode: 3 })]);
    expect(tracking.uncountedFailed.size).toBe(0);
    expect(tracking.release).toHaveLength(1);
  });
});

describe('planPods', () => {
  const tracking = (j: Job, pods: Pod[]) => trackPods({ job: j, pods, pendingRemovals: new Set() });
  it('keeps min(parallelism, remaining completions) active', () => {
    const j = job({}, { succeeded: 2 });
    expect(planPods(j, [], tracking(j, []), NOW).create).toHaveLength(1);
    const fresh = job();
    expect(planPods(fresh, [pod('a', 'Running')], tracking(fresh, [pod('a', 'Running')]), NOW).create).toHaveLength(1);
  });
  it('creates the lowest missing indexes for Indexed Jobs', () => {
    const j = job({ completionMode: 'Indexed', completions: 4, parallelism: 2 }, { completedIndexes: '0' });
    const pods = [pod('a', 'Running', { index: 1, finalizer: true })];
    expect(planPods(j, pods, tracking(j, pods), NOW).create).toEqual([2]);
  });
  it('waits out the pod backoff after failures', () => {
    expect([1, 2, 3, 10].map(backoffDelayMs)).toEqual([10_000, 20_000, 40_000, 360_000]);
    const j = job({}, { failed: 1 });
    const pods = [pod('a', 'Failed', { exitCode: 1, finalizer: false })];
    expect(planPods(j, pods, tracking(j, pods), NOW)).toEqual({ create: [], remove: [], requeueAfterMs: 9_000 });
  });
});

describe('podForJob', () => {
  it('labels, owns, tracks and indexes the pod', () => {
    const p = podForJob(job({ completionMode: 'Indexed' }), 2);
    expect(p.metadata.generateName).toBe('j-2-');
    expect(p.metadata.finalizers).toEqual([JOB_TRACKING_FINALIZER]);
    expect(p.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Job', uid: 'job-uid', controller: true });
    expect(p.spec.hostname).toBe('j-2');
    expect(p.spec.containers[0]?.env?.[0]?.name).toBe('JOB_COMPLETION_INDEX');
  });
});
