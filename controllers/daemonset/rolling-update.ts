/**
 * The DaemonSet RollingUpdate decision (Kubernetes' update.go rollingUpdate): which old pods
 * to delete and on which nodes to create updated pods now, within maxUnavailable (without
 * surge) or maxSurge (with surge). The manage step then recreates pods on emptied nodes and
 * prunes a node's extra pods. Pure: no I/O, no mutation.
 */

import { isPodAvailable } from '../../apiserver/api/core/pod-conditions.js';
import { scaledValue } from '../../apiserver/api/machinery/int-or-percent.js';
import type { ReadonlyPod } from '../runtime/pods/pod-state.js';
import { isPodUpdated } from './daemon-pods.js';
import { nodeShouldRunDaemonPod, type ReadonlyDaemonSet, type ReadonlyNode } from './node-eligibility.js';

/** RollingInput is what planRollingUpdate looks at. */
export interface RollingInput {
  ds: ReadonlyDaemonSet;
  nodes: readonly ReadonlyNode[];
  /** The DaemonSet's pods grouped by target node (podsByNode). */
  podsByNode: ReadonlyMap<string, readonly ReadonlyPod[]>;
  hash: string;
  nowMs: number;
}

/** RollingPlan lists the pods to delete and the nodes to create updated pods on. */
export interface RollingPlan {
  podsToDelete: ReadonlyPod[];
  nodesToCreate: string[];
}

/** RollingBudget is the resolved maxSurge / maxUnavailable, in nodes. */
export interface RollingBudget {
  maxSurge: number;
  maxUnavailable: number;
  desired: number;
}

/**
 * rollingBudget resolves maxSurge and maxUnavailable against the number of nodes that should
 * run the pod, both rounding percentages up (util.SurgeCount / UnavailableCount); when both
 * come out 0 for a non-empty DaemonSet, one node may be unavailable.
 */
export function rollingBudget(ds: ReadonlyDaemonSet, desired: number): RollingBudget {
  const rollingUpdate = ds.spec.updateStrategy?.rollingUpdate;
  const maxSurge = scaledValue(rollingUpdate?.maxSurge ?? 0, desired, true);
  let maxUnavailable = scaledValue(rollingUpdate?.maxUnavailable ?? 1, desired, true);
  if (desired > 0 && maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable, desired };
}

interface NodePods {
  name: string;
  newPod?: ReadonlyPod;
  oldPod?: ReadonlyPod;
  /** False when the node has several new or several old live pods (manage prunes them). */
  ok: boolean;
}

/** splitNodePods finds a node's one updated and one old live pod (findUpdatedPodsOnNode). */
export function splitNodePods(name: string, pods: readonly ReadonlyPod[], hash: string): NodePods {
  const result: NodePods = { name, ok: true };
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp !== undefined) continue;
    const slot = isPodUpdated(pod, hash) ? 'newPod' : 'oldPod';
    if (result[slot] !== undefined) return { name, ok: false };
    result[slot] = pod;
  }
  return result;
}

/** planRollingUpdate considers every node with pods plus every node that should run one, and
 * plans within the budget (planWithoutSurge or planWithSurge). */
export function planRollingUpdate(input: RollingInput): RollingPlan {
  const wanted = input.nodes.filter((node) => nodeShouldRunDaemonPod(node, input.ds).shouldRun).map((node) => node.metadata.name ?? '');
  const names = new Set([...input.podsByNode.keys(), ...wanted]);
  const nodes = [...names].sort().map((name) => splitNodePods(name, input.podsByNode.get(name) ?? [], input.hash));
  const budget = rollingBudget(input.ds, wanted.length);
  const available = (pod: ReadonlyPod) => isPodAvailable(pod, input.ds.spec.minReadySeconds ?? 0, input.nowMs);
  if (budget.maxSurge === 0) return planWithoutSurge(nodes, budget.maxUnavailable, available);
  const shouldRun = (name: string) => wanted.includes(name);
  return planWithSurge(nodes, budget.maxSurge, { available, shouldRun });
}

/**
 * planWithoutSurge deletes just enough old pods to stay within maxUnavailable: nodes without
 * a pod, with both kinds, with an unavailable updated pod or in disorder count as unavailable;
 * old pods that are unavailable anyway are always replaced; available old pods are deleted
 * while the budget lasts.
 */
export function planWithoutSurge(nodes: readonly NodePods[], maxUnavailable: number, available: (pod: ReadonlyPod) => boolean): RollingPlan {
  let numUnavailable = 0;
  const replacements: ReadonlyPod[] = [];
  const candidates: ReadonlyPod[] = [];
  for (const { ok, newPod, oldPod } of nodes) {
    if (!ok || (newPod === undefined) === (oldPod === undefined)) numUnavailable++;
    else if (newPod !== undefined) numUnavailable += available(newPod) ? 0 : 1;
    else if (oldPod !== undefined && !available(oldPod)) replacements.push(oldPod);
    else if (oldPod !== undefined && numUnavailable < maxUnavailable) candidates.push(oldPod);
  }
  const remaining = Math.min(Math.max(0, maxUnavailable - numUnavailable), candidates.length);
  return { podsToDelete: [...replacements, ...candidates.slice(0, remaining)], nodesToCreate: [] };
}

interface SurgeChecks {
  available: (pod: ReadonlyPod) => boolean;
  shouldRun: (nodeName: string) => boolean;
}

/**
 * planWithSurge creates updated pods next to old ones, at most maxSurge not-yet-available
 * ones at a time (a node whose old pod is unavailable gets one regardless), and deletes an old
 * pod once the updated pod beside it is available. An unavailable old pod on a node that
 * should no longer run the pod is simply deleted.
 */
export function planWithSurge(nodes: readonly NodePods[], maxSurge: number, { available, shouldRun }: SurgeChecks): RollingPlan {
  let numSurge = 0;
  const podsToDelete: ReadonlyPod[] = [];
  const allowed: string[] = [];
  const candidates: string[] = [];
  for (const { name, ok, newPod, oldPod } of nodes) {
    if (!ok) numSurge++;
    else if (oldPod === undefined) continue;
    else if (newPod === undefined) {
      if (!available(oldPod)) shouldRun(name) ? allowed.push(name) : podsToDelete.push(oldPod);
      else if (numSurge < maxSurge) candidates.push(name);
    } else if (!available(newPod)) numSurge++;
    else podsToDelete.push(oldPod);
  }
  const remaining = Math.min(Math.max(0, maxSurge - numSurge), candidates.length);
  return { podsToDelete, nodesToCreate: [...allowed, ...candidates.slice(0, remaining)] };
}
