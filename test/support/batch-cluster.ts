/**
 * startBatchCluster: a real API server with kubelet-sim (2 nodes), the scheduler and the
 * given controllers, all in this process on one fast real clock — what the Job and CronJob
 * integration tests run against. `startControllers` starts another set (with its own stop)
 * for tests that stop and restart a loop.
 */

import type { ControllerName } from '../../controllers/catalog.js';
import { runControllers } from '../../controllers/run-controllers.js';
import { createKubeClient, type KubeClient } from '../../controllers/runtime/client/http-client.js';
import { createRealClock, type RealClock } from '../../controllers/runtime/clock.js';
import { silentLogger } from '../../controllers/runtime/logger.js';
import { startKubelet } from '../../kubelet-sim/kubelet.js';
import { runScheduler } from '../../scheduler/main.js';
import { startTestCluster, type TestCluster } from './test-cluster.js';

/** BatchCluster is a running cluster; stop() ends every component and the server. */
export interface BatchCluster {
  cluster: TestCluster;
  client: KubeClient;
  clock: RealClock;
  startControllers(names: ControllerName[]): { stop(): Promise<void> };
  stop(): Promise<void>;
}

/** clockAt returns a real clock at `speed` whose cluster time is `nowMs` at this moment. */
export function clockAt(nowMs: number, speed: number): RealClock {
  if (speed === 1) return createRealClock({ speed, originMs: nowMs });
  const wall = Date.now();
  return createRealClock({ speed, originMs: (nowMs - wall * speed) / (1 - speed) });
}

/** startBatchCluster starts the cluster (controllers `names` run until stop()). */
export async function startBatchCluster(options: { names: ControllerName[]; clock: RealClock }): Promise<BatchCluster> {
  const { clock } = options;
  const cluster = await startTestCluster({ now: () => clock.now() });
  const client = createKubeClient({ server: cluster.url, userAgent: 'batch-test/0.1' });
  const stopAll = new AbortController();
  const kubelet = await startKubelet({ server: cluster.url, nodes: 2, clock, logger: silentLogger, recordEvents: false, signal: stopAll.signal });
  const running: Array<Promise<unknown>> = [kubelet.done, runScheduler({ server: cluster.url, clock, logger: silentLogger, signal: stopAll.signal })];
  const startControllers = (names: ControllerName[]) => {
    const stop = new AbortController();
    const done = runControllers({ server: cluster.url, names, clock, logger: silentLogger, signal: stop.signal });
    running.push(done);
    return {
      stop: async () => {
        stop.abort();
        await done;
      },
    };
  };
  const main = startControllers(options.names);
  return {
    cluster,
    client,
    clock,
    startControllers,
    async stop() {
      await main.stop();
      stopAll.abort();
      await Promise.allSettled(running);
      client.close();
      await cluster.stop();
    },
  };
}
