/**
 * The supervisor's control API, mounted on the API server of `kubesim up` under
 * /kubesim/v1/components so that `kubesim stop|start|status` find it through the same
 * kubeconfig as kubectl. It is not a Kubernetes API group: it manages processes, not objects.
 */
import type { FastifyInstance } from 'fastify';
import { COMPONENTS_PATH } from '../apiserver/api/kubesim/chaos.js';
import type { Supervisor } from './supervisor.js';

export const CONTROL_PREFIX = COMPONENTS_PATH;
export const SHUTDOWN_PATH = '/kubesim/v1/shutdown';

export function registerControlRoutes(app: FastifyInstance, supervisor: Supervisor, onShutdown: () => void): void {
  const notFound = (name: string) => ({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    reason: 'NotFound',
    code: 404,
    message: `component "${name}" not found; components: ${supervisor.names().join(', ')}`,
  });
  app.get(CONTROL_PREFIX, async () => ({ components: supervisor.status() }));
  app.post(SHUTDOWN_PATH, async () => {
    setImmediate(onShutdown);
    return { status: 'stopping' };
  });
  app.post<{ Params: { name: string; action: string } }>(`${CONTROL_PREFIX}/:name/:action`, async (request, reply) => {
    const { name, action } = request.params;
    if (!supervisor.names().includes(name)) return reply.code(404).send(notFound(name));
    if (action === 'stop') return supervisor.stop(name);
    if (action === 'start') return supervisor.start(name);
    return reply.code(404).send({ ...notFound(name), message: `unknown action ${JSON.stringify(action)}: use start or stop` });
  });
}
