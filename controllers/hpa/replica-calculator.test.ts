/**
 * The replica calculator against a table of cases taken from Kubernetes' documented algorithm
 * (pkg/controller/podautoscaler/replica_calculator_test.go names in brackets): the expected
 * counts are worked out by hand from the formulas in the module comment.
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { ResourceMetrics } from './metrics-client.js';
import { getRawResourceReplicas, getResourceReplicas, isWithinTolerance } from './replica-calculator.js';
import { LONG_AGO_MS, metricsOf, NOW_MS, type PodFixtureOptions, podFixture, sample } from './testing/fixtures.js';

interface UtilizationCase {
  name: string;
  currentReplicas: number;
  pods: Array<[string, PodFixtureOptions?]>;
  metrics: ResourceMetrics;
  target: number;
  resource?: string;
  container?: string;
  expected: { replicas: number; utilization: number; raw?: number };
}

const three = (options: PodFixtureOptions[] = []): Array<[string, PodFixtureOptions?]> => ['p0', 'p1', 'p2'].map((name, i) => [name, options[i]]);
const mi = (n: number) => n * 1024 * 1024 * 1000; // Mi in milli-bytes

const cases: UtilizationCase[] = [
  {
    name: 'scales up by ceil(ratio × ready pods) [ScaleUp]',
    currentReplicas: 3,
    pods: three(),
    metrics: metricsOf({ p0: 300, p1: 500, p2: 700 }),
    target: 30,
    expected: { replicas: 5, utilization: 50, raw: 500 },
  },
  {
    name: 'counts an unready pod as 0% when scaling up [ScaleUpUnreadyLessScale]',
    currentReplicas: 3,
    pods: three([{ ready: 'False' }]),
    metrics: metricsOf({ p0: 300, p1: 500, p2: 700 }),
    target: 30,
    expected: { replicas: 4, utilization: 60, raw: 600 },
  },
  {
    name: 'keeps the count when counting unready pods would reverse the direction [ScaleUpUnreadyNoScale]',
    currentReplicas: 3,
    pods: three([{}, { ready: 'False' }, { ready: 'False' }]),
    metrics: metricsOf({ p0: 400, p1: 500, p2: 700 }),
    target: 30,
    expected: { replicas: 3, utilization: 40, raw: 400 },
  },
  {
    name: 'treats Pending pods as unready whatever their samples say',
    currentReplicas: 3,
    pods: three([{ phase: 'Pending', ready: 'False' }]),
    metrics: metricsOf({ p0: 900, p1: 500, p2: 700 }),
    target: 30,
    expected: { replicas: 4, utilization: 60, raw: 600 },
  },
  {
    name: 'ignores Failed pods entirely [ScaleUpIgnoresFailedPods]',
    currentReplicas: 2,
    pods: [['p0'], ['p1'], ['p2', { phase: 'Failed', ready: 'False' }], ['p3', { phase: 'Failed', ready: 'False' }]],
    metrics: metricsOf({ p0: 500, p1: 700, p2: 300, p3: 400 }),
    target: 30,
    expected: { replicas: 4, utilization: 60, raw: 600 },
  },
  {
    name: 'ignores pods being deleted [ScaleUpIgnoresDeletionPods]',
    currentReplicas: 2,
    pods: [['p0'], ['p1'], ['p2', { deleting: true }], ['p3', { deleting: true }]],
    metrics: metricsOf({ p0: 500, p1: 700, p2: 300, p3: 400 }),
    target: 30,
    expected: { replicas: 4, utilization: 60, raw: 600 },
  },
  {
    name: 'scales down [ScaleDown]',
    currentReplicas: 5,
    pods: [['p0'], ['p1'], ['p2'], ['p3'], ['p4']],
    metrics: metricsOf({ p0: 100, p1: 300, p2: 500, p3: 250, p4: 250 }),
    target: 50,
    expected: { replicas: 3, utilization: 28, raw: 280 },
  },
  {
    name: 'leaves unready pods out of a scale down [ScaleDownExcludeUnreadyPods]',
    currentReplicas: 5,
    pods: [['p0', { ready: 'False' }], ['p1'], ['p2'], ['p3', { ready: 'False' }], ['p4', { ready: 'False' }]],
    metrics: metricsOf({ p0: 100, p1: 300, p2: 500, p3: 250, p4: 250 }),
    target: 50,
    expected: { replicas: 2, utilization: 40, raw: 400 },
  },
  {
    name: 'keeps the count within the 10% tolerance [Tolerance]',
    currentReplicas: 3,
    pods: three([{ cpu: '1100m' }, { cpu: '1' }, { cpu: '900m' }]),
    metrics: metricsOf({ p0: 1010, p1: 1030, p2: 1020 }),
    target: 100,
    expected: { replicas: 3, utilization: 102, raw: 1020 },
  },
  {
    name: 'counts missing pods as 100% of their request when scaling down [MissingMetrics]',
    currentReplicas: 4,
    pods: [['p0'], ['p1'], ['p2'], ['p3']],
    metrics: metricsOf({ p0: 400, p1: 95 }),
    target: 100,
    expected: { replicas: 3, utilization: 24, raw: 247 },
  },
  {
    name: 'counts missing pods as 0% when scaling up, here landing within tolerance [MissingMetricsNoChangeGt]',
    currentReplicas: 2,
    pods: [['p0'], ['p1']],
    metrics: metricsOf({ p0: 1900 }),
    target: 100,
    expected: { replicas: 2, utilization: 190 },
  },
  {
    name: 'counts missing pods as 0% when scaling up, still growing',
    currentReplicas: 4,
    pods: [['p0'], ['p1'], ['p2'], ['p3']],
    metrics: metricsOf({ p0: 2000, p1: 2000 }),
    target: 50,
    expected: { replicas: 8, utilization: 200 },
  },
  {
    name: 'keeps the count when the guessed ratio rounds back to it [MissingMetricsNoChangeLt]',
    currentReplicas: 2,
    pods: [['p0'], ['p1']],
    metrics: metricsOf({ p0: 600 }),
    target: 100,
    expected: { replicas: 2, utilization: 60 },
  },
  {
    name: 'assumes the target, not 100%, for missing pods when the target is above 100%',
    currentReplicas: 2,
    pods: [['p0'], ['p1']],
    metrics: metricsOf({ p0: 1000 }),
    target: 200,
    expected: { replicas: 2, utilization: 100 },
  },
  {
    name: 'combines unready and missing pods on a scale up [MissingMetricsUnreadyScaleUp]',
    currentReplicas: 3,
    pods: three([{ ready: 'False' }]),
    metrics: metricsOf({ p0: 100, p1: 2000 }),
    target: 50,
    expected: { replicas: 4, utilization: 200 },
  },
  {
    name: 'combines unready and missing pods on a scale down [MissingMetricsUnreadyScaleDown]',
    currentReplicas: 4,
    pods: [['p0', { ready: 'False' }], ['p1'], ['p2'], ['p3']],
    metrics: metricsOf({ p0: 100, p1: 100, p2: 100 }),
    target: 50,
    expected: { replicas: 3, utilization: 10 },
  },
  {
    name: 'distrusts a warming-up pod whose sample overlaps its becoming ready [ScaleUpHotCpuLessScale]',
    currentReplicas: 3,
    pods: three([{ startMs: NOW_MS - 20_000, readyTransitionMs: NOW_MS - 10_000 }]),
    metrics: metricsOf({ p0: 300, p1: 500, p2: 700 }),
    target: 30,
    expected: { replicas: 4, utilization: 60 },
  },
  {
    name: 'trusts a warming-up pod once a full window passed since it became ready',
    currentReplicas: 3,
    pods: three([{ startMs: NOW_MS - 60_000, readyTransitionMs: NOW_MS - 30_000 }]),
    metrics: metricsOf({ p0: 300, p1: 500, p2: 700 }),
    target: 30,
    expected: { replicas: 5, utilization: 50 },
  },
  {
    name: 'distrusts an old pod that never became ready (unready within the initial delay)',
    currentReplicas: 3,
    pods: three([{ ready: 'False', readyTransitionMs: LONG_AGO_MS + 10_000 }]),
    metrics: metricsOf({ p0: 300, p1: 500, p2: 700 }),
    target: 30,
    expected: { replicas: 4, utilization: 60 },
  },
  {
    name: 'trusts an old pod that was ready and turned unready later',
    currentReplicas: 3,
    pods: three([{ ready: 'False', readyTransitionMs: LONG_AGO_MS + 600_000 }]),
    metrics: metricsOf({ p0: 300, p1: 500, p2: 700 }),
    target: 30,
    expected: { replicas: 5, utilization: 50 },
  },
  {
    name: 'distrusts a pod without a Ready condition',
    currentReplicas: 3,
    pods: three([{ ready: null }]),
    metrics: metricsOf({ p0: 300, p1: 500, p2: 700 }),
    target: 30,
    expected: { replicas: 4, utilization: 60 },
  },
  {
    name: 'ignores readiness for memory',
    currentReplicas: 3,
    resource: 'memory',
    pods: three([{ ready: 'False', memory: '100Mi' }, { memory: '100Mi' }, { memory: '100Mi' }]),
    metrics: metricsOf({ p0: mi(200), p1: mi(200), p2: mi(200) }),
    target: 100,
    expected: { replicas: 6, utilization: 200, raw: mi(200) },
  },
  {
    name: 'sums the requests of every container [multiple containers]',
    currentReplicas: 2,
    pods: [
      ['p0', { containers: { sidecar: '500m' } }],
      ['p1', { containers: { sidecar: '500m' } }],
    ],
    metrics: metricsOf({ p0: 1500, p1: 1500 }),
    target: 50,
    expected: { replicas: 4, utilization: 100 },
  },
  {
    name: "uses one container's request for a ContainerResource metric",
    currentReplicas: 2,
    container: 'app',
    pods: [
      ['p0', { containers: { sidecar: '500m' } }],
      ['p1', { containers: { sidecar: null } }],
    ],
    metrics: metricsOf({ p0: 900, p1: 900 }),
    target: 50,
    expected: { replicas: 4, utilization: 90 },
  },
];

function podsOf(specs: Array<[string, PodFixtureOptions?]>): Pod[] {
  return specs.map(([name, options]) => podFixture(name, options));
}

describe('getResourceReplicas', () => {
  it.each(cases)('$name', (c) => {
    const result = getResourceReplicas({
      currentReplicas: c.currentReplicas,
      resource: c.resource ?? 'cpu',
      container: c.container,
      pods: podsOf(c.pods),
      metrics: c.metrics,
      nowMs: NOW_MS,
      targetUtilization: c.target,
    });
    expect(result.replicas).toBe(c.expected.replicas);
    expect(result.utilization).toBe(c.expected.utilization);
    if (c.expected.raw !== undefined) expect(result.rawAverageMilli).toBe(c.expected.raw);
    expect(result.timestampMs).toBe(NOW_MS);
  });

  describe('tolerance edges (10 pods of 1 CPU, target 100%)', () => {
    const tenPods = podsOf(Array.from({ length: 10 }, (_, i): [string] => [`p${i}`]));
    const at = (percent: number, tolerances?: { scaleUp: number; scaleDown: number }) =>
      getResourceReplicas({
        currentReplicas: 10,
        resource: 'cpu',
        pods: tenPods,
        metrics: metricsOf(Object.fromEntries(tenPods.map((p) => [p.metadata.name ?? '', percent * 10]))),
        nowMs: NOW_MS,
        targetUtilization: 100,
        tolerances,
      }).replicas;

    it.each([
      [110, 10],
      [111, 12],
      [90, 10],
      [89, 9],
      [100, 10],
    ])('%i%% → %i replicas', (percent, replicas) => expect(at(percent)).toBe(replicas));

    it('honours per-direction tolerances', () => {
      expect(at(104, { scaleUp: 0.05, scaleDown: 0.1 })).toBe(10);
      expect(at(106, { scaleUp: 0.05, scaleDown: 0.1 })).toBe(11);
      expect(at(85, { scaleUp: 0.05, scaleDown: 0.2 })).toBe(10);
      expect(at(85)).toBe(9);
    });

    it('truncates the utilization to a whole percent before comparing', () => {
      // 1109m per pod is 110.9%: truncated to 110%, within tolerance.
      const pods = podsOf([['p0']]);
      const result = getResourceReplicas({
        currentReplicas: 1,
        resource: 'cpu',
        pods,
        metrics: metricsOf({ p0: 1109 }),
        nowMs: NOW_MS,
        targetUtilization: 100,
      });
      expect(result).toMatchObject({ replicas: 1, utilization: 110 });
    });
  });

  describe('errors, worded as Kubernetes', () => {
    const run = (pods: Pod[], metrics: ResourceMetrics, container?: string) =>
      getResourceReplicas({ currentReplicas: 2, resource: 'cpu', container, pods, metrics, nowMs: NOW_MS, targetUtilization: 50 });

    it('needs pods', () => {
      expect(() => run([], metricsOf({ p0: 1 }))).toThrow('no pods returned by selector while calculating replica count');
    });
    it('needs a sample from a pod it may trust', () => {
      expect(() => run(podsOf([['p0', { ready: 'False' }]]), metricsOf({ p0: 100 }))).toThrow(
        'did not receive metrics for targeted pods (pods might be unready)',
      );
    });
    it('needs every counted container to request the resource', () => {
      expect(() => run(podsOf([['p0', { containers: { sidecar: null } }]]), metricsOf({ p0: 100 }))).toThrow(
        'missing request for cpu in container sidecar of Pod p0',
      );
    });
    it('needs the named container', () => {
      expect(() => run(podsOf([['p0']]), metricsOf({ p0: 100 }), 'logger')).toThrow('container logger not found in Pod p0');
    });
    it('needs samples that match known pods', () => {
      expect(() => run(podsOf([['p0']]), metricsOf({ ghost: 100 }))).toThrow('no metrics returned matched known pods');
    });
  });

  it('counts sidecars (init containers that always restart) and prefers pod-level requests', () => {
    const sidecarPod = podFixture('p0');
    sidecarPod.spec.initContainers = [{ name: 'proxy', image: 'envoy', restartPolicy: 'Always', resources: { requests: { cpu: '1' } } }];
    const withSidecar = getResourceReplicas({
      currentReplicas: 1,
      resource: 'cpu',
      pods: [sidecarPod],
      metrics: metricsOf({ p0: 2000 }),
      nowMs: NOW_MS,
      targetUtilization: 50,
    });
    expect(withSidecar).toMatchObject({ utilization: 100, replicas: 2 });
    const podLevel = podFixture('p0', { cpu: null });
    podLevel.spec.resources = { requests: { cpu: '4' } };
    const withPodLevel = getResourceReplicas({
      currentReplicas: 1,
      resource: 'cpu',
      pods: [podLevel],
      metrics: metricsOf({ p0: 2000 }),
      nowMs: NOW_MS,
      targetUtilization: 50,
    });
    expect(withPodLevel).toMatchObject({ utilization: 50, replicas: 1 });
  });
});

describe('getRawResourceReplicas (AverageValue targets)', () => {
  const run = (pods: Pod[], metrics: ResourceMetrics, options: { current: number; target: number; resource?: string }) =>
    getRawResourceReplicas({
      currentReplicas: options.current,
      resource: options.resource ?? 'cpu',
      pods,
      metrics,
      nowMs: NOW_MS,
      targetAverageMilli: options.target,
    });

  it('scales by the average over the target', () => {
    expect(run(podsOf(three()), metricsOf({ p0: 300, p1: 500, p2: 700 }), { current: 3, target: 250 })).toEqual({
      replicas: 6,
      averageMilli: 500,
      timestampMs: NOW_MS,
    });
  });
  it('keeps the count within tolerance', () => {
    expect(run(podsOf(three()), metricsOf({ p0: 520, p1: 500, p2: 480 }), { current: 3, target: 500 }).replicas).toBe(3);
  });
  it('counts missing pods as exactly the target when scaling down', () => {
    // avg 100 of 500 → missing p2 assumed at 500 → (100+100+500)/3 = 233 → ceil(0.466 × 3) = 2
    expect(run(podsOf(three()), metricsOf({ p0: 100, p1: 100 }), { current: 3, target: 500 })).toMatchObject({ replicas: 2, averageMilli: 100 });
  });
  it('does not need requests and applies to memory', () => {
    const pods = podsOf([
      ['p0', { cpu: null }],
      ['p1', { cpu: null }],
    ]);
    expect(run(pods, metricsOf({ p0: mi(300), p1: mi(300) }), { current: 2, target: mi(200), resource: 'memory' })).toMatchObject({
      replicas: 3,
      averageMilli: mi(300),
    });
  });
  it('applies the CPU readiness rules', () => {
    const pods = podsOf(three([{ ready: 'False' }]));
    // p0 ignored; avg of p1,p2 = 600 → ratio 2.4; unready as 0 → 400 → ceil(1.6 × 3) = 5
    expect(run(pods, metricsOf({ p0: 300, p1: 500, p2: 700 }), { current: 3, target: 250 }).replicas).toBe(5);
  });
});

describe('isWithinTolerance', () => {
  it('is inclusive at both ends', () => {
    const tolerances = { scaleUp: 0.1, scaleDown: 0.1 };
    expect(isWithinTolerance(1.1, tolerances)).toBe(true);
    expect(isWithinTolerance(0.9, tolerances)).toBe(true);
    expect(isWithinTolerance(1.11, tolerances)).toBe(false);
    expect(isWithinTolerance(0.89, tolerances)).toBe(false);
  });
});

describe('samples from a metrics window', () => {
  it('uses the sample window in the warm-up rule', () => {
    // Ready 30 s ago; a 60 s window reaches back before readiness, so the sample is distrusted.
    const pods = podsOf(three([{ startMs: NOW_MS - 60_000, readyTransitionMs: NOW_MS - 30_000 }]));
    const metrics = metricsOf({ p0: sample(300, { windowMs: 60_000 }), p1: 500, p2: 700 });
    expect(getResourceReplicas({ currentReplicas: 3, resource: 'cpu', pods, metrics, nowMs: NOW_MS, targetUtilization: 30 }).replicas).toBe(4);
  });
});
