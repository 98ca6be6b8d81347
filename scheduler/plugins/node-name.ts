/**
 * NodeName (kube's nodename plugin): a pod that names its node in spec.nodeName fits only that
 * node. The scheduler only places pods without a nodeName, so this is a guard for callers of
 * the framework that evaluate pods differently (and a lesson: nodeName bypasses scheduling).
 */
import { type FilterPlugin, rejection, StatusCodes } from '../framework.js';

export const NODE_NAME = 'NodeName';
/** ERR_REASON_NODE_NAME is kube's reason text. */
export const ERR_REASON_NODE_NAME = "node(s) didn't match the requested node name";

/** nodeNamePlugin is the NodeName filter. */
export const nodeNamePlugin: FilterPlugin = {
  name: NODE_NAME,
  filter(_state, pod, node) {
    const wanted = pod.spec.nodeName;
    if (!wanted || wanted === node.name) return undefined;
    return rejection(NODE_NAME, StatusCodes.UnschedulableAndUnresolvable, ERR_REASON_NODE_NAME);
  },
};
