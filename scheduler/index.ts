/**
 * scheduler — kubesim's kube-scheduler: watches unscheduled pods, filters and scores nodes
 * with a plugin framework (framework.ts, plugins/), and binds each pod through the
 * pods/binding subresource, explaining every decision in the pod annotation
 * scheduler.kubesim.io/last-decision. Runs as its own process (main.ts, `kubesim scheduler`).
 *
 * May import: controllers/runtime/** and apiserver/api/** only (test/architecture.test.ts).
 * Docs: docs/scheduler.md.
 */

export { ASSUMED_POD_TTL_MS, AssumedCache } from './assumed-cache.js';
export { DEFAULT_SCHEDULER_NAME, shouldSchedule } from './event-handlers.js';
export { type Decision, decisionOf, explainDecision, LAST_DECISION_ANNOTATION } from './explain.js';
export { ERR_NO_NODES_AVAILABLE, fitErrorMessage } from './fit-error.js';
export * from './framework.js';
export { type RunSchedulerOptions, runScheduler } from './main.js';
export { createDefaultProfile } from './profile.js';
export { type ScheduleOneContext, type SchedulerCounters, scheduleOne, takeSnapshot } from './schedule-one.js';
export { findFeasibleNodes, type NodeScoreResult, prioritizeNodes, rankScores, type ScheduleResult, schedulePod, tieBreakHash } from './schedule-pod.js';
export { MAX_PENDING_WRITES, registerScheduler, type Scheduler, type SchedulerOptions } from './scheduler.js';
export {
  POD_INITIAL_BACKOFF_MS,
  POD_MAX_BACKOFF_MS,
  POD_MAX_IN_UNSCHEDULABLE_MS,
  type QueuedPodInfo,
  type QueueStats,
  SchedulingQueue,
} from './scheduling-queue.js';
export { buildSnapshot, createNodeInfo, NodeInfoCache, type Snapshot } from './snapshot.js';
