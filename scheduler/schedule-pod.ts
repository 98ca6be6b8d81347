/**
 * One scheduling decision, pure (kube's schedulePod: findNodesThatFitPod, prioritizeNodes,
 * selectHost): given a pod, a profile and a snapshot, which node wins and why. No API calls,
 * no clock, no randomness beyond the seeded tie-break, so a decision can be replayed in a
 * unit test exactly.
 */
import { keyOf } from '../controllers/runtime/reconciler.js';
import { fitErrorMessage } from './fit-error.js';
import { CycleState, type NodeInfo, type NodeScore, type Profile, type ReadonlyPod, type Status } from './framework.js';
import type { Snapshot } from './snapshot.js';

/** NodeScoreResult is one feasible node's weighted total and each plugin's normalized score. */
export interface NodeScoreResult {
  readonly node: string;
  readonly total: number;
  readonly byPlugin: Readonly<Record<string, number>>;
}

interface Evaluation {
  /** Nodes in the snapshot. */
  readonly totalNodes: number;
  /** Why each rejected node was rejected (the first filter that said no). */
  readonly rejected: ReadonlyMap<string, Status>;
}

/** ScheduleResult is a decision: the chosen node with the ranking that chose it (best
 * first; empty when only one node fit, as kube skips scoring then), or the FitError message. */
export type ScheduleResult =
  | (Evaluation & { readonly kind: 'Scheduled'; readonly nodeName: string; readonly scores: readonly NodeScoreResult[] })
  | (Evaluation & { readonly kind: 'Unschedulable'; readonly message: string });

/** ScheduleOptions seeds the tie-break between equally scored nodes. */
export interface ScheduleOptions {
  seed: number;
}

/** schedulePod runs the profile's filters over every node, then scores the feasible ones and
 * picks the best; ties go to the node with the lowest tieBreakHash. Never throws for user
 * input; a plugin that throws is a bug and propagates. */
export function schedulePod(profile: Profile, pod: ReadonlyPod, snapshot: Snapshot, options: ScheduleOptions): ScheduleResult {
  const state = new CycleState();
  const { feasible, rejected } = findFeasibleNodes(profile, state, pod, snapshot.nodes);
  const totalNodes = snapshot.nodes.length;
  const [only] = feasible;
  if (!only) return { kind: 'Unschedulable', totalNodes, rejected, message: fitErrorMessage(pod, totalNodes, rejected) };
  if (feasible.length === 1) return { kind: 'Scheduled', totalNodes, rejected, nodeName: only.name, scores: [] };
  const scores = prioritizeNodes(profile, state, pod, { feasible, all: snapshot.nodes });
  const podKey = keyOf(pod);
  const ranked = rankScores(scores, (node) => tieBreakHash(options.seed, podKey, node));
  return { kind: 'Scheduled', totalNodes, rejected, nodeName: ranked[0]!.node, scores: ranked };
}

/** findFeasibleNodes runs every preFilter once, then the filters node by node, stopping at a
 * node's first rejection (as kube does). */
export function findFeasibleNodes(profile: Profile, state: CycleState, pod: ReadonlyPod, nodes: readonly NodeInfo[]) {
  for (const plugin of profile.filters) plugin.preFilter?.(state, pod, nodes);
  const feasible: NodeInfo[] = [];
  const rejected = new Map<string, Status>();
  for (const node of nodes) {
    const status = firstRejection(profile, state, pod, node);
    if (status) rejected.set(node.name, status);
    else feasible.push(node);
  }
  return { feasible, rejected };
}

function firstRejection(profile: Profile, state: CycleState, pod: ReadonlyPod, node: NodeInfo): Status | undefined {
  for (const plugin of profile.filters) {
    const status = plugin.filter(state, pod, node);
    if (status) return status;
  }
  return undefined;
}

interface Candidates {
  feasible: readonly NodeInfo[];
  all: readonly NodeInfo[];
}

/** prioritizeNodes scores the feasible nodes with every scorer: preScore, score, normalize,
 * × weight, summed per node. Returns the results in `feasible` order. */
export function prioritizeNodes(profile: Profile, state: CycleState, pod: ReadonlyPod, { feasible, all }: Candidates): NodeScoreResult[] {
  const totals = new Map<string, { total: number; byPlugin: Record<string, number> }>(feasible.map((n) => [n.name, { total: 0, byPlugin: {} }]));
  for (const plugin of profile.scorers) {
    plugin.preScore?.(state, pod, feasible, all);
    const scores: NodeScore[] = feasible.map((node) => ({ name: node.name, score: plugin.score(state, pod, node) }));
    plugin.normalize?.(state, pod, scores);
    for (const { name, score } of scores) {
      const entry = totals.get(name)!;
      entry.byPlugin[plugin.name] = score;
      entry.total += score * plugin.weight;
    }
  }
  return [...totals].map(([node, { total, byPlugin }]) => ({ node, total, byPlugin }));
}

/** rankScores sorts best first: higher total, then lower tie-break hash, then name. */
export function rankScores(scores: readonly NodeScoreResult[], hash: (node: string) => number): NodeScoreResult[] {
  const keyed = scores.map((score) => ({ score, hash: hash(score.node) }));
  keyed.sort((a, b) => b.score.total - a.score.total || a.hash - b.hash || (a.score.node < b.score.node ? -1 : 1));
  return keyed.map(({ score }) => score);
}

/** tieBreakHash is FNV-1a (32-bit) of `seed/podKey/node`: the same seed, pod and node always
 * break a tie the same way, while different pods of one ReplicaSet break it differently. */
export function tieBreakHash(seed: number, podKey: string, node: string): number {
  let hash = 0x811c9dc5;
  for (const char of `${seed}/${podKey}/${node}`) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
