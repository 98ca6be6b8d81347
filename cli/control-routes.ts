/**
 * The supervisor's control API, mounted on the API server of `kubesim up` under
 * /kubesim/v1/components so that `kubesim stop|start|status` find it through the same
 * kubeconfig as kubectl. It is not a Kubernetes API group: it manages processes and loops,
 * not objects. The API server runs as a child of `kubesim up`, so these routes reach the
 * supervisor over its IPC channel (cli/up/supervised-apiserver.ts).
 */
import type { FastifyInstance } from 'fastify';
import { COMPONENTS_PATH } from '../apiserver/api/kubesim/chaos.js';
import { API_SERVER_COMPONENT, type ComponentControl } from './components.js';

export const CONTROL_PREFIX = COMPONENTS_PATH;
export const SHUTDOWN_PATH = '/kubesim/v1/shutdown';

function status(code: number, reason: string, message: string) {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason, code, message };
}

export function registerControlRoutes(app: FastifyInstance, components: ComponentControl, onShutdown: () => void): void {
  app.get(CONTROL_PREFIX, async () => ({ components: await components.status() }));
  app.post(SHUTDOWN_PATH, async () => {
    setImmediate(onShutdown);
    return { status: 'stopping' };
  });
  app.post<{ Params: { name: string; action: string } }>(`${CONTROL_PREFIX}/:name/:action`, async (request, reply) => {
    const { name, action } = request.params;
    const names = components.names();
    if (!names.includes(name)) return reply.code(404).send(status(404, 'NotFound', `component "${name}" not found; components: ${names.join(', ')}`));
    if (action !== 'stop' && action !== 'start') {
      return reply.code(404).send(status(404, 'NotFound', `unknown action ${JSON.stringify(action)}: use start or stop`));
    }
    if (name === API_SERVER_COMPONENT) {
      return reply
        .code(422)
        .send(status(422, 'Invalid', 'the API server cannot stop or start itself through its own API: `kubesim down` stops the whole cluster'));
    }
    try {
      return await components.act(name, action);
    } catch (err) {
      return reply.code(409).send(status(409, 'Conflict', (err as Error).message));
    }
  });
}
