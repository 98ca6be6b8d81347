import { describe, expect, it } from 'vitest';
import type { CronJob, Job } from '../../apiserver/api/batch/index.js';
import { activeReferences, jobsBeyondHistory, lastSuccessfulTime } from './history.js';
import { jobFromTemplate } from './job-from-template.js';
import { compileSchedule, earliestTimeMs, jobNameFor, mostRecentSchedule, nextScheduleMs } from './schedule.js';

const at = (text: string) => Date.parse(text);

function cronJob(spec: Partial<CronJob['spec']> = {}, status?: CronJob['status']): CronJob {
  return {
    metadata: { name: 'cj', namespace: 'ns', uid: 'cj-uid', creationTimestamp: '2024-01-01T10:00:30Z' },
    spec: {
      schedule: '*/1 * * * *',
      successfulJobsHistoryLimit: 1,
      failedJobsHistoryLimit: 1,
      jobTemplate: { metadata: { labels: { a: 'b' } }, spec: { template: { spec: { containers: [] } } } },
      ...spec,
    },
    status,
  };
}

function job(name: string, type?: 'Complete' | 'Failed', startTime = '2024-01-01T10:00:00Z'): Job {
  return {
    metadata: { name, namespace: 'ns', uid: `${name}-uid` },
    spec: { template: { spec: { containers: [] } } },
    status: { startTime, ...(type ? { conditions: [{ type, status: 'True' }], completionTime: startTime } : {}) },
  } as Job;
}

describe('schedule', () => {
  it('names Jobs <cronjob>-<minutes since the epoch>', () => {
    expect(jobNameFor('cj', at('2024-01-01T10:05:00Z'))).toBe(`cj-${at('2024-01-01T10:05:00Z') / 60_000}`);
  });

  it('finds the most recent unmet time and counts the missed ones', () => {
    const cron = compileSchedule(cronJob());
    expect(mostRecentSchedule(cron, at('2024-01-01T10:00:30Z'), at('2024-01-01T10:00:59Z'))).toEqual({ missed: 0 });
    expect(mostRecentSchedule(cron, at('2024-01-01T10:00:30Z'), at('2024-01-01T10:03:10Z'))).toEqual({ scheduledMs: at('2024-01-01T10:03:00Z'), missed: 3 });
    // Exactly at the schedule time it is due; a second run in that minute finds nothing new.
    expect(mostRecentSchedule(cron, at('2024-01-01T10:02:00Z'), at('2024-01-01T10:03:00Z')).scheduledMs).toBe(at('2024-01-01T10:03:00Z'));
    expect(mostRecentSchedule(cron, at('2024-01-01T10:03:00Z'), at('2024-01-01T10:03:40Z')).scheduledMs).toBeUndefined();
  });

  it('starts from lastScheduleTime, bounded by startingDeadlineSeconds', () => {
    const now = at('2024-01-01T12:00:00Z');
    expect(earliestTimeMs(cronJob({}, { lastScheduleTime: '2024-01-01T11:00:00Z' }), now)).toBe(at('2024-01-01T11:00:00Z'));
    expect(earliestTimeMs(cronJob({ startingDeadlineSeconds: 30 }), now)).toBe(now - 30_000);
  });

  it('reads macros and time zones', () => {
    const hourly = compileSchedule(cronJob({ schedule: '@hourly' }));
    expect(nextScheduleMs(hourly, at('2024-01-01T10:30:00Z'))).toBe(at('2024-01-01T11:00:00Z'));
    const ny = compileSchedule(cronJob({ schedule: '0 9 * * *', timeZone: 'America/New_York' }));
    expect(nextScheduleMs(ny, at('2024-01-01T10:30:00Z'))).toBe(at('2024-01-01T14:00:00Z'));
  });
});

describe('history', () => {
  it('lists active Jobs, the last success, and prunes beyond the limits (oldest first)', () => {
    const jobs = [
      job('old', 'Complete', '2024-01-01T10:00:00Z'),
      job('new', 'Complete', '2024-01-01T10:01:00Z'),
      job('f1', 'Failed', '2024-01-01T10:02:00Z'),
      job('f2', 'Failed', '2024-01-01T10:03:00Z'),
      job('run'),
    ];
    expect(activeReferences(jobs).map((r) => r.name)).toEqual(['run']);
    expect(lastSuccessfulTime(jobs, undefined)).toBe('2024-01-01T10:01:00Z');
    expect(jobsBeyondHistory(cronJob(), jobs).map((j) => j.metadata.name)).toEqual(['old', 'f1']);
  });
});

describe('jobFromTemplate', () => {
  it('makes the Job of one schedule time, owned by the CronJob', () => {
    const made = jobFromTemplate(cronJob(), at('2024-01-01T10:05:00Z'));
    expect(made.metadata.name).toBe(jobNameFor('cj', at('2024-01-01T10:05:00Z')));
    expect(made.metadata.labels).toEqual({ a: 'b' });
    expect(made.metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp']).toBe('2024-01-01T10:05:00Z');
    expect(made.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'CronJob', uid: 'cj-uid', controller: true });
  });
});
