/**
 * Builders for the Deployment controller's unit tests: the smallest Deployments and
 * ReplicaSets the pure functions need, in the shapes Kubernetes' own tests use (newDeployment,
 * rs). Test-only; nothing in the controller imports it.
 */
import type { Deployment } from '../../../apiserver/api/apps/deployment.js';
import type { ReplicaSet } from '../../../apiserver/api/apps/replica-set.js';
import type { IntOrString } from '../../../apiserver/api/machinery/int-or-percent.js';

/** DeploymentFixtureOptions are the knobs of deploymentFixture. */
export interface DeploymentFixtureOptions {
  name?: string;
  replicas?: number;
  maxSurge?: IntOrString;
  maxUnavailable?: IntOrString;
  strategy?: 'RollingUpdate' | 'Recreate';
  revisionHistoryLimit?: number;
  progressDeadlineSeconds?: number;
  paused?: boolean;
  generation?: number;
  image?: string;
}

/** deploymentFixture is a RollingUpdate Deployment selecting `app=<name>` with maxSurge and
 * maxUnavailable 0 unless given (Kubernetes' newDeployment defaults). */
export function deploymentFixture(options: DeploymentFixtureOptions = {}): Deployment {
  const name = options.name ?? 'foo';
  const strategy = options.strategy ?? 'RollingUpdate';
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, generation: options.generation ?? 1, annotations: {} },
    spec: {
      replicas: options.replicas ?? 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image: options.image ?? 'nginx:1.25' }] },
      },
      strategy:
        strategy === 'Recreate'
          ? { type: 'Recreate' }
          : { type: 'RollingUpdate', rollingUpdate: { maxSurge: options.maxSurge ?? 0, maxUnavailable: options.maxUnavailable ?? 0 } },
      revisionHistoryLimit: options.revisionHistoryLimit,
      progressDeadlineSeconds: options.progressDeadlineSeconds,
      paused: options.paused,
    },
    status: {},
  };
}

/** ReplicaSetFixtureOptions are the knobs of replicaSetFixture. */
export interface ReplicaSetFixtureOptions {
  replicas: number;
  /** status.replicas; defaults to `replicas`. */
  statusReplicas?: number;
  /** status.availableReplicas; defaults to 0 (as Kubernetes' rs() helper leaves it). */
  available?: number;
  created?: string;
  annotations?: Record<string, string>;
  image?: string;
  generation?: number;
  observedGeneration?: number;
  deleting?: boolean;
}

/** replicaSetFixture is a ReplicaSet named `name` with the given sizes. */
export function replicaSetFixture(name: string, options: ReplicaSetFixtureOptions): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      creationTimestamp: options.created ?? '2016-05-20T00:00:00Z',
      annotations: { ...options.annotations },
      generation: options.generation ?? 1,
      ...(options.deleting ? { deletionTimestamp: '2016-05-21T00:00:00Z' } : {}),
    },
    spec: {
      replicas: options.replicas,
      selector: { matchLabels: { app: 'foo' } },
      template: { metadata: { labels: { app: 'foo' } }, spec: { containers: [{ name: 'app', image: options.image ?? 'nginx:1.25' }] } },
    },
    status: {
      replicas: options.statusReplicas ?? options.replicas,
      availableReplicas: options.available ?? 0,
      observedGeneration: options.observedGeneration ?? options.generation ?? 1,
    },
  };
}
