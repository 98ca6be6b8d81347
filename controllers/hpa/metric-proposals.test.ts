/**
 * Proposals over all of an HPA's metrics: the largest wins, failures become the ScalingActive
 * condition, events and the `invalid metrics` error with Kubernetes' wording, and
 * currentMetrics come out in the v2 shape.
 */
import { describe, expect, it } from 'vitest';
import type { HorizontalPodAutoscaler } from '../../apiserver/api/autoscaling/horizontal-pod-autoscaler.js';
import type { MetricSpec } from '../../apiserver/api/autoscaling/metric-spec.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { computeReplicasForMetrics, type MetricsContext } from './metric-proposals.js';
import { FakeMetricsSource, hpaFixture, metricsOf, NOW_MS, podFixture, podListerOf } from './testing/fixtures.js';

const cpuUtilization = (percent: number): MetricSpec => ({
  type: 'Resource',
  resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: percent } },
});
const memoryAverage = (value: string): MetricSpec => ({
  type: 'Resource',
  resource: { name: 'memory', target: { type: 'AverageValue', averageValue: value } },
});
const MI = 1024 * 1024 * 1000;

function contextFor(hpa: HorizontalPodAutoscaler, pods: Pod[], metrics: FakeMetricsSource, overrides: Partial<MetricsContext> = {}): MetricsContext {
  return {
    hpa,
    specReplicas: pods.length,
    selector: 'app=web',
    podLister: podListerOf(pods),
    metrics,
    nowMs: NOW_MS,
    tolerances: { scaleUp: 0.1, scaleDown: 0.1 },
    readiness: { cpuInitializationPeriodMs: 300_000, initialReadinessDelayMs: 30_000 },
    ...overrides,
  };
}

/** Three pods requesting 100m CPU and 100Mi memory, as in the seed document. */
const seedPods = () => ['web-0', 'web-1', 'web-2'].map((name) => podFixture(name, { cpu: '100m', memory: '100Mi' }));

describe('computeReplicasForMetrics', () => {
  it("scales the seed's example: 3 pods at 140% of a 70% target → 6", async () => {
    const source = new FakeMetricsSource();
    source.byResource.cpu = metricsOf({ 'web-0': 140, 'web-1': 140, 'web-2': 140 });
    const result = await computeReplicasForMetrics(contextFor(hpaFixture({ metrics: [cpuUtilization(70)] }), seedPods(), source));
    expect(result).toMatchObject({ replicas: 6, metricName: 'cpu resource utilization (percentage of request)', events: [] });
    expect(result.statuses).toEqual([{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 140, averageValue: '140m' } } }]);
    expect(result.scalingActive).toEqual({
      status: 'True',
      reason: 'ValidMetricFound',
      message: 'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
    });
    expect(result.error).toBeUndefined();
    expect(source.queries).toEqual([{ resource: 'cpu', container: undefined, selector: 'app=web' }]);
  });

  it('lets the largest proposal win among several metrics', async () => {
    const source = new FakeMetricsSource();
    source.byResource.cpu = metricsOf({ 'web-0': 140, 'web-1': 140, 'web-2': 140 }); // → 6
    source.byResource.memory = metricsOf({ 'web-0': 300 * MI, 'web-1': 300 * MI, 'web-2': 300 * MI }); // 300Mi of 100Mi → 9
    const hpa = hpaFixture({ metrics: [cpuUtilization(70), memoryAverage('100Mi')] });
    const result = await computeReplicasForMetrics(contextFor(hpa, seedPods(), source));
    expect(result).toMatchObject({ replicas: 9, metricName: 'memory resource' });
    // Decimal SI, as Kubernetes' NewMilliQuantity(v, DecimalSI) prints it (`kubectl get hpa`
    // shows memory: 314572800/100Mi).
    expect(result.statuses?.[1]).toEqual({ type: 'Resource', resource: { name: 'memory', current: { averageValue: '314572800' } } });
  });

  it('reports missing metrics: FailedGetResourceMetric, ScalingActive False, no scaling', async () => {
    const source = new FakeMetricsSource();
    const result = await computeReplicasForMetrics(contextFor(hpaFixture(), seedPods(), source));
    const inner = 'failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API';
    expect(result.replicas).toBe(-1);
    expect(result.scalingActive).toEqual({
      status: 'False',
      reason: 'FailedGetResourceMetric',
      message: `the HPA was unable to compute the replica count: ${inner}`,
    });
    expect(result.events).toEqual([{ type: 'Warning', reason: 'FailedGetResourceMetric', message: inner }]);
    expect(result.error).toBe(`invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: ${inner}`);
    expect(result.statuses).toEqual([{ type: '' }]);
  });

  it('scales up on the metrics it could read when one fails', async () => {
    const source = new FakeMetricsSource();
    source.byResource.cpu = metricsOf({ 'web-0': 140, 'web-1': 140, 'web-2': 140 });
    const hpa = hpaFixture({ metrics: [memoryAverage('100Mi'), cpuUtilization(70)] });
    const result = await computeReplicasForMetrics(contextFor(hpa, seedPods(), source));
    expect(result).toMatchObject({ replicas: 6, scalingActive: { status: 'True', reason: 'ValidMetricFound' } });
    expect(result.error).toMatch(
      /^invalid metrics \(1 invalid out of 2\), first error is: failed to get memory resource metric value: failed to get memory usage:/,
    );
    expect(result.statuses?.[0]).toEqual({ type: '' });
  });

  it('refuses to scale down when a metric failed', async () => {
    const source = new FakeMetricsSource();
    source.byResource.cpu = metricsOf({ 'web-0': 10, 'web-1': 10, 'web-2': 10 });
    const hpa = hpaFixture({ metrics: [cpuUtilization(70), memoryAverage('100Mi')] });
    const result = await computeReplicasForMetrics(contextFor(hpa, seedPods(), source));
    expect(result.replicas).toBe(-1);
    expect(result.scalingActive).toMatchObject({ status: 'False', reason: 'FailedGetResourceMetric' });
  });

  it('reads one container for ContainerResource metrics', async () => {
    const source = new FakeMetricsSource();
    source.byResource['cpu/app'] = metricsOf({ 'web-0': 900, 'web-1': 900 });
    const pods = ['web-0', 'web-1'].map((name) => podFixture(name, { containers: { sidecar: '500m' } }));
    const spec: MetricSpec = {
      type: 'ContainerResource',
      containerResource: { name: 'cpu', container: 'app', target: { type: 'Utilization', averageUtilization: 50 } },
    };
    const result = await computeReplicasForMetrics(contextFor(hpaFixture({ metrics: [spec] }), pods, source));
    expect(result).toMatchObject({ replicas: 4, metricName: 'cpu container resource utilization (percentage of request)' });
    expect(result.statuses).toEqual([
      { type: 'ContainerResource', containerResource: { name: 'cpu', container: 'app', current: { averageUtilization: 90, averageValue: '900m' } } },
    ]);
  });

  it('names the container when a ContainerResource metric fails', async () => {
    const spec: MetricSpec = {
      type: 'ContainerResource',
      containerResource: { name: 'cpu', container: 'app', target: { type: 'Utilization', averageUtilization: 50 } },
    };
    const result = await computeReplicasForMetrics(contextFor(hpaFixture({ metrics: [spec] }), seedPods(), new FakeMetricsSource()));
    expect(result.scalingActive.reason).toBe('FailedGetContainerResourceMetric');
    expect(result.error).toContain('first error is: failed to get app container metric value: failed to get cpu utilization:');
  });

  it('reports a missing request through the same condition', async () => {
    const source = new FakeMetricsSource();
    source.byResource.cpu = metricsOf({ 'web-0': 100 });
    const result = await computeReplicasForMetrics(contextFor(hpaFixture(), [podFixture('web-0', { cpu: null })], source));
    expect(result.events[0]).toEqual({
      type: 'Warning',
      reason: 'FailedGetResourceMetric',
      message: 'failed to get cpu utilization: missing request for cpu in container app of Pod web-0',
    });
  });

  it('fails Pods, Object and External metrics as a cluster without a metrics adapter does', async () => {
    const hpa = hpaFixture({
      metrics: [
        { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
        { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'Value', value: '10' } } },
      ],
    });
    const result = await computeReplicasForMetrics(contextFor(hpa, seedPods(), new FakeMetricsSource()));
    expect(result.replicas).toBe(-1);
    expect(result.events.map((e) => e.reason)).toEqual(['FailedGetPodsMetric', 'FailedGetExternalMetric']);
    expect(result.error).toBe(
      'invalid metrics (2 invalid out of 2), first error is: failed to get pods metric value: unable to get metric qps: unable to fetch metrics from custom metrics API: the server could not find the requested resource',
    );
  });

  it('uses 80% CPU when the HPA lists no metrics', async () => {
    const source = new FakeMetricsSource();
    source.byResource.cpu = metricsOf({ 'web-0': 160, 'web-1': 160, 'web-2': 160 });
    const result = await computeReplicasForMetrics(contextFor(hpaFixture({ metrics: [] }), seedPods(), source));
    expect(result.replicas).toBe(6);
  });

  it('requires a selector on the Scale', async () => {
    const result = await computeReplicasForMetrics(contextFor(hpaFixture(), seedPods(), new FakeMetricsSource(), { selector: '' }));
    expect(result).toMatchObject({
      replicas: -1,
      statuses: undefined,
      scalingActive: { status: 'False', reason: 'InvalidSelector', message: "the HPA target's scale is missing a selector" },
      events: [{ type: 'Warning', reason: 'SelectorRequired', message: 'selector is required' }],
    });
  });

  it('rejects a selector it cannot parse', async () => {
    const result = await computeReplicasForMetrics(contextFor(hpaFixture(), seedPods(), new FakeMetricsSource(), { selector: 'app in (' }));
    expect(result.scalingActive).toMatchObject({ status: 'False', reason: 'InvalidSelector' });
    expect(result.scalingActive.message).toMatch(/^couldn't convert selector into a corresponding internal selector object: /);
  });

  it('reports an AverageValue target as a raw average', async () => {
    const source = new FakeMetricsSource();
    source.byResource.cpu = metricsOf({ 'web-0': 300, 'web-1': 500, 'web-2': 700 });
    const spec: MetricSpec = { type: 'Resource', resource: { name: 'cpu', target: { type: 'AverageValue', averageValue: '250m' } } };
    const result = await computeReplicasForMetrics(contextFor(hpaFixture({ metrics: [spec] }), seedPods(), source));
    expect(result).toMatchObject({
      replicas: 6,
      metricName: 'cpu resource',
      statuses: [{ type: 'Resource', resource: { name: 'cpu', current: { averageValue: '500m' } } }],
    });
  });
});
