/**
 * runControllers runs one or more built-in control loops in this process against an API
 * server, until `signal` aborts. One manager (shared informers, one event recorder) serves
 * them all, each loop hosted on its own (runtime/loop-host.ts: one loop can be stopped,
 * started or killed alone); with leader election, only the holder of the Lease acts.
 */
import { createRealClock } from '../apiserver/api/machinery/clock.js';
import type { Random } from '../apiserver/api/machinery/random.js';
import type { ClusterCaFiles } from '../apiserver/api/pki/cluster-ca.js';
import { CONTROLLERS, type ControllerName, componentName } from './catalog.js';
import { createKubeClient, type KubeClient, type KubeClientOptions } from './runtime/client/http-client.js';
import type { ClientTls } from './runtime/client/http-transport.js';
import { processIdentity } from './runtime/leader-election.js';
import { createLogger, type LogLevel } from './runtime/logger.js';
import { LOOP_SERVICE_ACCOUNTS, loopClient } from './runtime/loop-credentials.js';
import { LoopHost } from './runtime/loop-host.js';
import { createManager, type Manager } from './runtime/manager.js';
import type { Clock, Logger } from './runtime/types.js';

export interface RunControllersOptions {
  server: string;
  token?: string;
  /** The CA and client certificate of an https server (KubeconfigTarget.tls). */
  tls?: ClientTls;
  names: ControllerName[];
  clock?: Clock;
  logger?: Logger;
  logLevel?: LogLevel;
  leaderElect?: boolean;
  /** This process's randomness (seeded for a deterministic cluster); the platform's when absent. */
  random?: Random;
  /** The cluster CA's files, for the CSR signer and the root CA publisher. */
  clusterCa?: ClusterCaFiles;
  /** The service-account signing key's file, for the token controller. */
  serviceAccountKeyFile?: string;
  /** Called once the controllers are registered (before they start), e.g. to read their
   * activity or to stop and start one loop of the process. */
  onStarted?: (manager: Manager, loops: LoopHost) => void;
  /** kube-controller-manager's --use-service-account-credentials: each loop acts as its own
   * service account in kube-system, with a token it requests (using `token`) and renews
   * (runtime/loop-credentials.ts). Off by default: only a server that authenticates tells
   * the loops apart. */
  serviceAccountCredentials?: boolean;
  signal: AbortSignal;
}

export async function runControllers(options: RunControllersOptions): Promise<void> {
  const component = componentName(options.names);
  const clock = options.clock ?? createRealClock();
  const logger = options.logger ?? createLogger({ component, level: options.logLevel ?? 'info', clock });
  // The User-Agent's product names this process in managedFields (kubesim-hpa-controller,
  // kubesim-controller-manager), so it must not repeat the prefix.
  const product = component.startsWith('kubesim-') ? component : `kubesim-${component}`;
  const client = createKubeClient({ server: options.server, token: options.token, tls: options.tls, userAgent: `${product}/0.1`, logger });
  const identity = processIdentity();
  const manager = createManager({
    client,
    clock,
    logger,
    component,
    random: options.random,
    clusterCa: options.clusterCa,
    serviceAccountKeyFile: options.serviceAccountKeyFile,
    // One Lease per set of loops, named as the process: kubesim-replicaset-controller, kubesim-controller-manager.
    leaderElection: options.leaderElect ? { name: product, identity } : undefined,
  });
  const perLoop = options.serviceAccountCredentials
    ? await clientsPerLoop(client, options.names, clock, { server: options.server, tls: serverTrustOnly(options.tls), userAgent: `${product}/0.1`, logger })
    : undefined;
  const loops = new LoopHost(manager, (loop) => perLoop?.get(loop));
  for (const name of options.names) await loops.add(name, CONTROLLERS[name].register);
  manager.add(loops);
  options.onStarted?.(manager, loops);
  logger.info({ controllers: options.names, leaderElect: !!options.leaderElect }, 'starting');
  try {
    await manager.start(options.signal);
  } finally {
    client.close();
    for (const loopClient of perLoop?.values() ?? []) loopClient.close();
    logger.info({}, 'stopped');
  }
}

/** serverTrustOnly keeps what verifies the server and drops the client certificate: a loop
 * presenting the process's certificate would authenticate as the process (client
 * certificates come first in the chain), not as its service account. */
function serverTrustOnly(tls: ClientTls | undefined): ClientTls | undefined {
  return tls && { ca: tls.ca, insecureSkipVerify: tls.insecureSkipVerify };
}

/** clientsPerLoop gives every loop a client authenticated as its own service account (the
 * token controller keeps the process's client). */
async function clientsPerLoop(
  client: KubeClient,
  names: ControllerName[],
  clock: Clock,
  options: Omit<KubeClientOptions, 'token'>,
): Promise<Map<string, KubeClient>> {
  // One after the other: a seeded cluster then creates the service accounts (and draws their
  // uids) in the same order on every run.
  const clients = new Map<string, KubeClient>();
  for (const name of names) if (LOOP_SERVICE_ACCOUNTS[name]) clients.set(name, await loopClient(client, name, clock, options));
  return clients;
}
