/**
 * NodeAffinity (kube's nodeaffinity plugin).
 * Filter: spec.nodeSelector and the required node affinity terms must match the node
 * ("node(s) didn't match Pod's node affinity/selector").
 * Score: the sum of the weights of the preferred terms the node matches, normalized so the
 * best node gets 100.
 */
import { type FilterPlugin, normalizeScores, rejection, type ScorePlugin, StatusCodes } from '../framework.js';
import { requiredNodeAffinityMatches, termMatches } from './node-selector.js';

export const NODE_AFFINITY = 'NodeAffinity';
/** ERR_REASON_NODE_AFFINITY is kube's reason text. */
export const ERR_REASON_NODE_AFFINITY = "node(s) didn't match Pod's node affinity/selector";

/** nodeAffinityFilter is the NodeAffinity filter. */
export const nodeAffinityFilter: FilterPlugin = {
  name: NODE_AFFINITY,
  filter(_state, pod, node) {
    if (requiredNodeAffinityMatches(pod, node.node)) return undefined;
    return rejection(NODE_AFFINITY, StatusCodes.UnschedulableAndUnresolvable, ERR_REASON_NODE_AFFINITY);
  },
};

/** createNodeAffinityScorer returns the NodeAffinity scorer (kube's default weight 2). */
export function createNodeAffinityScorer(weight = 2): ScorePlugin {
  return {
    name: NODE_AFFINITY,
    weight,
    score(_state, pod, node) {
      const preferred = pod.spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
      return preferred.reduce((sum, term) => (term.weight !== 0 && termMatches(term.preference, node.node) ? sum + term.weight : sum), 0);
    },
    normalize: (_state, _pod, scores) => normalizeScores(scores, false),
  };
}
