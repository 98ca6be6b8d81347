/**
 * NodeUnschedulable (kube's nodeunschedulable plugin): a cordoned node (spec.unschedulable,
 * `kubectl cordon`) takes no new pods, except pods that tolerate the
 * node.kubernetes.io/unschedulable:NoSchedule taint (DaemonSet pods do).
 */
import { type FilterPlugin, rejection, StatusCodes } from '../framework.js';
import { toleratesTaint } from './tolerations.js';

export const NODE_UNSCHEDULABLE = 'NodeUnschedulable';
/** ERR_REASON_UNSCHEDULABLE is kube's reason text. */
export const ERR_REASON_UNSCHEDULABLE = 'node(s) were unschedulable';
/** UNSCHEDULABLE_TAINT_KEY is the taint a cordoned node is treated as having. */
export const UNSCHEDULABLE_TAINT_KEY = 'node.kubernetes.io/unschedulable';

const unschedulableTaint = { key: UNSCHEDULABLE_TAINT_KEY, effect: 'NoSchedule' } as const;

/** nodeUnschedulablePlugin is the NodeUnschedulable filter. */
export const nodeUnschedulablePlugin: FilterPlugin = {
  name: NODE_UNSCHEDULABLE,
  filter(_state, pod, node) {
    if (!node.node.spec?.unschedulable) return undefined;
    if ((pod.spec.tolerations ?? []).some((toleration) => toleratesTaint(toleration, unschedulableTaint))) return undefined;
    return rejection(NODE_UNSCHEDULABLE, StatusCodes.UnschedulableAndUnresolvable, ERR_REASON_UNSCHEDULABLE);
  },
};
