/**
 * Which pods wake which PodDisruptionBudget (Kubernetes' addPod/updatePod/deletePod): pure
 * mapping, no API calls, never throwing. A budget wakes itself (the builder's for()).
 */
import type { Pod } from '../../apiserver/api/core/pod.js';
import { labelSelectorFromStructured } from '../../apiserver/api/labels.js';
import type { PodDisruptionBudget } from '../../apiserver/api/policy/pod-disruption-budget.js';
import type { MapToKeys } from '../runtime/builder.js';
import { keyOf } from '../runtime/reconciler.js';
import type { DeepReadonly, Lister } from '../runtime/types.js';

/** budgetKeysSelecting maps a pod to the keys of the budgets selecting it (the builder maps
 * both versions of an updated pod, so a label change wakes the former budgets too). */
export function budgetKeysSelecting(lister: Lister<PodDisruptionBudget>): MapToKeys<Pod> {
  return (pod) => budgetsSelecting(lister, pod).map((pdb) => keyOf(pdb));
}

/**
 * budgetsSelecting are the budgets in the pod's namespace whose selector matches its labels.
 * An empty selector selects nothing (as in Kubernetes), an unparsable one is skipped (its own
 * reconcile reports it).
 */
export function budgetsSelecting(lister: Lister<PodDisruptionBudget>, pod: DeepReadonly<Pod>): DeepReadonly<PodDisruptionBudget>[] {
  return lister.list(pod.metadata.namespace ?? '').filter((pdb) => {
    try {
      const selector = labelSelectorFromStructured(structuredClone(pdb.spec.selector) as PodDisruptionBudget['spec']['selector']);
      return !selector.isEverything() && selector.matches(pod.metadata.labels);
    } catch {
      return false;
    }
  });
}
