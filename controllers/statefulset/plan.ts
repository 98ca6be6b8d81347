/**
 * What one StatefulSet sync should do, as a pure function of the set's shape and its pods
 * (Kubernetes' StatefulSetControl.updateStatefulSet). The reconciler carries the actions out
 * in order and stops at the first failure; the next sync recomputes from fresh state.
 *
 *  1. every ordinal in [start, start+replicas): create a missing pod, replace a failed one;
 *     with OrderedReady, stop at the first pod not yet Running and Ready (one at a time);
 *  2. pods outside that range ("condemned"), highest ordinal first: delete them; with
 *     OrderedReady one at a time and only once every other pod is healthy;
 *  3. RollingUpdate: delete outdated pods from the highest ordinal down to the partition,
 *     at most maxUnavailable unavailable at once (they come back at the update revision);
 *     OnDelete: nothing, pods change only when someone deletes them.
 */
import { scaledValue } from '../../apiserver/api/machinery/int-or-percent.js';

/** PodView is what the plan needs to know about one pod of the set. */
export interface PodView {
  ordinal: number;
  name: string;
  uid: string;
  revision: string;
  terminating: boolean;
  /** Phase Succeeded or Failed: the pod is replaced. */
  finished: boolean;
  /** Phase Running with a Ready condition True. */
  runningReady: boolean;
  /** Running and Ready for minReadySeconds. */
  available: boolean;
}

/** PlanInput is the set's shape, resolved. */
export interface PlanInput {
  replicas: number;
  start: number;
  policy: 'OrderedReady' | 'Parallel';
  strategy: 'RollingUpdate' | 'OnDelete';
  /** Pods with a lower ordinal keep the current revision (RollingUpdate only). */
  partition: number;
  /** Resolved maxUnavailable (at least 1). */
  maxUnavailable: number;
  updateRevision: string;
  pods: readonly PodView[];
}

/** Action is one step of a sync. `revision` says which template a created pod gets. */
export type Action =
  | { type: 'create'; ordinal: number; revision: 'current' | 'update' }
  | { type: 'delete'; pod: PodView; reason: 'failed' | 'condemned' | 'update' };

const healthy = (pod: PodView) => pod.runningReady && !pod.terminating;

/** planSync returns the actions of one sync, in the order to carry them out. */
export function planSync(input: PlanInput): Action[] {
  const ordered = input.policy === 'OrderedReady';
  const actions: Action[] = [];
  const byOrdinal = new Map(input.pods.map((pod) => [pod.ordinal, pod]));
  const end = input.start + input.replicas;
  for (let ordinal = input.start; ordinal < end; ordinal++) {
    const blocked = replicaStep(input, ordinal, byOrdinal.get(ordinal), actions);
    if (blocked && ordered) return actions;
  }
  const condemned = input.pods.filter((pod) => pod.ordinal < input.start || pod.ordinal >= end).sort((a, b) => b.ordinal - a.ordinal);
  for (const pod of condemned) {
    if (pod.terminating) {
      if (ordered) return actions;
      continue;
    }
    if (ordered && input.pods.some((other) => other !== pod && !healthy(other))) return actions;
    actions.push({ type: 'delete', pod, reason: 'condemned' });
    if (ordered) return actions;
  }
  return [...actions, ...planUpdate(input, byOrdinal)];
}

/** replicaStep handles one ordinal in range; true when the pod is not (yet) healthy, which
 * blocks later ordinals under OrderedReady. */
function replicaStep(input: PlanInput, ordinal: number, pod: PodView | undefined, actions: Action[]): boolean {
  if (pod === undefined) {
    actions.push({ type: 'create', ordinal, revision: createRevision(input, ordinal) });
    return true;
  }
  if (pod.finished && !pod.terminating) {
    actions.push({ type: 'delete', pod, reason: 'failed' });
    return true;
  }
  return !healthy(pod);
}

/** createRevision is isCurrentRevisionNeeded: with RollingUpdate, ordinals below the
 * partition are (re)created at the current revision, all others at the update revision. */
export function createRevision(input: Pick<PlanInput, 'strategy' | 'start' | 'partition'>, ordinal: number): 'current' | 'update' {
  return input.strategy === 'RollingUpdate' && ordinal < input.start + input.partition ? 'current' : 'update';
}

/** planUpdate deletes outdated pods from the highest ordinal down to the partition while
 * fewer than maxUnavailable pods in range are unavailable. */
function planUpdate(input: PlanInput, byOrdinal: ReadonlyMap<number, PodView>): Action[] {
  if (input.strategy !== 'RollingUpdate') return [];
  const end = input.start + input.replicas;
  let unavailable = 0;
  for (let ordinal = input.start; ordinal < end; ordinal++) {
    const pod = byOrdinal.get(ordinal);
    if (pod === undefined || !pod.available || pod.terminating) unavailable++;
  }
  const actions: Action[] = [];
  const floor = input.start + input.partition;
  for (let ordinal = end - 1; ordinal >= floor && unavailable < input.maxUnavailable; ordinal--) {
    const pod = byOrdinal.get(ordinal);
    if (pod === undefined || pod.terminating || pod.revision === input.updateRevision) continue;
    actions.push({ type: 'delete', pod, reason: 'update' });
    if (pod.available) unavailable++;
  }
  return actions;
}

/** resolveMaxUnavailable turns maxUnavailable (a number or "N%" of replicas, rounded
 * down) into a count of at least 1; unset, or a value that is not an int-or-percent
 * (validation rejects those), means 1. */
export function resolveMaxUnavailable(value: number | string | undefined, replicas: number): number {
  if (value === undefined) return 1;
  try {
    return Math.max(1, scaledValue(value, replicas, false));
  } catch {
    return 1;
  }
}
