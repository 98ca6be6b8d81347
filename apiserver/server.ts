/**
 * buildServer assembles the API server: a fastify instance over a store and a live registry.
 * It never listens and starts no timers; start-api-server.ts does that. Tests use it with
 * `listen({ port: 0 })` or `inject()`.
 */
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Store } from '../store/index.js';
import { pathNotFound } from './api/api-error.js';
import { Registry } from './api/registry.js';
import { builtinDefinitions } from './api/builtin.js';
import { toApiError } from './errors.js';
import type { HandlerContext } from './handlers/types.js';
import { createMetricsPipeline, type MetricsScraper } from './metrics/index.js';
import { registerDiscoveryRoutes } from './routes/discovery.js';
import { registerOpenApiRoutes } from './routes/openapi.js';
import { registerResourceRoutes } from './routes/resource-routes.js';
import { registerVersionRoutes } from './routes/version.js';

/** Kubernetes' default limit for a request body (3 MiB). */
export const DEFAULT_BODY_LIMIT_BYTES = 3 * 1024 * 1024;

export interface ServerOptions {
  store: Store;
  registry?: Registry;
  /** Cluster clock in ms since the epoch (default Date.now). */
  now?: () => number;
  /** fastify logger setting: false (silent), true, or pino options. */
  logger?: boolean | { level: string };
  bodyLimitBytes?: number;
  bookmarkIntervalMs?: number;
  /** Extra routes of the process hosting the server (the supervisor's control API). */
  plugins?: Array<(app: FastifyInstance) => void>;
}

export interface ApiServer {
  app: FastifyInstance;
  context: HandlerContext;
  /** The metrics-server role (metrics.k8s.io); built here, started by startApiServer. */
  metrics: MetricsScraper;
}

export function buildServer(options: ServerOptions): ApiServer {
  const registry = options.registry ?? new Registry(builtinDefinitions());
  const bodyLimit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const now = options.now ?? Date.now;
  // Per-request lines would drown the log of a busy cluster; errors are logged by the handler.
  const logController = new LogController({ disableRequestLogging: true });
  const app = Fastify({ logger: options.logger ?? false, bodyLimit, logController, return503OnClosing: false });
  const metrics = createMetricsPipeline({ store: options.store, registry, now, logger: app.log });
  const context: HandlerContext = { store: options.store, registry, now, virtual: metrics.sources };
  // Bodies stay raw: handlers decode by Content-Type so every failure is a Kubernetes Status.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.setErrorHandler((err, request, reply) => {
    const apiError = toApiError(err, bodyLimit);
    if (apiError.code >= 500) request.log.error({ err, url: request.url }, 'request failed');
    reply.code(apiError.code).type('application/json').send(JSON.stringify(apiError.toStatus()));
  });
  app.setNotFoundHandler((_request, reply) => {
    reply.code(404).type('application/json').send(JSON.stringify(pathNotFound().toStatus()));
  });
  registerVersionRoutes(app);
  registerDiscoveryRoutes(app, registry);
  registerOpenApiRoutes(app, registry);
  registerResourceRoutes(app, context, registry, { bookmarkIntervalMs: options.bookmarkIntervalMs ?? 10_000 });
  for (const plugin of options.plugins ?? []) plugin(app);
  return { app, context, metrics: metrics.scraper };
}
