/**
 * The Job controller end to end: real API server, kubelet-sim, scheduler, the job,
 * ttl-after-finished and garbage-collector loops in process on a clock 60× faster than wall
 * time (a Job pod's 1 s run takes ~17 ms).
 */
import { describe, expect, it } from 'vitest';
import { type Job, jobDefinition } from '../../apiserver/api/batch/index.js';
import { podDefinition } from '../../apiserver/api/core/pod.js';
import { createRealClock } from '../../apiserver/api/machinery/clock.js';
import { COMPLETION_INDEX_ANNOTATION, JOB_TRACKING_FINALIZER } from '../../controllers/job/index.js';
import { batchClusterOptions } from '../support/batch-cluster.js';
import { eventually } from '../support/eventually.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const NS = 'default';
const SPEED = 60;

function job(name: string, spec: Partial<Job['spec']> = {}, annotations: Record<string, string> = {}): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: NS },
    spec: {
      template: { metadata: { annotations }, spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } },
      ...spec,
    },
  };
}

describe('Job controller', () => {
  const cluster = useTestCluster({
    lifetime: 'file',
    ...batchClusterOptions({ names: ['job', 'ttl-after-finished', 'garbage-collector'], clock: createRealClock({ speed: SPEED }) }),
  });
  const jobs = () => cluster.client.resource(jobDefinition);
  const podsOf = async (name: string) =>
    (await cluster.client.resource(podDefinition).list({ namespace: NS, labelSelector: `batch.kubernetes.io/job-name=${name}` })).items;
  const condition = (j: Job, type: string) => j.status?.conditions?.find((c) => c.type === type);
  const waitFor = (name: string, type: string, timeoutMs = 15_000) =>
    eventually(
      async () => {
        const current = await jobs().get(NS, name);
        expect(condition(current, type)?.status).toBe('True');
        return current;
      },
      { timeoutMs },
    );

  it('defaults the Job and generates its selector and template labels on create', async () => {
    const created = await jobs().create(job('defaults', { suspend: true }));
    const uid = created.metadata.uid ?? '';
    expect(created.spec).toMatchObject({ completions: 1, parallelism: 1, backoffLimit: 6, completionMode: 'NonIndexed', suspend: true, manualSelector: false });
    expect(created.spec.selector).toEqual({ matchLabels: { 'batch.kubernetes.io/controller-uid': uid } });
    expect(created.spec.template.metadata?.labels).toMatchObject({ 'batch.kubernetes.io/job-name': 'defaults', 'controller-uid': uid, 'job-name': 'defaults' });
    await expect(jobs().create(job('bad', { template: { spec: { containers: [{ name: 'c', image: 'x' }], restartPolicy: 'Always' } } }))).rejects.toThrow(
      /restartPolicy/,
    );
  });

  it('runs completions 3 at parallelism 2 to Complete with SuccessCriteriaMet and completionTime', async () => {
    await jobs().create(job('three', { completions: 3, parallelism: 2 }));
    const done = await waitFor('three', 'Complete');
    expect(done.status).toMatchObject({ succeeded: 3, ready: 0, terminating: 0 });
    expect(done.status?.active).toBeUndefined();
    expect(condition(done, 'SuccessCriteriaMet')).toMatchObject({ status: 'True', reason: 'CompletionsReached' });
    expect(condition(done, 'Complete')).toMatchObject({ reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' });
    expect(Date.parse(done.status?.completionTime ?? '')).toBeGreaterThanOrEqual(Date.parse(done.status?.startTime ?? ''));
    const pods = await podsOf('three');
    expect(pods).toHaveLength(3);
    for (const pod of pods) expect(pod.metadata.finalizers ?? []).not.toContain(JOB_TRACKING_FINALIZER);
  });

  it('fails a Job whose pods keep failing once backoffLimit is exceeded', async () => {
    await jobs().create(job('failing', { backoffLimit: 1 }, { 'kubesim.io/crash-after-seconds': '1', 'kubesim.io/run-seconds': '10' }));
    const failed = await waitFor('failing', 'Failed', 20_000);
    expect(failed.status?.failed).toBe(2);
    expect(condition(failed, 'Failed')).toMatchObject({ reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' });
    expect(condition(failed, 'FailureTarget')).toMatchObject({ status: 'True', reason: 'BackoffLimitExceeded' });
    expect(failed.status?.completionTime).toBeUndefined();
  });

  it('gives Indexed Job pods their completion index as annotation, label and JOB_COMPLETION_INDEX', async () => {
    await jobs().create(job('indexed', { completions: 3, parallelism: 3, completionMode: 'Indexed' }));
    const done = await waitFor('indexed', 'Complete');
    expect(done.status?.completedIndexes).toBe('0-2');
    const pods = await podsOf('indexed');
    expect(pods.map((p) => p.metadata.annotations?.[COMPLETION_INDEX_ANNOTATION]).sort()).toEqual(['0', '1', '2']);
    for (const pod of pods) {
      const index = pod.metadata.annotations?.[COMPLETION_INDEX_ANNOTATION];
      expect(pod.metadata.name).toMatch(new RegExp(`^indexed-${index}-`));
      expect(pod.metadata.labels?.[COMPLETION_INDEX_ANNOTATION]).toBe(index);
      expect(pod.spec.hostname).toBe(`indexed-${index}`);
      expect(pod.spec.containers[0]?.env).toContainEqual({
        name: 'JOB_COMPLETION_INDEX',
        valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: `metadata.annotations['${COMPLETION_INDEX_ANNOTATION}']` } },
      });
    }
  });

  it('suspends (no pods, Suspended) and resumes to completion', async () => {
    await jobs().create(job('paused', { suspend: true, completions: 2 }));
    const suspended = await waitFor('paused', 'Suspended');
    expect(condition(suspended, 'Suspended')).toMatchObject({ reason: 'JobSuspended' });
    expect(suspended.status?.startTime).toBeUndefined();
    expect(await podsOf('paused')).toHaveLength(0);
    await jobs().patch(NS, 'paused', { spec: { suspend: false } }, { type: 'merge' });
    const done = await waitFor('paused', 'Complete');
    expect(condition(done, 'Suspended')).toMatchObject({ status: 'False', reason: 'JobResumed' });
  });

  it('fails a Job active longer than activeDeadlineSeconds, terminating its pods', async () => {
    await jobs().create(job('slow', { activeDeadlineSeconds: 5 }, { 'kubesim.io/run-seconds': '600' }));
    const failed = await waitFor('slow', 'Failed');
    expect(condition(failed, 'Failed')).toMatchObject({ reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' });
    expect(failed.status?.failed ?? 0).toBe(0);
  });

  it('fails at once on a podFailurePolicy FailJob rule', async () => {
    const policy = { rules: [{ action: 'FailJob' as const, onExitCodes: { operator: 'In' as const, values: [42] } }] };
    await jobs().create(
      job(
        'policy',
        { podFailurePolicy: policy, backoffLimit: 6 },
        { 'kubesim.io/crash-after-seconds': '1', 'kubesim.io/run-seconds': '10', 'kubesim.io/exit-code': '42' },
      ),
    );
    const failed = await waitFor('policy', 'Failed');
    expect(condition(failed, 'Failed')?.reason).toBe('PodFailurePolicy');
    expect(condition(failed, 'Failed')?.message).toMatch(
      /^Container main for pod default\/policy-\w+ failed with exit code 42 matching FailJob rule at index 0$/,
    );
  });

  it('deletes a finished Job after ttlSecondsAfterFinished, and the garbage collector its pods', async () => {
    await jobs().create(job('short-lived', { ttlSecondsAfterFinished: 5 }));
    await waitFor('short-lived', 'Complete');
    await eventually(
      async () =>
        expect(
          await jobs()
            .get(NS, 'short-lived')
            .catch(() => undefined),
        ).toBeUndefined(),
      { timeoutMs: 15_000 },
    );
    await eventually(async () => expect(await podsOf('short-lived')).toHaveLength(0), { timeoutMs: 15_000 });
  });
});
