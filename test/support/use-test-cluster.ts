/**
 * useTestCluster is how a test file gets a cluster: called in a describe block (or at the top
 * of a file), it registers the hooks that start a real API server (port 0) before the tests
 * and stop it after them, and returns a handle whose fields (`url`, `client`, `clock`, ...)
 * read the running cluster. Options add what the tests need around the server: a kubelet-sim
 * with simulated nodes, controllers and the scheduler, all in this process on one clock.
 *
 *   const cluster = useTestCluster({ lifetime: 'file', speed: 20, nodes: 2, controllers: ['replicaset'], scheduler: true });
 *   it('...', async () => { await cluster.client.resource(podDefinition).list(); });
 *
 * `startClusterWith` is the same without hooks, for a test that starts a cluster of its own.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { createRealClock, type RealClock } from '../../apiserver/api/machinery/clock.js';
import type { RunningApiServer } from '../../apiserver/start-api-server.js';
import type { ControllerName } from '../../controllers/catalog.js';
import { runControllers } from '../../controllers/run-controllers.js';
import { createKubeClient, type KubeClient } from '../../controllers/runtime/client/http-client.js';
import { parseKubeconfig } from '../../controllers/runtime/client/kubeconfig.js';
import { createLogger, type LogLevel, silentLogger } from '../../controllers/runtime/logger.js';
import { type KubeletOptions, type RunningKubelet, startKubelet } from '../../kubelet-sim/kubelet.js';
import { nodeCredentials } from '../../kubelet-sim/node-credentials.js';
import { runScheduler } from '../../scheduler/main.js';
import { startTestCluster, type TestCluster, type TestClusterOptions } from './test-cluster.js';

export interface ClusterWithOptions extends TestClusterOptions {
  /** User-Agent of `client` (default `kubesim-test/0.1`). */
  userAgent?: string;
  /** Bearer token `client` sends. */
  token?: string;
  /** The components' clock; the API server's `now` follows it unless `now` is given. */
  realClock?: RealClock;
  /** Shorthand for `realClock: createRealClock({ speed })`. */
  speed?: number;
  /** Simulated nodes of a kubelet-sim started in this process (none when absent). */
  nodes?: number;
  /** The kubelet-sim's log level ('silent' by default) and other options. */
  kubelet?: Omit<KubeletOptions, 'server' | 'nodes' | 'clock' | 'signal' | 'logger'> & { logLevel?: LogLevel };
  /** Controllers run in this process until the cluster stops. */
  controllers?: ControllerName[];
  /** Run the default scheduler. */
  scheduler?: boolean;
}

export interface UseTestClusterOptions extends ClusterWithOptions {
  /** 'test' (default): a fresh cluster for every test (beforeEach/afterEach). 'file': one
   * cluster for the enclosing describe block, or the file at top level (beforeAll/afterAll). */
  lifetime?: 'test' | 'file';
}

/** Controllers started by startControllers, stopped on their own or with the cluster. */
export interface RunningControllers {
  stop(): Promise<void>;
}

/** ClusterHandle is a running cluster with what the options added. */
export interface ClusterHandle {
  readonly url: string;
  readonly kubeconfig: string;
  readonly kubeconfigPath: string;
  /** A private directory (kubectl cache, data dir), removed on stop. */
  readonly dir: string;
  readonly server: RunningApiServer;
  /** The underlying TestCluster (for helpers that take one). */
  readonly testCluster: TestCluster;
  /** A client for the test's own calls, closed on stop. */
  readonly client: KubeClient;
  /** The components' clock (a real clock at speed 1 unless `speed`/`realClock` said otherwise). */
  readonly clock: RealClock;
  /** The kubelet-sim; only when `nodes` was given. */
  readonly kubelet: RunningKubelet;
  /** defer registers a cleanup run when the cluster stops (newest first), before the server closes. */
  defer(cleanup: () => unknown): void;
  /** startControllers runs another set of controllers on the cluster's clock. */
  startControllers(names: ControllerName[]): RunningControllers;
  stop(): Promise<void>;
}

/** startClusterWith starts the API server and the components the options ask for. */
export async function startClusterWith(options: ClusterWithOptions = {}): Promise<ClusterHandle> {
  const { userAgent, token, realClock, speed, nodes, kubelet: kubeletOptions, controllers, scheduler, ...serverOptions } = options;
  const clock = realClock ?? createRealClock({ speed: speed ?? 1 });
  const followsClock = realClock !== undefined || speed !== undefined;
  const cluster = await startTestCluster(followsClock && !serverOptions.now ? { ...serverOptions, now: () => clock.now() } : serverOptions);
  // The admin credentials of an https cluster (tls: true), for the client and the components;
  // each simulated node presents a certificate of its own.
  const tls = parseKubeconfig(cluster.kubeconfig, cluster.kubeconfigPath).tls;
  const cleanups: Array<() => unknown> = [];
  const defer = (cleanup: () => unknown) => void cleanups.push(cleanup);
  let client: KubeClient | undefined;
  let kubelet: RunningKubelet | undefined;
  const components = new AbortController();
  const running: Array<Promise<unknown>> = [];
  // Registered first, so it runs after the test's own cleanups: the kubelet, the controllers
  // and the scheduler stop (a failure of one surfaces here), then the client and the server.
  defer(async () => {
    components.abort();
    await Promise.all(running);
  });
  const startControllers = (names: ControllerName[]): RunningControllers => {
    const abort = new AbortController();
    const done = runControllers({
      server: cluster.url,
      tls,
      names,
      clock,
      clusterCa: cluster.server.clusterCa,
      logger: silentLogger,
      signal: AbortSignal.any([abort.signal, components.signal]),
    });
    running.push(done);
    return {
      stop: async () => {
        abort.abort();
        await done;
      },
    };
  };
  let stopping: Promise<void> | undefined;
  const stopAll = async () => {
    const errors: unknown[] = [];
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (err) {
        errors.push(err);
      }
    }
    client?.close();
    await cluster.stop();
    if (errors.length > 0) throw errors[0];
  };
  const handle: ClusterHandle = {
    url: cluster.url,
    kubeconfig: cluster.kubeconfig,
    kubeconfigPath: cluster.kubeconfigPath,
    dir: cluster.dir,
    server: cluster.server,
    testCluster: cluster,
    get client() {
      client ??= createKubeClient({ server: cluster.url, token, tls, userAgent: userAgent ?? 'kubesim-test/0.1' });
      return client;
    },
    clock,
    get kubelet() {
      if (!kubelet) throw new Error('this cluster has no kubelet: pass `nodes` to useTestCluster');
      return kubelet;
    },
    defer,
    startControllers,
    stop: () => (stopping ??= stopAll()),
  };
  try {
    if (nodes !== undefined) {
      const { logLevel = 'silent', ...rest } = kubeletOptions ?? {};
      const logger = logLevel === 'silent' ? silentLogger : createLogger({ component: 'kubelet', level: logLevel, clock });
      kubelet = await startKubelet({
        ...rest,
        server: cluster.url,
        tls,
        nodeTls: tls && nodeCredentials(cluster.server.clusterCa),
        nodes,
        clock,
        logger,
        signal: components.signal,
      });
      running.push(kubelet.done);
    }
    if (controllers) startControllers(controllers);
    if (scheduler) running.push(runScheduler({ server: cluster.url, tls, clock, logger: silentLogger, signal: components.signal }));
  } catch (err) {
    await handle.stop();
    throw err;
  }
  return handle;
}

/** useTestCluster registers the hooks that start and stop a cluster (see the module comment)
 * and returns a handle that reads whichever cluster is running. `perStart` adds options made
 * afresh for each start (a new clock per test), evaluated in the hook rather than at collection. */
export function useTestCluster(options: UseTestClusterOptions = {}, perStart?: () => ClusterWithOptions): ClusterHandle {
  const { lifetime = 'test', ...clusterOptions } = options;
  const [before, after] = lifetime === 'file' ? [beforeAll, afterAll] : [beforeEach, afterEach];
  let current: ClusterHandle | undefined;
  before(async () => {
    current = await startClusterWith({ ...clusterOptions, ...perStart?.() });
  });
  after(async () => {
    const stopping = current;
    current = undefined;
    await stopping?.stop();
  });
  const running = (): ClusterHandle => {
    if (!current) throw new Error('the test cluster is not running: use it inside a test or hook of the block that called useTestCluster');
    return current;
  };
  return {
    get url() {
      return running().url;
    },
    get kubeconfig() {
      return running().kubeconfig;
    },
    get kubeconfigPath() {
      return running().kubeconfigPath;
    },
    get dir() {
      return running().dir;
    },
    get server() {
      return running().server;
    },
    get testCluster() {
      return running().testCluster;
    },
    get client() {
      return running().client;
    },
    get clock() {
      return running().clock;
    },
    get kubelet() {
      return running().kubelet;
    },
    defer: (cleanup) => running().defer(cleanup),
    startControllers: (names) => running().startControllers(names),
    stop: () => running().stop(),
  };
}
