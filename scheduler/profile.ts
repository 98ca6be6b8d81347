/**
 * The default profile: kube-scheduler's default plugins that kubesim implements, in kube's
 * order and with kube's default score weights.
 */
import type { Profile } from './framework.js';
import { createBalancedAllocationScorer } from './plugins/balanced-allocation.js';
import { createNodeAffinityScorer, nodeAffinityFilter } from './plugins/node-affinity.js';
import { nodeNamePlugin } from './plugins/node-name.js';
import { createNodeResourcesFitScorer, nodeResourcesFitFilter } from './plugins/node-resources-fit.js';
import { nodeUnschedulablePlugin } from './plugins/node-unschedulable.js';
import { podTopologySpreadFilter } from './plugins/pod-topology-spread.js';
import { createPodTopologySpreadScorer } from './plugins/pod-topology-spread-score.js';
import { createTaintTolerationScorer, taintTolerationFilter } from './plugins/taint-toleration.js';

/** createDefaultProfile returns the filters NodeUnschedulable, NodeName, TaintToleration,
 * NodeAffinity, NodeResourcesFit, PodTopologySpread and the scorers TaintToleration ×3,
 * NodeAffinity ×2, NodeResourcesFit (LeastAllocated) ×1, PodTopologySpread ×2,
 * NodeResourcesBalancedAllocation ×1. */
export function createDefaultProfile(): Profile {
  return {
    filters: [nodeUnschedulablePlugin, nodeNamePlugin, taintTolerationFilter, nodeAffinityFilter, nodeResourcesFitFilter, podTopologySpreadFilter],
    scorers: [
      createTaintTolerationScorer(3),
      createNodeAffinityScorer(2),
      createNodeResourcesFitScorer(1),
      createPodTopologySpreadScorer(2),
      createBalancedAllocationScorer(1),
    ],
  };
}
