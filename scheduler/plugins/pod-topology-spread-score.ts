/**
 * PodTopologySpread's scorer (kube's podtopologyspread/scoring.go): prefers nodes whose
 * domains hold fewer matching pods, for the pod's ScheduleAnyway constraints or, when it has
 * no constraints at all, the default ones (hostname maxSkew 3, zone maxSkew 5) over pods of
 * the same controller owner. This is what spreads a ReplicaSet's replicas across nodes.
 *
 * Per node: Σ over constraints of (matching pods in its domain × log(domains + 2) + maxSkew − 1),
 * then normalized so fewer is better: 100 × (max + min − score) / max.
 */
import { createStateKey, MAX_NODE_SCORE, type NodeInfo, type ReadonlyPod, type ScorePlugin } from '../framework.js';
import { POD_TOPOLOGY_SPREAD } from './pod-topology-spread.js';
import {
  countMatching,
  countsAsDomain,
  defaultConstraints,
  explicitConstraints,
  hasAllTopologyKeys,
  LABEL_HOSTNAME,
  type SpreadConstraint,
  topologyValue,
} from './topology-spread-constraints.js';

interface ScoreState {
  readonly constraints: readonly SpreadConstraint[];
  /** Feasible nodes left unscored because they lack a topology key (explicit constraints). */
  readonly ignored: ReadonlySet<string>;
  /** Matching pods per domain, per constraint (hostname constraints count per node instead). */
  readonly counts: readonly Map<string, number>[];
  readonly weights: readonly number[];
}

const scoreStateKey = createStateKey<ScoreState>(`PreScore${POD_TOPOLOGY_SPREAD}`);

/** computeScoreState is kube's PreScore: the constraints, the domains the feasible nodes
 * span, and the matching pods in each such domain over all nodes. */
export function computeScoreState(pod: ReadonlyPod, feasible: readonly NodeInfo[], all: readonly NodeInfo[]): ScoreState {
  const explicit = (pod.spec.topologySpreadConstraints ?? []).length > 0;
  const constraints = explicit ? explicitConstraints(pod, 'ScheduleAnyway') : defaultConstraints(pod);
  // Only explicit constraints require every key: a node without a zone still spreads by host.
  const ignored = new Set(explicit ? feasible.filter((n) => !hasAllTopologyKeys(n.node, constraints)).map((n) => n.name) : []);
  const counts = constraints.map(() => new Map<string, number>());
  for (const node of feasible) {
    if (ignored.has(node.name)) continue;
    constraints.forEach((c, i) => {
      const value = topologyValue(node.node, c.topologyKey);
      if (c.topologyKey !== LABEL_HOSTNAME && value !== undefined) counts[i]!.set(value, 0);
    });
  }
  for (const node of all) countDomainPods({ pod, node, constraints, counts, requireAll: explicit });
  const weights = constraints.map((c, i) => Math.log((c.topologyKey === LABEL_HOSTNAME ? feasible.length - ignored.size : counts[i]!.size) + 2));
  return { constraints, ignored, counts, weights };
}

interface DomainCount {
  pod: ReadonlyPod;
  node: NodeInfo;
  constraints: readonly SpreadConstraint[];
  counts: readonly Map<string, number>[];
  requireAll: boolean;
}

/** countDomainPods adds the node's matching pods to the domains feasible nodes span. */
function countDomainPods({ pod, node, constraints, counts, requireAll }: DomainCount): void {
  if (requireAll && !hasAllTopologyKeys(node.node, constraints)) return;
  constraints.forEach((c, i) => {
    const value = topologyValue(node.node, c.topologyKey);
    const domains = counts[i]!;
    if (value === undefined || !domains.has(value) || !countsAsDomain(c, pod, node.node)) return;
    domains.set(value, (domains.get(value) ?? 0) + countMatching(c, pod, node));
  });
}

function scoreNode(state: ScoreState, pod: ReadonlyPod, node: NodeInfo): number {
  if (state.ignored.has(node.name)) return 0;
  let score = 0;
  state.constraints.forEach((c, i) => {
    const value = topologyValue(node.node, c.topologyKey);
    if (value === undefined) return;
    const count = c.topologyKey === LABEL_HOSTNAME ? countMatching(c, pod, node) : (state.counts[i]!.get(value) ?? 0);
    score += count * state.weights[i]! + (c.maxSkew - 1);
  });
  return Math.round(score);
}

/** createPodTopologySpreadScorer returns the scorer (kube's default weight 2). */
export function createPodTopologySpreadScorer(weight = 2): ScorePlugin {
  return {
    name: POD_TOPOLOGY_SPREAD,
    weight,
    preScore: (state, pod, feasible, all) => state.write(scoreStateKey, computeScoreState(pod, feasible, all)),
    score(state, pod, node) {
      const spread = state.read(scoreStateKey);
      return spread && spread.constraints.length > 0 ? scoreNode(spread, pod, node) : 0;
    },
    normalize(state, _pod, scores) {
      const spread = state.read(scoreStateKey);
      if (!spread || spread.constraints.length === 0) return;
      const counted = scores.filter((s) => !spread.ignored.has(s.name));
      const max = Math.max(0, ...counted.map((s) => s.score));
      const min = Math.min(...counted.map((s) => s.score));
      for (const entry of scores) {
        if (spread.ignored.has(entry.name)) entry.score = 0;
        else entry.score = max === 0 ? MAX_NODE_SCORE : Math.trunc((MAX_NODE_SCORE * (max + min - entry.score)) / max);
      }
    },
  };
}
