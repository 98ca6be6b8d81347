/**
 * Which nodes should run a DaemonSet's pod (Kubernetes' NodeShouldRunDaemonPod): the
 * template's nodeName (if any), nodeSelector and required node affinity must match the node,
 * and its NoSchedule/NoExecute taints must be tolerated by the template's tolerations plus the
 * ones every daemon pod gets (DAEMON_POD_TOLERATIONS). Pure; never mutates its arguments.
 */
import type { DaemonSet } from '../../apiserver/api/apps/daemon-set.js';
import type { Toleration } from '../../apiserver/api/core/affinity.js';
import type { Node } from '../../apiserver/api/core/node.js';
import { podSpecMatchesNode } from '../../apiserver/api/core/node-selector.js';
import { type TaintLike, type TolerationLike, toleratesTaint } from '../../apiserver/api/core/tolerations.js';
import type { DeepReadonly } from '../runtime/types.js';

export type ReadonlyDaemonSet = DeepReadonly<DaemonSet>;
export type ReadonlyNode = DeepReadonly<Node>;

/**
 * DAEMON_POD_TOLERATIONS are the tolerations the DaemonSet controller adds to every daemon
 * pod (util.AddOrUpdateDaemonPodTolerations): a daemon keeps running on a node that is not
 * ready or unreachable, and is placed on nodes under resource pressure or cordoned.
 */
export const DAEMON_POD_TOLERATIONS: readonly Toleration[] = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
];

/** NETWORK_UNAVAILABLE_TOLERATION is added as well for hostNetwork pods. */
export const NETWORK_UNAVAILABLE_TOLERATION: Toleration = { key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' };

/**
 * daemonPodTolerations returns the template's tolerations plus the daemon defaults it does not
 * already carry (same key, operator and effect), as AddOrUpdateTolerationInPodSpec does.
 * Returns fresh objects.
 */
export function daemonPodTolerations(spec: ReadonlyDaemonSet['spec']['template']['spec']): Toleration[] {
  const tolerations = (spec.tolerations ?? []).map((t) => ({ ...t }) as Toleration);
  const defaults = spec.hostNetwork ? [...DAEMON_POD_TOLERATIONS, NETWORK_UNAVAILABLE_TOLERATION] : DAEMON_POD_TOLERATIONS;
  for (const extra of defaults) {
    const same = (t: Toleration) => t.key === extra.key && (t.operator ?? 'Equal') === extra.operator && t.effect === extra.effect;
    if (!tolerations.some(same)) tolerations.push({ ...extra });
  }
  return tolerations;
}

/** Eligibility answers NodeShouldRunDaemonPod's two questions for one node. */
export interface Eligibility {
  /** A daemon pod should be created on the node if there is none. */
  shouldRun: boolean;
  /** A daemon pod already there may stay (its untolerated taints are only NoSchedule). */
  shouldContinueRunning: boolean;
}

const NOT_ELIGIBLE: Eligibility = { shouldRun: false, shouldContinueRunning: false };

/**
 * nodeShouldRunDaemonPod decides about one node: not eligible at all when the template's
 * nodeName names another node or its nodeSelector/required node affinity does not match;
 * shouldRun when every NoSchedule/NoExecute taint is tolerated; otherwise the pod is not
 * placed but one already running may continue unless a NoExecute taint is untolerated.
 */
export function nodeShouldRunDaemonPod(node: ReadonlyNode, ds: ReadonlyDaemonSet): Eligibility {
  const spec = ds.spec.template.spec;
  const nodeName = node.metadata.name ?? '';
  if (spec.nodeName && spec.nodeName !== nodeName) return NOT_ELIGIBLE;
  if (!podSpecMatchesNode(spec, node)) return NOT_ELIGIBLE;
  const tolerations = daemonPodTolerations(spec);
  const taints = node.spec?.taints ?? [];
  const fitsTaints = !hasUntoleratedTaint(taints, tolerations, (t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute');
  if (fitsTaints) return { shouldRun: true, shouldContinueRunning: true };
  return { shouldRun: false, shouldContinueRunning: !hasUntoleratedTaint(taints, tolerations, (t) => t.effect === 'NoExecute') };
}

function hasUntoleratedTaint(taints: readonly TaintLike[], tolerations: readonly TolerationLike[], accept: (taint: TaintLike) => boolean): boolean {
  return taints.some((taint) => accept(taint) && !tolerations.some((toleration) => toleratesTaint(toleration, taint)));
}
