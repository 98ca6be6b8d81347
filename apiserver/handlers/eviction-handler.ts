/**
 * POST pods/{name}/eviction: a pod delete that respects PodDisruptionBudgets, as
 * kube-apiserver's EvictionREST does. The budget check, the pod delete and the budget's
 * status write run in one synchronous call: the store is synchronous, so no other request
 * can slip in between and spend the same disruption twice (Kubernetes needs optimistic
 * concurrency and retries for that).
 */
import { admitAndWrite, andThen } from '../admission/chain.js';
import { ApiError, badRequest, forbidden, internalError } from '../api/api-error.js';
import { isPodReady } from '../api/core/pod-conditions.js';
import { labelSelectorFromStructured } from '../api/labels.js';
import { rfc3339 } from '../api/machinery/time.js';
import { DISRUPTION_ALLOWED_CONDITION, type PodDisruptionBudget } from '../api/policy/pod-disruption-budget.js';
import type { DeleteRequest, KubeObject } from '../api/resource-definition.js';
import { asKube, readStored, type Target } from '../registry/context.js';
import { deleteObject } from '../registry/delete.js';
import { toServed } from '../registry/object-codec.js';
import { updateObject } from '../registry/update.js';
import { decodeObjectBody, isPlainObject } from '../request/body.js';
import { parseDeleteRequest } from './delete-handlers.js';
import { type ApiRequest, type HandlerContext, type MaybeAsyncResponse, targetOf } from './types.js';

/** EVICTION_DENIED_MESSAGE is Kubernetes' wording of a 429 from the eviction subresource. */
export const EVICTION_DENIED_MESSAGE = "Cannot evict pod as it would violate the pod's disruption budget.";
/** MAX_DISRUPTED_PODS bounds status.disruptedPods (MaxDisruptedPodSize in Kubernetes). */
const MAX_DISRUPTED_PODS = 2000;

interface EvictedPod extends KubeObject {
  status?: { phase?: string; conditions?: Array<{ type: string; status: string }> };
}

/**
 * evictionHandler answers POST pods/{name}/eviction. A pod that is Pending, finished or
 * already terminating, or that no budget selects, is deleted with the eviction's
 * DeleteOptions. Otherwise its one budget must allow a disruption: 429 TooManyRequests when
 * it does not, 500 when several budgets select the pod. An allowed eviction of a Ready pod
 * spends one disruption (status.disruptionsAllowed - 1, the pod in status.disruptedPods).
 */
export function evictionHandler(ctx: HandlerContext, request: ApiRequest): MaybeAsyncResponse {
  const target = targetOf(request.path);
  const { deleteRequest, eviction } = evictionDeleteRequest(request, target);
  const warnings: string[] = [];
  const attributes = {
    operation: 'CREATE',
    def: target.def,
    subresource: 'eviction',
    namespace: target.namespace,
    name: target.name,
    object: eviction as KubeObject,
    dryRun: deleteRequest.dryRun,
  } as const;
  const evicted = admitAndWrite(ctx, { admission: ctx.admission, warnings }, attributes, () => evict(ctx, target, deleteRequest));
  return andThen(evicted, () => ({ status: 201, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 }, warnings }));
}

/** evict deletes the pod and spends its budget, in one synchronous block. */
function evict(ctx: HandlerContext, target: Target, deleteRequest: DeleteRequest): void {
  const pod = readStored(ctx, target) as EvictedPod;
  const budget = canIgnoreBudget(pod) ? undefined : budgetToSpend(ctx, pod);
  deleteObject(ctx, target, deleteRequest);
  if (budget && !deleteRequest.dryRun) spendDisruption(ctx, budget, target.name);
}

/** evictionDeleteRequest decodes the Eviction body and returns its DeleteOptions. */
function evictionDeleteRequest(request: ApiRequest, target: Target): { deleteRequest: DeleteRequest; eviction: Record<string, unknown> } {
  const eviction = request.body && request.body.length > 0 ? decodeObjectBody(request.contentType, request.body) : {};
  const name = isPlainObject(eviction['metadata']) ? eviction['metadata']['name'] : undefined;
  // Kubernetes also rejects an Eviction without a name; kubesim lets an empty one through.
  if (typeof name === 'string' && name !== '' && name !== target.name) throw badRequest('name in URL does not match name in Eviction object');
  const options = isPlainObject(eviction['deleteOptions']) ? Buffer.from(JSON.stringify(eviction['deleteOptions'])) : undefined;
  return { deleteRequest: parseDeleteRequest({ ...request, body: options }), eviction };
}

/** canIgnoreBudget: budgets protect running pods only (Kubernetes' canIgnorePDB). */
function canIgnoreBudget(pod: EvictedPod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || pod.metadata.deletionTimestamp !== undefined;
}

/**
 * budgetToSpend returns the budget this eviction spends a disruption of, undefined when none
 * is to be spent, or throws the 429/403/500 that refuses the eviction.
 */
function budgetToSpend(ctx: HandlerContext, pod: EvictedPod): PodDisruptionBudget | undefined {
  const budgets = matchingBudgets(ctx, pod);
  if (budgets.length > 1) throw internalError('This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
  const [budget] = budgets;
  if (!budget) return undefined;
  const status = budget.status;
  if (!isPodReady(pod)) {
    // An unhealthy pod does not count towards the budget: evicting it costs nothing when the
    // policy says so, or (IfHealthyBudget) while the healthy pods already meet the budget.
    if (budget.spec.unhealthyPodEvictionPolicy === 'AlwaysAllow') return undefined;
    if (status && status.currentHealthy >= status.desiredHealthy && status.desiredHealthy > 0) return undefined;
  }
  checkBudget(budget);
  return budget;
}

/** checkBudget throws unless `budget` allows one more disruption now (checkAndDecrement). */
function checkBudget(budget: PodDisruptionBudget): void {
  const name = budget.metadata.name ?? '';
  const status = budget.status;
  if ((status?.observedGeneration ?? 0) < (budget.metadata.generation ?? 0)) {
    throw tooManyRequests(`The disruption budget ${name} is still being processed by the server.`, 10);
  }
  const refuse = (why: string) =>
    forbidden(`poddisruptionbudgets.policy "${name}" is forbidden: ${why}`, { name, group: 'policy', kind: 'poddisruptionbudgets' });
  if ((status?.disruptionsAllowed ?? 0) < 0) throw refuse('pdb disruptions allowed is negative');
  if (Object.keys(status?.disruptedPods ?? {}).length > MAX_DISRUPTED_PODS) {
    throw refuse('DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  }
  if ((status?.disruptionsAllowed ?? 0) === 0) throw tooManyRequests(deniedMessage(budget));
}

/** deniedMessage explains a budget with no disruption left, as disruptionDeniedMessage does. */
function deniedMessage(budget: PodDisruptionBudget): string {
  const name = budget.metadata.name ?? '';
  const { currentHealthy = 0, desiredHealthy = 0, conditions = [] } = budget.status ?? {};
  const condition = conditions.find((c) => c.type === DISRUPTION_ALLOWED_CONDITION);
  const failed = condition?.status === 'False' && condition.message ? condition : undefined;
  if (failed?.reason === 'SyncFailed') return `The disruption budget ${name} does not allow evicting pods currently because it failed sync: ${failed.message}`;
  if (currentHealthy <= desiredHealthy) return `The disruption budget ${name} needs ${desiredHealthy} healthy pods and has ${currentHealthy} currently`;
  if (failed) return `The disruption budget ${name} does not allow evicting pods currently (${failed.reason}): ${failed.message}`;
  return `The disruption budget ${name} does not allow evicting pods currently`;
}

function tooManyRequests(cause: string, retryAfterSeconds?: number): ApiError {
  const details = { causes: [{ reason: 'DisruptionBudget', message: cause }], ...(retryAfterSeconds ? { retryAfterSeconds } : {}) };
  return new ApiError('TooManyRequests', 429, EVICTION_DENIED_MESSAGE, details);
}

/** matchingBudgets are the budgets in the pod's namespace selecting it; an empty or invalid
 * selector selects nothing here (as in Kubernetes' eviction). */
function matchingBudgets(ctx: HandlerContext, pod: EvictedPod): PodDisruptionBudget[] {
  const def = ctx.registry.find('policy', 'v1', 'poddisruptionbudgets');
  if (!def) return [];
  const { items } = ctx.store.list({ resource: def.storage.resource, namespace: pod.metadata.namespace ?? '' });
  return items
    .map((item) => toServed(def, asKube(item)) as unknown as PodDisruptionBudget)
    .filter((budget) => {
      try {
        const selector = labelSelectorFromStructured(budget.spec.selector);
        return !selector.isEverything() && selector.matches(pod.metadata.labels);
      } catch {
        return false; // an unparsable selector selects nothing, as LabelSelectorAsSelector's error does
      }
    });
}

/** spendDisruption records the eviction in the budget's status: one disruption fewer, the pod
 * in disruptedPods (so the controller does not count it healthy until it is gone). */
function spendDisruption(ctx: HandlerContext, budget: PodDisruptionBudget, podName: string): void {
  const def = ctx.registry.find('policy', 'v1', 'poddisruptionbudgets');
  if (!def) return;
  const now = rfc3339(ctx.now());
  const target: Target = { def, namespace: budget.metadata.namespace ?? '', name: budget.metadata.name ?? '' };
  updateObject(ctx, target, {
    scope: 'status',
    dryRun: false,
    computeNext: (current) => {
      const next = current as unknown as PodDisruptionBudget;
      const status = { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, ...next.status };
      status.disruptionsAllowed = Math.max(0, status.disruptionsAllowed - 1);
      status.disruptedPods = { ...status.disruptedPods, [podName]: now };
      if (status.disruptionsAllowed === 0) status.conditions = insufficientPods(status, now);
      next.status = status;
      return current;
    },
  });
}

/** insufficientPods sets DisruptionAllowed=False/InsufficientPods (UpdateDisruptionAllowedCondition). */
function insufficientPods(status: NonNullable<PodDisruptionBudget['status']>, now: string): NonNullable<PodDisruptionBudget['status']>['conditions'] {
  const conditions = status.conditions ?? [];
  const old = conditions.find((c) => c.type === DISRUPTION_ALLOWED_CONDITION);
  const changed = old?.status !== 'False';
  const condition = {
    type: DISRUPTION_ALLOWED_CONDITION,
    status: 'False' as const,
    reason: 'InsufficientPods',
    message: old?.message ?? '',
    observedGeneration: status.observedGeneration,
    lastTransitionTime: changed ? now : (old?.lastTransitionTime ?? now),
  };
  return [...conditions.filter((c) => c !== old), condition];
}
