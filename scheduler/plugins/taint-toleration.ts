/**
 * TaintToleration (kube's tainttoleration plugin).
 * Filter: a node with a NoSchedule or NoExecute taint the pod does not tolerate is out
 * ("node(s) had untolerated taint {key: value}").
 * Score: fewer untolerated PreferNoSchedule taints is better (reverse-normalized count).
 */
import { type FilterPlugin, normalizeScores, rejection, type ScorePlugin, StatusCodes } from '../framework.js';
import { findUntoleratedTaint, isDoNotScheduleTaint, toleratesTaint } from './tolerations.js';

export const TAINT_TOLERATION = 'TaintToleration';

/** untoleratedTaintReason is kube's reason text for one taint. */
export function untoleratedTaintReason(taint: { readonly key: string; readonly value?: string }): string {
  return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`;
}

/** taintTolerationFilter is the TaintToleration filter. */
export const taintTolerationFilter: FilterPlugin = {
  name: TAINT_TOLERATION,
  filter(_state, pod, node) {
    const taint = findUntoleratedTaint(node.node.spec?.taints, pod.spec.tolerations, isDoNotScheduleTaint);
    if (!taint) return undefined;
    return rejection(TAINT_TOLERATION, StatusCodes.UnschedulableAndUnresolvable, untoleratedTaintReason(taint));
  },
};

/** createTaintTolerationScorer returns the TaintToleration scorer (kube's default weight 3). */
export function createTaintTolerationScorer(weight = 3): ScorePlugin {
  return {
    name: TAINT_TOLERATION,
    weight,
    score(_state, pod, node) {
      // Only tolerations that could match a PreferNoSchedule taint count, as in kube.
      const tolerations = (pod.spec.tolerations ?? []).filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
      const taints = (node.node.spec?.taints ?? []).filter((taint) => taint.effect === 'PreferNoSchedule');
      return taints.filter((taint) => !tolerations.some((t) => toleratesTaint(t, taint))).length;
    },
    normalize: (_state, _pod, scores) => normalizeScores(scores, true),
  };
}
