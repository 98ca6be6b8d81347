/**
 * POST /apis/kubesim.io/v1alpha1/chaos on the API server of `kubesim up`, which registers it
 * as a plugin (it needs the supervisor): a ChaosRequest in, a ChaosResult out, a Kubernetes
 * Status naming the problem for a bad request or target. A cluster without a supervisor
 * answers 501 instead (apiserver/ui/supervisor-fallback.ts).
 */
import type { FastifyInstance } from 'fastify';
import { CHAOS_PATH, ChaosRequestSchema } from '../../apiserver/api/kubesim/chaos.js';
import { parseBody } from '../../apiserver/kubesim/cluster-routes.js';
import { Chaos, type ChaosDeps } from './chaos.js';

/** registerChaosRoutes mounts the chaos route; pending undos are cancelled when the server closes. */
export function registerChaosRoutes(app: FastifyInstance, deps: ChaosDeps): Chaos {
  const chaos = new Chaos(deps);
  app.post(CHAOS_PATH, async (request, reply) => {
    const result = await chaos.run(parseBody(ChaosRequestSchema, request));
    return reply.code(200).type('application/json').send(JSON.stringify(result));
  });
  app.addHook('onClose', async () => chaos.stop());
  return chaos;
}
