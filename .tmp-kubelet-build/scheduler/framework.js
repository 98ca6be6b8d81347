/** MAX_NODE_SCORE is the top of every plugin's normalized score (kube's MaxNodeScore). */
export const MAX_NODE_SCORE = 100;
/** StatusCodes are the answers a filter can give (kube's framework.Code, minus the ones we do
 * not need). Unschedulable means preemption could help; UnschedulableAndUnresolvable means
 * nothing done to this node's pods would. */
export const StatusCodes = {
    Unschedulable: 'Unschedulable',
    UnschedulableAndUnresolvable: 'UnschedulableAndUnresolvable',
    Error: 'Error',
};
/** rejection builds a Status; plugins call it with their own name. */
export function rejection(plugin, code, ...reasons) {
    return { code, reasons, plugin };
}
/** createStateKey returns a fresh key; plugins keep theirs in a module constant. */
export function createStateKey(name) {
    return { name };
}
/**
 * CycleState knows how to carry data between the phases of one scheduling attempt (a plugin's
 * preFilter result to its filter, preScore to score). It lives for one attempt only.
 */
export class CycleState {
    entries = new Map();
    write(key, value) {
        this.entries.set(key, value);
    }
    read(key) {
        return this.entries.get(key);
    }
}
/**
 * normalizeScores is kube's DefaultNormalizeScore: scales scores so the highest becomes
 * MAX_NODE_SCORE (or, with `reverse`, so the highest becomes 0 and 0 becomes the max). All
 * zero stays all zero (all MAX_NODE_SCORE when reversed).
 */
export function normalizeScores(scores, reverse) {
    const max = scores.reduce((m, s) => Math.max(m, s.score), 0);
    for (const entry of scores) {
        if (max === 0)
            entry.score = reverse ? MAX_NODE_SCORE : 0;
        else {
            const scaled = Math.trunc((MAX_NODE_SCORE * entry.score) / max);
            entry.score = reverse ? MAX_NODE_SCORE - scaled : scaled;
        }
    }
}
//# sourceMappingURL=framework.js.map