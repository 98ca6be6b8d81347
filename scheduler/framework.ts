/**
 * The scheduling framework (kube-scheduler's pkg/scheduler/framework, reduced to what kubesim
 * runs): the plugin interfaces, the per-attempt CycleState, the NodeInfo every plugin reads,
 * and the Status a filter answers with. Plugins live in plugins/, one file each; the cycle
 * that drives them is schedule-pod.ts.
 *
 *   preFilter (all nodes) ─► filter (each node) ─► preScore (feasible nodes)
 *       ─► score (each feasible node) ─► normalize ─► × weight ─► Σ ─► best node
 */
import type { Node } from '../apiserver/api/core/node.js';
import type { Pod } from '../apiserver/api/core/pod.js';
import type { DeepReadonly } from '../controllers/runtime/types.js';
import type { ResourceAmounts } from './resources.js';

/** ReadonlyPod and ReadonlyNode are informer cache objects: shared, never mutated. */
export type ReadonlyPod = DeepReadonly<Pod>;
export type ReadonlyNode = DeepReadonly<Node>;

/** MAX_NODE_SCORE is the top of every plugin's normalized score (kube's MaxNodeScore). */
export const MAX_NODE_SCORE = 100;

/** StatusCodes are the answers a filter can give (kube's framework.Code, minus the ones we do
 * not need). Unschedulable means preemption could help; UnschedulableAndUnresolvable means
 * nothing done to this node's pods would. */
export const StatusCodes = {
  Unschedulable: 'Unschedulable',
  UnschedulableAndUnresolvable: 'UnschedulableAndUnresolvable',
  Error: 'Error',
} as const;

export type StatusCode = (typeof StatusCodes)[keyof typeof StatusCodes];

/** Status is a filter's rejection of one node: why (kube's reason strings, which the
 * FailedScheduling message counts) and which plugin said so. Success is `undefined`. */
export interface Status {
  readonly code: StatusCode;
  readonly reasons: readonly string[];
  readonly plugin: string;
}

/** rejection builds a Status; plugins call it with their own name. */
export function rejection(plugin: string, code: StatusCode, ...reasons: string[]): Status {
  return { code, reasons, plugin };
}

/**
 * NodeInfo is what the scheduler knows about one node for one attempt: the node object plus
 * the pods counted against it — bound pods from the informer cache and pods assumed onto it
 * (bound by us, not yet seen with spec.nodeName). Built fresh for every attempt (snapshot.ts)
 * and read-only afterwards.
 */
export interface NodeInfo {
  readonly name: string;
  readonly node: ReadonlyNode;
  /** Non-terminal pods on the node, bound or assumed. */
  readonly pods: readonly ReadonlyPod[];
  /** Σ of the pods' requests (cpu in millicores, the rest in base units). */
  readonly requested: ResourceAmounts;
  /** Σ of the requests with kube's non-zero defaults for cpu/memory (used by scoring only). */
  readonly nonZeroRequested: ResourceAmounts;
  /** status.allocatable, parsed; absent resources are 0 (kube's behaviour). */
  readonly allocatable: ResourceAmounts;
  /** Non-terminating pods on the node per controller-owner uid (PodTopologySpread's default
   * constraints count these). */
  readonly podsByOwner: ReadonlyMap<string, number>;
}

/** StateKey names one entry of a CycleState with the type stored under it. */
export interface StateKey<T> {
  readonly name: string;
  /** Phantom member: carries T for the compiler, never set. */
  readonly type?: T;
}

/** createStateKey returns a fresh key; plugins keep theirs in a module constant. */
export function createStateKey<T>(name: string): StateKey<T> {
  return { name };
}

/**
 * CycleState knows how to carry data between the phases of one scheduling attempt (a plugin's
 * preFilter result to its filter, preScore to score). It lives for one attempt only.
 */
export class CycleState {
  private readonly entries = new Map<StateKey<unknown>, unknown>();

  write<T>(key: StateKey<T>, value: T): void {
    this.entries.set(key, value);
  }

  read<T>(key: StateKey<T>): T | undefined {
    return this.entries.get(key) as T | undefined;
  }
}

/** Plugin is anything with a kube plugin name (NodeResourcesFit, TaintToleration, ...). */
export interface Plugin {
  readonly name: string;
}

/**
 * FilterPlugin knows how to rule a node in or out for a pod. filter returns undefined when
 * the node fits, a Status when it does not; it must not mutate the pod or the NodeInfo and
 * must not throw for bad user input (a malformed selector is a rejection, not a crash).
 */
export interface FilterPlugin extends Plugin {
  /** Optional: computes per-attempt data from all nodes (before any filter runs). */
  preFilter?(state: CycleState, pod: ReadonlyPod, nodes: readonly NodeInfo[]): void;
  filter(state: CycleState, pod: ReadonlyPod, node: NodeInfo): Status | undefined;
}

/** NodeScore is one node's score from one plugin, normalized in place by `normalize`. */
export interface NodeScore {
  readonly name: string;
  score: number;
}

/**
 * ScorePlugin knows how to rank feasible nodes. score returns a raw number; normalize (when
 * present) rescales the list in place to 0..MAX_NODE_SCORE, otherwise score must already be
 * in that range. The framework multiplies by `weight` and sums over plugins.
 */
export interface ScorePlugin extends Plugin {
  readonly weight: number;
  /** Optional: computes per-attempt data from the feasible nodes and the whole snapshot. */
  preScore?(state: CycleState, pod: ReadonlyPod, feasible: readonly NodeInfo[], all: readonly NodeInfo[]): void;
  score(state: CycleState, pod: ReadonlyPod, node: NodeInfo): number;
  normalize?(state: CycleState, pod: ReadonlyPod, scores: NodeScore[]): void;
}

/** Profile is the ordered plugin set one scheduling attempt runs (kube's profile). */
export interface Profile {
  readonly filters: readonly FilterPlugin[];
  readonly scorers: readonly ScorePlugin[];
}

/**
 * normalizeScores is kube's DefaultNormalizeScore: scales scores so the highest becomes
 * MAX_NODE_SCORE (or, with `reverse`, so the highest becomes 0 and 0 becomes the max). All
 * zero stays all zero (all MAX_NODE_SCORE when reversed).
 */
export function normalizeScores(scores: NodeScore[], reverse: boolean): void {
  const max = scores.reduce((m, s) => Math.max(m, s.score), 0);
  for (const entry of scores) {
    if (max === 0) entry.score = reverse ? MAX_NODE_SCORE : 0;
    else {
      const scaled = Math.trunc((MAX_NODE_SCORE * entry.score) / max);
      entry.score = reverse ? MAX_NODE_SCORE - scaled : scaled;
    }
  }
}
