/**
 * CronJob scheduling arithmetic (Kubernetes' getNextScheduleTime / mostRecentScheduleTime),
 * on croner's pattern matcher driven by the cluster clock — never croner's own timers. Pure:
 * every function takes "now" as an argument.
 */
import type { Cron } from 'croner';
import { type CronJob, parseSchedule } from '../../apiserver/api/batch/index.js';
import type { DeepReadonly } from '../runtime/types.js';

/** MAX_MISSED_COUNTED: beyond this many missed start times Kubernetes warns TooManyMissedTimes. */
export const MAX_MISSED_COUNTED = 100;

/** ScheduleDecision: the most recent unmet schedule time (if any) and how many were missed. */
export interface ScheduleDecision {
  scheduledMs?: number;
  /** Schedule times in (earliest, now], counted up to MAX_MISSED_COUNTED + 1. */
  missed: number;
}

/** compileSchedule parses a CronJob's schedule in its timeZone (UTC when unset). Throws on a
 * pattern croner rejects. */
export function compileSchedule(cronJob: DeepReadonly<CronJob>): Cron {
  return parseSchedule(cronJob.spec.schedule, cronJob.spec.timeZone);
}

/** earliestTimeMs is where missed schedules are searched from: the last schedule time (or
 * creation), but no earlier than now − startingDeadlineSeconds. */
export function earliestTimeMs(cronJob: DeepReadonly<CronJob>, nowMs: number): number {
  const from = cronJob.status?.lastScheduleTime ?? cronJob.metadata.creationTimestamp;
  let earliest = from ? Date.parse(from) : nowMs;
  const deadline = cronJob.spec.startingDeadlineSeconds;
  if (deadline !== undefined) earliest = Math.max(earliest, nowMs - deadline * 1000);
  return earliest;
}

/** mostRecentSchedule returns the latest schedule time in (earliestMs, nowMs] and the count
 * of schedule times in that window (capped). */
export function mostRecentSchedule(cron: Cron, earliestMs: number, nowMs: number): ScheduleDecision {
  const latest = cron.previousRuns(1, new Date(nowMs + 1))[0]?.getTime();
  if (latest === undefined || latest <= earliestMs) return { missed: 0 };
  let missed = 0;
  for (let t = cron.nextRun(new Date(earliestMs)); t && t.getTime() <= latest && missed <= MAX_MISSED_COUNTED; t = cron.nextRun(t)) missed++;
  return { scheduledMs: latest, missed };
}

/** nextScheduleMs is the first schedule time strictly after nowMs (undefined if none). */
export function nextScheduleMs(cron: Cron, nowMs: number): number | undefined {
  return cron.nextRun(new Date(nowMs))?.getTime();
}

/** jobNameFor names the Job of one schedule time: `<cronjob>-<minutes since the epoch>`, so a
 * second attempt for the same time (a restarted controller) collides instead of duplicating. */
export function jobNameFor(cronJobName: string, scheduledMs: number): string {
  return `${cronJobName}-${Math.floor(scheduledMs / 60_000)}`;
}
