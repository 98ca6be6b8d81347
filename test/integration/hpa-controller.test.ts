/**
 * The HPA controller against a real API server, with the Deployment and ReplicaSet
 * controllers and a fake kubelet making pods Running and Ready: the seed document's example
 * end to end (a Deployment requesting 100m CPU, an autoscaling/v2 HPA at 70% with the seed's
 * behavior block, load that makes it scale up at once and down only after the window).
 *
 * Metrics: test/support/fake-metrics-pipeline.ts stands in for the metrics pipeline
 * (kubelet-sim → metrics.k8s.io). It serves PodMetrics from the test server and rewrites them
 * every 15 s of cluster time, sharing a total CPU load the test sets over the running pods;
 * the HPA reads them over HTTP exactly as it reads the real metrics API.
 *
 * Time: the HPA, the fake kubelet and the pipeline share one cluster clock running SPEED×
 * faster than wall time, so 15 s syncs take 250 ms and the 5-minute window 5 s.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Deployment, deploymentDefinition } from '../../apiserver/api/apps/deployment.js';
import { type ReplicaSet, replicaSetDefinition } from '../../apiserver/api/apps/replica-set.js';
import { type HorizontalPodAutoscaler, horizontalPodAutoscalerDefinition } from '../../apiserver/api/autoscaling/horizontal-pod-autoscaler.js';
import type { HorizontalPodAutoscalerV1 } from '../../apiserver/api/autoscaling/horizontal-pod-autoscaler-v1.js';
import { type Event, eventDefinition } from '../../apiserver/api/core/event.js';
import { type Pod, podDefinition } from '../../apiserver/api/core/pod.js';
import { createRealClock, type RealClock } from '../../apiserver/api/machinery/clock.js';
import { registerHpaController } from '../../controllers/hpa/index.js';
import { createKubeClient } from '../../controllers/runtime/client/http-client.js';
import { createLogger, type LogLevel } from '../../controllers/runtime/logger.js';
import { createManager } from '../../controllers/runtime/manager.js';
import { createCrd, cronTab, cronTabCrd } from '../support/crds.js';
import { isAvailablePod, startControlPlane } from '../support/deployment-harness.js';
import { eventually } from '../support/eventually.js';
import { type FakeMetricsPipeline, startFakeMetricsPipeline } from '../support/fake-metrics-pipeline.js';
import { request } from '../support/http.js';
import type { TestCluster } from '../support/test-cluster.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const NS = 'default';
const SPEED = 60;
const CPU_RESOURCE_REASON = 'cpu resource utilization (percentage of request)';

interface Stoppable {
  stop(): Promise<void>;
}

/** workloadTemplate is the seed's pod template: one nginx container requesting 100m / 128Mi. */
function workloadTemplate(name: string) {
  return {
    metadata: { labels: { app: name } },
    spec: { containers: [{ name: 'nginx', image: 'nginx:1.25', resources: { requests: { cpu: '100m', memory: '128Mi' } } }] },
  };
}

function seedDeployment(replicas: number): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: NS },
    spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: workloadTemplate('web') },
  };
}

/** seedHpa is the seed document's HPA, pointed at `kind/name`. */
function seedHpa(target: { apiVersion: string; kind: string; name: string }, behavior = true): HorizontalPodAutoscaler {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: target.name, namespace: NS },
    spec: {
      scaleTargetRef: target,
      minReplicas: 2,
      maxReplicas: 10,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
      behavior: behavior
        ? {
            scaleDown: { stabilizationWindowSeconds: 300, policies: [{ type: 'Percent', value: 10, periodSeconds: 60 }] },
            scaleUp: { stabilizationWindowSeconds: 0, policies: [{ type: 'Percent', value: 100, periodSeconds: 60 }] },
          }
        : undefined,
    },
  };
}

const WEB = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

describe('HPA controller', () => {
  const cluster = useTestCluster({ userAgent: 'hpa-controller-test' });
  let clock: RealClock;
  const running: Stoppable[] = [];
  const hpas = () => cluster.client.resource(horizontalPodAutoscalerDefinition);
  const deployments = () => cluster.client.resource(deploymentDefinition);

  beforeEach(() => {
    clock = createRealClock({ speed: SPEED });
  });

  afterEach(async () => {
    // Newest first: the HPA stops before the control plane, the pipeline last.
    for (const r of running.splice(0).reverse()) await r.stop();
  });

  /** startAll runs the metrics stand-in for `selector`, the control plane and the HPA controller. */
  async function startAll(selector = 'app=web'): Promise<FakeMetricsPipeline> {
    const pipeline = startFakeMetricsPipeline({ cluster, client: cluster.client, clock, namespace: NS, selector });
    running.push(pipeline);
    running.push(await startControlPlane(cluster, { clock }));
    running.push(startHpaController(cluster, clock));
    return pipeline;
  }

  /** warmPods waits for `count` Ready pods and then for one metrics window past the last of
   * them becoming ready, so the HPA trusts their CPU samples (Kubernetes' readiness rule). */
  async function warmPods(count: number, selector = 'app=web'): Promise<void> {
    const pods = await eventually(
      async () => {
        const items = (await cluster.client.resource(podDefinition).list({ namespace: NS, labelSelector: selector })).items.filter(
          (p) => !p.metadata.deletionTimestamp,
        );
        expect(items).toHaveLength(count);
        expect(items.filter(isAvailablePod)).toHaveLength(count);
        return items;
      },
      { timeoutMs: 15_000 },
    );
    const readySinceMs = Math.max(...pods.map(readyTransitionMs));
    await eventually(() => clock.now() >= readySinceMs + 16_000);
  }

  const hpaEvents = async (name = 'web'): Promise<Event[]> =>
    (await cluster.client.resource(eventDefinition).list({ namespace: NS })).items.filter(
      (e) => e.involvedObject.kind === 'HorizontalPodAutoscaler' && e.involvedObject.name === name,
    );

  const eventWith = (reason: string, name = 'web') =>
    eventually(async () => {
      const found = (await hpaEvents(name)).find((e) => e.reason === reason);
      expect(found, `event ${reason}`).toBeDefined();
      return found as Event;
    });

  it("scales the seed's Deployment up at once on load, then down only after the window and no faster than the policy", async () => {
    const pipeline = await startAll();
    await deployments().create(seedDeployment(3));
    await warmPods(3);
    pipeline.setCpuLoad(420); // 140m per pod: 140% of the request, twice the 70% target
    await pipeline.scraped();
    await hpas().create(seedHpa(WEB));

    await eventually(async () => expect((await deployments().get(NS, 'web')).spec.replicas).toBe(6), { timeoutMs: 10_000 });
    expect(await eventWith('SuccessfulRescale')).toMatchObject({
      type: 'Normal',
      message: `New size: 6; reason: ${CPU_RESOURCE_REASON} above target`,
      source: { component: 'horizontal-pod-autoscaler' },
    });
    const scaled = await eventually(async () => {
      const hpa = await hpas().get(NS, 'web');
      expect(hpa.status).toMatchObject({ currentReplicas: 6, desiredReplicas: 6, observedGeneration: 1 });
      return hpa;
    });
    expect(scaled.status?.lastScaleTime).toBeDefined();
    expect(conditionOf(scaled, 'ScalingActive')).toMatchObject({
      status: 'True',
      reason: 'ValidMetricFound',
      message: `the HPA was able to successfully calculate a replica count from ${CPU_RESOURCE_REASON}`,
    });

    // The same HPA through autoscaling/v1 (what `kubectl autoscale` created in 1.31/1.32).
    await warmPods(6);
    await pipeline.scraped(); // the load is now spread over six pods: 70m each, on target
    await eventually(async () => {
      const v1 = (await cluster.client.raw({
        method: 'GET',
        path: `/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers/web`,
      })) as HorizontalPodAutoscalerV1;
      expect(v1.spec.targetCPUUtilizationPercentage).toBe(70);
      expect(v1.status).toMatchObject({ currentReplicas: 6, desiredReplicas: 6, currentCPUUtilizationPercentage: 70 });
    });

    pipeline.setCpuLoad(210); // half the load: 35% per pod, a recommendation of 3
    await pipeline.scraped();
    const droppedAtMs = clock.now();
    const stabilized = await eventually(async () => {
      const hpa = await hpas().get(NS, 'web');
      expect(hpa.status?.currentMetrics?.[0]?.resource?.current.averageUtilization).toBe(35);
      expect(conditionOf(hpa, 'AbleToScale')?.reason).toBe('ScaleDownStabilized');
      return hpa;
    });
    expect(stabilized.status?.desiredReplicas).toBe(6);
    expect((await deployments().get(NS, 'web')).spec.replicas).toBe(6);

    const steps = await replicaSteps(() => deployments().get(NS, 'web'), { from: 6, to: 3, clock });
    expect(steps.map((s) => s.replicas)).toEqual([5, 4, 3]);
    // The window holds the last recommendation of 6 (at most a sync before the drop) for
    // 300 s: nothing may happen within ~285 s (bound loosened for timer jitter at SPEED×).
    expect(steps[0]!.atMs - droppedAtMs).toBeGreaterThanOrEqual(240_000);
    // 10% per 60 s: one pod at a time, a minute apart. The steps are seen by polling, each up to
    // a poll interval (SPEED × 20 ms of wall time, plus the machine's load) late: allow 15 s.
    expect(steps[1]!.atMs - steps[0]!.atMs).toBeGreaterThanOrEqual(45_000);
    expect(steps[2]!.atMs - steps[1]!.atMs).toBeGreaterThanOrEqual(45_000);
    const messages = (await hpaEvents()).filter((e) => e.reason === 'SuccessfulRescale').map((e) => e.message);
    expect(messages).toEqual(expect.arrayContaining(['New size: 5; reason: All metrics below target', 'New size: 3; reason: All metrics below target']));
  });

  it('reports missing metrics (FailedGetResourceMetric, ScalingActive False) and recovers once they appear', async () => {
    const pipeline = await startAll();
    await deployments().create(seedDeployment(3));
    await warmPods(3);
    await hpas().create(seedHpa(WEB));

    const inner = 'failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API';
    expect(await eventWith('FailedGetResourceMetric')).toMatchObject({ type: 'Warning', message: inner, source: { component: 'horizontal-pod-autoscaler' } });
    expect(await eventWith('FailedComputeMetricsReplicas')).toMatchObject({
      type: 'Warning',
      message: `invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: ${inner}`,
    });
    const failing = await eventually(async () => {
      const hpa = await hpas().get(NS, 'web');
      expect(conditionOf(hpa, 'ScalingActive')).toMatchObject({
        status: 'False',
        reason: 'FailedGetResourceMetric',
        message: `the HPA was unable to compute the replica count: ${inner}`,
      });
      return hpa;
    });
    expect(conditionOf(failing, 'AbleToScale')).toMatchObject({ status: 'True', reason: 'SucceededGetScale' });
    expect(failing.status?.currentReplicas).toBe(3);
    expect((await deployments().get(NS, 'web')).spec.replicas).toBe(3);

    pipeline.setCpuLoad(210); // 70% per pod: on target
    await eventually(async () => {
      const hpa = await hpas().get(NS, 'web');
      expect(conditionOf(hpa, 'ScalingActive')).toMatchObject({ status: 'True', reason: 'ValidMetricFound' });
      expect(hpa.status).toMatchObject({ currentReplicas: 3, desiredReplicas: 3 });
    });
  });

  it('scales a ReplicaSet through its /scale subresource, with the default behavior', async () => {
    const pipeline = await startAll('app=worker');
    const rs: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'worker', namespace: NS },
      spec: { replicas: 2, selector: { matchLabels: { app: 'worker' } }, template: workloadTemplate('worker') },
    };
    await cluster.client.resource(replicaSetDefinition).create(rs);
    await warmPods(2, 'app=worker');
    pipeline.setCpuLoad(300); // 150% per pod at a 70% target: ceil(2 × 150/70) = 5
    await pipeline.scraped();
    await hpas().create(seedHpa({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'worker' }, false));

    await eventually(async () => expect((await cluster.client.resource(replicaSetDefinition).get(NS, 'worker')).spec.replicas).toBe(5), { timeoutMs: 10_000 });
    expect((await eventWith('SuccessfulRescale', 'worker')).message).toBe(`New size: 5; reason: ${CPU_RESOURCE_REASON} above target`);
  });

  it('scales a custom resource through the /scale subresource its CRD declares', async () => {
    const pipeline = await startAll('app=cron');
    await createCrd(cluster.url, cronTabCrd());
    // The pods the custom resource's scale selector names (kept by a ReplicaSet of their own).
    const rs: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'cron', namespace: NS },
      spec: { replicas: 2, selector: { matchLabels: { app: 'cron' } }, template: workloadTemplate('cron') },
    };
    await cluster.client.resource(replicaSetDefinition).create(rs);
    const cronTabs = `${cluster.url}/apis/stable.example.com/v1/namespaces/${NS}/crontabs`;
    await request(cronTabs, { method: 'POST', body: cronTab('cron', { replicas: 2 }) });
    await request(`${cronTabs}/cron/status`, {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: { status: { replicas: 2, selector: 'app=cron' } },
    });
    await warmPods(2, 'app=cron');
    pipeline.setCpuLoad(300);
    await pipeline.scraped();
    await hpas().create(seedHpa({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', name: 'cron' }, false));

    await eventually(async () => expect((await request(`${cronTabs}/cron`)).body.spec.replicas).toBe(5), { timeoutMs: 10_000 });
    expect((await eventWith('SuccessfulRescale', 'cron')).message).toBe(`New size: 5; reason: ${CPU_RESOURCE_REASON} above target`);
  });
});

/** startHpaController runs the HPA controller in its own Manager, as its own process would. */
function startHpaController(cluster: TestCluster, clock: RealClock): Stoppable {
  const client = createKubeClient({ server: cluster.url, userAgent: 'kube-controller-manager/hpa-test' });
  const level = (process.env['KUBESIM_TEST_LOG_LEVEL'] as LogLevel | undefined) ?? 'silent';
  const manager = createManager({ client, clock, logger: createLogger({ component: 'hpa', level }), component: 'kube-controller-manager' });
  registerHpaController(manager);
  const abort = new AbortController();
  const done = manager.start(abort.signal);
  return {
    async stop() {
      abort.abort();
      await done;
      client.close();
    },
  };
}

function conditionOf(hpa: HorizontalPodAutoscaler, type: string) {
  return hpa.status?.conditions?.find((c) => c.type === type);
}

function readyTransitionMs(pod: Pod): number {
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
  return Date.parse(ready?.lastTransitionTime ?? '');
}

/** replicaSteps watches spec.replicas go from `from` to `to` and returns each new value with
 * the cluster time it was first seen. */
async function replicaSteps(read: () => Promise<{ spec: { replicas?: number } }>, { from, to, clock }: { from: number; to: number; clock: RealClock }) {
  const steps: Array<{ replicas: number; atMs: number }> = [];
  let previous = from;
  while (previous !== to) {
    const seen = previous;
    const next = await eventually(
      async () => {
        const replicas = (await read()).spec.replicas ?? 0;
        expect(replicas).not.toBe(seen);
        return replicas;
      },
      { timeoutMs: 15_000, intervalMs: 10 },
    );
    steps.push({ replicas: next, atMs: clock.now() });
    previous = next;
  }
  return steps;
}
