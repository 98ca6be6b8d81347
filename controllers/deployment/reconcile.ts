/**
 * The Deployment reconciler: kube-controller-manager's syncDeployment as a list of named steps.
 *
 *   get (gone → done) ─► selects everything? warn, stop ─► claim ReplicaSets ─► group pods
 *   ─► being deleted? status only ─► paused/resumed condition ─► paused? scale only
 *   ─► scaling event? scale proportionally ─► roll out by strategy (Recreate | RollingUpdate)
 *
 * The legacy rollback annotation (deprecated.deployment.rollback.to, extensions/v1beta1) is
 * not served: `kubectl rollout undo` patches the template back, which is an ordinary rollout
 * that finds the old ReplicaSet and gives it the next revision.
 */
import type { Deployment } from '../../apiserver/api/apps/deployment.js';
import { type LabelSelectorQuery, labelSelectorFromStructured } from '../../apiserver/api/labels.js';
import { terminalError } from '../runtime/reconciler.js';
import type { Reconciler, Request, Result } from '../runtime/types.js';
import { claimReplicaSets, podsByReplicaSet } from './claim.js';
import { pausedConditionUpdate } from './progress.js';
import { rolloutRecreate } from './recreate.js';
import { rolloutRolling } from './rolling.js';
import { eventSubject } from './scale-replica-set.js';
import { setCondition } from './status.js';
import { isScalingEvent, sync, syncStatusOnly } from './sync.js';
import type { DeploymentDeps, SyncState } from './sync-state.js';
import { writeStatus } from './sync-state.js';

/**
 * createDeploymentReconciler returns the Reconciler of the Deployment controller. It reads
 * Deployments, ReplicaSets and pods from the listers in `deps`, writes ReplicaSets and
 * Deployment status through the clients, and returns `{ requeueAfterMs }` when a rollout must
 * be re-checked at its progress deadline. API errors (409 included) are thrown for a
 * rate-limited retry; an invalid selector or strategy is a terminal error.
 */
export function createDeploymentReconciler(deps: DeploymentDeps): Reconciler {
  return { reconcile: (request) => syncDeployment(deps, request) };
}

async function syncDeployment(deps: DeploymentDeps, { namespace, name }: Request): Promise<Result> {
  const cached = deps.deploymentLister.get(namespace, name);
  if (cached === undefined) return {};
  // NOTE: the cached Deployment is shared with every other reader; this sync edits a copy.
  const deployment = structuredClone(cached) as Deployment;
  const selector = parseSelector(deployment);
  if (selector.isEverything()) return refuseEverythingSelector(deps, deployment);
  const replicaSets = await claimReplicaSets(deps, { deployment, selector });
  const state: SyncState = { deps, deployment, replicaSets };
  const pods = podsByReplicaSet(deps, { deployment, selector, rss: replicaSets });
  if (deployment.metadata.deletionTimestamp) return syncStatusOnly(state);
  await checkPausedConditions(state);
  if (deployment.spec.paused) return sync(state);
  if (await isScalingEvent(state)) return sync(state);
  const strategy = deployment.spec.strategy?.type ?? 'RollingUpdate';
  switch (strategy) {
    case 'Recreate':
      return rolloutRecreate(state, pods);
    case 'RollingUpdate':
      return rolloutRolling(state);
    default: {
      const unknown: never = strategy;
      throw terminalError(new Error(`unexpected deployment strategy type: ${String(unknown)}`));
    }
  }
}

/** parseSelector parses spec.selector; validation refuses invalid ones, so one seen here is
 * terminal (retrying cannot fix it; an edit of the Deployment enqueues it again). */
function parseSelector(d: Deployment): LabelSelectorQuery {
  try {
    return labelSelectorFromStructured(d.spec.selector);
  } catch (err) {
    throw terminalError(new Error(`deployment ${d.metadata.namespace}/${d.metadata.name} has invalid label selector: ${String(err)}`));
  }
}

/** refuseEverythingSelector: an empty selector would claim every pod in the namespace, so
 * the Deployment is only marked observed and a Warning explains why nothing happens. */
async function refuseEverythingSelector(deps: DeploymentDeps, d: Deployment): Promise<Result> {
  deps.recorder.event(eventSubject(d), 'Warning', 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
  const generation = d.metadata.generation ?? 0;
  if ((d.status?.observedGeneration ?? 0) < generation) {
    await writeStatus({ deps, deployment: d, replicaSets: [] }, { ...structuredClone(d.status ?? {}), observedGeneration: generation });
  }
  return {};
}

/** checkPausedConditions records pausing and resuming in the Progressing condition, so time
 * spent paused never counts against progressDeadlineSeconds. */
async function checkPausedConditions(state: SyncState): Promise<void> {
  const condition = pausedConditionUpdate(state.deployment, state.deps.clock.now());
  if (condition === undefined) return;
  const status = structuredClone(state.deployment.status ?? {});
  setCondition(status, condition);
  await writeStatus(state, status);
}
