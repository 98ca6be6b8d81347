/**
 * What the Deployment integration tests share: an in-process "kube-controller-manager" (one
 * Manager running the Deployment and ReplicaSet controllers) plus a fake kubelet against a
 * test cluster, manifest builders, a `kubectl rollout status` check, and an invariant tracker
 * that inspects the cluster after every single watch event. Set KUBESIM_TEST_LOG_LEVEL
 * (debug|info|warn|error) to see the controllers' logs.
 */
import { expect } from 'vitest';
import type { Deployment } from '../../apiserver/api/apps/deployment.js';
import { type ReplicaSet, replicaSetDefinition } from '../../apiserver/api/apps/replica-set.js';
import { type Pod, podDefinition } from '../../apiserver/api/core/pod.js';
import { createRealClock, isAbortError } from '../../apiserver/api/machinery/clock.js';
import { registerDeploymentController } from '../../controllers/deployment/index.js';
import { registerReplicaSetController } from '../../controllers/replicaset/index.js';
import { createKubeClient, type KubeClient } from '../../controllers/runtime/client/http-client.js';
import { createInformer } from '../../controllers/runtime/informer.js';
import { createLogger, type LogLevel, silentLogger } from '../../controllers/runtime/logger.js';
import { createManager } from '../../controllers/runtime/manager.js';
import type { DeepReadonly } from '../../controllers/runtime/types.js';
import { type FakeKubeletOptions, startFakeKubelet } from './fake-kubelet.js';
import type { TestCluster } from './test-cluster.js';

/** ControlPlane is the controllers and kubelet of one test. */
export interface ControlPlane {
  stop(): Promise<void>;
}

/** startControlPlane runs both controllers in one Manager and a fake kubelet. */
export async function startControlPlane(cluster: TestCluster, kubelet: Omit<FakeKubeletOptions, 'client'> = {}): Promise<ControlPlane> {
  const client = createKubeClient({ server: cluster.url, userAgent: 'kube-controller-manager/test' });
  // Quiet by default: optimistic-concurrency 409s are routine and would drown the report.
  const level = (process.env['KUBESIM_TEST_LOG_LEVEL'] as LogLevel | undefined) ?? 'silent';
  const logger = createLogger({ component: 'kube-controller-manager', level });
  const manager = createManager({ client, clock: createRealClock(), logger, component: 'kube-controller-manager' });
  registerReplicaSetController(manager);
  registerDeploymentController(manager);
  const abort = new AbortController();
  const running = manager.start(abort.signal);
  const fakeKubelet = await startFakeKubelet({ ...kubelet, client });
  return {
    async stop() {
      abort.abort();
      await Promise.all([running, fakeKubelet.stop()]);
      client.close();
    },
  };
}

/** DeploymentOptions shape deploymentManifest. */
export interface DeploymentOptions {
  replicas?: number;
  image?: string;
  strategy?: Deployment['spec']['strategy'];
  revisionHistoryLimit?: number;
  progressDeadlineSeconds?: number;
  paused?: boolean;
  annotations?: Record<string, string>;
}

/** deploymentManifest is a Deployment `name` selecting app=<name>, one nginx container. */
export function deploymentManifest(name: string, options: DeploymentOptions = {}): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default', annotations: options.annotations },
    spec: {
      replicas: options.replicas ?? 3,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'nginx', image: options.image ?? 'nginx:1.25' }] } },
      strategy: options.strategy,
      revisionHistoryLimit: options.revisionHistoryLimit,
      progressDeadlineSeconds: options.progressDeadlineSeconds,
      paused: options.paused,
    },
  };
}

/** expectRolledOut asserts what `kubectl rollout status` needs to print "successfully rolled
 * out": spec observed, every replica updated and available, no old replica left. */
export function expectRolledOut(d: Deployment): void {
  const replicas = d.spec.replicas ?? 1;
  expect(d.status?.observedGeneration).toBe(d.metadata.generation);
  expect(d.status?.updatedReplicas ?? 0).toBe(replicas);
  expect(d.status?.replicas ?? 0).toBe(replicas);
  expect(d.status?.availableReplicas ?? 0).toBe(replicas);
}

/** controlledBy keeps the objects whose controller reference is `owner`. */
export function controlledBy<T extends { metadata: { ownerReferences?: Array<{ uid: string; controller?: boolean }> } }>(
  items: T[],
  owner: { metadata: { uid?: string } },
): T[] {
  return items.filter((item) => item.metadata.ownerReferences?.some((ref) => ref.controller && ref.uid === owner.metadata.uid));
}

/** ClusterView is what an invariant sees after each event. */
export interface ClusterView {
  pods: ReadonlyArray<DeepReadonly<Pod>>;
  replicaSets: ReadonlyArray<DeepReadonly<ReplicaSet>>;
}

/** InvariantTracker checks an invariant after every pod and ReplicaSet watch event. */
export interface InvariantTracker {
  /** Descriptions of every event after which the invariant failed. */
  readonly violations: string[];
  /** Events seen so far. */
  readonly events: number;
  stop(): Promise<void>;
}

/**
 * trackInvariant watches pods and ReplicaSets in `namespace` and, after every event (the
 * caches already updated), calls `check`; a returned string is a violation. Resolves once
 * both caches synced, so events from then on are all checked.
 */
export async function trackInvariant(client: KubeClient, namespace: string, check: (view: ClusterView) => string | undefined): Promise<InvariantTracker> {
  const clock = createRealClock();
  const pods = createInformer({ client: client.resource(podDefinition), namespace, clock, logger: silentLogger });
  const rss = createInformer({ client: client.resource(replicaSetDefinition), namespace, clock, logger: silentLogger });
  const tracker = { violations: [] as string[], events: 0 };
  const inspect = (what: string) => () => {
    if (!pods.hasSynced() || !rss.hasSynced()) return;
    tracker.events += 1;
    const problem = check({ pods: pods.lister.list(namespace), replicaSets: rss.lister.list(namespace) });
    if (problem) tracker.violations.push(`after ${what} event #${tracker.events}: ${problem}`);
  };
  pods.addEventHandlers({ onAdd: inspect('pod'), onUpdate: inspect('pod'), onDelete: inspect('pod') });
  rss.addEventHandlers({ onAdd: inspect('replicaset'), onUpdate: inspect('replicaset'), onDelete: inspect('replicaset') });
  const abort = new AbortController();
  const running = Promise.all([pods.start(abort.signal), rss.start(abort.signal)]).catch((err: unknown) => {
    if (!isAbortError(err)) throw err;
  });
  await Promise.all([pods.waitForSync(abort.signal), rss.waitForSync(abort.signal)]);
  return {
    get violations() {
      return tracker.violations;
    },
    get events() {
      return tracker.events;
    },
    async stop() {
      abort.abort();
      await running;
    },
  };
}

/** isAvailablePod: Running, Ready, not being deleted (minReadySeconds 0). */
export function isAvailablePod(pod: DeepReadonly<Pod>): boolean {
  const ready = pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
  return ready && pod.status?.phase === 'Running' && pod.metadata.deletionTimestamp === undefined;
}
