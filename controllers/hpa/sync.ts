/**
 * One reconcile of one HPA as an object: what it read, the conditions it is building, the
 * events it records, and access to the HPA's in-memory history. Reconcile steps (reconcile.ts,
 * plan.ts) share it instead of threading a dozen parameters.
 */
import type { HorizontalPodAutoscaler, HorizontalPodAutoscalerCondition } from '../../apiserver/api/autoscaling/horizontal-pod-autoscaler.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { reconcileLogger } from '../runtime/reconciler.js';
import type { Clock, DeepReadonly, EventRecorder, Lister, Logger, ResourceClient } from '../runtime/types.js';
import { longestPolicyPeriodSeconds, resolveScalingRules, type ScalingRules } from './behavior.js';
import { type ConditionVerdict, type HpaConditionType, setCondition } from './conditions.js';
import type { MetricsSource } from './metrics-client.js';
import type { ScaleTargetResolver } from './scale-target.js';
import { type HistoryStore, recordScaleEvent, type ScalingHistory, withInitialRecommendation } from './scaling-history.js';

/** HpaConfig are the controller's settings (kube-controller-manager's --horizontal-pod-autoscaler-* flags). */
export interface HpaConfig {
  /** How often each HPA is synced (cluster time). */
  syncPeriodMs: number;
  /** Scale-down window of HPAs that set none. */
  downscaleStabilizationMs: number;
  /** Default tolerance, both directions, unless the HPA sets its own. */
  tolerance: number;
  cpuInitializationPeriodMs: number;
  initialReadinessDelayMs: number;
}

/** HpaReconcilerDeps are the reconciler's collaborators and settings. */
export interface HpaReconcilerDeps {
  hpaLister: Lister<HorizontalPodAutoscaler>;
  podLister: Lister<Pod>;
  hpas: ResourceClient<HorizontalPodAutoscaler>;
  scaleTargets: ScaleTargetResolver;
  metrics: MetricsSource;
  recorder: EventRecorder;
  /** In-memory histories, one store per controller (scaling-history.ts). */
  histories: HistoryStore;
  clock: Clock;
  logger: Logger;
  config: HpaConfig;
}

/** SyncStart is what a reconcile starts from. */
export interface SyncStart {
  deps: HpaReconcilerDeps;
  key: string;
  /** The cached HPA. NOTE: shared with every reader; never mutate it. */
  hpa: DeepReadonly<HorizontalPodAutoscaler>;
  signal: AbortSignal;
}

/** startSync begins a sync at the clock's current time, from the HPA's current conditions. */
export function startSync(start: SyncStart): Sync {
  return new Sync(start);
}

/** Sync is one reconcile in progress (see the module comment). Time is fixed at its start. */
export class Sync {
  readonly deps: HpaReconcilerDeps;
  readonly key: string;
  readonly hpa: DeepReadonly<HorizontalPodAutoscaler>;
  readonly signal: AbortSignal;
  readonly nowMs: number;
  readonly log: Logger;
  /** Both directions' rules, defaulted. */
  readonly rules: { scaleUp: ScalingRules; scaleDown: ScalingRules };
  /** The conditions as this sync leaves them (a private copy). */
  conditions: HorizontalPodAutoscalerCondition[];

  constructor({ deps, key, hpa, signal }: SyncStart) {
    this.deps = deps;
    this.key = key;
    this.hpa = hpa;
    this.signal = signal;
    this.nowMs = deps.clock.now();
    this.log = reconcileLogger(deps.logger);
    this.rules = resolveScalingRules(structuredClone(hpa.spec.behavior) as HorizontalPodAutoscaler['spec']['behavior'], deps.config.downscaleStabilizationMs);
    this.conditions = structuredClone(hpa.status?.conditions ?? []) as HorizontalPodAutoscalerCondition[];
  }

  get namespace(): string {
    return this.hpa.metadata.namespace ?? '';
  }

  /** reference names the target in logs: `Deployment/default/web`. */
  get reference(): string {
    const ref = this.hpa.spec.scaleTargetRef;
    return `${ref.kind}/${this.namespace}/${ref.name}`;
  }

  setCondition(type: HpaConditionType, verdict: ConditionVerdict): void {
    this.conditions = setCondition(this.conditions, type, verdict, this.nowMs);
  }

  /** event records an event about the HPA (fire-and-forget, aggregated by the recorder). */
  event(type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.deps.recorder.event(this.hpa, type, reason, message);
  }

  get history(): ScalingHistory {
    return this.deps.histories.get(this.key);
  }

  set history(history: ScalingHistory) {
    this.deps.histories.set(this.key, history);
  }

  /** seedHistory records the current count as the first recommendation of a fresh history. */
  seedHistory(currentReplicas: number): void {
    this.history = withInitialRecommendation(this.history, currentReplicas, this.nowMs);
  }

  /** recordScale remembers a rescale this sync made, for the rate-limiting policies. */
  recordScale(previousReplicas: number, newReplicas: number): void {
    const retainSeconds = longestPolicyPeriodSeconds(this.rules);
    this.history = recordScaleEvent(this.history, { previousReplicas, newReplicas, retainSeconds, nowMs: this.nowMs });
  }
}
