/**
 * controllers/cronjob — the CronJob controller: creates a Job named `<cronjob>-<minutes>` for
 * each schedule time (croner computes the times from the injected cluster clock), honours
 * concurrencyPolicy, startingDeadlineSeconds and suspend, prunes history, and reports
 * active/lastScheduleTime/lastSuccessfulTime. May import: controllers/runtime/** and
 * apiserver/api/** only. Docs: docs/controllers.md.
 */
export { CRONJOB_CONTROLLER_NAME, CRONJOB_EVENT_SOURCE, registerCronJobController } from './cronjob-controller.js';
export { activeReferences, finishedType, jobReference, jobsBeyondHistory, lastSuccessfulTime } from './history.js';
export { cronJobControllerRef, jobFromTemplate, SCHEDULED_TIMESTAMP_ANNOTATION } from './job-from-template.js';
export { CRONJOB_UID_INDEX, type CronJobReconcilerDeps, createCronJobReconciler, indexByCronJobUid } from './reconcile.js';
export { compileSchedule, earliestTimeMs, jobNameFor, MAX_MISSED_COUNTED, mostRecentSchedule, nextScheduleMs, type ScheduleDecision } from './schedule.js';
