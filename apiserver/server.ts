/**
 * buildServer assembles the API server: a fastify instance over a store and a live registry.
 * It never listens and starts no timers; start-api-server.ts does that. Tests use it with
 * `listen({ port: 0 })` or `inject()`.
 */
import type { ServerOptions as HttpsServerOptions } from 'node:https';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Store } from '../store/index.js';
import { AdmissionChain } from './admission/chain.js';
import type { AdmissionPlugin } from './admission/plugin.js';
import { builtInAdmissionPlugins } from './admission/plugins/index.js';
import type { PodSecurityConfiguration } from './admission/plugins/pod-security-config.js';
import { pathNotFound } from './api/api-error.js';
import { componentStatusDefinition } from './api/core/component-status.js';
import { type ClusterClock, createClusterClock } from './api/machinery/cluster-clock.js';
import { scrapeHandler } from './api/machinery/metrics-scrape.js';
import { createRandom, type Random } from './api/machinery/random.js';
import { WatchHandoffLedger } from './api/machinery/watch-handoff.js';
import { processServiceAccountKeyPem } from './api/pki/service-account-key.js';
import { Registry } from './api/registry.js';
import { startCrdController } from './apiextensions/crd-establisher.js';
import { registerAuditId } from './audit/audit-id.js';
import { type AuditOptions, registerAudit } from './audit/register.js';
import { type Authenticator, registerAuthentication } from './authn/authenticator.js';
import { registerIssuerDiscovery } from './authn/issuer-discovery.js';
import { createTokenService, type TokenService } from './authn/token-service.js';
import type { AuthorizationMode } from './authz/authorizer.js';
import { registerAuthorization } from './authz/register.js';
import { upgradeGate } from './authz/upgrade-gate.js';
import { toApiError } from './errors.js';
import { isInjectedError } from './faults/hooks.js';
import { FaultInjector } from './faults/injector.js';
import type { HandlerContext } from './handlers/types.js';
import { registerClockRoutes } from './kubesim/clock-routes.js';
import { type ClusterControl, createClusterControl } from './kubesim/cluster-control.js';
import { registerClusterRoutes } from './kubesim/cluster-routes.js';
import { componentStatusSource } from './kubesim/component-statuses.js';
import { registerFaultRoutes } from './kubesim/fault-routes.js';
import { registerHistoryRoutes } from './kubesim/history-routes.js';
import { registerSnapshotRoutes } from './kubesim/snapshot-routes.js';
import { createMetricsPipeline, type MetricsScraper } from './metrics/index.js';
import { ApiServerMetrics } from './prometheus/apiserver-metrics.js';
import { registerProxy } from './proxy/index.js';
import { registryRandom } from './registry/context.js';
import { registerBrowserGuard } from './request/browser-guard.js';
import { protocolErrorOptions, registerProtocolGuards } from './request/protocol-errors.js';
import { registerDiscoveryRoutes } from './routes/discovery.js';
import { registerOpenApiRoutes } from './routes/openapi.js';
import { registerResourceRoutes } from './routes/resource-routes.js';
import { registerVersionRoutes } from './routes/version.js';
import { serverDefinitions } from './server-definitions.js';
import { registerStreaming } from './streaming/index.js';
import { registerLiveView } from './ui/index.js';

/** Kubernetes' default limit for a request body (3 MiB). */
export const DEFAULT_BODY_LIMIT_BYTES = 3 * 1024 * 1024;

export interface ServerOptions {
  store: Store;
  registry?: Registry;
  /** The cluster clock: every server-set timestamp reads it, and the server serves it under
   * /apis/kubesim.io/v1alpha1/clock. A new real one when neither this nor `now` is given. */
  clock?: ClusterClock;
  /** A test's own time source (e.g. a FakeClock) instead of `clock`; the clock API is then not served. */
  now?: () => number;
  /** Where the server logs: a logger from controllers/runtime/logger.ts's createLogger (the
   * JSON lines every kubesim process writes), or false (the default) for none. */
  logger?: false | FastifyBaseLogger;
  bodyLimitBytes?: number;
  bookmarkIntervalMs?: number;
  /** Extra routes of the process hosting the server (the supervisor's control API). */
  plugins?: Array<(app: FastifyInstance) => void>;
  /** Source of uids, generateName suffixes, cluster IPs, node ports and unseeded fault rules'
   * draws (one fork per purpose): seeded for a deterministic cluster; the platform's when absent. */
  random?: Random;
  /** Fault rules every resource request passes (apiserver/faults); a new, empty one when absent. */
  faults?: FaultInjector;
  /** Who may call and what they may do; when absent every request is anonymous and allowed. */
  security?: ServerSecurity;
  /** The admission plugins every REST write passes, in order (kube-apiserver's
   * --enable-admission-plugins); builtInAdmissionPlugins(...) when absent. */
  admissionPlugins?: AdmissionPlugin[];
  /** PodSecurity's configuration (kube-apiserver reads it from --admission-control-config-file):
   * default levels for unlabelled namespaces and the exempt usernames, namespaces and runtime
   * classes. Used by builtInAdmissionPlugins; kube's defaults (privileged, no exemptions) when absent. */
  podSecurity?: PodSecurityConfiguration;
  /** The control loops the cluster runs, by kubesim's catalog names (controllers/catalog.ts).
   * Admission plugins whose effect only such a loop resolves act only when it runs: a real
   * cluster runs them all, but a bare server (buildServer, startTestCluster) runs none, where
   * no pod could be created (no `default` ServiceAccount), scheduled (new nodes would stay
   * tainted not-ready) or claim deleted (its protection finalizer would stay). So none is
   * assumed by default; startCluster and `kubesim up` pass the loops they start, and
   * `kubesim apiserver` assumes all (--cluster-loops). See ADMISSION_LOOPS. */
  clusterLoops?: readonly string[];
  /** Service-account tokens (TokenRequest, TokenReview, issuer discovery); startApiServer
   * builds them on the cluster's key. When absent, a service on the process's own key. */
  tokens?: TokenService;
  /** Serve HTTPS with these options (key, cert, and for client certificates ca + requestCert);
   * plain HTTP when absent. startApiServer's `tls` fills them in. */
  https?: HttpsServerOptions;
  /** Audit logging (--audit-policy-file, --audit-log-*): none when absent, at no cost per request. */
  audit?: AuditOptions;
}

/** ServerSecurity: kube-apiserver's authentication and authorization flags. */
export interface ServerSecurity {
  /** In kube-apiserver's order (client certificates, then bearer tokens); startApiServer builds them. */
  authenticators?: Authenticator[];
  /** --anonymous-auth (default true): a request with no credential is system:anonymous, else a 401. */
  anonymous?: boolean;
  /** --authorization-mode: 'AlwaysAllow' (the default) or 'RBAC' (Node,RBAC). */
  authorization?: AuthorizationMode;
}

export interface ApiServer {
  app: FastifyInstance;
  context: HandlerContext;
  /** The metrics-server role (metrics.k8s.io); built here, started by startApiServer. */
  metrics: MetricsScraper;
  /** kube-apiserver's own metric families, served at /metrics. */
  apiMetrics: ApiServerMetrics;
  /** The cluster as a whole: activity of every loop, settle, reset (kubesim.io API). */
  control: ClusterControl;
  /** Fault injection: add rules here or through /apis/kubesim.io/v1alpha1/faults. */
  faults: FaultInjector;
  /** The cluster clock (undefined when the host gave `now` instead). */
  clock?: ClusterClock;
}

/** serverTime resolves the server's time source: the given clock, else the given `now`, else a
 * new real cluster clock. startApiServer shares it with the store. */
export function serverTime(options: Pick<ServerOptions, 'clock' | 'now'>): { clock?: ClusterClock; now: () => number } {
  const clock = options.clock ?? (options.now ? undefined : createClusterClock());
  return clock ? { clock, now: () => clock.now() } : { now: options.now ?? Date.now };
}

export function buildServer(options: ServerOptions): ApiServer {
  const registry = options.registry ?? new Registry(serverDefinitions());
  const bodyLimit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const { clock, now } = serverTime(options);
  // Per-request lines would drown the log of a busy cluster; errors are logged by the handler.
  const logController = new LogController({ disableRequestLogging: true });
  const logging = options.logger ? { loggerInstance: options.logger } : { logger: false };
  const transport = options.https ? { https: options.https } : {};
  // An HTTPS fastify is typed apart from an HTTP one; every route and hook here is the same for both.
  const app = Fastify({
    ...logging,
    ...transport,
    bodyLimit,
    logController,
    return503OnClosing: false,
    ...protocolErrorOptions(),
  }) as unknown as FastifyInstance;
  registerAuditId(app);
  registerProtocolGuards(app);
  registerBrowserGuard(app);
  const authentication = { authenticators: options.security?.authenticators ?? [], anonymous: options.security?.anonymous ?? true };
  registerAuthentication(app, authentication);
  const audit = options.audit ? registerAudit(app, options.audit, { now, mode: options.security?.authorization ?? 'AlwaysAllow' }) : undefined;
  const metrics = createMetricsPipeline({ store: options.store, registry, now, logger: app.log });
  const serverRandom = options.random ?? createRandom();
  const virtualSources = new Map(metrics.sources);
  const authorization = registerAuthorization(app, {
    mode: options.security?.authorization ?? 'AlwaysAllow',
    store: options.store,
    impersonation: (options.security?.authenticators?.length ?? 0) > 0,
  });
  const tokens = options.tokens ?? createTokenService({ keyPem: processServiceAccountKeyPem(), store: options.store, now });
  const authenticates = (options.security?.authenticators?.length ?? 0) > 0;
  const context: HandlerContext = {
    store: options.store,
    registry,
    now,
    random: registryRandom(serverRandom),
    virtual: virtualSources,
    authorization,
    tokens,
    authenticates,
    watchHandoffs: new WatchHandoffLedger(),
  };
  context.admission = new AdmissionChain(
    options.admissionPlugins ??
      builtInAdmissionPlugins({ authorizer: authorization.authorizer, podSecurity: options.podSecurity, clusterLoops: options.clusterLoops }),
  );
  registerIssuerDiscovery(app, tokens);
  const faults = options.faults ?? new FaultInjector({ random: serverRandom.fork('faults') });
  faults.attach({ now, logger: app.log });
  // Bodies stay raw: handlers decode by Content-Type so every failure is a Kubernetes Status.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.setErrorHandler((err, request, reply) => {
    const apiError = toApiError(err, bodyLimit);
    if (apiError.code >= 500 && !isInjectedError(err)) request.log.error({ err, url: request.url }, 'request failed');
    // As kube-apiserver does for every Status that carries one (429, 504 too-large RV, …).
    if (apiError.details?.retryAfterSeconds) reply.header('Retry-After', String(apiError.details.retryAfterSeconds));
    reply.code(apiError.code).type('application/json').send(JSON.stringify(apiError.toStatus()));
  });
  app.setNotFoundHandler((_request, reply) => {
    reply.code(404).type('application/json').send(JSON.stringify(pathNotFound().toStatus()));
  });
  const control = createClusterControl({
    app,
    store: options.store,
    clockRunning: () => !clock?.state().paused,
    watchHandoffs: context.watchHandoffs,
  });
  registerClusterRoutes(app, control);
  virtualSources.set(componentStatusDefinition.storage.resource, componentStatusSource(control.board));
  registerSnapshotRoutes(app, context);
  registerHistoryRoutes(app, context);
  registerFaultRoutes(app, faults);
  if (clock) registerClockRoutes(app, clock);
  const admitUpgrade = upgradeGate(authentication, authorization, audit?.upgrades);
  registerLiveView(app, { ctx: context, control, faults, clock, admitUpgrade });
  registerStreaming(app, { ctx: context, admitUpgrade });
  registerProxy(app, context);
  registerVersionRoutes(app);
  registerDiscoveryRoutes(app, registry);
  registerOpenApiRoutes(app, registry);
  const apiMetrics = new ApiServerMetrics({ store: options.store, registry, virtual: virtualSources });
  const scrape = scrapeHandler(apiMetrics);
  app.get('/metrics', async (_request, reply) => {
    const { contentType, body } = await scrape();
    return reply.type(contentType).send(body);
  });
  registerResourceRoutes(app, context, registry, { bookmarkIntervalMs: options.bookmarkIntervalMs ?? 10_000, faults, metrics: apiMetrics });
  for (const plugin of options.plugins ?? []) plugin(app);
  // apiextensions-apiserver's controllers, in process; stored CRDs are served from the start.
  const crds = startCrdController({ ctx: context, logger: app.log });
  app.addHook('onClose', async () => crds.stop());
  return { app, context, metrics: metrics.scraper, apiMetrics, control, faults, clock };
}
