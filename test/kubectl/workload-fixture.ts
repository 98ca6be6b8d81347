/**
 * Setup for the kubectl workload suites: the kubectl fixture's cluster plus, in this process,
 * what turns Deployments into running pods — the ReplicaSet, Deployment and garbage-collector
 * controllers (one manager, as `kubesim up` runs them) and the fake kubelet. The kubelet can
 * hold pods of one image unready, so a rollout stops half-way until the test releases it.
 */
import { afterAll, beforeAll } from 'vitest';
import { runControllers } from '../../controllers/run-controllers.js';
import { createKubeClient } from '../../controllers/runtime/client/http-client.js';
import type { LogLevel } from '../../controllers/runtime/logger.js';
import { type FakeKubelet, startFakeKubelet } from '../support/fake-kubelet.js';
import type { KubectlBinary } from '../support/kubectl.js';
import type { TestCluster } from '../support/test-cluster.js';
import { type KubectlFixture, useKubectlCluster } from './fixture.js';

/** WorkloadFixture is a KubectlFixture whose cluster runs workloads. */
export interface WorkloadFixture extends KubectlFixture {
  /** The minor version of the kubectl that actually runs: a dispatcher execs the binary
   * matching the server's minor, so this can differ from `binary.minor`. */
  clientMinor(): number;
  /** From now on the kubelet reports pods running `image` as Running but not Ready. */
  holdReadiness(image: string): void;
  /** Lets held pods become Ready: the kubelet restarts and reports every pod afresh. */
  releaseReadiness(): Promise<void>;
}

/** useWorkloadCluster starts the cluster, the controllers and the kubelet in beforeAll and
 * stops them in afterAll. */
export function useWorkloadCluster(binary: KubectlBinary): WorkloadFixture {
  const k = useKubectlCluster(binary);
  let plane: WorkloadPlane | undefined;
  let clientMinor = Number.NaN;
  beforeAll(async () => {
    plane = await startWorkloadPlane(k.cluster());
    const version = JSON.parse((await k.ok(['version', '-o', 'json'])).stdout) as { clientVersion: { minor: string } };
    clientMinor = Number.parseInt(version.clientVersion.minor, 10);
  });
  afterAll(async () => {
    await plane?.stop();
  });
  const current = () => {
    if (!plane) throw new Error('the workload control plane is not running');
    return plane;
  };
  return {
    ...k,
    clientMinor: () => clientMinor,
    holdReadiness: (image) => current().hold(image),
    releaseReadiness: () => current().release(),
  };
}

/** WorkloadPlane is the controllers and kubelet of one cluster. */
interface WorkloadPlane {
  hold(image: string): void;
  release(): Promise<void>;
  stop(): Promise<void>;
}

async function startWorkloadPlane(cluster: TestCluster): Promise<WorkloadPlane> {
  const abort = new AbortController();
  // Quiet by default: optimistic-concurrency 409s are routine and would drown the report.
  const logLevel = (process.env['KUBESIM_TEST_LOG_LEVEL'] as LogLevel | undefined) ?? 'silent';
  const controllers = runControllers({ server: cluster.url, names: ['replicaset', 'deployment', 'garbage-collector'], signal: abort.signal, logLevel });
  const client = createKubeClient({ server: cluster.url, userAgent: 'kubelet/test' });
  let held: string | undefined;
  const startKubelet = () => startFakeKubelet({ client, isReady: (pod) => !pod.spec.containers.some((container) => container.image === held) });
  let kubelet: FakeKubelet = await startKubelet();
  return {
    hold(image) {
      held = image;
    },
    // The fake kubelet only looks at a pod when it changes; a fresh one lists them all.
    async release() {
      held = undefined;
      await kubelet.stop();
      kubelet = await startKubelet();
    },
    async stop() {
      abort.abort();
      await Promise.all([controllers, kubelet.stop()]);
      client.close();
    },
  };
}
