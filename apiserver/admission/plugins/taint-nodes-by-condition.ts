/**
 * TaintNodesByCondition, as kube-apiserver's plugin (plugin/pkg/admission/nodetaint): a node
 * is created with the node.kubernetes.io/not-ready:NoSchedule taint (unless it carries that
 * taint already), so no pod lands on it before it reports Ready; the node lifecycle
 * controller then keeps the condition taints in step with its conditions and lifts it.
 * Created only where that controller runs (builtInAdmissionPlugins), or the taint would stay.
 */
import type { Node } from '../../api/core/node.js';
import { NOT_READY_TAINT } from '../../api/core/pod-defaults.js';
import type { AdmissionPlugin } from '../plugin.js';

export const taintNodesByCondition: AdmissionPlugin = {
  name: 'TaintNodesByCondition',
  handles: (operation, def, subresource) => operation === 'CREATE' && subresource === '' && def.storage.resource === 'nodes',
  admit(_ctx, { object }) {
    const node = object as unknown as Node;
    const taints = node.spec?.taints ?? [];
    if (taints.some((taint) => taint.key === NOT_READY_TAINT && taint.effect === 'NoSchedule')) return;
    node.spec = { ...node.spec, taints: [...taints, { key: NOT_READY_TAINT, effect: 'NoSchedule' }] };
  },
};
