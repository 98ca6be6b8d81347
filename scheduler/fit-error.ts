/**
 * The FailedScheduling message (kube's FitError.Error() plus the DefaultPreemption
 * PostFilter's message), e.g.
 *   0/3 nodes are available: 1 node(s) had untolerated taint {gpu: true}, 2 Insufficient cpu.
 *   preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling,
 *   2 No preemption victims found for incoming pod.
 * (one line). Reasons are counted over nodes and the "count reason" strings sorted, as kube
 * does. kubesim does not preempt: nodes rejected for a resolvable reason report that no
 * victims were found, which is what kube says when no lower-priority pod could make room.
 */
import { type ReadonlyPod, type Status, StatusCodes } from './framework.js';

/** ERR_NO_NODES_AVAILABLE is kube's message when the cluster has no nodes at all. */
export const ERR_NO_NODES_AVAILABLE = 'no nodes available to schedule pods';
const PREEMPTION_NOT_HELPFUL = 'Preemption is not helpful for scheduling';
const NO_VICTIMS = 'No preemption victims found for incoming pod';

/** histogram renders "count reason" entries, sorted as strings and comma-joined. */
function histogram(reasons: Iterable<string>): string {
  const counts = new Map<string, number>();
  for (const reason of reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return [...counts]
    .map(([reason, count]) => `${count} ${reason}`)
    .sort()
    .join(', ');
}

/** fitErrorMessage is the whole message for a pod that fits none of `totalNodes` nodes,
 * given each rejected node's Status. */
export function fitErrorMessage(pod: ReadonlyPod, totalNodes: number, statuses: ReadonlyMap<string, Status>): string {
  if (totalNodes === 0) return ERR_NO_NODES_AVAILABLE;
  const reasons = [...statuses.values()].flatMap((status) => status.reasons);
  return `0/${totalNodes} nodes are available: ${histogram(reasons)}. ${preemptionMessage(pod, totalNodes, statuses)}`;
}

/** preemptionMessage is what DefaultPreemption would add for this diagnosis. */
function preemptionMessage(pod: ReadonlyPod, totalNodes: number, statuses: ReadonlyMap<string, Status>): string {
  if (pod.spec.preemptionPolicy === 'Never') return 'preemption: not eligible due to preemptionPolicy=Never.';
  const outcomes = [...statuses.values()].map((status) => (status.code === StatusCodes.Unschedulable ? NO_VICTIMS : PREEMPTION_NOT_HELPFUL));
  return `preemption: 0/${totalNodes} nodes are available: ${histogram(outcomes)}.`;
}
