/**
 * startBatchCluster: a real API server with kubelet-sim (2 nodes), the scheduler and the
 * given controllers, all in this process on one fast real clock — what the Job and CronJob
 * integration tests run against. `startControllers` starts another set (with its own stop)
 * for tests that stop and restart a loop. A describe block that wants one for all its tests
 * passes batchClusterOptions to useTestCluster.
 */

import { createRealClock, type RealClock } from '../../apiserver/api/machinery/clock.js';
import type { ControllerName } from '../../controllers/catalog.js';
import type { KubeClient } from '../../controllers/runtime/client/http-client.js';
import type { TestCluster } from './test-cluster.js';
import { type ClusterWithOptions, type RunningControllers, startClusterWith } from './use-test-cluster.js';

/** BatchCluster is a running cluster; stop() ends every component and the server. */
export interface BatchCluster {
  cluster: TestCluster;
  client: KubeClient;
  clock: RealClock;
  startControllers(names: ControllerName[]): RunningControllers;
  stop(): Promise<void>;
}

/** clockAt returns a real clock at `speed` whose cluster time is `nowMs` at this moment. */
export function clockAt(nowMs: number, speed: number): RealClock {
  if (speed === 1) return createRealClock({ speed, originMs: nowMs });
  const wall = Date.now();
  return createRealClock({ speed, originMs: (nowMs - wall * speed) / (1 - speed) });
}

/** batchClusterOptions are the useTestCluster options of a batch cluster running `names` on `clock`. */
export function batchClusterOptions(options: { names: ControllerName[]; clock: RealClock }): ClusterWithOptions {
  return { realClock: options.clock, userAgent: 'batch-test/0.1', nodes: 2, kubelet: { recordEvents: false }, controllers: options.names, scheduler: true };
}

/** startBatchCluster starts the cluster (controllers `names` run until stop()). */
export async function startBatchCluster(options: { names: ControllerName[]; clock: RealClock }): Promise<BatchCluster> {
  const handle = await startClusterWith(batchClusterOptions(options));
  return { cluster: handle.testCluster, client: handle.client, clock: handle.clock, startControllers: handle.startControllers, stop: handle.stop };
}
