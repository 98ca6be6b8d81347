/**
 * What happens to one pod on a tainted or unreachable node, the pure half of the taint
 * eviction controller (kube's NoExecuteTaintManager) and of the pod GC's cleanup of pods
 * stuck terminating on unreachable nodes. The decisions are times, not timers: the caller
 * acts when the time has come and otherwise looks again then, so a restart loses nothing.
 */
import type { Toleration } from '../../apiserver/api/core/affinity.js';
import type { Node, Taint } from '../../apiserver/api/core/node.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { parseTimeMs } from '../../apiserver/api/machinery/time.js';
import type { Clock, DeepReadonly } from '../runtime/types.js';
import { isNodeUnreachable } from './node-health.js';
import { noExecuteTaints, toleratesTaint } from './taints.js';

type ReadonlyTaint = DeepReadonly<Taint>;

/** PodActionKind names what the controller does about a pod. */
export const PodActionKind = {
  /** Nothing: no NoExecute taint concerns it, or it tolerates them all forever. */
  None: 'none',
  /** Delete it (gracefully) at `atMs`: a NoExecute taint it does not tolerate for longer. */
  Evict: 'evict',
  /** Delete it with grace period 0 at `atMs`: it is terminating on a node whose kubelet
   * cannot confirm the deletion, and its grace period ends then. */
  ForceDelete: 'force-delete',
} as const;

/** PodAction is the decision about one pod; `atMs` may lie in the past (act at once). */
export type PodAction =
  | { kind: typeof PodActionKind.None }
  | { kind: typeof PodActionKind.Evict; atMs: number; taint: ReadonlyTaint }
  | { kind: typeof PodActionKind.ForceDelete; atMs: number };

const NONE: PodAction = { kind: PodActionKind.None };

/** TimedTaint is a NoExecute taint with the cluster time its eviction clock started. */
export interface TimedTaint {
  taint: ReadonlyTaint;
  addedAtMs: number;
}

/**
 * evictionTime returns when a pod with `tolerations` must leave a node carrying `taints`, and
 * which taint decides it; undefined when it may stay forever. As in Kubernetes each taint is
 * matched by the first toleration that tolerates it: none means at once, one without
 * tolerationSeconds means never, otherwise the taint's time plus those seconds (≤ 0 counts as
 * 0). The earliest of these wins. Unlike Kubernetes, which starts one clock when it first sees
 * the pod tainted, each taint's clock starts at its own timeAdded, which survives restarts.
 */
export function evictionTime(
  tolerations: ReadonlyArray<DeepReadonly<Toleration>>,
  taints: readonly TimedTaint[],
): { atMs: number; taint: ReadonlyTaint } | undefined {
  let earliest: { atMs: number; taint: ReadonlyTaint } | undefined;
  for (const { taint, addedAtMs } of taints) {
    const toleration = tolerations.find((candidate) => toleratesTaint(candidate, taint));
    const seconds = toleration === undefined ? 0 : toleration.tolerationSeconds;
    if (seconds === undefined) continue;
    const atMs = addedAtMs + Math.max(0, seconds) * 1000;
    if (earliest === undefined || atMs < earliest.atMs) earliest = { atMs, taint };
  }
  return earliest;
}

/** PodActionInputs are what planPodAction looks at. */
export interface PodActionInputs {
  pod: DeepReadonly<Pod>;
  /** The pod's node from the cache; undefined when it does not exist (any more). */
  node: DeepReadonly<Node> | undefined;
  /** When a NoExecute taint's eviction clock started (see TaintClock). */
  addedAtMs(taint: ReadonlyTaint): number;
}

/**
 * planPodAction decides about one pod:
 * - unscheduled pods: nothing;
 * - terminating pods: force-delete at the end of their grace period (deletionTimestamp) when
 *   the node is unreachable or gone — the kubelet that would confirm the deletion is silent;
 *   otherwise nothing, the kubelet finishes the job;
 * - other pods: evict at evictionTime of the node's NoExecute taints, if any.
 */
export function planPodAction({ pod, node, addedAtMs }: PodActionInputs): PodAction {
  if (!pod.spec.nodeName) return NONE;
  if (pod.metadata.deletionTimestamp !== undefined) {
    if (!isNodeUnreachable(node)) return NONE;
    return { kind: PodActionKind.ForceDelete, atMs: parseTimeMs(pod.metadata.deletionTimestamp) ?? 0 };
  }
  const taints = noExecuteTaints(node).map((taint) => ({ taint, addedAtMs: addedAtMs(taint) }));
  if (taints.length === 0) return NONE;
  const eviction = evictionTime(pod.spec.tolerations ?? [], taints);
  return eviction === undefined ? NONE : { kind: PodActionKind.Evict, ...eviction };
}

/**
 * TaintClock knows when each NoExecute taint's eviction clock started: its timeAdded, or, for
 * a taint added without one (kubectl taint does not set it), the first time this process saw
 * it — which is what Kubernetes' taint manager uses for every taint. That memory is an
 * optimisation a restart may drop: the clock then restarts, erring on the side of keeping pods.
 */
export class TaintClock {
  /** First sightings of taints without timeAdded, by node name, then `key:effect`. */
  private readonly firstSeen = new Map<string, Map<string, number>>();

  constructor(private readonly clock: Clock) {}

  /** forNode returns an addedAtMs function for the node's current NoExecute taints, and forgets
   * sightings of taints the node no longer has. */
  forNode(node: DeepReadonly<Node> | undefined, nodeName: string): (taint: ReadonlyTaint) => number {
    const current = new Set(noExecuteTaints(node).map(taintId));
    const seen = this.firstSeen.get(nodeName) ?? new Map<string, number>();
    for (const id of seen.keys()) if (!current.has(id)) seen.delete(id);
    if (seen.size === 0) this.firstSeen.delete(nodeName);
    return (taint) => {
      const added = parseTimeMs(taint.timeAdded);
      if (added !== undefined) return added;
      const id = taintId(taint);
      let at = seen.get(id);
      if (at === undefined) {
        at = this.clock.now();
        seen.set(id, at);
        this.firstSeen.set(nodeName, seen);
      }
      return at;
    };
  }
}

function taintId(taint: ReadonlyTaint): string {
  return `${taint.key}:${taint.effect}`;
}
