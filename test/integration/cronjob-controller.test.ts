/**
 * The CronJob controller end to end (real server, kubelet-sim, scheduler, job and cronjob
 * loops in process). The clock runs 60× faster, so `*\/1 * * * *` fires every wall second.
 * The seed drill — run the controller twice within a minute, still at most one Job for that
 * minute — runs on a clock 10× faster, set just before a minute boundary.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { type CronJob, cronJobDefinition, jobDefinition } from '../../apiserver/api/batch/index.js';
import { jobNameFor } from '../../controllers/cronjob/index.js';
import { type BatchCluster, clockAt, startBatchCluster } from '../support/batch-cluster.js';
import { eventually } from '../support/eventually.js';

const NS = 'default';

function cronJob(name: string, spec: Partial<CronJob['spec']> = {}, annotations: Record<string, string> = {}): CronJob {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name, namespace: NS },
    spec: {
      schedule: '*/1 * * * *',
      jobTemplate: {
        spec: { template: { metadata: { annotations }, spec: { restartPolicy: 'OnFailure', containers: [{ name: 'main', image: 'busybox' }] } } },
      },
      ...spec,
    },
  };
}

describe('CronJob controller', () => {
  const envs: BatchCluster[] = [];
  afterAll(async () => {
    await Promise.all(envs.map((env) => env.stop()));
  });
  const start = async (speed: number, atMs = Date.now()) => {
    const env = await startBatchCluster({ names: ['job', 'cronjob'], clock: clockAt(atMs, speed) });
    envs.push(env);
    return env;
  };
  const jobsOf = async (env: BatchCluster, cj: string) =>
    (await env.client.resource(jobDefinition).list({ namespace: NS })).items.filter((j) => j.metadata.ownerReferences?.some((r) => r.name === cj));

  it('creates Jobs named <cronjob>-<minutes>, records status, and prunes history to the limits', async () => {
    const env = await start(60);
    await env.client.resource(cronJobDefinition).create(cronJob('every-minute', { successfulJobsHistoryLimit: 2 }));
    const jobs = await eventually(
      async () => {
        const list = await jobsOf(env, 'every-minute');
        const complete = list.filter((j) => j.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True'));
        expect(complete.length).toBe(2);
        return list;
      },
      { timeoutMs: 20_000 },
    );
    for (const job of jobs) {
      const scheduled = Date.parse(job.metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp'] ?? '');
      expect(job.metadata.name).toBe(jobNameFor('every-minute', scheduled));
    }
    // More runs follow, and the successful history is pruned back to 2 each time.
    const firstNames = new Set(jobs.map((j) => j.metadata.name));
    await eventually(
      async () => {
        const later = await jobsOf(env, 'every-minute');
        const kept = later.filter((j) => j.status?.conditions?.some((c) => c.type === 'Complete') && !j.metadata.deletionTimestamp);
        expect(kept.filter((j) => !firstNames.has(j.metadata.name)).length).toBeGreaterThan(0);
        expect(kept.length).toBeLessThanOrEqual(2);
      },
      { timeoutMs: 20_000 },
    );
    const cj = await env.client.resource(cronJobDefinition).get(NS, 'every-minute');
    expect(cj.status?.lastScheduleTime).toMatch(/:00Z$/);
    expect(cj.status?.lastSuccessfulTime).toBeDefined();
    expect(cj.spec).toMatchObject({ concurrencyPolicy: 'Allow', suspend: false, failedJobsHistoryLimit: 1 });
  });

  it('Forbid skips a run while the previous Job is still active', async () => {
    const env = await start(60);
    await env.client.resource(cronJobDefinition).create(cronJob('forbid', { concurrencyPolicy: 'Forbid' }, { 'kubesim.io/run-seconds': '600' }));
    await eventually(async () => expect(await jobsOf(env, 'forbid')).toHaveLength(1), { timeoutMs: 10_000 });
    // Wait for three more schedule times to pass on the cluster clock.
    const threeMinutesLater = env.clock.now() + 3 * 60_000;
    await eventually(() => expect(env.clock.now()).toBeGreaterThan(threeMinutesLater), { timeoutMs: 10_000, intervalMs: 100 });
    expect(await jobsOf(env, 'forbid')).toHaveLength(1);
    const cj = await env.client.resource(cronJobDefinition).get(NS, 'forbid');
    expect(cj.status?.active).toHaveLength(1);
  });

  it('the seed drill: two runs of the controller within one minute make at most one Job for it', async () => {
    // 3 s of cluster time before a minute boundary, 4× fast: the minute lasts 15 s of wall time,
    // room for three controller starts even on a loaded machine.
    const boundary = Math.ceil(Date.now() / 60_000) * 60_000 + 60_000;
    const env = await startBatchCluster({ names: ['job'], clock: clockAt(boundary - 3000, 4) });
    envs.push(env);
    await env.client.resource(cronJobDefinition).create(cronJob('drill', {}, { 'kubesim.io/run-seconds': '600' }));
    const first = env.startControllers(['cronjob']);
    const expected = jobNameFor('drill', boundary);
    await eventually(async () => expect((await jobsOf(env, 'drill')).map((j) => j.metadata.name)).toEqual([expected]), { timeoutMs: 10_000 });
    await first.stop();
    // Forget that it ran (as if the status write had been lost), then run the loop again.
    const cj = await env.client.resource(cronJobDefinition).get(NS, 'drill');
    await env.client.resource(cronJobDefinition).updateStatus({ ...cj, status: {} });
    const second = env.startControllers(['cronjob']);
    const third = env.startControllers(['cronjob']); // and a concurrent copy, without leader election
    await eventually(async () => expect((await env.client.resource(cronJobDefinition).get(NS, 'drill')).status?.lastScheduleTime).toBeDefined());
    expect(env.clock.now()).toBeLessThan(boundary + 60_000); // still the same minute
    expect((await jobsOf(env, 'drill')).map((j) => j.metadata.name)).toEqual([expected]);
    await Promise.all([second.stop(), third.stop()]);
  });
});
