/**
 * The explanation of a pod's last scheduling attempt, kept on the pod in the annotation
 * LAST_DECISION_ANNOTATION so a learner can see why a node won (`kubectl get pod p -o
 * jsonpath='{.metadata.annotations.scheduler\.kubesim\.io/last-decision}'`). It is written
 * with the binding (the API server copies a Binding's annotations onto the pod, as
 * kube-apiserver does) or, for a failed attempt, with a metadata patch. Format: compact
 * JSON, documented in docs/scheduler.md; bounded to a few hundred bytes per node listed.
 */
import type { Status } from './framework.js';
import type { ScheduleResult } from './schedule-pod.js';

export const LAST_DECISION_ANNOTATION = 'scheduler.kubesim.io/last-decision';

/** MAX_REJECTED_LISTED and MAX_SCORED_LISTED bound the annotation on big clusters; the rest
 * is summarised by count. */
export const MAX_REJECTED_LISTED = 10;
export const MAX_SCORED_LISTED = 5;

/** Decision is the annotation's JSON shape (see docs/scheduler.md). */
export interface Decision {
  result: 'Scheduled' | 'Unschedulable';
  /** The chosen node (Scheduled only). */
  node?: string;
  /** Nodes considered, and how many passed every filter. */
  nodes: number;
  feasible: number;
  /** Rejected node → "Plugin: reason[, reason]" (at most MAX_REJECTED_LISTED). */
  rejected: Record<string, string>;
  /** Feasible node → { total, per-plugin normalized 0–100 scores }, best first (at most MAX_SCORED_LISTED). */
  scores: Record<string, Record<string, number>>;
  /** How many rejected / scored nodes were left out to keep the annotation small. */
  omitted?: { rejected: number; scores: number };
}

function describeStatus(status: Status): string {
  return `${status.plugin}: ${status.reasons.join(', ')}`;
}

/** decisionOf summarises a ScheduleResult (pure). */
export function decisionOf(result: ScheduleResult): Decision {
  const rejectedEntries = [...result.rejected].slice(0, MAX_REJECTED_LISTED);
  const scores = result.kind === 'Scheduled' ? result.scores : [];
  const decision: Decision = {
    result: result.kind,
    ...(result.kind === 'Scheduled' ? { node: result.nodeName } : {}),
    nodes: result.totalNodes,
    feasible: result.totalNodes - result.rejected.size,
    rejected: Object.fromEntries(rejectedEntries.map(([node, status]) => [node, describeStatus(status)])),
    scores: Object.fromEntries(scores.slice(0, MAX_SCORED_LISTED).map((s) => [s.node, { total: s.total, ...s.byPlugin }])),
  };
  const omittedRejected = result.rejected.size - rejectedEntries.length;
  const omittedScores = Math.max(0, scores.length - MAX_SCORED_LISTED);
  if (omittedRejected > 0 || omittedScores > 0) decision.omitted = { rejected: omittedRejected, scores: omittedScores };
  return decision;
}

/** explainDecision is the annotation value for a ScheduleResult. */
export function explainDecision(result: ScheduleResult): string {
  return JSON.stringify(decisionOf(result));
}
