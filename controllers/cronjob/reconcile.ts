/**
 * The CronJob reconciler (Kubernetes' syncCronJob): refresh status.active and
 * lastSuccessfulTime from the owned Jobs, prune history, then — unless suspended — find the
 * most recent unmet schedule time and, as concurrencyPolicy allows, create its Job, named
 * `<cronjob>-<minutes>`. Idempotent: a Job already made for that minute (seen in the cache,
 * or AlreadyExists from the server after a restart) is adopted into status, never duplicated.
 * Time is the injected clock's; the result requeues for the next schedule time.
 */
import { isAlreadyExists, isNotFound } from '../../apiserver/api/api-error.js';
import type { CronJob, Job } from '../../apiserver/api/batch/index.js';
import { deepEqual } from '../../apiserver/api/deep-equal.js';
import { rfc3339 } from '../../apiserver/api/machinery/time.js';
import { indexByControllerOfKind } from '../runtime/indexers.js';
import { terminalError } from '../runtime/reconciler.js';
import type { Clock, DeepReadonly, EventRecorder, Lister, Reconciler, Request, ResourceClient, Result } from '../runtime/types.js';
import { activeReferences, jobReference, jobsBeyondHistory, lastSuccessfulTime } from './history.js';
import { jobFromTemplate } from './job-from-template.js';
import { compileSchedule, earliestTimeMs, jobNameFor, MAX_MISSED_COUNTED, mostRecentSchedule, nextScheduleMs } from './schedule.js';

/** CRONJOB_UID_INDEX files Jobs under the uid of the CronJob controlling them. */
export const CRONJOB_UID_INDEX = 'cronJobControllerUid';

/** indexByCronJobUid files a Job under its controller's uid when that is a CronJob. */
export const indexByCronJobUid = indexByControllerOfKind('CronJob');

/** CronJobReconcilerDeps: the Job lister must carry CRONJOB_UID_INDEX. */
export interface CronJobReconcilerDeps {
  cronJobLister: Lister<CronJob>;
  jobLister: Lister<Job>;
  cronJobs: ResourceClient<CronJob>;
  jobs: ResourceClient<Job>;
  recorder: EventRecorder;
  clock: Clock;
}

type ReadonlyCronJob = DeepReadonly<CronJob>;
type Status = NonNullable<CronJob['status']>;

/** createCronJobReconciler returns the CronJob controller's Reconciler. */
export function createCronJobReconciler(deps: CronJobReconcilerDeps): Reconciler {
  return { reconcile: (request) => syncCronJob(deps, request) };
}

async function syncCronJob(deps: CronJobReconcilerDeps, request: Request): Promise<Result> {
  const cronJob = deps.cronJobLister.get(request.namespace, request.name);
  if (cronJob === undefined || cronJob.metadata.deletionTimestamp) return {};
  const jobs = deps.jobLister.byIndex(CRONJOB_UID_INDEX, cronJob.metadata.uid ?? '').filter((j) => j.metadata.namespace === request.namespace);
  const status: Status = {
    ...(structuredClone(cronJob.status ?? {}) as Status),
    active: activeReferences(jobs),
    lastSuccessfulTime: lastSuccessfulTime(jobs, cronJob.status?.lastSuccessfulTime),
  };
  await deleteJobs(deps, cronJob, jobsBeyondHistory(cronJob, jobs), 'SuccessfulDelete');
  const cron = parse(deps, cronJob);
  const nowMs = deps.clock.now();
  if (!cronJob.spec.suspend) await scheduleRun(deps, { cronJob, jobs, status, nowMs, cron });
  await writeStatus(deps, cronJob, status);
  const next = nextScheduleMs(cron, deps.clock.now());
  // 100 ms late, as Kubernetes: the clock must have passed the schedule time when we wake.
  return next === undefined || cronJob.spec.suspend ? {} : { requeueAfterMs: next - deps.clock.now() + 100 };
}

function parse(deps: CronJobReconcilerDeps, cronJob: ReadonlyCronJob): ReturnType<typeof compileSchedule> {
  try {
    return compileSchedule(cronJob);
  } catch (err) {
    deps.recorder.event(cronJob, 'Warning', 'UnparseableSchedule', `unparseable schedule: ${JSON.stringify(cronJob.spec.schedule)} : ${String(err)}`);
    throw terminalError(err);
  }
}

interface RunContext {
  cronJob: ReadonlyCronJob;
  jobs: readonly DeepReadonly<Job>[];
  status: Status;
  nowMs: number;
  cron: ReturnType<typeof compileSchedule>;
}

/** scheduleRun creates the Job of the most recent unmet schedule time, if the policy lets it,
 * and records it in `status` (mutated). */
async function scheduleRun(deps: CronJobReconcilerDeps, ctx: RunContext): Promise<void> {
  const { cronJob, status, nowMs } = ctx;
  const decision = mostRecentSchedule(ctx.cron, earliestTimeMs(cronJob, nowMs), nowMs);
  if (decision.scheduledMs === undefined) return;
  if (decision.missed > MAX_MISSED_COUNTED) {
    deps.recorder.event(
      cronJob,
      'Warning',
      'TooManyMissedTimes',
      'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew',
    );
  }
  const scheduledAt = rfc3339(decision.scheduledMs);
  // Already made for this time (the status write that should have said so was lost)?
  if (ctx.jobs.some((job) => job.metadata.name === jobNameFor(cronJob.metadata.name ?? '', decision.scheduledMs ?? 0))) {
    status.lastScheduleTime = scheduledAt;
    return;
  }
  const active = status.active ?? [];
  if (cronJob.spec.concurrencyPolicy === 'Forbid' && active.length > 0) {
    deps.recorder.event(cronJob, 'Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid');
    return;
  }
  if (cronJob.spec.concurrencyPolicy === 'Replace' && active.length > 0) {
    const running = ctx.jobs.filter((job) => active.some((ref) => ref.uid === job.metadata.uid));
    await deleteJobs(deps, cronJob, running, 'SuccessfulDelete');
    status.active = [];
  }
  const job = await createJob(deps, cronJob, decision.scheduledMs);
  if (job) status.active = [...(status.active ?? []).filter((ref) => ref.uid !== job.metadata.uid), jobReference(job)];
  status.lastScheduleTime = scheduledAt;
}

/** createJob creates the Job for `scheduledMs`; AlreadyExists for a Job this CronJob owns
 * means an earlier run (perhaps of a previous controller process) made it: adopt it. */
async function createJob(deps: CronJobReconcilerDeps, cronJob: ReadonlyCronJob, scheduledMs: number): Promise<Job | undefined> {
  const wanted = jobFromTemplate(cronJob, scheduledMs);
  try {
    const created = await deps.jobs.create(wanted);
    deps.recorder.event(cronJob, 'Normal', 'SuccessfulCreate', `Created job ${created.metadata.name}`);
    return created;
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
  const existing = await deps.jobs.get(wanted.metadata.namespace ?? '', wanted.metadata.name ?? '');
  const ours = existing.metadata.ownerReferences?.some((r) => r.uid === cronJob.metadata.uid && r.controller);
  return ours && !existing.status?.conditions?.some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') ? existing : undefined;
}

async function deleteJobs(deps: CronJobReconcilerDeps, cronJob: ReadonlyCronJob, jobs: readonly DeepReadonly<Job>[], reason: string): Promise<void> {
  for (const job of jobs) {
    try {
      await deps.jobs.delete(job.metadata.namespace ?? '', job.metadata.name ?? '', {
        propagationPolicy: 'Background',
        preconditions: { uid: job.metadata.uid ?? '' },
      });
      deps.recorder.event(cronJob, 'Normal', reason, `Deleted job ${job.metadata.name}`);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}

async function writeStatus(deps: CronJobReconcilerDeps, cronJob: ReadonlyCronJob, status: Status): Promise<void> {
  const cleaned = Object.fromEntries(Object.entries(status).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0))) as Status;
  if (deepEqual(cronJob.status ?? {}, cleaned)) return;
  const copy = structuredClone(cronJob) as CronJob;
  copy.status = cleaned;
  try {
    await deps.cronJobs.updateStatus(copy);
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}
