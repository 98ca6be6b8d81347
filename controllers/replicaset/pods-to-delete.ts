/**
 * Which pods a ReplicaSet deletes first when it has too many: Kubernetes' deletion ranking
 * (controller.ActivePodsWithRanks and replicaset getPodsToDelete), as a pure function.
 *
 * Pods that cost least to lose go first. A pod is preferred for deletion when, checking the
 * rules in order until one tells them apart:
 *  1. it is not yet assigned to a node and the other is;
 *  2. its phase is earlier: Pending (or unset) < Unknown < Running;
 *  3. it is not ready and the other is;
 *  4. its `controller.kubernetes.io/pod-deletion-cost` annotation is lower;
 *  5. it shares its node with more related pods (doubled-up pods go first, which spreads the
 *     survivors across nodes);
 *  6. both are ready and it became ready more recently (unknown ready time first);
 *  7. a container of it restarted more often;
 *  8. it was created more recently (unknown creation time first).
 * Rules 6 and 8 compare times on a log2 scale of their age when `nowMs` is given (the
 * LogarithmicScaleDown behaviour): pods of about the same age are then ordered by uid, a
 * pseudo-random but stable choice. Without `nowMs` times are compared exactly. When no rule
 * applies, uid and then name break the tie so the result never depends on input order.
 */

import { isPodReady, podReadySinceMs } from '../../apiserver/api/core/pod-conditions.js';
import { parseTimeMs } from '../../apiserver/api/machinery/time.js';
import { isPodActive, maxContainerRestarts, type ReadonlyPod } from '../runtime/pods/pod-state.js';

/** POD_DELETION_COST_ANNOTATION lets users rank pods of one ReplicaSet for deletion. */
export const POD_DELETION_COST_ANNOTATION = 'controller.kubernetes.io/pod-deletion-cost';

/** DeletionRankOptions are the inputs of the ranking besides the candidates themselves. */
export interface DeletionRankOptions {
  /** Pods whose placement counts for rule 5: the active pods of every ReplicaSet sharing this
   * one's controller (a Deployment's old and new ReplicaSets). Defaults to none (no rank). */
  relatedPods?: readonly ReadonlyPod[];
  /** Reference time for the logarithmic comparison of rules 6 and 8. */
  nowMs?: number;
}

interface RankedPod {
  pod: ReadonlyPod;
  /** Active related pods on the same node (rule 5). */
  colocated: number;
}

type Rule = (a: RankedPod, b: RankedPod, nowMs: number | undefined) => number;

const PHASE_ORDINAL: Readonly<Record<string, number>> = { Pending: 0, Unknown: 1, Running: 2 };

/**
 * getPodsToDelete returns the `count` pods of `pods` that should be deleted first, in
 * deletion order. Pure: it neither mutates nor reorders `pods`. A count ≥ pods.length
 * returns all of them.
 */
export function getPodsToDelete(pods: readonly ReadonlyPod[], count: number, options: DeletionRankOptions = {}): ReadonlyPod[] {
  if (count <= 0) return [];
  return rankPodsForDeletion(pods, options).slice(0, count);
}

/** rankPodsForDeletion sorts a copy of `pods`, the first to delete first. Pure. */
export function rankPodsForDeletion(pods: readonly ReadonlyPod[], options: DeletionRankOptions = {}): ReadonlyPod[] {
  const perNode = countActivePodsPerNode(options.relatedPods ?? []);
  const ranked = pods.map((pod) => ({ pod, colocated: perNode.get(pod.spec.nodeName ?? '') ?? 0 }));
  ranked.sort((a, b) => compareRanked(a, b, options.nowMs));
  return ranked.map((entry) => entry.pod);
}

function countActivePodsPerNode(pods: readonly ReadonlyPod[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const pod of pods) {
    if (!isPodActive(pod)) continue;
    const node = pod.spec.nodeName ?? '';
    counts.set(node, (counts.get(node) ?? 0) + 1);
  }
  return counts;
}

function compareRanked(a: RankedPod, b: RankedPod, nowMs: number | undefined): number {
  for (const rule of RULES) {
    const order = rule(a, b, nowMs);
    if (order !== 0) return order;
  }
  return compareStrings(a.pod.metadata.uid ?? '', b.pod.metadata.uid ?? '') || compareStrings(a.pod.metadata.name ?? '', b.pod.metadata.name ?? '');
}

const unassignedFirst: Rule = (a, b) => {
  const aNode = a.pod.spec.nodeName ?? '';
  const bNode = b.pod.spec.nodeName ?? '';
  if (aNode === bNode || (aNode !== '' && bNode !== '')) return 0;
  return aNode === '' ? -1 : 1;
};

const earlierPhaseFirst: Rule = (a, b) => phaseOrdinal(a.pod) - phaseOrdinal(b.pod);

const notReadyFirst: Rule = (a, b) => Number(isPodReady(a.pod)) - Number(isPodReady(b.pod));

const cheaperFirst: Rule = (a, b) => deletionCost(a.pod) - deletionCost(b.pod);

const doubledUpFirst: Rule = (a, b) => b.colocated - a.colocated;

const recentlyReadyFirst: Rule = (a, b, nowMs) => {
  if (!isPodReady(a.pod) || !isPodReady(b.pod)) return 0;
  return newerFirst({ a: podReadySinceMs(a.pod), b: podReadySinceMs(b.pod), nowMs, uids: uidsOf(a, b) });
};

const moreRestartsFirst: Rule = (a, b) => maxContainerRestarts(b.pod) - maxContainerRestarts(a.pod);

const newestFirst: Rule = (a, b, nowMs) =>
  newerFirst({ a: parseTimeMs(a.pod.metadata.creationTimestamp), b: parseTimeMs(b.pod.metadata.creationTimestamp), nowMs, uids: uidsOf(a, b) });

const RULES: readonly Rule[] = [
  unassignedFirst,
  earlierPhaseFirst,
  notReadyFirst,
  cheaperFirst,
  doubledUpFirst,
  recentlyReadyFirst,
  moreRestartsFirst,
  newestFirst,
];

function phaseOrdinal(pod: ReadonlyPod): number {
  return PHASE_ORDINAL[pod.status?.phase ?? ''] ?? 0;
}

/** deletionCost reads the pod-deletion-cost annotation; absent or invalid counts as 0, as in
 * Kubernetes (the API server rejects invalid values on write anyway). */
function deletionCost(pod: ReadonlyPod): number {
  const text = pod.metadata.annotations?.[POD_DELETION_COST_ANNOTATION];
  if (text === undefined || !/^[+-]?\d+$/.test(text)) return 0;
  const cost = Number(text);
  return cost >= -(2 ** 31) && cost < 2 ** 31 ? cost : 0;
}

function uidsOf(a: RankedPod, b: RankedPod): [string, string] {
  return [a.pod.metadata.uid ?? '', b.pod.metadata.uid ?? ''];
}

interface TimePair {
  a: number | undefined;
  b: number | undefined;
  nowMs: number | undefined;
  uids: [string, string];
}

/** newerFirst orders two timestamps newest first, unknown (zero) times before both. With a
 * reference time it compares floor(log2(age in ns)) instead and lets the uid decide between
 * equally old pods, exactly as Kubernetes' logarithmicRankDiff does. */
function newerFirst({ a, b, nowMs, uids }: TimePair): number {
  if (a === b) return 0;
  if (a === undefined || b === undefined) return a === undefined ? -1 : 1;
  if (nowMs === undefined) return b - a;
  const diff = logAge(a, nowMs) - logAge(b, nowMs);
  return diff !== 0 ? diff : compareStrings(uids[0], uids[1]);
}

function logAge(timeMsValue: number, nowMs: number): number {
  const ageNs = (nowMs - timeMsValue) * 1e6;
  return ageNs > 0 ? Math.floor(Math.log2(ageNs)) : -1;
}

function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}
