/**
 * The disruption controller's informer handlers (addDb/updateDb/removeDb and
 * addPod/updatePod/deletePod). They only enqueue budget keys: synchronous, no API calls,
 * never throwing.
 */
import type { Pod } from '../../apiserver/api/core/pod.js';
import { labelSelectorFromStructured } from '../../apiserver/api/labels.js';
import type { PodDisruptionBudget } from '../../apiserver/api/policy/pod-disruption-budget.js';
import { keyOf } from '../runtime/reconciler.js';
import type { DeepReadonly, EventHandlers, Lister, WorkQueue } from '../runtime/types.js';

/** HandlerDeps are what the handlers read and feed. */
export interface HandlerDeps {
  budgetLister: Lister<PodDisruptionBudget>;
  queue: WorkQueue;
}

/** budgetEventHandlers enqueue a budget on every add, update and delete. */
export function budgetEventHandlers({ queue }: HandlerDeps): EventHandlers<PodDisruptionBudget> {
  return {
    onAdd: (pdb) => queue.add(keyOf(pdb)),
    onUpdate: (_old, cur) => queue.add(keyOf(cur)),
    onDelete: (pdb) => queue.add(keyOf(pdb)),
  };
}

/** podEventHandlers wake every budget selecting the pod, before and after a label change. */
export function podEventHandlers(deps: HandlerDeps): EventHandlers<Pod> {
  const wake = (pod: DeepReadonly<Pod>) => {
    for (const pdb of budgetsSelecting(deps.budgetLister, pod)) deps.queue.add(keyOf(pdb));
  };
  return {
    onAdd: wake,
    onUpdate: (old, cur) => {
      if (old.metadata.resourceVersion === cur.metadata.resourceVersion) return;
      wake(cur);
      if (old.metadata.labels !== cur.metadata.labels) wake(old);
    },
    onDelete: wake,
  };
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
