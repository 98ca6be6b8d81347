/**
 * Taint/toleration matching (kube's v1helper ToleratesTaint / FindMatchingUntoleratedTaint),
 * shared by TaintToleration, NodeUnschedulable and PodTopologySpread's nodeTaintsPolicy.
 */
import type { Toleration } from '../../apiserver/api/core/affinity.js';
import type { Taint } from '../../apiserver/api/core/node.js';
import { toleratesTaint } from '../../apiserver/api/core/tolerations.js';
import type { DeepReadonly } from '../../controllers/runtime/types.js';

type ReadonlyTaint = DeepReadonly<Taint>;
type ReadonlyToleration = DeepReadonly<Toleration>;

export { toleratesTaint };

/** findUntoleratedTaint returns the first taint that `accept` selects and no toleration
 * tolerates, or undefined. */
export function findUntoleratedTaint(
  taints: readonly ReadonlyTaint[] | undefined,
  tolerations: readonly ReadonlyToleration[] | undefined,
  accept: (taint: ReadonlyTaint) => boolean,
): ReadonlyTaint | undefined {
  return (taints ?? []).find((taint) => accept(taint) && !(tolerations ?? []).some((t) => toleratesTaint(t, taint)));
}

/** isDoNotScheduleTaint selects the effects that keep new pods off a node. */
export function isDoNotScheduleTaint(taint: ReadonlyTaint): boolean {
  return taint.effect === 'NoSchedule' || taint.effect === 'NoExecute';
}
