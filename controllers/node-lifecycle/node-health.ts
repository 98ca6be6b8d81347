/**
 * Node health, the pure half (kube's tryUpdateNodeHealth): when did a node last show signs of
 * life, is that longer ago than the grace period, and what do its conditions become when it
 * is. Everything here takes the time as an argument and never mutates its inputs.
 */
import type { Lease } from '../../apiserver/api/coordination/lease.js';
import type { Node, NodeCondition } from '../../apiserver/api/core/node.js';
import { parseTimeMs, rfc3339 } from '../../apiserver/api/machinery/time.js';
import type { DeepReadonly } from '../runtime/types.js';

/** KUBELET_CONDITION_TYPES are the conditions only the kubelet can vouch for; when it falls
 * silent the controller turns each of them Unknown. */
export const KUBELET_CONDITION_TYPES = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'] as const;

/** Reasons and messages the controller writes into conditions it took over (kube's wording). */
export const NodeStatusReason = {
  Unknown: 'NodeStatusUnknown',
  NeverUpdated: 'NodeStatusNeverUpdated',
} as const;
export const STOPPED_POSTING_MESSAGE = 'Kubelet stopped posting node status.';
export const NEVER_POSTED_MESSAGE = 'Kubelet never posted node status.';

/** NODE_LEASE_NAMESPACE holds one heartbeat Lease per node, named after the node. */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

type ReadonlyNode = DeepReadonly<Node>;

/** ConditionStatus is a condition's status, or undefined when the condition is missing. */
export type ConditionStatus = NodeCondition['status'] | undefined;

/** HealthInputs are what assessNodeHealth looks at. */
export interface HealthInputs {
  node: ReadonlyNode;
  /** The node's Lease in kube-node-lease, if any. */
  lease: DeepReadonly<Lease> | undefined;
  nowMs: number;
  /** How long a node that has reported before may stay silent (nodeMonitorGracePeriod). */
  gracePeriodMs: number;
  /** How long a node that never reported Ready may take to do so (nodeStartupGracePeriod). */
  startupGracePeriodMs: number;
}

/** NodeHealth is the verdict on one node at one moment. */
export interface NodeHealth {
  /** Cluster time of the last sign of life: the later of the lease renewal and the Ready
   * condition's heartbeat, or the node's registration when it has neither. */
  lastHeartbeatMs: number;
  /** Cluster time at which the silence exceeds the grace period. */
  staleAtMs: number;
  /** The kubelet has been silent for longer than the grace period. */
  stale: boolean;
}

/**
 * assessNodeHealth decides whether the node's kubelet has gone silent. Both heartbeat
 * channels count, as in Kubernetes: the cheap Lease renewal (every 10 s) and a status update
 * of the Ready condition. A node that never reported Ready gets the longer startup grace
 * period, measured from its registration.
 */
export function assessNodeHealth({ node, lease, nowMs, gracePeriodMs, startupGracePeriodMs }: HealthInputs): NodeHealth {
  const ready = findCondition(node, 'Ready');
  const beats = [parseTimeMs(lease?.spec?.renewTime), parseTimeMs(ready?.lastHeartbeatTime)].filter((ms) => ms !== undefined);
  // A node object with no time at all (hand-made) counts as alive now rather than long dead.
  const lastHeartbeatMs = beats.length > 0 ? Math.max(...beats) : (parseTimeMs(node.metadata.creationTimestamp) ?? nowMs);
  const staleAtMs = lastHeartbeatMs + (ready ? gracePeriodMs : startupGracePeriodMs);
  return { lastHeartbeatMs, staleAtMs, stale: nowMs > staleAtMs };
}

/**
 * unknownConditions returns the node's status.conditions with every kubelet condition made
 * Unknown (lastTransitionTime `nowMs`, lastHeartbeatTime untouched, so it keeps saying when the
 * kubelet was last heard), or undefined when they all already are. A condition the kubelet
 * never posted is added as Unknown with reason NodeStatusNeverUpdated. Other conditions
 * (NetworkUnavailable) are kept as they are.
 */
export function unknownConditions(node: ReadonlyNode, nowMs: number): NodeCondition[] | undefined {
  const conditions = structuredClone(node.status?.conditions ?? []) as NodeCondition[];
  const at = rfc3339(nowMs);
  let changed = false;
  for (const type of KUBELET_CONDITION_TYPES) {
    const existing = conditions.find((condition) => condition.type === type);
    if (existing === undefined) {
      const neverPosted = { reason: NodeStatusReason.NeverUpdated, message: NEVER_POSTED_MESSAGE };
      conditions.push({ type, status: 'Unknown', ...neverPosted, lastHeartbeatTime: node.metadata.creationTimestamp, lastTransitionTime: at });
      changed = true;
    } else if (existing.status !== 'Unknown') {
      Object.assign(existing, { status: 'Unknown', reason: NodeStatusReason.Unknown, message: STOPPED_POSTING_MESSAGE, lastTransitionTime: at });
      changed = true;
    }
  }
  return changed ? conditions : undefined;
}

/** findCondition returns the node's condition of `type`, if it has one. */
export function findCondition(node: ReadonlyNode, type: string): DeepReadonly<NodeCondition> | undefined {
  return node.status?.conditions?.find((condition) => condition.type === type);
}

/** readyStatus is the status of the node's Ready condition (undefined when it has none). */
export function readyStatus(node: ReadonlyNode): ConditionStatus {
  return findCondition(node, 'Ready')?.status;
}

/**
 * isNodeUnreachable reports whether nobody can act for the node's kubelet: the node is gone,
 * or its Ready condition is Unknown (or was never posted). A kubelet that reports Ready=False
 * is alive and still stops its own pods, so that node is not unreachable.
 */
export function isNodeUnreachable(node: ReadonlyNode | undefined): boolean {
  if (node === undefined) return true;
  const status = readyStatus(node);
  return status === undefined || status === 'Unknown';
}
