/**
 * The HPA reconciler (Kubernetes' reconcileAutoscaler). Every sync period, for each HPA:
 *
 *   read the target's /scale ─► bound by min/max? ─► one proposal per metric, largest wins
 *     ─► stabilize + rate-limit (behavior.ts) ─► write /scale if the count changes
 *     ─► write /status (only if it changed) ─► requeue after the sync period
 *
 * Level-triggered: each sync reads the HPA from the cache and the Scale and metrics fresh.
 * The only state kept between syncs is the HPA's recommendation and scale-event history
 * (scaling-history.ts), in memory as in Kubernetes: a restarted controller starts without it.
 * Metric and scale failures are reported on the HPA (events, conditions) and retried at the
 * next sync, not with backoff; a 409 on /scale or /status is thrown so the queue retries soon.
 */
import { isConflict, isNotFound } from '../../apiserver/api/api-error.js';
import type { HorizontalPodAutoscaler } from '../../apiserver/api/autoscaling/horizontal-pod-autoscaler.js';
import { isAbortError } from '../../apiserver/api/machinery/clock.js';
import { reconcileLogger, requestKey } from '../runtime/reconciler.js';
import type { DeepReadonly, Reconciler, Request, ResourceClient, Result, Scale } from '../runtime/types.js';
import { type Plan, planReplicas } from './plan.js';
import { calculateStatus, type HpaStatus, type SyncOutcome, statusNeedsUpdate } from './status.js';
import { type HpaReconcilerDeps, type Sync, startSync } from './sync.js';

type ReadonlyHpa = DeepReadonly<HorizontalPodAutoscaler>;

/**
 * createHpaReconciler returns the Reconciler of the HPA controller. A reconcile returns {}
 * when the HPA is gone (forgetting its history) and otherwise `{ requeueAfterMs: syncPeriodMs }`
 * — also when metrics or the target could not be read, which the HPA's status and events
 * report. It throws (rate-limited retry) on a conflicting /scale or /status write and when
 * the status write fails.
 */
export function createHpaReconciler(deps: HpaReconcilerDeps): Reconciler {
  return { reconcile: (request, signal) => syncHpa(deps, request, signal) };
}

async function syncHpa(deps: HpaReconcilerDeps, request: Request, signal: AbortSignal): Promise<Result> {
  const key = requestKey(request);
  const hpa = deps.hpaLister.get(request.namespace, request.name);
  if (hpa === undefined) {
    // Deleted: forget its history, as Kubernetes does.
    deps.histories.delete(key);
    return {};
  }
  const sync = startSync({ deps, key, hpa, signal });
  const outcome = await decide(sync);
  const status: HpaStatus = outcome
    ? calculateStatus(hpa.status, { ...outcome, conditions: sync.conditions, observedGeneration: hpa.metadata.generation, nowMs: sync.nowMs })
    : { ...(structuredClone(hpa.status) as HpaStatus | undefined), conditions: sync.conditions };
  await writeStatus(deps, hpa, status);
  return { requeueAfterMs: deps.config.syncPeriodMs };
}

/** decide reads the scale, plans and rescales; undefined when the scale could not be read. */
async function decide(sync: Sync): Promise<SyncOutcome | undefined> {
  const target = await readScale(sync);
  if (target === undefined) return undefined;
  sync.setCondition('AbleToScale', { status: 'True', reason: 'SucceededGetScale', message: "the HPA controller was able to get the target's current scale" });
  const currentReplicas = target.scale.spec.replicas ?? 0;
  sync.seedHistory(currentReplicas);
  const plan = await planReplicas(sync, { currentReplicas, selector: target.scale.status?.selector });
  // A failed sync keeps reporting its last decision; a held one wants what runs now.
  const previousDesired = sync.hpa.status?.desiredReplicas ?? 0;
  if (plan.kind === 'failed') return { currentReplicas, desiredReplicas: previousDesired, currentMetrics: plan.currentMetrics, rescaled: false };
  if (plan.kind === 'hold') return { currentReplicas, desiredReplicas: currentReplicas, currentMetrics: plan.currentMetrics, rescaled: false };
  const rescaled = await rescale(sync, target, { currentReplicas, plan });
  return { currentReplicas, desiredReplicas: rescaled ? plan.desiredReplicas : previousDesired, currentMetrics: plan.currentMetrics, rescaled };
}

interface ScaleTarget {
  client: ResourceClient;
  scale: Scale;
}

/** readScale GETs the target's /scale; on failure it reports FailedGetScale and returns undefined. */
async function readScale(sync: Sync): Promise<ScaleTarget | undefined> {
  const ref = sync.hpa.spec.scaleTargetRef;
  try {
    const client = await sync.deps.scaleTargets.clientFor(ref);
    return { client, scale: await client.getScale(sync.namespace, ref.name) };
  } catch (err) {
    if (isAbortError(err)) throw err;
    const message = messageOf(err);
    sync.event('Warning', 'FailedGetScale', message);
    sync.setCondition('AbleToScale', {
      status: 'False',
      reason: 'FailedGetScale',
      message: `the HPA controller was unable to get the target's current scale: ${message}`,
    });
    sync.log.warn({ err, target: sync.reference }, 'failed to query scale subresource');
    return undefined;
  }
}

interface RescaleInput {
  currentReplicas: number;
  plan: Extract<Plan, { kind: 'scale' }>;
}

/**
 * rescale PUTs the new count to /scale (carrying the resourceVersion it read) and reports the
 * outcome: SuccessfulRescale (and a scale event for the policies) or FailedRescale. Returns
 * whether the count changed. A 409 is thrown: someone else just scaled, look again soon.
 */
async function rescale(sync: Sync, target: ScaleTarget, { currentReplicas, plan }: RescaleInput): Promise<boolean> {
  const { desiredReplicas, reason } = plan;
  const ref = sync.hpa.spec.scaleTargetRef;
  try {
    await target.client.updateScale(sync.namespace, ref.name, { ...target.scale, spec: { ...target.scale.spec, replicas: desiredReplicas } });
  } catch (err) {
    if (isConflict(err) || isAbortError(err)) throw err;
    const message = messageOf(err);
    sync.event('Warning', 'FailedRescale', `New size: ${desiredReplicas}; reason: ${reason}; error: ${message}`);
    sync.setCondition('AbleToScale', {
      status: 'False',
      reason: 'FailedUpdateScale',
      message: `the HPA controller was unable to update the target scale: ${message}`,
    });
    sync.log.warn({ err, target: sync.reference }, 'failed to rescale');
    return false;
  }
  sync.setCondition('AbleToScale', {
    status: 'True',
    reason: 'SucceededRescale',
    message: `the HPA controller was able to update the target scale to ${desiredReplicas}`,
  });
  sync.event('Normal', 'SuccessfulRescale', `New size: ${desiredReplicas}; reason: ${reason}`);
  sync.recordScale(currentReplicas, desiredReplicas);
  sync.log.info({ target: sync.reference, currentReplicas, desiredReplicas, reason }, 'Successfully rescaled');
  return true;
}

/**
 * writeStatus PUTs `status` to /status when it differs from what the cached HPA reports. A
 * 409 usually means the cache has not caught up with a write (ours or a spec edit): re-read
 * once and write the same status onto the fresh object; a second conflict is thrown. Other
 * failures are reported (FailedUpdateStatus) and thrown.
 */
async function writeStatus(deps: HpaReconcilerDeps, hpa: ReadonlyHpa, status: HpaStatus): Promise<void> {
  if (!statusNeedsUpdate(hpa.status, status)) return;
  try {
    await putStatus(deps, hpa, status);
    return;
  } catch (err) {
    if (isNotFound(err)) return; // deleted meanwhile: the next reconcile forgets it.
    if (!isConflict(err)) throw reportStatusFailure(deps, hpa, err);
  }
  const fresh = await deps.hpas.get(hpa.metadata.namespace ?? '', hpa.metadata.name ?? '');
  if (fresh.metadata.uid !== hpa.metadata.uid) return; // re-created: its own reconcile follows.
  await putStatus(deps, fresh, status);
}

async function putStatus(deps: HpaReconcilerDeps, hpa: ReadonlyHpa, status: HpaStatus): Promise<void> {
  // NOTE: `hpa` may be the informer's shared object; write a copy.
  const copy = structuredClone(hpa) as HorizontalPodAutoscaler;
  copy.status = status;
  await deps.hpas.updateStatus(copy);
}

function reportStatusFailure(deps: HpaReconcilerDeps, hpa: ReadonlyHpa, err: unknown): unknown {
  if (!isAbortError(err)) deps.recorder.event(hpa, 'Warning', 'FailedUpdateStatus', messageOf(err));
  reconcileLogger(deps.logger).warn({ err }, 'failed to update HPA status');
  return err;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
