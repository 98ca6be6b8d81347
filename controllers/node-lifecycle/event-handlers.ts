/**
 * Which events wake the node lifecycle controllers (node names for the monitor, pod keys for
 * taint eviction): mappings and predicates for the builder. Pure, no API calls, never throwing.
 *
 *   monitor   a Node added or updated → that node (a kubelet that reports again must get its
 *             taints lifted without waiting for the next tick); a heartbeat Lease → its node
 *   eviction  a bound pod that may need evicting → that pod; a Node whose NoExecute taints or
 *             readiness changed (or that appeared or went) → every pod on it
 */
import type { Lease } from '../../apiserver/api/coordination/lease.js';
import type { Node } from '../../apiserver/api/core/node.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { deepEqual } from '../../apiserver/api/deep-equal.js';
import type { EventPredicates, MapToKeys } from '../runtime/builder.js';
import { NODE_NAME_INDEX } from '../runtime/indexers.js';
import { keyOf } from '../runtime/reconciler.js';
import type { DeepReadonly, Lister } from '../runtime/types.js';
import { isNodeUnreachable, readyStatus } from './node-health.js';
import { noExecuteTaints } from './taints.js';

type ReadonlyNode = DeepReadonly<Node>;

/** heartbeatNode maps a node's heartbeat Lease to the node it is named after. */
export const heartbeatNode: MapToKeys<Lease> = (lease) => (lease.metadata.name ? [lease.metadata.name] : []);

/** podsOnNode maps a node to every pod bound to it (`podLister` must carry NODE_NAME_INDEX). */
export function podsOnNode(podLister: Lister<Pod>): MapToKeys<Node> {
  return (node) => podLister.byIndex(NODE_NAME_INDEX, node.metadata.name ?? '').map((pod) => keyOf(pod));
}

/** evictionFactsChanged: a node update matters to eviction when its NoExecute taints or its
 * readiness changed — the facts planPodAction reads from it. */
export function evictionFactsChanged(old: ReadonlyNode, cur: ReadonlyNode): boolean {
  return !deepEqual(noExecuteTaints(old), noExecuteTaints(cur)) || readyStatus(old) !== readyStatus(cur);
}

/**
 * evictablePods lets a bound pod through when something could be done about it: it is
 * terminating, or its node is unreachable, gone or carries NoExecute taints. Pods on healthy,
 * untainted nodes — nearly all of them — are not looked at, and nor are deleted ones.
 */
export function evictablePods(nodeLister: Lister<Node>): EventPredicates<Pod> {
  const consider = (pod: DeepReadonly<Pod>) => {
    const nodeName = pod.spec.nodeName;
    if (!nodeName) return false;
    const node = nodeLister.get('', nodeName);
    return pod.metadata.deletionTimestamp !== undefined || isNodeUnreachable(node) || noExecuteTaints(node).length > 0;
  };
  return { add: consider, update: (_old, pod) => consider(pod), delete: () => false };
}
