/**
 * The disruption reconciler (Kubernetes' disruption controller sync): read a budget and the
 * pods it selects from the caches, find how many pods their controllers expect, and write
 * currentHealthy / desiredHealthy / expectedPods / disruptionsAllowed, the disruptedPods still
 * pending and the DisruptionAllowed condition through /status. Level-triggered.
 */
import { isNotFound } from '../../apiserver/api/api-error.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { deepEqual } from '../../apiserver/api/deep-equal.js';
import { type LabelSelectorQuery, labelSelectorFromStructured } from '../../apiserver/api/labels.js';
import type { PodDisruptionBudget, PodDisruptionBudgetStatus } from '../../apiserver/api/policy/pod-disruption-budget.js';
import type { KubeClient } from '../runtime/client/http-client.js';
import { terminalError } from '../runtime/reconciler.js';
import type { Clock, DeepReadonly, EventRecorder, Lister, Reconciler, Request, ResourceClient, Result } from '../runtime/types.js';
import { expectedScale, ScaleError } from './expected-scale.js';
import { computeBudgetStatus, needsControllerScale, syncFailedStatus } from './status.js';

/** DisruptionReconcilerDeps are the reconciler's collaborators. */
export interface DisruptionReconcilerDeps {
  budgetLister: Lister<PodDisruptionBudget>;
  podLister: Lister<Pod>;
  budgets: ResourceClient<PodDisruptionBudget>;
  /** Reads the pods' controllers and their /scale. */
  client: KubeClient;
  recorder: EventRecorder;
  clock: Clock;
}

type ReadonlyBudget = DeepReadonly<PodDisruptionBudget>;

/**
 * createDisruptionReconciler returns the Reconciler of the disruption controller. A reconcile
 * returns {} when the budget is gone; throws (rate-limited retry) when reading a /scale or
 * the status write failed; throws a terminal error after reporting SyncFailed for pods
 * without a controller or a budget value that is not an int-or-percent; and asks to be
 * requeued when a disruptedPods entry expires.
 */
export function createDisruptionReconciler(deps: DisruptionReconcilerDeps): Reconciler {
  return { reconcile: (request) => syncBudget(deps, request) };
}

async function syncBudget(deps: DisruptionReconcilerDeps, request: Request): Promise<Result> {
  const pdb = deps.budgetLister.get(request.namespace, request.name);
  if (pdb === undefined) return {};
  const pods = selectedPods(deps.podLister, pdb);
  let expectedCount: number;
  try {
    expectedCount = needsControllerScale(pdb.spec) ? await expectedScale(deps.client, pods) : pods.length;
  } catch (err) {
    await failSafe(deps, pdb, err);
    throw err instanceof ScaleError ? terminalError(err) : err;
  }
  const nowMs = deps.clock.now();
  let computed: ReturnType<typeof computeBudgetStatus>;
  try {
    computed = computeBudgetStatus(pdb, { pods, expectedCount, nowMs });
  } catch (err) {
    // Only a minAvailable/maxUnavailable that is not an int-or-percent gets here; retrying
    // cannot help, so report it and stop (Kubernetes' failSafe).
    await failSafe(deps, pdb, err);
    throw terminalError(err);
  }
  const { status, recheckAtMs } = computed;
  await writeStatus(deps, pdb, status);
  return recheckAtMs === undefined ? {} : { requeueAfterMs: Math.max(0, recheckAtMs - nowMs) };
}

/** selectedPods are the cached pods in the budget's namespace its selector matches; an
 * empty selector selects none (policy/v1 eviction semantics). */
function selectedPods(podLister: Lister<Pod>, pdb: ReadonlyBudget): DeepReadonly<Pod>[] {
  let selector: LabelSelectorQuery;
  try {
    selector = labelSelectorFromStructured(structuredClone(pdb.spec.selector) as PodDisruptionBudget['spec']['selector']);
  } catch (err) {
    throw terminalError(err);
  }
  if (selector.isEverything()) return [];
  return podLister.list(pdb.metadata.namespace ?? '').filter((pod) => selector.matches(pod.metadata.labels));
}

/** failSafe reports a sync failure in status (no disruptions allowed) and as an event. */
async function failSafe(deps: DisruptionReconcilerDeps, pdb: ReadonlyBudget, err: unknown): Promise<void> {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof ScaleError) deps.recorder.event(pdb, 'Warning', err.reason, message);
  await writeStatus(deps, pdb, syncFailedStatus(pdb, message, deps.clock.now()));
}

/** writeStatus PUTs /status when it differs; a 404 means the budget was deleted meanwhile. */
async function writeStatus(deps: DisruptionReconcilerDeps, pdb: ReadonlyBudget, status: PodDisruptionBudgetStatus): Promise<void> {
  if (deepEqual(pdb.status ?? {}, status)) return;
  // NOTE: pdb is a shared cache object: write a copy.
  const next = { ...(structuredClone(pdb) as PodDisruptionBudget), status };
  try {
    await deps.budgets.updateStatus(next);
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}
