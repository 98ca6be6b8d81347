/**
 * PodDisruptionBudgets end to end: an in-process cluster (kubelet-sim with 3 nodes, the
 * scheduler, the ReplicaSet, Deployment and disruption controllers, one fast clock) and the
 * API server's pods/eviction. Checks the budget's status arithmetic, the 429 an eviction gets
 * when the budget is spent, and the real `kubectl drain` evicting a node's pods without ever
 * leaving fewer than minAvailable pods Ready.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Deployment, deploymentDefinition } from '../../apiserver/api/apps/deployment.js';
import { nodeDefinition } from '../../apiserver/api/core/node.js';
import { type Pod, podDefinition } from '../../apiserver/api/core/pod.js';
import { type PodDisruptionBudget, podDisruptionBudgetDefinition } from '../../apiserver/api/policy/pod-disruption-budget.js';
import type { KubeClient } from '../../controllers/runtime/client/http-client.js';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http.js';
import { runKubectl } from '../support/kubectl.js';
import type { TestCluster } from '../support/test-cluster.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const NS = 'default';
/** Cluster time runs this much faster than wall time (pods become Ready within ~0.1 s). */
const SPEED = 10;

/** useDisruptionCluster runs, for the enclosing describe block, the API server, 3 kubelet-sim
 * nodes, the scheduler and the controllers. */
const useDisruptionCluster = () =>
  useTestCluster({
    lifetime: 'file',
    speed: SPEED,
    userAgent: 'disruption-test/0.1',
    nodes: 3,
    controllers: ['replicaset', 'deployment', 'disruption'],
    scheduler: true,
  });

function deployment(name: string, replicas: number): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NS },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
    },
  };
}

function budget(name: string, app: string, spec: Partial<PodDisruptionBudget['spec']>): PodDisruptionBudget {
  return { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name, namespace: NS }, spec: { selector: { matchLabels: { app } }, ...spec } };
}

const isReady = (pod: Pod) =>
  pod.metadata.deletionTimestamp === undefined && pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;

async function readyPods(client: KubeClient, app: string, count: number): Promise<Pod[]> {
  return eventually(
    async () => {
      const pods = (await client.resource(podDefinition).list({ namespace: NS, labelSelector: `app=${app}` })).items.filter(isReady);
      expect(pods).toHaveLength(count);
      return pods;
    },
    { timeoutMs: 15_000 },
  );
}

async function budgetStatus(client: KubeClient, name: string, expected: Partial<NonNullable<PodDisruptionBudget['status']>>) {
  return eventually(async () => {
    const status = (await client.resource(podDisruptionBudgetDefinition).get(NS, name)).status;
    expect(status).toMatchObject(expected);
    return status;
  });
}

const evict = (cluster: TestCluster, name: string) =>
  request(`${cluster.url}/api/v1/namespaces/${NS}/pods/${name}/eviction`, {
    method: 'POST',
    body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: NS } },
  });

describe('PodDisruptionBudgets and pods/eviction', () => {
  const cluster = useDisruptionCluster();
  const kubectl = (args: string[]) => runKubectl('kubectl', args, { kubeconfigPath: cluster.kubeconfigPath, cacheDir: join(cluster.dir, 'cache') });

  it('reports expectedPods, desiredHealthy and disruptionsAllowed for 50% minAvailable and maxUnavailable 1', async () => {
    await cluster.client.resource(deploymentDefinition).create(deployment('api', 4));
    await cluster.client.resource(podDisruptionBudgetDefinition).create(budget('api-half', 'api', { minAvailable: '50%' }));
    await readyPods(cluster.client, 'api', 4);
    const half = await budgetStatus(cluster.client, 'api-half', {
      expectedPods: 4,
      currentHealthy: 4,
      desiredHealthy: 2,
      disruptionsAllowed: 2,
      observedGeneration: 1,
    });
    expect(half?.conditions).toEqual([expect.objectContaining({ type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods' })]);
    await cluster.client.resource(podDisruptionBudgetDefinition).delete(NS, 'api-half');
    await cluster.client.resource(podDisruptionBudgetDefinition).create(budget('api-one', 'api', { maxUnavailable: 1 }));
    await budgetStatus(cluster.client, 'api-one', { expectedPods: 4, currentHealthy: 4, desiredHealthy: 3, disruptionsAllowed: 1 });
  });

  it('answers 429 with Kubernetes’ Status when the budget allows no disruption', async () => {
    await cluster.client.resource(deploymentDefinition).create(deployment('db', 3));
    await cluster.client.resource(podDisruptionBudgetDefinition).create(budget('db', 'db', { minAvailable: 3 }));
    const [pod] = await readyPods(cluster.client, 'db', 3);
    await budgetStatus(cluster.client, 'db', { disruptionsAllowed: 0, currentHealthy: 3, desiredHealthy: 3 });
    const denied = await evict(cluster, pod!.metadata.name!);
    expect(denied.status).toBe(429);
    expect(denied.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      reason: 'TooManyRequests',
      details: { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget db needs 3 healthy pods and has 3 currently' }] },
      code: 429,
    });
    expect((await cluster.client.resource(podDefinition).get(NS, pod!.metadata.name!)).metadata.deletionTimestamp).toBeUndefined();
  });

  it('spends an allowed disruption in the same request as the delete', async () => {
    await cluster.client.resource(podDisruptionBudgetDefinition).patch(NS, 'db', { spec: { minAvailable: 2 } }, { type: 'merge' });
    await budgetStatus(cluster.client, 'db', { disruptionsAllowed: 1, observedGeneration: 2 });
    const [first, second] = await readyPods(cluster.client, 'db', 3);
    expect((await evict(cluster, first!.metadata.name!)).status).toBe(201);
    const spent = await cluster.client.resource(podDisruptionBudgetDefinition).get(NS, 'db');
    expect(spent.status?.disruptionsAllowed).toBe(0);
    expect(Object.keys(spent.status?.disruptedPods ?? {})).toContain(first!.metadata.name);
    expect(spent.status?.conditions?.find((c) => c.type === 'DisruptionAllowed')).toMatchObject({ status: 'False', reason: 'InsufficientPods' });
    const denied = await evict(cluster, second!.metadata.name!);
    expect(denied.status).toBe(429);
    // Until the controller recounts, status still says 3 healthy: Kubernetes words that case so.
    expect(denied.body.details.causes[0].message).toMatch(
      /^The disruption budget db (does not allow evicting pods currently|needs 2 healthy pods and has 2 currently)$/,
    );
  });

  it('answers 500 when two budgets select the pod', async () => {
    await cluster.client.resource(podDisruptionBudgetDefinition).create(budget('db-2', 'db', { maxUnavailable: 1 }));
    const [pod] = await readyPods(cluster.client, 'db', 3);
    const res = await evict(cluster, pod!.metadata.name!);
    expect(res.status).toBe(500);
    expect(res.body.message).toBe('Internal error occurred: This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
    await cluster.client.resource(podDisruptionBudgetDefinition).delete(NS, 'db-2');
  });

  it('just deletes a pod no budget selects', async () => {
    await cluster.client.resource(deploymentDefinition).create(deployment('free', 1));
    const [pod] = await readyPods(cluster.client, 'free', 1);
    expect((await evict(cluster, pod!.metadata.name!)).status).toBe(201);
    await eventually(async () => {
      const current = await cluster.client
        .resource(podDefinition)
        .get(NS, pod!.metadata.name!)
        .catch(() => undefined);
      expect(current === undefined || current.metadata.deletionTimestamp !== undefined).toBe(true);
    });
  });

  it('kubectl create pdb makes a budget the controller fills in', async () => {
    const result = await kubectl(['create', 'pdb', 'free', '--selector=app=free', '--max-unavailable=1']);
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe('poddisruptionbudget.policy/free created');
    await budgetStatus(cluster.client, 'free', { expectedPods: 1, desiredHealthy: 0, disruptionsAllowed: 1 });
  });

  it('kubectl get pdb prints MIN AVAILABLE, MAX UNAVAILABLE and ALLOWED DISRUPTIONS', async () => {
    await budgetStatus(cluster.client, 'api-one', { disruptionsAllowed: 1 });
    const result = await kubectl(['get', 'pdb', 'api-one', 'db']);
    expect(result.stderr).toBe('');
    const rows = result.stdout
      .trim()
      .split('\n')
      .map((line) => line.split(/\s{2,}/));
    expect(rows[0]).toEqual(['NAME', 'MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS', 'AGE']);
    expect(rows[1]?.slice(0, 4)).toEqual(['api-one', 'N/A', '1', '1']);
    expect(rows[2]?.slice(0, 3)).toEqual(['db', '2', 'N/A']);
  });
});

describe('kubectl drain', () => {
  const cluster = useDisruptionCluster();

  it('cordons the node and evicts its pods, retrying 429s, while at least minAvailable stay Ready', async () => {
    const nodes = cluster.client.resource(nodeDefinition);
    // Two schedulable nodes for three pods: one node gets two, so draining it must wait for
    // the first pod's replacement before the budget lets the second go.
    await eventually(() => nodes.get('', 'node-3'));
    await nodes.patch('', 'node-3', { spec: { unschedulable: true } }, { type: 'merge' });
    await cluster.client.resource(deploymentDefinition).create(deployment('web', 3));
    await cluster.client.resource(podDisruptionBudgetDefinition).create(budget('web', 'web', { minAvailable: 2 }));
    const pods = await readyPods(cluster.client, 'web', 3);
    await nodes.patch('', 'node-3', { spec: { unschedulable: null } }, { type: 'merge' });
    await budgetStatus(cluster.client, 'web', { disruptionsAllowed: 1 });
    const node = ['node-1', 'node-2'].find((n) => pods.filter((pod) => pod.spec.nodeName === n).length === 2)!;
    const watch = watchReadyCount(cluster.client, 'web', 3);
    const result = await runKubectl('kubectl', ['drain', node, '--ignore-daemonsets', '--delete-emptydir-data'], {
      kubeconfigPath: cluster.kubeconfigPath,
      cacheDir: join(cluster.dir, 'cache'),
      timeoutMs: 60_000,
    });
    expect(result, result.stderr).toMatchObject({ code: 0 });
    expect(result.stdout).toContain(`node/${node} cordoned`);
    expect(result.stdout).toContain(`node/${node} drained`);
    expect(result.stderr).toContain("(will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.");
    expect((await nodes.get('', node)).spec?.unschedulable).toBe(true);
    const after = await readyPods(cluster.client, 'web', 3);
    expect(after.every((pod) => pod.spec.nodeName !== node)).toBe(true);
    expect(watch.stop()).toBeGreaterThanOrEqual(2);
    const get = await runKubectl('kubectl', ['get', 'node', node], { kubeconfigPath: cluster.kubeconfigPath, cacheDir: join(cluster.dir, 'cache') });
    expect(get.stdout).toMatch(/Ready,SchedulingDisabled/);
  }, 90_000);
});

/** watchReadyCount follows the app's pods and remembers the fewest Ready (non-terminating)
 * at any moment after all `count` were first Ready; stop() returns that minimum. */
function watchReadyCount(client: KubeClient, app: string, count: number): { stop(): number } {
  const abort = new AbortController();
  const ready = new Map<string, boolean>();
  let minimum = Number.POSITIVE_INFINITY;
  let synced = false;
  void (async () => {
    const stream = client.resource(podDefinition).watch({ namespace: NS, labelSelector: `app=${app}`, signal: abort.signal });
    for await (const event of stream) {
      const name = event.object.metadata.name ?? '';
      if (event.type === 'DELETED') ready.delete(name);
      else if (event.type === 'ADDED' || event.type === 'MODIFIED') ready.set(name, isReady(event.object));
      const now = [...ready.values()].filter(Boolean).length;
      // The initial ADDED events arrive one by one: count only once all were seen Ready.
      synced ||= now >= count;
      if (synced) minimum = Math.min(minimum, now);
    }
  })().catch(() => undefined);
  return {
    stop() {
      abort.abort();
      return minimum;
    },
  };
}
