/**
 * Taints and tolerations, the pure half: which taints the node lifecycle controller keeps on
 * a node given its conditions (kube's doNoScheduleTaintingPass + processTaintBaseEviction),
 * and whether a toleration tolerates a taint (core/v1 Toleration.ToleratesTaint).
 */
import type { Node, Taint } from '../../apiserver/api/core/node.js';
import { NOT_READY_TAINT, UNREACHABLE_TAINT } from '../../apiserver/api/core/pod-defaults.js';
import { rfc3339 } from '../../apiserver/api/machinery/time.js';
import type { DeepReadonly } from '../runtime/types.js';

export { NOT_READY_TAINT, UNREACHABLE_TAINT };

/** Keys of the NoSchedule taints that mirror node conditions and spec.unschedulable. */
export const MEMORY_PRESSURE_TAINT = 'node.kubernetes.io/memory-pressure';
export const DISK_PRESSURE_TAINT = 'node.kubernetes.io/disk-pressure';
export const PID_PRESSURE_TAINT = 'node.kubernetes.io/pid-pressure';
export const NETWORK_UNAVAILABLE_TAINT = 'node.kubernetes.io/network-unavailable';
export const UNSCHEDULABLE_TAINT = 'node.kubernetes.io/unschedulable';

type ReadonlyNode = DeepReadonly<Node>;
type ReadonlyTaint = DeepReadonly<Taint>;

/** TaintId is what makes a taint unique on a node: its key and effect. */
interface TaintId {
  key: string;
  effect: Taint['effect'];
}

/** Condition (type, status) pairs that put a NoSchedule taint on the node. */
const CONDITION_TAINTS: ReadonlyArray<{ type: string; status: string; key: string }> = [
  { type: 'Ready', status: 'False', key: NOT_READY_TAINT },
  { type: 'Ready', status: 'Unknown', key: UNREACHABLE_TAINT },
  { type: 'MemoryPressure', status: 'True', key: MEMORY_PRESSURE_TAINT },
  { type: 'DiskPressure', status: 'True', key: DISK_PRESSURE_TAINT },
  { type: 'PIDPressure', status: 'True', key: PID_PRESSURE_TAINT },
  { type: 'NetworkUnavailable', status: 'True', key: NETWORK_UNAVAILABLE_TAINT },
];

/** OWNED_TAINTS are the taints this controller adds and removes; every other taint on a
 * node (kubectl taint, other controllers) is left exactly as it is. */
const OWNED_TAINTS: readonly TaintId[] = [
  ...CONDITION_TAINTS.map(({ key }) => ({ key, effect: 'NoSchedule' as const })),
  { key: UNSCHEDULABLE_TAINT, effect: 'NoSchedule' },
  { key: NOT_READY_TAINT, effect: 'NoExecute' },
  { key: UNREACHABLE_TAINT, effect: 'NoExecute' },
];

const sameId = (a: TaintId, b: TaintId) => a.key === b.key && a.effect === b.effect;
const isOwned = (taint: TaintId) => OWNED_TAINTS.some((owned) => sameId(owned, taint));

/**
 * wantedTaints are the controller-owned taints `node` should carry now: a NoSchedule taint
 * per unhealthy condition (and for a cordoned node), and a NoExecute taint for a Ready
 * condition that is False (not-ready) or Unknown (unreachable). A node without a Ready
 * condition (never reported) gets no readiness taint, as in Kubernetes.
 */
export function wantedTaints(node: ReadonlyNode): TaintId[] {
  const conditions = node.status?.conditions ?? [];
  const has = (type: string, status: string) => conditions.some((c) => c.type === type && c.status === status);
  const wanted: TaintId[] = CONDITION_TAINTS.filter((t) => has(t.type, t.status)).map(({ key }) => ({ key, effect: 'NoSchedule' }));
  if (node.spec?.unschedulable) wanted.push({ key: UNSCHEDULABLE_TAINT, effect: 'NoSchedule' });
  if (has('Ready', 'False')) wanted.push({ key: NOT_READY_TAINT, effect: 'NoExecute' });
  if (has('Ready', 'Unknown')) wanted.push({ key: UNREACHABLE_TAINT, effect: 'NoExecute' });
  return wanted;
}

/**
 * desiredTaints returns the node's new spec.taints, or undefined when they are already right.
 * Foreign taints are kept in place; owned taints that are still wanted keep their timeAdded
 * (the eviction clock of tolerating pods must not restart); new NoExecute taints are stamped
 * with `nowMs` (NoSchedule ones carry no time, as in Kubernetes). Pure.
 */
export function desiredTaints(node: ReadonlyNode, nowMs: number): Taint[] | undefined {
  const current = node.spec?.taints ?? [];
  const wanted = wantedTaints(node);
  const kept = current.filter((taint) => !isOwned(taint) || wanted.some((w) => sameId(w, taint)));
  const added = wanted.filter((w) => !current.some((taint) => sameId(w, taint)));
  if (added.length === 0 && kept.length === current.length) return undefined;
  const stamp = rfc3339(nowMs);
  const fresh = added.map((id): Taint => (id.effect === 'NoExecute' ? { ...id, timeAdded: stamp } : { ...id }));
  return [...(structuredClone(kept) as Taint[]), ...fresh];
}

/** noExecuteTaints are the node's taints with effect NoExecute (none for a missing node). */
export function noExecuteTaints(node: ReadonlyNode | undefined): ReadonlyTaint[] {
  return (node?.spec?.taints ?? []).filter((taint) => taint.effect === 'NoExecute');
}

export { toleratesTaint } from '../../apiserver/api/core/tolerations.js';
