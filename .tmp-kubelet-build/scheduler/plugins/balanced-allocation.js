/**
 * NodeResourcesBalancedAllocation (kube's BalancedAllocation): prefers nodes whose cpu and
 * memory would be used in similar proportions after placing the pod — score =
 * (1 − standard deviation of the used fractions) × 100. Best-effort pods (no requests) are
 * not scored by it, as in kube, so they do not all pile onto one node.
 */
import { MAX_NODE_SCORE } from '../framework.js';
import { podRequests } from '../resources.js';
import { SCORED_RESOURCES } from './node-resources-fit.js';
export const BALANCED_ALLOCATION = 'NodeResourcesBalancedAllocation';
/** balancedAllocationScore scores `node` for a pod requesting `requests` (actual requests,
 * not the non-zero defaults). */
export function balancedAllocationScore(requests, node) {
    const fractions = [];
    for (const name of SCORED_RESOURCES) {
        const capacity = node.allocatable[name] ?? 0;
        if (capacity === 0)
            continue;
        fractions.push(Math.min(1, ((node.requested[name] ?? 0) + (requests[name] ?? 0)) / capacity));
    }
    const mean = fractions.reduce((sum, f) => sum + f, 0) / (fractions.length || 1);
    const variance = fractions.reduce((sum, f) => sum + (f - mean) ** 2, 0) / (fractions.length || 1);
    return Math.trunc((1 - Math.sqrt(variance)) * MAX_NODE_SCORE);
}
/** isBestEffort is true when the pod requests no cpu or memory at all. */
function isBestEffort(requests) {
    return SCORED_RESOURCES.every((name) => !requests[name]);
}
/** createBalancedAllocationScorer returns the scorer (kube's default weight 1). */
export function createBalancedAllocationScorer(weight = 1) {
    return {
        name: BALANCED_ALLOCATION,
        weight,
        score(_state, pod, node) {
            const requests = podRequests(pod);
            return isBestEffort(requests) ? 0 : balancedAllocationScore(requests, node);
        },
    };
}
//# sourceMappingURL=balanced-allocation.js.map