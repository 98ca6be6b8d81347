/**
 * startApiServer runs a complete API server: opens the store (memory, or a file in a data
 * dir), bootstraps the cluster, listens, and compacts history periodically. Used by
 * `kubesim up`, the standalone apiserver process and the test cluster.
 */

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '../store/index.js';
import { startPolicyStatusController } from './admission/policy/status-controller.js';
import type { ClusterClock } from './api/machinery/cluster-clock.js';
import { type ClusterCa, loadOrCreateClusterCa } from './api/pki/cluster-ca.js';
import { type ClientIdentity, ensureClientCertificate, type KeyPair, keyPairFiles } from './api/pki/issue.js';
import { loadOrCreateServiceAccountKey, type ServiceAccountKey } from './api/pki/service-account-key.js';
import { fileStemOf, httpsOptions, sharedClientCertificate } from './api/pki/serving.js';
import { startAutoregister } from './apiregistration/autoregister.js';
import type { Authenticator } from './authn/authenticator.js';
import { createTokenService, type TokenService } from './authn/token-service.js';
import { x509Authenticator } from './authn/x509.js';
import { bootstrapCluster } from './bootstrap.js';
import { apiAddressOf, startControlPlaneLoops } from './controlplane/index.js';
import { startDanglingController } from './flowcontrol/dangling-controller.js';
import { serverUrl } from './listen-address.js';
import { type ApiServer, buildServer, type ServerOptions, serverTime } from './server.js';
import { startSharedCluster } from './shared-cluster/index.js';
import { DEFAULT_STORE_SPEC, isSharedStoreSpec, openStoreFromSpec, type StoreSpec } from './store-spec.js';
import { loadOrCreateUiLoginToken, uiLogin } from './ui/ui-login.js';

export interface StartApiServerOptions extends Omit<ServerOptions, 'store'> {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Keep state in <dataDir>/kubesim.db (WAL) and the cluster CA and the service-account key
   * (sa.key, sa.pub) in <dataDir>/pki; in memory
   * (the CA in a temporary folder, removed on close) when absent. */
  dataDir?: string;
  /** Where the cluster CA is kept (created there the first time) when not in <dataDir>/pki:
   * `kubesim up` keeps it in its state folder, so a cluster on a temporary data dir does not
   * make a new CA (and load the X.509 library) at every start. */
  pkiDir?: string;
  compactionIntervalMs?: number;
  /** History retention: at least this many revisions, dropped only when older than historyMaxAgeMs. */
  historyRevisions?: number;
  historyMaxAgeMs?: number;
  /** Undelivered events a watch may queue before it is cut off as too slow (store default 10 000). */
  watchBufferSize?: number;
  /** How often (wall time) the metrics pipeline scrapes the kubelets; 0 turns scraping off.
   * Default: metrics-server's 15 s resolution in cluster time, following the clock's speed. */
  metricsIntervalMs?: number;
  /** kube-apiserver's --token-auth-file: CSV lines `token,user,uid,"group1,group2"`. */
  tokenAuthFile?: string;
  /** --service-account-max-token-expiration in seconds: a longer TokenRequest is shortened to it (none: no limit). */
  serviceAccountMaxTokenExpirationSeconds?: number;
  /** Serve HTTPS with a certificate from the cluster CA (kept in the PKI dir as
   * apiserver.crt/key) and authenticate client certificates from that CA; plain HTTP when
   * false (the default). */
  tls?: boolean;
  /** Where the cluster is kept (`--store`, store-spec.ts): SQLite by default. */
  store?: StoreSpec;
  /** Whether this server is one of several on a shared store: it keeps a Lease in kube-system,
   * the `kubernetes` endpoints list every live server's, and the clock, fault rules and settle
   * are shared through the store (shared-cluster/). Default: true for a store several servers
   * can share (etcd, an instance), false for SQLite. */
  shared?: boolean;
}

/** metrics-server's resolution, in cluster time. */
const METRICS_RESOLUTION_MS = 15_000;
/** The shortest wall interval between scrapes, however fast the clock runs. */
const MIN_SCRAPE_INTERVAL_MS = 250;

export interface RunningApiServer extends ApiServer {
  url: string;
  port: number;
  store: Store;
  /** The cluster CA: its files are what the CSR signer and the root CA publisher read. */
  clusterCa: ClusterCa;
  /** The service-account signing key's file (what the token controller signs with). */
  serviceAccountKeyFile: string;
  /** The live view's login token (`<UI_PATH>?token=…`), on a server that authenticates. */
  uiLoginToken?: string;
  /** A client certificate from the cluster CA for `identity`: kept in the PKI dir (made when
   * missing or expiring), or, for a server without one, made once per process. */
  clientCertificate(identity: ClientIdentity): Promise<KeyPair>;
  close(): Promise<void>;
}

export async function startApiServer(options: StartApiServerOptions = {}): Promise<RunningApiServer> {
  // The data dir holds Secrets in clear: its owner alone may enter it.
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const temporaryPki = options.dataDir || options.pkiDir ? undefined : mkdtempSync(join(tmpdir(), 'kubesim-pki-'));
  const removeTemporaryPki = () => temporaryPki && rmSync(temporaryPki, { recursive: true, force: true });
  const pkiDir = temporaryPki ?? options.pkiDir ?? join(options.dataDir!, 'pki');
  const host = options.host ?? '127.0.0.1';
  let clusterCa: ClusterCa;
  let serviceAccountKey: ServiceAccountKey;
  let https: ServerOptions['https'];
  try {
    clusterCa = await loadOrCreateClusterCa(pkiDir, { shareInProcess: temporaryPki !== undefined });
    serviceAccountKey = loadOrCreateServiceAccountKey(pkiDir, { shareInProcess: temporaryPki !== undefined });
    if (options.tls) https = await httpsOptions(clusterCa, pkiDir, host, temporaryPki !== undefined);
  } catch (err) {
    removeTemporaryPki();
    throw err;
  }
  const clientCertificate = (identity: ClientIdentity) =>
    temporaryPki ? sharedClientCertificate(clusterCa, identity) : ensureClientCertificate(clusterCa, keyPairFiles(pkiDir, fileStemOf(identity)), identity);
  const time = serverTime(options);
  const storeSpec = options.store ?? DEFAULT_STORE_SPEC;
  let opened: Awaited<ReturnType<typeof openStoreFromSpec>>;
  try {
    opened = await openStoreFromSpec(storeSpec, {
      dataDir: options.dataDir,
      // Compaction ages history in cluster time.
      clock: time.now,
      compaction: { keepRevisions: options.historyRevisions ?? 10_000, maxAgeMs: options.historyMaxAgeMs ?? 5 * 60_000 },
      watchBufferSize: options.watchBufferSize,
    });
  } catch (err) {
    removeTemporaryPki();
    throw err;
  }
  const store = opened.store;
  const shared = options.shared ?? isSharedStoreSpec(storeSpec);
  const tokens = createTokenService({
    keyPem: serviceAccountKey.keyPem,
    store,
    now: time.now,
    tokenAuthFile: options.tokenAuthFile,
    maxExpirationSeconds: options.serviceAccountMaxTokenExpirationSeconds,
  });
  // The live view's login (ui-login.ts), on a server that authenticates.
  const uiLoginToken = authenticates(options) ? loadOrCreateUiLoginToken(pkiDir) : undefined;
  const login = uiLoginToken ? uiLogin(uiLoginToken) : undefined;
  const server = buildServer({ ...options, ...time, store, tokens, https, security: securityOf(options, tokens, login?.authenticator) });
  login?.register(server.app);
  let port: number;
  // kube-apiserver's own loops that write objects: started once the bootstrap objects exist.
  const stopLoops: Array<() => void> = [];
  try {
    await server.app.listen({ host, port: options.port ?? 6443 });
    port = (server.app.server.address() as AddressInfo).port;
    bootstrapCluster(server.context);
    const address = apiAddressOf(host, port);
    // On a shared store: this server's Lease, the peers' addresses, the shared clock and faults.
    const sharedCluster = shared ? await startSharedCluster({ server, address, scheme: https ? 'https' : 'http', clientCertificate, clusterCa }) : undefined;
    if (sharedCluster) stopLoops.push(() => sharedCluster.stop());
    // The `kubernetes` Service's endpoints (this address, or every live server's), ServiceCIDRs
    // and IPAddresses; APIServices for the served group-versions; FlowSchemas' Dangling
    // condition; the type checking of ValidatingAdmissionPolicies (their status).
    const controlPlane = startControlPlaneLoops({
      ctx: server.context,
      address,
      logger: server.app.log,
      apiServers: sharedCluster?.apiServers,
    });
    stopLoops.push(
      () => controlPlane.stop(),
      startAutoregister(server.context, server.app.log),
      startDanglingController(server.context, server.app.log),
      startPolicyStatusController(server.context, server.app.log),
    );
  } catch (err) {
    // A server that cannot start must not keep the port or the database file.
    for (const stop of stopLoops) stop();
    await opened.close();
    await server.app.close();
    removeTemporaryPki();
    throw err;
  }
  const compaction = setInterval(() => compactLogged(store, server.app.log), options.compactionIntervalMs ?? 60_000);
  compaction.unref();
  const stopScraping = startScraping(server, options.metricsIntervalMs, time.clock);
  return {
    ...server,
    url: serverUrl(host, port, https ? 'https' : 'http'),
    port,
    store,
    clusterCa,
    serviceAccountKeyFile: serviceAccountKey.keyFile,
    uiLoginToken,
    clientCertificate,
    async close() {
      clearInterval(compaction);
      for (const stop of stopLoops) stop();
      stopScraping();
      server.metrics.stop();
      await opened.close();
      await server.app.close();
      removeTemporaryPki();
    },
  };
}

/** securityOf builds the authenticators, in kube-apiserver's order, when the server
 * authenticates at all (TLS, a `security` or a token file given): client certificates, the
 * given ones, the bearer tokens (the token file's, then service-account tokens), the live
 * view's session. An open server keeps taking any token as a user name. */
function securityOf(options: StartApiServerOptions, tokens: TokenService, uiSession?: Authenticator): ServerOptions['security'] {
  if (!authenticates(options)) return undefined;
  const authenticators = [
    ...(options.tls ? [x509Authenticator()] : []),
    ...(options.security?.authenticators ?? []),
    tokens.authenticator,
    ...(uiSession ? [uiSession] : []),
  ];
  return { ...options.security, authenticators };
}

/** authenticates: the server checks who calls (TLS, a `security` or a token file given). */
function authenticates(options: StartApiServerOptions): boolean {
  return options.tls === true || options.security !== undefined || options.tokenAuthFile !== undefined;
}

/** startScraping starts the metrics rounds: every `intervalMs` when given, else every 15 s of
 * cluster time, re-paced whenever the clock's speed changes. Returns what stops following it. */
function startScraping(server: ApiServer, intervalMs: number | undefined, clock: ClusterClock | undefined): () => void {
  if (intervalMs !== undefined) {
    if (intervalMs > 0) server.metrics.start(intervalMs);
    return () => undefined;
  }
  const wallInterval = (speed: number) => Math.max(MIN_SCRAPE_INTERVAL_MS, METRICS_RESOLUTION_MS / speed);
  server.metrics.start(wallInterval(clock?.state().speed ?? 1));
  return clock ? clock.onChange((state) => server.metrics.start(wallInterval(state.speed))) : () => undefined;
}

/** compactLogged runs one periodic compaction. A store that cannot compact now (an etcd too busy
 * to answer in time) is logged and tried again next period, as kube-apiserver's compactor does:
 * thrown from a timer, the error would end the process. */
function compactLogged(store: Store, log: { warn(fields: object, message: string): void }): void {
  try {
    store.compact();
  } catch (err) {
    log.warn({ err }, 'compaction failed; trying again next period');
  }
}
