/**
 * scheduler — kubesim's kube-scheduler: watches unscheduled pods, filters and scores nodes
 * with a plugin framework (framework.ts, plugins/), and binds each pod through the
 * pods/binding subresource, explaining every decision in the pod annotation
 * scheduler.kubesim.io/last-decision. Runs as its own process (main.ts, `kubesim scheduler`).
 *
 * May import: controllers/runtime/** and apiserver/api/** only (test/architecture.test.ts).
 * Docs: docs/scheduler.md.
 */
export { runScheduler } from './main.js';
export { registerScheduler, MAX_PENDING_WRITES } from './scheduler.js';
export { scheduleOne, takeSnapshot } from './schedule-one.js';
export { schedulePod, findFeasibleNodes, prioritizeNodes, rankScores, tieBreakHash } from './schedule-pod.js';
export { SchedulingQueue, POD_INITIAL_BACKOFF_MS, POD_MAX_BACKOFF_MS, POD_MAX_IN_UNSCHEDULABLE_MS } from './scheduling-queue.js';
export { AssumedCache, ASSUMED_POD_TTL_MS } from './assumed-cache.js';
export { buildSnapshot, createNodeInfo, NodeInfoCache } from './snapshot.js';
export { fitErrorMessage, ERR_NO_NODES_AVAILABLE } from './fit-error.js';
export { explainDecision, decisionOf, LAST_DECISION_ANNOTATION } from './explain.js';
export { createDefaultProfile } from './profile.js';
export { DEFAULT_SCHEDULER_NAME, shouldSchedule } from './event-handlers.js';
export * from './framework.js';
//# sourceMappingURL=index.js.map