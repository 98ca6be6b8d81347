/**
 * The HPA reconciler against in-memory fakes: what one sync writes to /scale and /status and
 * which events it records, for each branch of reconcileAutoscaler. Concurrency against a real
 * server is covered by test/integration/hpa-controller.test.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../apiserver/api/api-error.js';
import type { HorizontalPodAutoscaler } from '../../apiserver/api/autoscaling/horizontal-pod-autoscaler.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { FakeClock } from '../../apiserver/api/machinery/clock.js';
import { silentLogger } from '../runtime/logger.js';
import type { EventRecorder, ResourceClient, Scale } from '../runtime/types.js';
import { createHpaReconciler } from './reconcile.js';
import { HistoryStore } from './scaling-history.js';
import type { HpaReconcilerDeps } from './sync.js';
import { FakeMetricsSource, hpaFixture, listerOf, metricsOf, NOW_MS, podFixture } from './testing/fixtures.js';

interface RecordedEvent {
  type: string;
  reason: string;
  message: string;
}

/** World is everything one test's reconciler talks to. */
class World {
  readonly clock = new FakeClock(NOW_MS);
  readonly metrics = new FakeMetricsSource();
  readonly events: RecordedEvent[] = [];
  readonly statusWrites: HorizontalPodAutoscaler[] = [];
  readonly scaleWrites: number[] = [];
  readonly histories = new HistoryStore();
  hpas: HorizontalPodAutoscaler[] = [
    hpaFixture({ metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }] }),
  ];
  pods: Pod[] = ['web-0', 'web-1', 'web-2'].map((name) => podFixture(name, { cpu: '100m' }));
  scale: Scale = { metadata: { name: 'web', namespace: 'default', resourceVersion: '7' }, spec: { replicas: 3 }, status: { replicas: 3, selector: 'app=web' } };
  getScaleError: Error | undefined;
  updateScaleError: Error | undefined;
  statusConflicts = 0;

  reconcile() {
    return createHpaReconciler(this.deps()).reconcile({ namespace: 'default', name: 'web' }, new AbortController().signal);
  }

  private deps(): HpaReconcilerDeps {
    const recorder: EventRecorder = { event: (_object, type, reason, message) => void this.events.push({ type, reason, message }) };
    return {
      hpaLister: listerOf(this.hpas),
      podLister: listerOf(this.pods),
      hpas: this.hpaClient(),
      scaleTargets: { clientFor: async () => this.scaleClient() },
      metrics: this.metrics,
      recorder,
      histories: this.histories,
      clock: this.clock,
      logger: silentLogger,
      config: { syncPeriodMs: 15_000, downscaleStabilizationMs: 300_000, tolerance: 0.1, cpuInitializationPeriodMs: 300_000, initialReadinessDelayMs: 30_000 },
    };
  }

  private hpaClient(): ResourceClient<HorizontalPodAutoscaler> {
    const client: Partial<ResourceClient<HorizontalPodAutoscaler>> = {
      get: async () => structuredClone(this.hpas[0] as HorizontalPodAutoscaler),
      updateStatus: async (hpa) => {
        if (this.statusConflicts-- > 0) throw new ApiError('Conflict', 409, 'the object has been modified');
        this.statusWrites.push(hpa);
        return hpa;
      },
    };
    return client as ResourceClient<HorizontalPodAutoscaler>;
  }

  private scaleClient(): ResourceClient {
    const client: Partial<ResourceClient> = {
      getScale: async () => {
        if (this.getScaleError) throw this.getScaleError;
        return structuredClone(this.scale);
      },
      updateScale: async (_ns, _name, scale) => {
        if (this.updateScaleError) throw this.updateScaleError;
        this.scaleWrites.push(scale.spec.replicas ?? 0);
        return scale;
      },
    };
    return client as ResourceClient;
  }

  get lastStatus() {
    return this.statusWrites.at(-1)?.status;
  }

  condition(type: string) {
    return this.lastStatus?.conditions?.find((c) => c.type === type);
  }
}

let world: World;
beforeEach(() => {
  world = new World();
});

describe('HPA reconcile', () => {
  it('rescales through /scale and reports it: 3 pods at 140% of 70% → 6', async () => {
    world.metrics.byResource.cpu = metricsOf({ 'web-0': 140, 'web-1': 140, 'web-2': 140 });
    expect(await world.reconcile()).toEqual({ requeueAfterMs: 15_000 });
    expect(world.scaleWrites).toEqual([6]);
    expect(world.events).toEqual([
      { type: 'Normal', reason: 'SuccessfulRescale', message: 'New size: 6; reason: cpu resource utilization (percentage of request) above target' },
    ]);
    expect(world.lastStatus).toMatchObject({
      observedGeneration: 1,
      currentReplicas: 3,
      desiredReplicas: 6,
      lastScaleTime: '2024-05-01T12:00:00Z',
      currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 140, averageValue: '140m' } } }],
    });
    expect(world.lastStatus?.conditions?.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['AbleToScale', 'True', 'SucceededRescale'],
      ['ScalingActive', 'True', 'ValidMetricFound'],
      ['ScalingLimited', 'False', 'DesiredWithinRange'],
    ]);
  });

  it('holds a scale down inside the stabilization window (ScaleDownStabilized)', async () => {
    world.metrics.byResource.cpu = metricsOf({ 'web-0': 10, 'web-1': 10, 'web-2': 10 });
    await world.reconcile();
    expect(world.scaleWrites).toEqual([]);
    expect(world.lastStatus).toMatchObject({ currentReplicas: 3, desiredReplicas: 3 });
    expect(world.condition('AbleToScale')).toMatchObject({ status: 'True', reason: 'ScaleDownStabilized' });
  });

  it('reports missing metrics and leaves the target alone', async () => {
    world.hpas[0] = { ...(world.hpas[0] as HorizontalPodAutoscaler), status: { desiredReplicas: 4 } };
    await world.reconcile();
    expect(world.scaleWrites).toEqual([]);
    expect(world.events.map((e) => [e.type, e.reason])).toEqual([
      ['Warning', 'FailedGetResourceMetric'],
      ['Warning', 'FailedComputeMetricsReplicas'],
    ]);
    expect(world.condition('ScalingActive')).toMatchObject({ status: 'False', reason: 'FailedGetResourceMetric' });
    expect(world.lastStatus).toMatchObject({ currentReplicas: 3, desiredReplicas: 4, currentMetrics: [{ type: '' }] });
  });

  it('brings a count above maxReplicas back at once, without reading metrics', async () => {
    world.scale = { ...world.scale, spec: { replicas: 14 } };
    await world.reconcile();
    expect(world.scaleWrites).toEqual([10]);
    expect(world.metrics.queries).toEqual([]);
    expect(world.events[0]?.message).toBe('New size: 10; reason: Current number of replicas above Spec.MaxReplicas');
  });

  it('leaves a target scaled to zero alone (ScalingDisabled)', async () => {
    world.scale = { ...world.scale, spec: { replicas: 0 } };
    await world.reconcile();
    expect(world.scaleWrites).toEqual([]);
    expect(world.condition('ScalingActive')).toMatchObject({
      status: 'False',
      reason: 'ScalingDisabled',
      message: 'scaling is disabled since the replica count of the target is zero',
    });
    expect(world.lastStatus).toMatchObject({ currentReplicas: 0, desiredReplicas: 0 });
  });

  it('reports a target it cannot read (FailedGetScale)', async () => {
    world.getScaleError = new ApiError('NotFound', 404, 'deployments.apps "web" not found');
    expect(await world.reconcile()).toEqual({ requeueAfterMs: 15_000 });
    expect(world.events).toEqual([{ type: 'Warning', reason: 'FailedGetScale', message: 'deployments.apps "web" not found' }]);
    expect(world.condition('AbleToScale')).toMatchObject({
      status: 'False',
      reason: 'FailedGetScale',
      message: 'the HPA controller was unable to get the target\'s current scale: deployments.apps "web" not found',
    });
  });

  it('reports a failed /scale write (FailedRescale, FailedUpdateScale)', async () => {
    world.metrics.byResource.cpu = metricsOf({ 'web-0': 140, 'web-1': 140, 'web-2': 140 });
    world.updateScaleError = new ApiError('Forbidden', 403, 'forbidden');
    await world.reconcile();
    expect(world.events).toEqual([
      {
        type: 'Warning',
        reason: 'FailedRescale',
        message: 'New size: 6; reason: cpu resource utilization (percentage of request) above target; error: forbidden',
      },
    ]);
    expect(world.condition('AbleToScale')).toMatchObject({ status: 'False', reason: 'FailedUpdateScale' });
    expect(world.lastStatus?.lastScaleTime).toBeUndefined();
  });

  it('throws on a conflicting /scale write so the queue retries soon', async () => {
    world.metrics.byResource.cpu = metricsOf({ 'web-0': 140, 'web-1': 140, 'web-2': 140 });
    world.updateScaleError = new ApiError('Conflict', 409, 'the object has been modified');
    await expect(world.reconcile()).rejects.toMatchObject({ reason: 'Conflict' });
    expect(world.events).toEqual([]);
  });

  it('re-reads the HPA once when its status write conflicts', async () => {
    world.metrics.byResource.cpu = metricsOf({ 'web-0': 70, 'web-1': 70, 'web-2': 70 });
    world.statusConflicts = 1;
    await world.reconcile();
    expect(world.statusWrites).toHaveLength(1);
  });

  it('writes nothing when the status would not change', async () => {
    world.metrics.byResource.cpu = metricsOf({ 'web-0': 70, 'web-1': 70, 'web-2': 70 });
    await world.reconcile();
    world.hpas[0] = world.statusWrites[0] as HorizontalPodAutoscaler;
    world.clock.advance(15_000);
    await world.reconcile();
    expect(world.statusWrites).toHaveLength(1);
  });

  it('forgets the history of a deleted HPA', async () => {
    world.metrics.byResource.cpu = metricsOf({ 'web-0': 70, 'web-1': 70, 'web-2': 70 });
    await world.reconcile();
    expect(world.histories.get('default/web').recommendations.length).toBeGreaterThan(0);
    world.hpas = [];
    expect(await world.reconcile()).toEqual({});
    expect(world.histories.get('default/web').recommendations).toEqual([]);
  });
});
