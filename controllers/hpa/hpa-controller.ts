/**
 * The HPA controller's wiring: an informer over HPAs (and one over pods, read through its
 * lister only), the reconciler (reconcile.ts) and the sync loop. Nothing here makes decisions.
 *
 * Kubernetes syncs every HPA on a fixed period rather than on events: a new HPA or a spec edit
 * is acted on at once, and every reconcile asks to be requeued one sync period later.
 */
import type { HorizontalPodAutoscaler } from '../../apiserver/api/autoscaling/horizontal-pod-autoscaler.js';
import { newControllerManagedBy } from '../runtime/builder.js';
import { createComponentRecorder } from '../runtime/component-recorder.js';
import type { Controller } from '../runtime/controller.js';
import { KINDS } from '../runtime/kinds.js';
import type { Manager } from '../runtime/manager.js';
import type { DeepReadonly, EventRecorder } from '../runtime/types.js';
import { DOWNSCALE_STABILIZATION_MS } from './behavior.js';
import { createResourceMetricsClient, type MetricsSource } from './metrics-client.js';
import { CPU_INITIALIZATION_PERIOD_MS, INITIAL_READINESS_DELAY_MS } from './pod-groups.js';
import { createHpaReconciler } from './reconcile.js';
import { DEFAULT_TOLERANCE } from './replica-calculator.js';
import { createScaleTargetResolver } from './scale-target.js';
import { HistoryStore } from './scaling-history.js';
import type { HpaConfig } from './sync.js';

/** HPA_CONTROLLER_NAME names the controller in logs and counters. */
export const HPA_CONTROLLER_NAME = 'hpa';
/** HPA_EVENT_SOURCE is the source.component of the controller's events, as Kubernetes'. */
export const HPA_EVENT_SOURCE = 'horizontal-pod-autoscaler';
/** HPA_SYNC_PERIOD_MS is --horizontal-pod-autoscaler-sync-period (15 s of cluster time). */
export const HPA_SYNC_PERIOD_MS = 15_000;

/** HpaControllerOptions configures registerHpaController; times are cluster time, so the
 * cluster speed factor scales them. */
export interface HpaControllerOptions extends Partial<HpaConfig> {
  /** Concurrent syncs (of different HPAs). Default 5, as kube-controller-manager. */
  workers?: number;
  /** Where metrics come from. Default: the resource metrics API through the manager's client. */
  metrics?: MetricsSource;
  /** Where events go. Default: a recorder of its own named `horizontal-pod-autoscaler`. */
  recorder?: EventRecorder;
}

/**
 * registerHpaController adds the HPA controller to `manager`: shared informers for HPAs and
 * pods (read through its lister only), and a controller running the reconciler every sync
 * period (see HpaControllerOptions). Call it before manager.start(). Returns the controller (for its stats).
 */
export function registerHpaController(manager: Manager, options: HpaControllerOptions = {}): Controller {
  const { workers = 5, metrics, recorder } = options;
  return newControllerManagedBy(manager)
    .named(HPA_CONTROLLER_NAME)
    .for(KINDS.horizontalPodAutoscaler, { predicates: { update: hpaSpecChanged } })
    .workers(workers)
    .complete(({ lister }) =>
      createHpaReconciler({
        hpaLister: lister(KINDS.horizontalPodAutoscaler),
        podLister: lister(KINDS.pod),
        hpas: manager.client.resource(KINDS.horizontalPodAutoscaler),
        scaleTargets: createScaleTargetResolver(manager.client),
        metrics: metrics ?? createResourceMetricsClient(manager.client),
        recorder: recorder ?? createComponentRecorder(manager, HPA_EVENT_SOURCE),
        histories: new HistoryStore(),
        clock: manager.clock,
        logger: manager.logger,
        config: hpaConfig(options),
      }),
    );
}

/** hpaConfig fills unset settings with kube-controller-manager's defaults. */
function hpaConfig(options: Partial<HpaConfig>): HpaConfig {
  return {
    syncPeriodMs: options.syncPeriodMs ?? HPA_SYNC_PERIOD_MS,
    downscaleStabilizationMs: options.downscaleStabilizationMs ?? DOWNSCALE_STABILIZATION_MS,
    tolerance: options.tolerance ?? DEFAULT_TOLERANCE,
    cpuInitializationPeriodMs: options.cpuInitializationPeriodMs ?? CPU_INITIALIZATION_PERIOD_MS,
    initialReadinessDelayMs: options.initialReadinessDelayMs ?? INITIAL_READINESS_DELAY_MS,
  };
}

/**
 * hpaSpecChanged lets an HPA update through when its spec changed (generation). Status-only
 * updates — mostly our own writes — and informer resyncs are not enqueued: the sync period
 * already brings every HPA back. A new HPA is synced at once, and a deleted one too (so its
 * history is dropped).
 */
export function hpaSpecChanged(old: DeepReadonly<HorizontalPodAutoscaler>, hpa: DeepReadonly<HorizontalPodAutoscaler>): boolean {
  return old.metadata.generation !== hpa.metadata.generation;
}
