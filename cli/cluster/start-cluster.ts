/**
 * startCluster runs a whole kubesim cluster inside the calling process, for tests: the API
 * server on 127.0.0.1:0 over an in-memory store, the built-in loops, the scheduler and the
 * simulated nodes, all on one cluster clock. The loops still talk HTTP to the server, as they
 * do as separate processes, each with its own identity (a client certificate from the
 * cluster CA: system:kube-controller-manager, system:kube-scheduler, system:node:<name>; with
 * serviceAccountCredentials, each control loop its own service-account token), over
 * in-memory connections instead of TLS ones (apiserver/in-process-endpoint.ts; clients of other
 * processes, kubectl, use HTTPS); only the process boundary is gone, so many clusters fit in
 * one test process and each starts in a fraction of a second. The CA and the certificates are
 * made once per process.
 *
 *   start: API server ─► loops, scheduler, kubelet ─► settle ─► capture the baseline ─► ready
 *   stop:  abort every loop ─► wait for them ─► close the server ─► remove the temp dir
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ClusterClock, createClusterClock } from '../../apiserver/api/machinery/cluster-clock.js';
import { createRandom } from '../../apiserver/api/machinery/random.js';
import { ADMIN_IDENTITY, type ClientIdentity, CONTROLLER_MANAGER_IDENTITY, SCHEDULER_IDENTITY } from '../../apiserver/api/pki/issue.js';
import { serveInProcess } from '../../apiserver/in-process-endpoint.js';
import { createResetter, type Resetter } from '../../apiserver/kubesim/reset.js';
import { type RunningApiServer, startApiServer } from '../../apiserver/start-api-server.js';
import { runControllers } from '../../controllers/run-controllers.js';
import type { ClientTls } from '../../controllers/runtime/client/http-transport.js';
import { createLogger } from '../../controllers/runtime/logger.js';
import type { Manager } from '../../controllers/runtime/manager.js';
import { startKubelet } from '../../kubelet-sim/index.js';
import { nodeCredentials } from '../../kubelet-sim/node-credentials.js';
import { runScheduler, type Scheduler } from '../../scheduler/index.js';
import { serverKubeconfig } from '../kubeconfig.js';
import type { Cluster } from './cluster.js';
import { type ResolvedOptions, resolveOptions, type StartClusterOptions } from './options.js';

/** startCluster starts a cluster (see the module comment) and resolves once it has settled. */
export async function startCluster(options: StartClusterOptions = {}): Promise<Cluster> {
  const resolved = resolveOptions(options);
  const clock = createClusterClock({ mode: resolved.mode, speed: resolved.speed, startMs: resolved.startMs });
  const random = createRandom(resolved.seed);
  const server = await startApiServer({
    host: '127.0.0.1',
    port: 0,
    clock,
    random: random.fork('apiserver'),
    logger: createLogger({ component: 'apiserver', level: resolved.logLevel, clock }),
    // Admission that relies on a loop acts as in a real cluster when that loop runs.
    clusterLoops: resolved.controllers,
    audit: resolved.audit,
    store: resolved.store,
    ...(resolved.insecure ? {} : { tls: true, security: { authorization: 'RBAC', anonymous: true } }),
  });
  // The loops, the scheduler and the kubelets reach it in memory (in-process-endpoint.ts).
  const withdraw = serveInProcess(server);
  const stopping = new AbortController();
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-cluster-'));
  let running: Promise<void>[] = [];
  try {
    running = await startComponents(server, clock, resolved, stopping.signal);
    await server.control.settle({ timeoutMs: 10_000, quietMs: 10 });
  } catch (err) {
    stopping.abort();
    await Promise.allSettled(running);
    withdraw();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  // Between two due times of an advance, time stands still: transitions not yet due cannot
  // happen, so only work already under way counts.
  clock.setStepHook(async () => void (await server.control.settle({ quietMs: 2, countTransitions: false })));
  const resetter = createResetter(server.store, server.control);
  resetter.capture();
  server.control.reset = () => resetter.reset();
  const kubeconfig = await serverKubeconfig(server);
  return clusterHandle({ server, kubeconfig, clock, dir, stopping, running, resetter, withdraw });
}

/** startComponents starts the loops in this process; resolves with their run promises. */
async function startComponents(server: RunningApiServer, clock: ClusterClock, options: ResolvedOptions, signal: AbortSignal): Promise<Promise<void>[]> {
  const { board } = server.control;
  const logger = (component: string) => createLogger({ component, level: options.logLevel, clock });
  const random = createRandom(options.seed);
  const running: Promise<void>[] = [];
  const tlsOf = (identity: ClientIdentity) => componentTls(server, identity);
  // A component that fails later is logged; one that fails while starting fails startCluster.
  const track = (component: string, run: Promise<void>): Promise<void> => {
    running.push(run.catch((err: unknown) => logger(component).error({ err }, `${component} stopped with an error`)));
    return run;
  };
  if (options.controllers.length > 0) {
    const component = 'kube-controller-manager';
    const tls = await tlsOf(CONTROLLER_MANAGER_IDENTITY);
    const manager = await whenRegistered<Manager>((onStarted) =>
      track(
        component,
        runControllers({
          server: server.url,
          tls,
          names: options.controllers,
          // Off by default: per-loop tokens cost a start 21 service accounts and token requests.
          serviceAccountCredentials: options.serviceAccountCredentials,
          clock,
          random: random.fork(component),
          clusterCa: server.clusterCa,
          serviceAccountKeyFile: server.serviceAccountKeyFile,
          logger: logger(component),
          signal,
          onStarted,
        }),
      ),
    );
    board.register(component, () => ({ component, loops: manager.activity() }));
    await settleWhenSeeded(server, options);
  }
  if (options.scheduler) {
    const component = 'default-scheduler';
    const tls = await tlsOf(SCHEDULER_IDENTITY);
    const scheduler = await whenRegistered<Scheduler>((onStarted) =>
      track(component, runScheduler({ server: server.url, tls, clock, random: random.fork(component), logger: logger(component), signal, onStarted })),
    );
    board.register(component, () => ({ component, loops: [scheduler.activity()] }));
    await settleWhenSeeded(server, options);
  }
  if (options.nodes > 0) {
    // The shared pod cache reads as the admin; each node writes as itself.
    const tls = await tlsOf(ADMIN_IDENTITY);
    const nodeTls = tls && nodeCredentials(server.clusterCa, (identity) => server.clientCertificate(identity));
    const kubelet = await startKubelet({
      server: server.url,
      tls,
      nodeTls,
      nodes: options.nodes,
      userland: options.userland,
      clock,
      random: random.fork('kubelet'),
      logger: logger('kubelet'),
      signal,
    });
    board.register('kubelet', () => ({ component: 'kubelet', loops: kubelet.activity() }));
    running.push(kubelet.done);
  }
  return running;
}

/** settleWhenSeeded lets a component's start-up work finish before the next component starts,
 * in deterministic mode: their writes then come in the same order on every run, whatever the
 * speed of the machine or of the connections. */
async function settleWhenSeeded(server: RunningApiServer, options: ResolvedOptions): Promise<void> {
  if (options.seed !== undefined) await server.control.settle({ timeoutMs: 10_000, quietMs: 2, countTransitions: false });
}

/** componentTls is an in-process component's credentials: the CA and a client certificate for
 * `identity` (none for a plain-http server). */
async function componentTls(server: RunningApiServer, identity: ClientIdentity): Promise<ClientTls | undefined> {
  if (!server.url.startsWith('https:')) return undefined;
  const pair = await server.clientCertificate(identity);
  return { ca: server.clusterCa.certPem, cert: pair.certPem, key: pair.keyPem };
}

/**
 * whenRegistered resolves with the handle a component passes to its onStarted callback (once its
 * loops are registered, so the settle that follows sees them), or rejects if the component
 * fails before that.
 */
function whenRegistered<T>(start: (onStarted: (handle: T) => void) => Promise<void>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    start(resolve).then(() => reject(new Error('the component stopped before it started')), reject);
  });
}

interface HandleParts {
  server: RunningApiServer;
  kubeconfig: string;
  clock: ClusterClock;
  dir: string;
  stopping: AbortController;
  running: Promise<void>[];
  resetter: Resetter;
  withdraw: () => void;
}

/** clusterHandle is the Cluster a test holds. */
function clusterHandle({ server, kubeconfig, clock, dir, stopping, running, resetter, withdraw }: HandleParts): Cluster {
  const kubeconfigPath = join(dir, 'kubeconfig');
  writeFileSync(kubeconfigPath, kubeconfig);
  let stopped: Promise<void> | undefined;
  return {
    url: server.url,
    kubeconfig,
    kubeconfigPath,
    clock,
    faults: server.faults,
    server,
    settle: (settleOptions) => server.control.settle(settleOptions),
    reset: () => resetter.reset(),
    markBaseline: () => resetter.capture(),
    track: (name, activity) =>
      server.control.board.register(name, () => {
        const loops = activity();
        return { component: name, loops: Array.isArray(loops) ? loops : [loops] };
      }),
    snapshot: () => server.store.exportObjects(),
    async restore(snapshot) {
      const result = server.store.restoreObjects(snapshot);
      await server.control.settle();
      return result;
    },
    stop() {
      stopped ??= (async () => {
        clock.setStepHook(undefined);
        stopping.abort();
        await Promise.allSettled(running);
        withdraw();
        await server.close();
        rmSync(dir, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
}
