import { toleratesTaint } from '../../apiserver/api/core/tolerations.js';
export { toleratesTaint };
/** findUntoleratedTaint returns the first taint that `accept` selects and no toleration
 * tolerates, or undefined. */
export function findUntoleratedTaint(taints, tolerations, accept) {
    return (taints ?? []).find((taint) => accept(taint) && !(tolerations ?? []).some((t) => toleratesTaint(t, taint)));
}
/** isDoNotScheduleTaint selects the effects that keep new pods off a node. */
export function isDoNotScheduleTaint(taint) {
    return taint.effect === 'NoSchedule' || taint.effect === 'NoExecute';
}
//# sourceMappingURL=tolerations.js.map