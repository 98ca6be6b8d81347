export const LAST_DECISION_ANNOTATION = 'scheduler.kubesim.io/last-decision';
/** MAX_REJECTED_LISTED and MAX_SCORED_LISTED bound the annotation on big clusters; the rest
 * is summarised by count. */
export const MAX_REJECTED_LISTED = 10;
export const MAX_SCORED_LISTED = 5;
function describeStatus(status) {
    return `${status.plugin}: ${status.reasons.join(', ')}`;
}
/** decisionOf summarises a ScheduleResult (pure). */
export function decisionOf(result) {
    const rejectedEntries = [...result.rejected].slice(0, MAX_REJECTED_LISTED);
    const scores = result.kind === 'Scheduled' ? result.scores : [];
    const decision = {
        result: result.kind,
        ...(result.kind === 'Scheduled' ? { node: result.nodeName } : {}),
        nodes: result.totalNodes,
        feasible: result.totalNodes - result.rejected.size,
        rejected: Object.fromEntries(rejectedEntries.map(([node, status]) => [node, describeStatus(status)])),
        scores: Object.fromEntries(scores.slice(0, MAX_SCORED_LISTED).map((s) => [s.node, { total: s.total, ...s.byPlugin }])),
    };
    const omittedRejected = result.rejected.size - rejectedEntries.length;
    const omittedScores = Math.max(0, scores.length - MAX_SCORED_LISTED);
    if (omittedRejected > 0 || omittedScores > 0)
        decision.omitted = { rejected: omittedRejected, scores: omittedScores };
    return decision;
}
/** explainDecision is the annotation value for a ScheduleResult. */
export function explainDecision(result) {
    return JSON.stringify(decisionOf(result));
}
//# sourceMappingURL=explain.js.map