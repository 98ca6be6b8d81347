import { describe, expect, it } from 'vitest';
import { type CronJob, defaultCronJob, validateCronJob } from './cron-job.js';
import { defaultJob, type Job, jobCompletionsText, jobStatusText, validateJob } from './job.js';

const template = { spec: { restartPolicy: 'Never' as const, containers: [{ name: 'c', image: 'busybox' }] } };

describe('Job', () => {
  it('defaults as SetDefaults_Job and generates the selector once it has a uid', () => {
    const job: Job = { metadata: { name: 'pi', uid: 'u1' }, spec: { template } };
    defaultJob(job);
    expect(job.spec).toMatchObject({
      completions: 1,
      parallelism: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      suspend: false,
      manualSelector: false,
      podReplacementPolicy: 'TerminatingOrFailed',
    });
    expect(job.spec.selector).toEqual({ matchLabels: { 'batch.kubernetes.io/controller-uid': 'u1' } });
    expect(job.metadata.labels).toMatchObject({ 'batch.kubernetes.io/job-name': 'pi', 'job-name': 'pi' });
    expect(validateJob(job)).toEqual([]);
  });

  it('leaves completions unset for a work queue (parallelism only)', () => {
    const job: Job = { metadata: { name: 'q' }, spec: { parallelism: 3, template } };
    defaultJob(job);
    expect(job.spec.completions).toBeUndefined();
    expect(jobCompletionsText(job)).toBe('0/1 of 3');
  });

  it('rejects restartPolicy Always, Indexed without completions and a missing selector', () => {
    const job: Job = { metadata: { name: 'bad' }, spec: { completionMode: 'Indexed', template: { spec: { ...template.spec, restartPolicy: 'Always' } } } };
    const fields = validateJob(job).map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['spec.template.spec.restartPolicy', 'spec.completions', 'spec.selector']));
  });

  it('prints STATUS as kube does', () => {
    const job = (type?: string): Job => ({ metadata: {}, spec: { template }, status: type ? { conditions: [{ type, status: 'True' }] } : {} });
    expect([jobStatusText(job('Complete')), jobStatusText(job('Failed')), jobStatusText(job('Suspended')), jobStatusText(job())]).toEqual([
      'Complete',
      'Failed',
      'Suspended',
      'Running',
    ]);
  });
});

describe('CronJob', () => {
  const cronJob = (schedule: string, timeZone?: string): CronJob => ({
    metadata: { name: 'c' },
    spec: { schedule, timeZone, jobTemplate: { spec: { template } } },
  });
  it('defaults Allow, suspend false, history 3/1', () => {
    const cj = cronJob('@hourly');
    defaultCronJob(cj);
    expect(cj.spec).toMatchObject({ concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
    expect(validateCronJob(cj)).toEqual([]);
  });
  it('rejects bad schedules, TZ= in the schedule and unknown zones', () => {
    expect(validateCronJob(cronJob('* * *')).map((e) => e.field)).toEqual(['spec.schedule']);
    expect(validateCronJob(cronJob('TZ=UTC * * * * *'))[0]?.detail).toMatch(/use timeZone field/);
    expect(validateCronJob(cronJob('* * * * *', 'Mars/Base'))[0]?.field).toBe('spec.timeZone');
  });
});
