/**
 * NodeResourcesFit (kube's noderesources Fit plugin) with its default LeastAllocated scoring.
 * Filter: the pod's requests plus what the node's pods (bound and assumed) already request
 * must fit status.allocatable, for cpu, memory and every other resource the pod requests,
 * and the pod count must stay within allocatable pods ("Insufficient cpu", "Too many pods").
 * Score: LeastAllocated — the free share of cpu and memory after placing the pod, averaged.
 */
import { createStateKey, type FilterPlugin, MAX_NODE_SCORE, type NodeInfo, rejection, type ScorePlugin, StatusCodes } from '../framework.js';
import { podNonZeroRequests, podRequests, type ResourceAmounts } from '../resources.js';

export const NODE_RESOURCES_FIT = 'NodeResourcesFit';
/** ERR_REASON_TOO_MANY_PODS is kube's reason text when the node's pod slots are used up. */
export const ERR_REASON_TOO_MANY_PODS = 'Too many pods';

const requestsKey = createStateKey<ResourceAmounts>(`PreFilter${NODE_RESOURCES_FIT}`);

/** insufficientResources lists kube's reasons the pod does not fit `node` (none: it fits). */
export function insufficientResources(requests: ResourceAmounts, node: NodeInfo): string[] {
  const reasons: string[] = [];
  if (node.pods.length + 1 > (node.allocatable['pods'] ?? 0)) reasons.push(ERR_REASON_TOO_MANY_PODS);
  for (const name of checkOrder(requests)) {
    const wanted = requests[name] ?? 0;
    if (wanted > 0 && (node.allocatable[name] ?? 0) < wanted + (node.requested[name] ?? 0)) reasons.push(`Insufficient ${name}`);
  }
  return reasons;
}

const FIRST_CHECKED = ['cpu', 'memory', 'ephemeral-storage'];

/** checkOrder is kube's order of reasons: cpu, memory, ephemeral-storage, then the other
 * (extended) resources by name. The pod count is checked separately. */
function checkOrder(requests: ResourceAmounts): string[] {
  const others = Object.keys(requests).filter((name) => name !== 'pods' && !FIRST_CHECKED.includes(name));
  return [...FIRST_CHECKED.filter((name) => name in requests), ...others.sort()];
}

/** nodeResourcesFitFilter is the NodeResourcesFit filter. */
export const nodeResourcesFitFilter: FilterPlugin = {
  name: NODE_RESOURCES_FIT,
  preFilter(state, pod) {
    state.write(requestsKey, podRequests(pod));
  },
  filter(state, pod, node) {
    const reasons = insufficientResources(state.read(requestsKey) ?? podRequests(pod), node);
    return reasons.length === 0 ? undefined : rejection(NODE_RESOURCES_FIT, StatusCodes.Unschedulable, ...reasons);
  },
};

/** SCORED_RESOURCES are the resources LeastAllocated and BalancedAllocation weigh (kube's
 * defaults: cpu and memory, weight 1 each). */
export const SCORED_RESOURCES = ['cpu', 'memory'] as const;

/** leastAllocatedScore is (allocatable − requested) × 100 / allocatable per resource, using
 * non-zero requests including the incoming pod, averaged; a resource the node lacks scores 0. */
export function leastAllocatedScore(podNonZero: ResourceAmounts, node: NodeInfo): number {
  let total = 0;
  for (const name of SCORED_RESOURCES) {
    const capacity = node.allocatable[name] ?? 0;
    const requested = (node.nonZeroRequested[name] ?? 0) + (podNonZero[name] ?? 0);
    if (capacity > 0 && requested <= capacity) total += Math.trunc(((capacity - requested) * MAX_NODE_SCORE) / capacity);
  }
  return Math.trunc(total / SCORED_RESOURCES.length);
}

/** createNodeResourcesFitScorer returns NodeResourcesFit's LeastAllocated scorer (weight 1). */
export function createNodeResourcesFitScorer(weight = 1): ScorePlugin {
  return {
    name: NODE_RESOURCES_FIT,
    weight,
    score: (_state, pod, node) => leastAllocatedScore(podNonZeroRequests(pod), node),
  };
}
