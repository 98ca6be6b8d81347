/**
 * PodTopologySpread's filter (kube's podtopologyspread/filtering.go): for each of the pod's
 * DoNotSchedule constraints, placing the pod in a node's domain must keep
 *     matching pods in that domain + (1 if the pod itself matches) − the smallest domain count
 * within maxSkew. The counts are taken once per attempt in preFilter, over every node that
 * counts as a domain (node inclusion policies) and has all the constraints' keys.
 * Scoring (ScheduleAnyway and default constraints) is in pod-topology-spread-score.ts.
 */
import { type CycleState, createStateKey, type FilterPlugin, type NodeInfo, type ReadonlyPod, rejection, StatusCodes } from '../framework.js';
import { countMatching, countsAsDomain, explicitConstraints, hasAllTopologyKeys, type SpreadConstraint, topologyValue } from './topology-spread-constraints.js';

export const POD_TOPOLOGY_SPREAD = 'PodTopologySpread';
/** ERR_REASON_CONSTRAINTS_NOT_MATCH and ERR_REASON_NODE_LABEL_NOT_MATCH are kube's reasons. */
export const ERR_REASON_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints";
export const ERR_REASON_NODE_LABEL_NOT_MATCH = `${ERR_REASON_CONSTRAINTS_NOT_MATCH} (missing required label)`;

/** SpreadCounts are matching pods per domain value, one map per constraint. */
interface FilterState {
  readonly constraints: readonly SpreadConstraint[];
  readonly counts: readonly Map<string, number>[];
}

const filterStateKey = createStateKey<FilterState>(`PreFilter${POD_TOPOLOGY_SPREAD}`);

/** computeSpreadCounts counts, per hard constraint and domain, the pods it selects. */
export function computeSpreadCounts(pod: ReadonlyPod, nodes: readonly NodeInfo[]): FilterState {
  const constraints = explicitConstraints(pod, 'DoNotSchedule');
  const counts = constraints.map(() => new Map<string, number>());
  for (const node of nodes) {
    if (!hasAllTopologyKeys(node.node, constraints)) continue;
    constraints.forEach((constraint, i) => {
      if (!countsAsDomain(constraint, pod, node.node)) return;
      const value = topologyValue(node.node, constraint.topologyKey) ?? '';
      const domain = counts[i]!;
      domain.set(value, (domain.get(value) ?? 0) + countMatching(constraint, pod, node));
    });
  }
  return { constraints, counts };
}

/** minMatchNum is the smallest domain count, or 0 when there are fewer domains than
 * minDomains (kube's "global minimum"). */
function minMatchNum(counts: Map<string, number>, minDomains: number): number {
  if (counts.size < minDomains || counts.size === 0) return 0;
  return Math.min(...counts.values());
}

function filterNode(state: FilterState, pod: ReadonlyPod, node: NodeInfo) {
  for (const [i, constraint] of state.constraints.entries()) {
    const value = topologyValue(node.node, constraint.topologyKey);
    if (value === undefined) return rejection(POD_TOPOLOGY_SPREAD, StatusCodes.UnschedulableAndUnresolvable, ERR_REASON_NODE_LABEL_NOT_MATCH);
    const counts = state.counts[i]!;
    const selfMatch = constraint.matches(pod) ? 1 : 0;
    const skew = (counts.get(value) ?? 0) + selfMatch - minMatchNum(counts, constraint.minDomains);
    if (skew > constraint.maxSkew) return rejection(POD_TOPOLOGY_SPREAD, StatusCodes.Unschedulable, ERR_REASON_CONSTRAINTS_NOT_MATCH);
  }
  return undefined;
}

function readState(state: CycleState, pod: ReadonlyPod, node: NodeInfo): FilterState {
  // Without preFilter (a caller filtering one node) the node alone is the world.
  return state.read(filterStateKey) ?? computeSpreadCounts(pod, [node]);
}

/** podTopologySpreadFilter is the PodTopologySpread filter. */
export const podTopologySpreadFilter: FilterPlugin = {
  name: POD_TOPOLOGY_SPREAD,
  preFilter(state, pod, nodes) {
    state.write(filterStateKey, computeSpreadCounts(pod, nodes));
  },
  filter(state, pod, node) {
    const spread = readState(state, pod, node);
    return spread.constraints.length === 0 ? undefined : filterNode(spread, pod, node);
  },
};
