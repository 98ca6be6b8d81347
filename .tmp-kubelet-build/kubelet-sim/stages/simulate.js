import { applyPlan, emptyMemory, evaluate } from './engine.js';
/** simulate returns the transitions in order; it stops at maxSteps, untilMs, a deletion, or
 * when no stage applies any more. */
export function simulate(options) {
    const steps = [];
    let pod = options.pod;
    let memory = emptyMemory();
    let nowMs = options.startMs;
    while (pod && steps.length < options.maxSteps) {
        const input = { pod, node: options.node, behaviour: options.behaviour, stages: options.stages };
        const evaluation = evaluate({ ...input, nowMs, memory });
        memory = evaluation.memory;
        const plan = evaluation.plan;
        if (!plan)
            break;
        if (options.untilMs !== undefined && nowMs + plan.delayMs > options.untilMs)
            break;
        nowMs += plan.delayMs;
        // Re-evaluate at the due time, as the agent does when its timer fires.
        const due = evaluate({ ...input, nowMs, memory });
        if (!due.plan || due.plan.delayMs > 0)
            continue;
        const result = applyPlan({ ...input, nowMs, memory: due.memory }, due.plan);
        memory = result.memory;
        pod = result.delete ? undefined : { ...pod, status: result.status };
        steps.push({ atMs: nowMs, stage: due.plan.stage, target: due.plan.target, result, pod });
    }
    return steps;
}
//# sourceMappingURL=simulate.js.map