/**
 * Answers for the supervisor's routes on a cluster that has no supervisor (startCluster, a
 * bare API server): `kubesim up` registers the real ones as plugins (cli/control-routes.ts,
 * cli/chaos/chaos-routes.ts); anywhere else the live view's loop and chaos controls get a 503
 * that says why, instead of a bare 404.
 */
import type { FastifyInstance, FastifyReply, HTTPMethods } from 'fastify';
import { ApiError } from '../api/api-error.js';
import { CHAOS_PATH, COMPONENTS_PATH } from '../api/kubesim/chaos.js';

const NO_SUPERVISOR =
  "this cluster has no supervisor: its loops run in the API server's process (startCluster) or elsewhere, so they cannot be " +
  'killed, stopped or started from here, and chaos is not available. Start the cluster with `kubesim up` for these controls; ' +
  'fault rules (/apis/kubesim.io/v1alpha1/faults) and the clock work on every cluster';

const ROUTES: Array<{ method: HTTPMethods; url: string }> = [
  { method: 'GET', url: COMPONENTS_PATH },
  { method: 'POST', url: `${COMPONENTS_PATH}/:name/:action` },
  { method: 'POST', url: CHAOS_PATH },
];

/** registerSupervisorFallback mounts the 503 answers for the routes no plugin registered. It
 * looks once every route of buildServer is in (fastify loads registered plugins at ready). */
export function registerSupervisorFallback(app: FastifyInstance): void {
  app.register(async (instance) => {
    for (const route of ROUTES) {
      if (!instance.hasRoute(route)) instance.route({ ...route, handler: async (_request, reply) => noSupervisor(reply) });
    }
  });
}

function noSupervisor(reply: FastifyReply): FastifyReply {
  const status = new ApiError('ServiceUnavailable', 503, NO_SUPERVISOR).toStatus();
  return reply.code(503).type('application/json').send(JSON.stringify(status));
}
